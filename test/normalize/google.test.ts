import { describe, expect, it } from "vitest";
import {
  deprecationTables,
  googleModelId,
  parsers,
  replacementIds,
  shutdownMilestone,
  textPrice,
} from "../../src/normalize/parsers/google.js";
import type { ParserInput } from "../../src/normalize/types.js";
import { type DeploymentFact, ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { expectParseFailure } from "../helpers/parsers.js";

const pricing = defined(parsers["google-pricing"], "parser google-pricing");
const deprecations = defined(parsers["google-deprecations"], "parser google-deprecations");
const src = { name: "pricing", url: "https://ai.google.dev/gemini-api/docs/pricing" };

function byId(deployments: DeploymentFact[], id: string): DeploymentFact {
  const found = deployments.find((d) => d.id === id);
  if (!found) throw new Error(`no deployment ${id}`);
  return found;
}

describe("google model ids", () => {
  it("maps Gemini API ids to canonical google/ ids", () => {
    expect(googleModelId("gemini-2.0-flash-001")).toBe("google/gemini-2.0-flash-001");
    expect(googleModelId("models/gemini-2.5-pro")).toBe("google/gemini-2.5-pro");
  });
});

describe("paid-tier price cells", () => {
  it("reads the <= / > 200k tiers", () => {
    expect(textPrice(src, "$1.25, prompts <= 200k tokens\n$2.50, prompts > 200k tokens")).toEqual({
      base: 1_250_000,
      long: { above: 200_000, micro: 2_500_000 },
    });
  });
  it("takes the text price, never audio, storage or per-image amounts", () => {
    expect(textPrice(src, "$0.30 (text / image / video)\n$1.00 (audio)")).toEqual({
      base: 300_000,
      long: null,
    });
    expect(
      textPrice(
        src,
        "$0.03 (text / image / video)\n$0.1 (audio)\n$1.00 / 1,000,000 tokens per hour (storage price)",
      ),
    ).toEqual({ base: 30_000, long: null });
    expect(textPrice(src, "$0.75 (text)\n$3.00 or $0.005/min (audio)")).toEqual({
      base: 750_000,
      long: null,
    });
    expect(textPrice(src, "$0.039 per image*")).toBeNull();
    expect(textPrice(src, "Not available")).toBeNull();
  });
  it("rejects a tier without its counterpart", () => {
    expectParseFailure(
      () => textPrice(src, "$1.25, prompts <= 200k tokens"),
      'pricing: "$1.25, prompts <= 200k tokens" has a <= tier without a > tier',
    );
  });
});

describe("google-pricing (recorded capture)", () => {
  it("prices Gemini 2.5 Pro with the long-context tier, standard and batch", async () => {
    const out = ParseOutput.parse(pricing(await recordedInput("google", "pricing")));
    const pro = byId(out.deployments, "dep_google_gemini-2.5-pro_gemini-api_global");
    expect(pro.model_id).toBe("google/gemini-2.5-pro");
    expect(pro.rate_card).toMatchObject({
      input_micro_usd: 1_250_000,
      cached_input_micro_usd: 125_000,
      output_micro_usd: 10_000_000,
      tiers: [
        {
          above_input_tokens: 200_000,
          input_micro_usd: 2_500_000,
          cached_input_micro_usd: 250_000,
          output_micro_usd: 15_000_000,
        },
      ],
      source_url: "https://ai.google.dev/gemini-api/docs/pricing",
      observed_at: "2026-03-25T00:00:00Z",
    });
    expect(pro.capabilities?.prompt_caching?.status).toBe("supported");
    expect(pro.capabilities?.web_search?.status).toBe("supported");
    const batch = byId(out.deployments, "dep_google_gemini-2.5-pro_gemini-api-batch_global");
    expect(batch.mode).toBe("batch");
    expect(batch.rate_card?.input_micro_usd).toBe(625_000);
    expect(batch.rate_card?.output_micro_usd).toBe(5_000_000);
    expect(batch.rate_card?.tiers?.[0]?.output_micro_usd).toBe(7_500_000);
  });

  it("reads flat prices, text rates and unpriced caching as null", async () => {
    const out = ParseOutput.parse(pricing(await recordedInput("google", "pricing")));
    const flash = byId(out.deployments, "dep_google_gemini-2.5-flash_gemini-api_global");
    expect(flash.rate_card).toMatchObject({
      input_micro_usd: 300_000,
      cached_input_micro_usd: 30_000,
      output_micro_usd: 2_500_000,
    });
    expect(flash.rate_card?.tiers).toBeUndefined();
    const lite = byId(out.deployments, "dep_google_gemini-2.0-flash-lite_gemini-api-batch_global");
    expect(lite.rate_card).toMatchObject({
      input_micro_usd: 37_500,
      cached_input_micro_usd: null,
      output_micro_usd: 150_000,
    });
    expect(lite.capabilities).toBeUndefined();
    const preview = byId(out.deployments, "dep_google_gemini-3.1-pro-preview-customtools_gemini-api_global");
    expect(preview.status).toBe("preview");
    expect(preview.rate_card?.tiers?.[0]).toMatchObject({
      input_micro_usd: 4_000_000,
      output_micro_usd: 18_000_000,
    });
    const image = byId(out.deployments, "dep_google_gemini-2.5-flash-image_gemini-api_global");
    expect(image.rate_card).toMatchObject({ input_micro_usd: 300_000, output_micro_usd: null });
  });

  it("covers the page and reports what it skips", async () => {
    const out = ParseOutput.parse(pricing(await recordedInput("google", "pricing")));
    expect(out.deployments.length).toBeGreaterThanOrEqual(35);
    expect(out.deployments.filter((d) => d.mode === "batch").length).toBeGreaterThanOrEqual(15);
    expect(new Set(out.deployments.map((d) => d.id)).size).toBe(out.deployments.length);
    expect(out.lifecycle).toEqual([]);
    const perSecond = out.skipped.find((s) => s.reason === "priced per second, not per token");
    expect(perSecond?.examples).toContain("veo-2.0-generate-001");
    expect(out.skipped.find((s) => s.reason === "section names no API model id")?.examples).toEqual([
      "Gemma 3",
      "Gemma 3n",
    ]);
  });

  it("throws parse_failed on a broken page", async () => {
    const input = await recordedInput("google", "pricing");
    const broken = (content: string): ParserInput => ({ ...input, content });
    expectParseFailure(
      () => pricing(broken('<div class="devsite-article-body"><p>Pricing</p></div>')),
      "pricing: found no model pricing sections",
    );
    expectParseFailure(
      () => pricing(broken(input.content.replaceAll("Paid Tier, per", "Paying customers, per"))),
      'pricing: pricing table without a "Paid Tier" column ( | Free Tier | Paying customers, per 1M tokens in USD)',
    );
    expectParseFailure(
      () => pricing(broken(input.content.replaceAll("Input price", "Prompt price"))),
      "pricing: pricing table without an input price row",
    );
    expectParseFailure(
      () => pricing(broken(input.content.replace("$1.25, prompts &lt;= 200k", "$1.2.5, prompts &lt;= 200k"))),
      'pricing: malformed amount in "$1.2.5, prompts <= 200k tokens\n$2.50, prompts > 200k tokens"',
    );
    expectParseFailure(
      () => pricing(broken(input.content.replace(">Batch</h3>", ">Turbo</h3>"))),
      'pricing: unknown pricing tier "Turbo" under "Gemini 3.1 Pro Preview"',
    );
  });
});

describe("google-deprecations (recorded capture)", () => {
  it("splits the Markdown tables and replacement cells", () => {
    const tables = deprecationTables(
      "## A\n\n| **Model** | **Shutdown\u00a0date** |\n|---|---|\n| `x-1` | May\u00a01, 2026 |\n",
    );
    expect(tables).toEqual([
      {
        heading: "A",
        headings: { 2: "A" },
        headers: ["Model", "Shutdown date"],
        rows: [["`x-1`", "May 1, 2026"]],
      },
    ]);
    expect(replacementIds("`gemini-3.8-flash-tts` or `gemini-3.8-flash-lite-tts`")).toEqual([
      "gemini-3.8-flash-tts",
      "gemini-3.8-flash-lite-tts",
    ]);
    expect(replacementIds("gemini-robotics-er-2-preview")).toEqual(["gemini-robotics-er-2-preview"]);
    expect(replacementIds("")).toEqual([]);
  });

  it("reads every date of a page that calls its dates earliest possible as not_before, past or ahead", () => {
    expect(shutdownMilestone("May 7, 2027", [], true)).toMatchObject({
      state: "scheduled",
      date: "2027-05-07",
      date_type: "not_before",
      precision: "day",
    });
    expect(shutdownMilestone("June 1, 2026", [], true)).toMatchObject({
      date: "2026-06-01",
      date_type: "not_before",
    });
    expect(shutdownMilestone("June 1, 2026", [], false).date_type).toBe("on");
    expect(shutdownMilestone("No shutdown date announced", [], true).state).toBe("not_announced");
    expectParseFailure(
      () => shutdownMilestone("Sometime soon", [], true),
      '"Sometime soon" is not a lifecycle date',
    );
  });

  it("emits every row with its declared status (GA or preview), earliest shutdown date and replacement", async () => {
    const out = ParseOutput.parse(deprecations(await recordedInput("google", "deprecations")));
    expect(out.lifecycle.length).toBeGreaterThanOrEqual(70);
    expect(out.deployments.length).toBe(out.lifecycle.length);
    const find = (id: string) => out.lifecycle.find((l) => l.target?.provider_model_id === id);
    expect(find("gemini-2.0-flash-001")).toMatchObject({
      scope: "deployment",
      provider_id: "google",
      target: { provider_model_id: "gemini-2.0-flash-001", api_surface: "gemini-api" },
      status: "available",
      end_of_life: { state: "scheduled", date: "2026-06-01", date_type: "not_before", precision: "day" },
      replacements: ["gemini-3.6-flash"],
    });
    expect(find("gemini-3.1-flash-lite")).toMatchObject({
      status: "available",
      end_of_life: { date: "2027-05-07", date_type: "not_before" },
      replacements: ["gemini-3.5-flash-lite"],
    });
    expect(find("gemini-2.5-pro")).toMatchObject({
      status: "available",
      end_of_life: { state: "not_announced" },
    });
    expect(find("gemini-3.1-pro-preview")).toMatchObject({ status: "preview" });
    expect(find("gemini-2.5-pro-preview-03-25")).toMatchObject({
      status: "preview",
      end_of_life: { date: "2025-12-02", date_type: "not_before" },
    });
    expect(find("embedding-gecko-001")?.status).toBe("preview");
    expect(find("antigravity-preview-05-2026")).toBeUndefined();
    expect(out.skipped).toEqual([
      {
        reason: "managed agent, not a model",
        count: 2,
        examples: ["antigravity-preview-09-2026", "antigravity-preview-05-2026"],
      },
    ]);
    const dep = out.deployments.find((d) => d.provider_model_id === "gemini-2.0-flash-001");
    expect(dep).toMatchObject({
      id: "dep_google_gemini-2.0-flash-001_gemini-api_global",
      model_id: "google/gemini-2.0-flash-001",
    });
    expect(dep?.rate_card).toBeUndefined();
  });

  it("throws parse_failed on a broken page", async () => {
    const input = await recordedInput("google", "deprecations");
    const broken = (content: string): ParserInput => ({ ...input, content });
    expectParseFailure(
      () => deprecations(broken("# Gemini deprecations\n\nNothing here.\n")),
      "deprecations: found no deprecation tables (a Shutdown date column)",
    );
    expectParseFailure(
      () => deprecations(broken(input.content.replaceAll("**Recommended replacement**", "**Successor**"))),
      'deprecations: deprecation table "Gemini 3 models" lacks Model / Shutdown date / Recommended replacement',
    );
    expectParseFailure(
      () => deprecations(broken(input.content.replace("| June 1, 2026 |", "| Summer-ish |"))),
      '"Summer-ish" is not a lifecycle date',
    );
    const headerOnly =
      "## Gemini 2.0 models\n\n| **Model** | **Release date** | **Shutdown date** | **Recommended replacement** |\n|---|---|---|---|\n";
    expectParseFailure(() => deprecations(broken(headerOnly)), "deprecations: found no deprecation rows");
  });
});
