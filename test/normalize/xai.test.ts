import { describe, expect, it } from "vitest";
import { parsers, xaiRetirementDay, xaiTokenPrices } from "../../src/normalize/parsers/xai.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure, withContent } from "../helpers/parsers.js";

const models = defined(parsers["xai-models"], "parser xai-models");
const retirement = defined(parsers["xai-retirement"], "parser xai-retirement");
const input = await recordedInput("xai", "models-2025");
const current = await recordedInput("xai", "models");
const retired = await recordedInput("xai", "retirement-2026-05-15");

describe("xai models and pricing", () => {
  it("the models page is xAI's catalog of the models it serves (availability_list catalog)", () => {
    expect(ParseOutput.parse(models(current)).availability_list).toBe("catalog");
  });

  it("reads the 2026 Markdown page: limits, cached prices and capabilities of the Grok 4.20 and 4.1 Fast models", () => {
    const out = ParseOutput.parse(models(current));
    expect(out.deployments.map((d) => d.provider_model_id)).toEqual([
      "grok-4.20-0309-reasoning",
      "grok-4.20-0309-non-reasoning",
      "grok-4-1-fast-reasoning",
      "grok-4-1-fast-non-reasoning",
      "grok-4.20-multi-agent-0309",
    ]);
    const reasoning = out.deployments.find((d) => d.id === "dep_xai_grok-4.20-0309-reasoning_api_global");
    expect(reasoning).toMatchObject({ model_id: "xai/grok-4.20-0309-reasoning", context_tokens: 2_000_000 });
    expect(reasoning?.rate_card).toMatchObject({
      input_micro_usd: 2_000_000,
      cached_input_micro_usd: 200_000,
      output_micro_usd: 6_000_000,
      source_url: "https://docs.x.ai/developers/models.md",
      observed_at: "2026-03-09T00:00:00Z",
    });
    const fast = out.deployments.find((d) => d.provider_model_id === "grok-4-1-fast-non-reasoning");
    expect(fast?.rate_card).toMatchObject({
      input_micro_usd: 200_000,
      cached_input_micro_usd: 50_000,
      output_micro_usd: 500_000,
    });
    expect(fast?.capabilities).toEqual({
      tool_calling: { status: "supported", verification_status: "official_declared" },
      structured_output: { status: "supported", verification_status: "official_declared" },
      vision: { status: "supported", verification_status: "official_declared" },
    });
    expect(out.skipped.map((s) => [s.reason, s.count])).toEqual([
      ["row repeated (the Markdown form lists each model once per cluster)", 5],
      ["priced per image or per second, not per token", 6],
    ]);
  });

  it("prices every language model of the 2025 page per million tokens and skips the image model", () => {
    const out = ParseOutput.parse(models(input));
    expect(out.deployments.map((d) => d.provider_model_id)).toEqual([
      "grok-4-1-fast-reasoning",
      "grok-4-1-fast-non-reasoning",
      "grok-code-fast-1",
      "grok-4-fast-reasoning",
      "grok-4-fast-non-reasoning",
      "grok-4-0709",
      "grok-3-mini",
      "grok-3",
      "grok-2-vision-1212",
    ]);
    expect(out.skipped).toEqual([
      { reason: "priced per image or per second, not per token", count: 1, examples: ["grok-2-image-1212"] },
    ]);
    const grok4 = out.deployments.find((d) => d.id === "dep_xai_grok-4-0709_api_global");
    expect(grok4).toMatchObject({ model_id: "xai/grok-4-0709", context_tokens: 256_000 });
    expect(grok4?.rate_card).toMatchObject({
      input_micro_usd: 3_000_000,
      cached_input_micro_usd: null,
      output_micro_usd: 15_000_000,
      source_url: "https://docs.x.ai/docs/models",
      observed_at: "2025-12-31T21:40:24Z",
    });
    expect(out.deployments.find((d) => d.provider_model_id === "grok-code-fast-1")?.rate_card).toMatchObject({
      input_micro_usd: 200_000,
      output_micro_usd: 1_500_000,
    });
    expect(out.lifecycle).toEqual([]);
  });

  it("reads the Markdown form with cached prices, capabilities and repeated rows", () => {
    const markdown = [
      "| Model | Modalities | Capabilities | Context | Rate Limits | Pricing [in (cached in) / out] |",
      "| --- | --- | --- | --- | --- | --- |",
      "| grok-4.20-0309-reasoning | text, image → text | functions, structured, reasoning | 2,000,000 | 4M TPM, 600 RPM | $2.00 ($0.20) / $6.00 |",
      "| grok-4.20-0309-reasoning | text, image → text | functions, structured, reasoning | 2,000,000 | 4M TPM, 600 RPM | $2.00 ($0.20) / $6.00 |",
      "| grok-imagine-image | text, image → image | - | - | 300 RPM | $0.02/image |",
    ].join("\n");
    const out = ParseOutput.parse(models(withContent(input, markdown)));
    expect(out.deployments).toHaveLength(1);
    expect(out.deployments[0]?.rate_card).toMatchObject({
      input_micro_usd: 2_000_000,
      cached_input_micro_usd: 200_000,
      output_micro_usd: 6_000_000,
    });
    expect(out.deployments[0]?.capabilities).toEqual({
      tool_calling: { status: "supported", verification_status: "official_declared" },
      structured_output: { status: "supported", verification_status: "official_declared" },
      reasoning: { status: "supported", verification_status: "official_declared" },
      vision: { status: "supported", verification_status: "official_declared" },
    });
    expect(out.skipped.map((s) => [s.reason, s.count])).toEqual([
      ["row repeated (the Markdown form lists each model once per cluster)", 1],
      ["priced per image or per second, not per token", 1],
    ]);
  });

  it("reads price cells exactly", () => {
    expect(xaiTokenPrices(input, "$0.20$0.50")).toEqual({
      input: 200_000,
      cachedInput: null,
      output: 500_000,
    });
    expect(xaiTokenPrices(input, "$0.30 ($0.07) / $0.50")).toEqual({
      input: 300_000,
      cachedInput: 70_000,
      output: 500_000,
    });
    expect(xaiTokenPrices(input, "$0.050/sec")).toBeNull();
    expectParseFailure(
      () => xaiTokenPrices(input, "contact sales"),
      'models-2025: "contact sales" is not a price the parser knows',
    );
  });

  it("fails on a price it cannot read", () => {
    expectParseFailure(
      () => models(edit(input, (c) => c.replace("$3.00$15.00 |", "three dollars |"))),
      'models-2025: "three dollars" is not a price the parser knows',
    );
  });

  it("fails when the Model Pricing table is gone", () => {
    expectParseFailure(
      () => models(edit(input, (c) => c.replace("| Model | Modalities |", "| Name | Modalities |"))),
      "models-2025: no Model Pricing table (Model | ... | Context | ... | Pricing)",
    );
  });
});

describe("xai retirement of May 15, 2026", () => {
  it("asserts each retired language model with the retirement day and its redirect target", () => {
    const out = ParseOutput.parse(retirement(retired));
    expect(out.lifecycle.map((a) => [a.target?.provider_model_id, a.replacements])).toEqual([
      ["grok-4-1-fast-reasoning", ["grok-4.3"]],
      ["grok-4-1-fast-non-reasoning", ["grok-4.3"]],
      ["grok-4-fast-reasoning", ["grok-4.3"]],
      ["grok-4-fast-non-reasoning", ["grok-4.3"]],
      ["grok-4-0709", ["grok-4.3"]],
      ["grok-code-fast-1", ["grok-build-0.1"]],
      ["grok-3", ["grok-4.3"]],
    ]);
    for (const a of out.lifecycle) {
      expect(a.status).toBe("deprecated");
      expect(a.end_of_life).toMatchObject({
        state: "scheduled",
        date: "2026-05-15",
        precision: "day",
        date_type: "on",
      });
    }
    expect(out.deployments.map((d) => d.id)).toContain("dep_xai_grok-4-0709_api_global");
    expect(out.skipped).toEqual([
      {
        reason: "image generation model, not a token deployment",
        count: 1,
        examples: ["grok-imagine-image-pro"],
      },
    ]);
  });

  it("reads the retirement day from the prose, with or without its time of day", () => {
    expect(xaiRetirementDay("**Effective May 15, 2026 at 12:00 PM PT**, the following")).toBe("May 15, 2026");
    expect(xaiRetirementDay("Effective June 1, 2027, the following")).toBe("June 1, 2027");
    expect(xaiRetirementDay("Retiring soon.")).toBeNull();
  });

  it("fails when the prose no longer states the retirement day", () => {
    expectParseFailure(
      () => retirement(edit(retired, (c) => c.replace("**Effective May 15, 2026 at 12:00 PM PT**", "Soon"))),
      'retirement-2026-05-15: no retirement date ("Effective <Month D, YYYY> ...,") in the prose',
    );
  });

  it("fails on a redirect target that is not a model id", () => {
    expectParseFailure(
      () =>
        retirement(edit(retired, (c) => c.replace("| `grok-build-0.1` |", "| our newest coding model |"))),
      'retirement-2026-05-15: grok-code-fast-1: "our newest coding model" names no xAI model id',
    );
  });
});
