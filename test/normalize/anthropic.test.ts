import { describe, expect, it } from "vitest";
import {
  anthropicModelIdForName,
  anthropicModelLabel,
  parsers,
} from "../../src/normalize/parsers/anthropic.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const pricing = defined(parsers["anthropic-pricing"], "parser anthropic-pricing");
const deprecations = defined(parsers["anthropic-deprecations"], "parser anthropic-deprecations");

describe("anthropic pricing", () => {
  it("prices every model in standard and batch mode with cache write and hit prices", async () => {
    const out = ParseOutput.parse(pricing(await recordedInput("anthropic", "pricing")));
    expect(out.deployments.filter((d) => d.mode === "standard")).toHaveLength(18);
    expect(out.deployments.filter((d) => d.mode === "batch")).toHaveLength(18);
    const sonnet45 = out.deployments.find(
      (d) => d.id === "dep_anthropic_claude-sonnet-4-5-20250929_api_global",
    );
    expect(sonnet45?.model_id).toBe("anthropic/claude-sonnet-4-5-20250929");
    expect(sonnet45?.rate_card).toMatchObject({
      input_micro_usd: 3_000_000,
      cache_write_micro_usd: 3_750_000,
      cache_write_1h_micro_usd: 6_000_000,
      cached_input_micro_usd: 300_000,
      output_micro_usd: 15_000_000,
    });
    const fable = out.deployments.find((d) => d.id === "dep_anthropic_claude-fable-5-1_api_global");
    expect(fable?.rate_card?.cached_input_micro_usd).toBe(250_000);
    const haikuBatch = out.deployments.find(
      (d) => d.id === "dep_anthropic_claude-3-5-haiku-20241022_api-batch_global",
    );
    expect(haikuBatch?.rate_card).toMatchObject({
      input_micro_usd: 400_000,
      output_micro_usd: 2_000_000,
      cached_input_micro_usd: null,
    });
    expect(haikuBatch?.status).toBe("retired");
  });

  it("fails when the batch table is gone", async () => {
    const input = await recordedInput("anthropic", "pricing");
    expectParseFailure(
      () => pricing(edit(input, (c) => c.replaceAll("Batch input", "Async input"))),
      "pricing: no Batch processing table (Model | Batch input | Batch output)",
    );
  });

  it("fails when a cache column is renamed", async () => {
    const input = await recordedInput("anthropic", "pricing");
    expectParseFailure(
      () => pricing(edit(input, (c) => c.replace("1h cache writes", "Long cache"))),
      "pricing: column ^1h cache writes?$ missing (headers: Model | Base input tokens | 5m cache writes |",
    );
  });

  it("fails on an unparseable price", async () => {
    const input = await recordedInput("anthropic", "pricing");
    expectParseFailure(
      () => pricing(edit(input, (c) => c.replace("| $4 / MTok         |", "| ask sales         |"))),
      'pricing: Claude Opus 5.5 base input: "ask sales" is not a price per MTok',
    );
  });

  it("maps display names to Claude API ids and refuses to guess", () => {
    expect(anthropicModelIdForName("Claude Opus 4.5")).toBe("claude-opus-4-5-20251101");
    expect(anthropicModelIdForName("Claude Haiku 3.5")).toBe("claude-3-5-haiku-20241022");
    expect(anthropicModelIdForName("Claude Opus 4.6")).toBe("claude-opus-4-6");
    expect(anthropicModelIdForName("Claude Sonnet 5")).toBe("claude-sonnet-5");
    expect(anthropicModelIdForName("Claude Opus 4.2")).toBeNull();
    expect(anthropicModelIdForName("Claude Instant")).toBeNull();
    expect(
      anthropicModelLabel("Claude Opus 4 ([retired, except on Google Cloud](model-deprecations.md))"),
    ).toEqual({
      name: "Claude Opus 4",
      note: "retired, except on Google Cloud",
    });
  });
});

describe("anthropic deprecations", () => {
  it("asserts the status table and the history, retired models included", async () => {
    const out = ParseOutput.parse(deprecations(await recordedInput("anthropic", "deprecations")));
    expect(out.lifecycle.length).toBeGreaterThanOrEqual(34);
    const byId = new Map(out.lifecycle.map((a) => [a.target?.provider_model_id, a]));

    const opus41 = byId.get("claude-opus-4-1-20250805");
    expect(opus41?.status).toBe("retired");
    expect(opus41?.deprecation).toMatchObject({ date: "2026-06-05", date_type: "on" });
    expect(opus41?.end_of_life).toMatchObject({ date: "2026-08-05", precision: "day", date_type: "on" });
    expect(opus41?.replacements).toEqual(["claude-opus-4-8"]);
    expect(opus41?.announced_at).toBe("2026-06-05T00:00:00Z");

    const haiku45 = byId.get("claude-haiku-4-5-20251001");
    expect(haiku45?.status).toBe("available");
    expect(haiku45?.end_of_life).toMatchObject({ date: "2026-10-15", date_type: "not_before" });
    expect(haiku45?.deprecation?.state).toBe("not_announced");

    expect(byId.get("claude-mythos-preview")?.end_of_life?.state).toBe("not_announced");
    // A history-only row declares no state: the release stage derives it from the dates.
    const instant = byId.get("claude-instant-1.2");
    expect(instant?.status).toBeUndefined();
    expect(instant?.deprecation).toMatchObject({ date_type: "on", state: "scheduled" });
    expect(instant?.end_of_life?.date).toBe("2024-11-06");
    expect(instant?.replacements).toEqual(["claude-haiku-4-5-20251001"]);
    expect(out.deployments.map((d) => d.id)).toContain("dep_anthropic_claude-2.1_api_global");
  });

  it("fails on an unknown state", async () => {
    const input = await recordedInput("anthropic", "deprecations");
    expectParseFailure(
      () =>
        deprecations(
          edit(input, (c) =>
            c.replace(
              "| Active        | N/A               | Not sooner than May 28, 2027",
              "| Sunsetting    | N/A               | Not sooner than May 28, 2027",
            ),
          ),
        ),
      'deprecations: claude-opus-4-8: unknown state "Sunsetting"',
    );
  });

  it("fails when the status table is removed", async () => {
    const input = await recordedInput("anthropic", "deprecations");
    expectParseFailure(
      () => deprecations(edit(input, (c) => c.replace("| API model name", "| Model"))),
      "deprecations: no Model status table (API model name | Current state ...)",
    );
  });

  it("fails on an unparseable retirement date", async () => {
    const input = await recordedInput("anthropic", "deprecations");
    expectParseFailure(
      () =>
        deprecations(
          edit(input, (c) =>
            c.replace("| August 5, 2026                     |", "| after the summer                   |"),
          ),
        ),
      'deprecations: claude-opus-4-1-20250805 retirement date: "after the summer" is not a lifecycle date',
    );
  });
});
