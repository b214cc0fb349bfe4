import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  openaiModelCell,
  openaiModelId,
  openaiPricingModelName,
  openaiReplacements,
  openaiShutdownText,
  parsers,
} from "../../src/normalize/parsers/openai.js";
import { ParseOutput } from "../../src/schema/index.js";
import { datedInput, recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure, withContent } from "../helpers/parsers.js";

const pricing = defined(parsers["openai-pricing"], "parser openai-pricing");
const deprecations = defined(parsers["openai-deprecations"], "parser openai-deprecations");

describe("openai pricing", () => {
  it("prices every text-token row of the standard, batch, flex and priority tiers", async () => {
    const out = ParseOutput.parse(pricing(await recordedInput("openai", "pricing")));
    const count = (mode: string) => out.deployments.filter((d) => d.mode === mode).length;
    expect(count("standard")).toBe(45);
    expect(count("batch")).toBe(43);
    expect(count("flex")).toBe(16);
    expect(count("priority")).toBe(18);
    const gpt41 = out.deployments.find((d) => d.id === "dep_openai_gpt-4.1_api_global");
    expect(gpt41?.rate_card).toMatchObject({
      input_micro_usd: 2_000_000,
      cached_input_micro_usd: 500_000,
      output_micro_usd: 8_000_000,
    });
    const miniBatch = out.deployments.find((d) => d.id === "dep_openai_gpt-5.4-mini_api-batch_global");
    expect(miniBatch?.rate_card).toMatchObject({
      input_micro_usd: 375_000,
      cached_input_micro_usd: 37_500,
      output_micro_usd: 2_250_000,
    });
    const o4Flex = out.deployments.find((d) => d.id === "dep_openai_o4-mini_api-flex_global");
    expect(o4Flex?.rate_card?.cached_input_micro_usd).toBe(138_000);
    const gpt4oPriority = out.deployments.find((d) => d.id === "dep_openai_gpt-4o_api-priority_global");
    expect(gpt4oPriority?.rate_card?.output_micro_usd).toBe(17_000_000);
  });

  it("reads the four-price rows of the GPT-5.6 family as input, cached input, cache writes and output", async () => {
    const out = pricing(await recordedInput("openai", "pricing"));
    const sol = out.deployments.find((d) => d.id === "dep_openai_gpt-5.6-sol_api_global");
    expect(sol?.rate_card).toMatchObject({
      input_micro_usd: 5_000_000,
      cached_input_micro_usd: 500_000,
      cache_write_micro_usd: 6_250_000,
      output_micro_usd: 30_000_000,
    });
    const terraFlex = out.deployments.find((d) => d.id === "dep_openai_gpt-5.6-terra_api-flex_global");
    expect(terraFlex?.rate_card).toMatchObject({
      input_micro_usd: 1_250_000,
      cache_write_micro_usd: 1_562_500,
      output_micro_usd: 7_500_000,
    });
    // "-" in the cache-write place (models before GPT-5.6 pay no cache-write fee): no component
    const gpt55 = out.deployments.find((d) => d.id === "dep_openai_gpt-5.5_api_global");
    expect(gpt55?.rate_card?.output_micro_usd).toBe(30_000_000);
    expect(gpt55?.rate_card?.cache_write_micro_usd).toBeUndefined();
    // a three-price row of the same table keeps its three prices
    const gpt52 = out.deployments.find((d) => d.id === "dep_openai_gpt-5.2_api_global");
    expect(gpt52?.rate_card).toMatchObject({ input_micro_usd: 1_750_000, output_micro_usd: 14_000_000 });
    expect(gpt52?.rate_card?.cache_write_micro_usd).toBeUndefined();
  });

  it("fails on a row of six values", async () => {
    const input = await recordedInput("openai", "pricing");
    expectParseFailure(
      () =>
        pricing(
          edit(input, (c) =>
            c.replace('["gpt-5.6-sol", 5, 0.5, 6.25, 30]', '["gpt-5.6-sol", 5, 0.5, 6.25, 30, 40]'),
          ),
        ),
      "pricing: text tokens (standard): 45 rows but only 44 have the shape [name, input, cached, output]",
    );
  });

  it("keeps a price the page leaves blank as null, never zero", async () => {
    const out = pricing(await recordedInput("openai", "pricing"));
    const pro = out.deployments.find((d) => d.id === "dep_openai_gpt-5.5-pro_api_global");
    expect(pro?.rate_card?.cached_input_micro_usd).toBeNull();
    expect(pro?.display_name).toBe("gpt-5.5-pro (<272K context length)");
    const batch41 = out.deployments.find((d) => d.id === "dep_openai_gpt-4.1_api-batch_global");
    expect(batch41?.rate_card?.cached_input_micro_usd).toBeNull();
    expect(pro?.model_id).toBe("openai/gpt-5.5-pro");
  });

  it("fails on a page without the pricing tables", async () => {
    const input = await recordedInput("openai", "pricing");
    expectParseFailure(
      () => pricing(edit(input, (c) => c.replace(/<TextTokenPricingTables[\s\S]*/, ""))),
      "pricing: no TextTokenPricingTables block with tier and rows",
    );
  });

  it("fails when the standard tier disappears", async () => {
    const input = await recordedInput("openai", "pricing");
    expectParseFailure(
      () =>
        pricing(
          edit(input, (c) =>
            c.replace('tier="standard"', 'tier="default"').replace(/tier="batch"[\s\S]*/, ""),
          ),
        ),
      "pricing: no standard tier table",
    );
  });

  it("fails on an unparseable price instead of dropping the row", async () => {
    const input = await recordedInput("openai", "pricing");
    expectParseFailure(
      () =>
        pricing(edit(input, (c) => c.replace('["gpt-4.1", 2, 0.5, 8]', '["gpt-4.1", "call us", 0.5, 8]'))),
      'pricing: gpt-4.1 input: ""call us"" is not a price',
    );
  });

  it("fails on a row of another shape", async () => {
    const input = await recordedInput("openai", "pricing");
    expectParseFailure(
      () => pricing(edit(input, (c) => c.replace('["gpt-4.1", 2, 0.5, 8]', '["gpt-4.1", 2, 8]'))),
      "pricing: text tokens (standard): 45 rows but only 44 have the shape [name, input, cached, output]",
    );
  });

  it("reads the model id out of an annotated label", () => {
    expect(openaiPricingModelName("gpt-5.5 (<272K context length)")).toBe("gpt-5.5");
    expect(openaiPricingModelName("o4-mini")).toBe("o4-mini");
    expect(openaiPricingModelName("not a model id")).toBeNull();
    expect(openaiModelId("gpt-4o-2024-05-13")).toBe("openai/gpt-4o-2024-05-13");
  });
});

describe("openai deprecations", () => {
  it("asserts every model row of the shutdown tables, retired ones included", async () => {
    const out = ParseOutput.parse(deprecations(await recordedInput("openai", "deprecations")));
    expect(out.lifecycle.length).toBeGreaterThanOrEqual(120);
    expect(out.deployments.length).toBe(out.lifecycle.length);
    const byId = new Map(out.lifecycle.map((a) => [a.target?.provider_model_id, a]));

    // The page declares no status: only the announcement (deprecation) and shutdown days.
    expect(out.lifecycle.every((a) => a.status === undefined)).toBe(true);
    const gpt45 = byId.get("gpt-4.5-preview");
    expect(gpt45?.announced_at).toBe("2025-04-14T00:00:00Z");
    expect(gpt45?.end_of_life).toMatchObject({
      state: "scheduled",
      date: "2025-07-14",
      precision: "day",
      date_type: "on",
    });
    expect(gpt45?.replacements).toEqual(["gpt-4.1"]);

    const gpt5 = byId.get("gpt-5-2025-08-07");
    expect(gpt5?.end_of_life).toMatchObject({ date: "2026-12-11", date_type: "on" });
    expect(gpt5?.deprecation).toMatchObject({ date: "2026-06-11", date_type: "on" });

    // Non-breaking hyphens in "2026‑03‑26" and "A or B*" replacements.
    const gpt40125 = byId.get("gpt-4-turbo-preview");
    expect(gpt40125?.end_of_life?.date).toBe("2026-03-26");
    expect(gpt40125?.replacements).toEqual(["gpt-5", "gpt-4.1"]);

    // Aliases listed with a snapshot get their own assertion.
    expect(byId.get("o1")?.end_of_life?.date).toBe("2026-10-23");
    expect(byId.get("o1-2024-12-17")?.replacements).toEqual(["gpt-5.5"]);

    // The newest announcement wins for a model listed twice.
    expect(byId.get("gpt-4-1106-preview")?.announced_at).toBe("2026-04-22T00:00:00Z");
    expect(byId.get("text-search-davinci-query-001")?.end_of_life?.date_type).toBe("on");
    expect(byId.get("sora-2")?.replacements).toEqual([]);
  });

  it("reports endpoints, products and fine-tuned families as skipped", async () => {
    const out = deprecations(await recordedInput("openai", "deprecations"));
    const reasons = out.skipped.map((s) => s.reason);
    expect(reasons).toContain("API endpoint, not a model");
    expect(reasons).toContain("fine-tuned model family, not a base model");
    const ids = out.lifecycle.map((a) => a.target?.provider_model_id);
    expect(ids).not.toContain("/v1/edits");
    expect(ids).not.toContain("ft-gpt-4");
  });

  it("fails when the Shutdown date column is renamed", async () => {
    const input = await recordedInput("openai", "deprecations");
    expectParseFailure(
      () => deprecations(edit(input, (c) => c.replaceAll("| Shutdown date", "| Retire on"))),
      "deprecations: found no table with a Shutdown date column",
    );
  });

  it("fails on an unparseable shutdown date", async () => {
    const input = await recordedInput("openai", "deprecations");
    expectParseFailure(
      () =>
        deprecations(
          edit(input, (c) =>
            c.replace("| 2025-07-14    | `gpt-4.5-preview`", "| soon-ish      | `gpt-4.5-preview`"),
          ),
        ),
      'deprecations: gpt-4.5-preview: "soon-ish" is not a lifecycle date',
    );
  });

  it("fails on a page with no tables", async () => {
    const input = await recordedInput("openai", "deprecations");
    expectParseFailure(
      () => deprecations({ ...input, content: "## Overview\n\nNothing here.\n" }),
      "deprecations: found no table with a Shutdown date column",
    );
  });

  it("reads model cells, replacements and dates in the page's shapes", () => {
    expect(openaiModelCell("`o3-mini-2025-01-31` \\| `o3-mini`")).toEqual({
      kind: "models",
      ids: ["o3-mini-2025-01-31", "o3-mini"],
    });
    expect(openaiModelCell("gpt-4o-realtime-preview")).toEqual({
      kind: "models",
      ids: ["gpt-4o-realtime-preview"],
    });
    expect(openaiModelCell("`/v1/edits`").kind).toBe("skip");
    expect(openaiModelCell("Assistants API").kind).toBe("skip");
    expect(openaiReplacements("`gpt-image-2`, `gpt-image-1`, or `gpt-image-1-mini`")).toEqual([
      "gpt-image-2",
      "gpt-image-1",
      "gpt-image-1-mini",
    ]);
    expect(openaiReplacements("---")).toEqual([]);
    expect(openaiShutdownText("at earliest 2024-06-13")).toBe("Earliest 2024-06-13");
    expect(openaiShutdownText("2026\u201103\u201126")).toBe("2026-03-26");
  });
});

/**
 * The whole pricing page: the committed capture holds only the flagship text-token tables (its
 * stored copy had lost the others), so the other token tables are read here from excerpts of
 * older stored copies of developers.openai.com/api/docs/pricing.md (test/fixtures/openai/):
 * - pricing-2026-03-excerpt.md: the standard `<PricingTable>` and the transcription Markdown
 *   tables of a copy from about March 2026, verbatim;
 * - specialized-2026-excerpt.md: the "Specialized models" groups (deep research, computer use,
 *   embeddings, moderation) and the tools table of a later copy, rows verbatim; that copy had
 *   lost the first table's opening `<GroupedPricingTable client:load groups={[`, restored here
 *   in the page's own form (as its tools table shows it).
 */
describe("openai pricing: every token-priced table of the page", () => {
  async function fixture(name: string) {
    const recorded = await recordedInput("openai", "pricing");
    const content = await readFile(join(import.meta.dirname, "..", "fixtures", "openai", name), "utf8");
    return withContent(recorded, content);
  }

  it("reads PricingTable rows in their pane, Markdown text-token tables, and skips long-context and audio prices", async () => {
    const out = ParseOutput.parse(pricing(await fixture("pricing-2026-03-excerpt.md")));
    const byId = new Map(out.deployments.map((d) => [d.provider_model_id, d]));
    expect(out.deployments.every((d) => d.mode === "standard")).toBe(true);
    expect(byId.get("gpt-realtime")?.rate_card).toMatchObject({
      input_micro_usd: 4_000_000,
      cached_input_micro_usd: 400_000,
      output_micro_usd: 16_000_000,
    });
    expect(byId.get("gpt-image-1")?.rate_card).toMatchObject({
      input_micro_usd: 5_000_000,
      output_micro_usd: null,
    });
    expect(byId.get("gpt-5.4")?.rate_card?.input_micro_usd).toBe(2_500_000);
    expect(byId.get("gpt-4o-transcribe")?.rate_card).toMatchObject({
      input_micro_usd: 2_500_000,
      cached_input_micro_usd: null,
      output_micro_usd: 10_000_000,
    });
    expect(byId.get("gpt-4o-mini-tts")?.rate_card).toMatchObject({
      input_micro_usd: 600_000,
      output_micro_usd: null,
    });
    // 55 PricingTable rows - 2 long-context rows + 4 transcription models
    expect(out.deployments).toHaveLength(57);
    const reasons = Object.fromEntries(out.skipped.map((s) => [s.reason, s.count]));
    expect(reasons["long-context price (prompts above the model's threshold)"]).toBe(2);
    expect(reasons['"Audio tokens" prices (the rate card is text tokens)']).toBe(1);
    expect(reasons["Markdown table not priced per token"]).toBe(1);
  });

  it("reads grouped specialized tables (embeddings, deep research, computer use) and skips tools and free models", async () => {
    const out = ParseOutput.parse(pricing(await fixture("specialized-2026-excerpt.md")));
    const byId = new Map(out.deployments.map((d) => [d.provider_model_id, d]));
    expect([...byId.keys()].sort()).toEqual([
      "computer-use-preview",
      "o3-deep-research",
      "o4-mini-deep-research",
      "text-embedding-3-large",
      "text-embedding-3-small",
      "text-embedding-ada-002",
    ]);
    expect(byId.get("text-embedding-3-small")?.rate_card).toMatchObject({
      input_micro_usd: 20_000,
      cached_input_micro_usd: null,
      output_micro_usd: null,
    });
    expect(byId.get("o3-deep-research")?.rate_card?.cached_input_micro_usd).toBe(2_500_000);
    const reasons = Object.fromEntries(out.skipped.map((s) => [s.reason, s.count]));
    expect(reasons["no input token price (free or not listed)"]).toBe(2);
    expect(
      reasons["table not priced per token (headings are not Model | Input | Cached input | Output)"],
    ).toBe(1);
  });

  it("fails on a grouped row of another shape and on the same model priced twice differently", async () => {
    const input = await fixture("specialized-2026-excerpt.md");
    expectParseFailure(
      () =>
        pricing(
          edit(input, (c) => c.replace('["o3-deep-research", 10, 2.5, 40]', '["o3-deep-research", 10, 40]')),
        ),
      "pricing: Deep research group (standard): 2 rows but only 1 have the shape [name, input, cached,",
    );
    expectParseFailure(
      () =>
        pricing(
          edit(input, (c) =>
            c.replace('["o4-mini-deep-research", 2, 0.5, 8]', '["o3-deep-research", 2, 0.5, 8]'),
          ),
        ),
      "pricing: o3-deep-research is listed twice in the standard tables with different prices",
    );
  });
});

/**
 * The oldest dated copy (piercecohen1/openai-docs, guides/pricing.md at commit 3e48887a, committed
 * 2026-02-26): its text-token, image-token and fine-tuning panes are empty in the copy itself (the
 * mirror's Markdown kept the content-switcher panes but not the tables inside them), so the only
 * token prices it states are the transcription and speech Markdown tables (docs/price-history.md).
 */
describe("openai pricing: the dated copy of 2026-02-26", () => {
  it("reads the transcription and speech text-token prices and nothing from the empty panes", async () => {
    const input = await datedInput("openai", "pricing", "2026-02-26T19:00:22Z");
    expect(input.content).not.toMatch(/TextTokenPricingTables|PricingTable/);
    const out = ParseOutput.parse(pricing(input));
    expect(
      out.deployments.map((d) => [
        d.id,
        d.rate_card?.input_micro_usd,
        d.rate_card?.output_micro_usd,
        d.rate_card?.observed_at,
      ]),
    ).toEqual([
      ["dep_openai_gpt-4o-mini-tts_api_global", 600_000, null, "2026-02-26T19:00:22Z"],
      ["dep_openai_gpt-4o-transcribe_api_global", 2_500_000, 10_000_000, "2026-02-26T19:00:22Z"],
      ["dep_openai_gpt-4o-transcribe-diarize_api_global", 2_500_000, 10_000_000, "2026-02-26T19:00:22Z"],
      ["dep_openai_gpt-4o-mini-transcribe_api_global", 1_250_000, 5_000_000, "2026-02-26T19:00:22Z"],
    ]);
    const reasons = Object.fromEntries(out.skipped.map((s) => [s.reason, s.count]));
    expect(reasons['"Audio tokens" prices (the rate card is text tokens)']).toBe(1);
  });
});
