import { describe, expect, it } from "vitest";
import { parsers } from "../../src/normalize/parsers/deepseek.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const pricing = defined(parsers["deepseek-pricing"], "parser deepseek-pricing");
const input = await recordedInput("deepseek", "pricing-2025-12");
const june = await recordedInput("deepseek", "pricing-2026-06");
const september = await recordedInput("deepseek", "pricing");

describe("deepseek models and pricing, December 2025 text rendering", () => {
  it("prices both API models with the cache-hit price as cached input, and reads their limits", () => {
    const out = ParseOutput.parse(pricing(input));
    expect(out.skipped).toEqual([]);
    expect(out.lifecycle).toEqual([]);
    expect(out.deployments.map((d) => d.id)).toEqual([
      "dep_deepseek_deepseek-chat_api_global",
      "dep_deepseek_deepseek-reasoner_api_global",
    ]);
    const [chat, reasoner] = out.deployments;
    expect(chat).toMatchObject({
      model_id: "deepseek/deepseek-chat",
      context_tokens: 128_000,
      max_output_tokens: 8000,
      rate_card: {
        input_micro_usd: 280_000,
        cached_input_micro_usd: 28_000,
        output_micro_usd: 420_000,
        observed_at: "2025-12-20T00:00:17Z",
      },
      capabilities: {
        tool_calling: { status: "supported", verification_status: "official_declared" },
        reasoning: { status: "unsupported", verification_status: "official_declared" },
      },
    });
    expect(reasoner).toMatchObject({
      context_tokens: 128_000,
      max_output_tokens: 64_000,
      capabilities: { reasoning: { status: "supported" } },
    });
  });

  it("gives each model its own price when the row has one per model", () => {
    const out = pricing(
      edit(input, (c) => c.replace("1M OUTPUT TOKENS| $0.42", "1M OUTPUT TOKENS| $0.42| $2.19")),
    );
    expect(out.deployments.map((d) => d.rate_card?.output_micro_usd)).toEqual([420_000, 2_190_000]);
  });

  it("fails on a price it cannot read", () => {
    expectParseFailure(
      () => pricing(edit(input, (c) => c.replace("| $0.28", "| about 28 cents"))),
      'pricing-2025-12: deepseek-chat cache-miss input: "about 28 cents" is not a price per 1M tokens',
    );
  });

  it("fails when a row has more values than models", () => {
    expectParseFailure(
      () => pricing(edit(input, (c) => c.replace("CONTEXT LENGTH| 128K", "CONTEXT LENGTH| 128K| 64K| 32K"))),
      "pricing-2025-12: CONTEXT LENGTH: 3 values for 2 models",
    );
  });

  it("fails when the Model Details table is gone", () => {
    expectParseFailure(
      () => pricing(edit(input, (c) => c.replace("**MODEL|", "**NAME|"))),
      'pricing-2025-12: no Model Details table (a "**MODEL ..." line)',
    );
  });
});

describe("deepseek models and pricing, June 2026 reader rendering", () => {
  it("prices deepseek-v4-flash and deepseek-v4-pro from run-together cells, with their limits", () => {
    const out = ParseOutput.parse(pricing(june));
    expect(out.skipped).toEqual([]);
    expect(out.deployments.map((d) => d.id)).toEqual([
      "dep_deepseek_deepseek-v4-flash_api_global",
      "dep_deepseek_deepseek-v4-pro_api_global",
    ]);
    const [flash, pro] = out.deployments;
    expect(flash).toMatchObject({
      context_tokens: 1_000_000,
      max_output_tokens: 384_000,
      rate_card: {
        input_micro_usd: 140_000,
        cached_input_micro_usd: 2800,
        output_micro_usd: 280_000,
        observed_at: "2026-06-02T05:31:59Z",
      },
      capabilities: {
        tool_calling: { status: "supported", verification_status: "official_declared" },
        reasoning: { status: "supported", verification_status: "official_declared" },
      },
    });
    expect(pro?.rate_card).toMatchObject({
      input_micro_usd: 435_000,
      cached_input_micro_usd: 3625,
      output_micro_usd: 870_000,
    });
  });

  it("deprecates deepseek-chat and deepseek-reasoner on the footnote's day, replaced by deepseek-v4-flash", () => {
    const out = pricing(june);
    expect(out.lifecycle).toHaveLength(2);
    for (const [assertion, id] of out.lifecycle.map(
      (a, i) => [a, ["deepseek-chat", "deepseek-reasoner"][i]] as const,
    ))
      expect(assertion).toMatchObject({
        scope: "deployment",
        provider_id: "deepseek",
        target: { provider_model_id: id, api_surface: "api" },
        deprecation: { state: "scheduled", date: "2026-07-24", precision: "day", date_type: "on" },
        replacements: ["deepseek-v4-flash"],
      });
  });

  it("fails when a run-together price row has more prices than models", () => {
    expectParseFailure(
      () => pricing(edit(june, (c) => c.replace("$0.14$0.435", "$0.14$0.435$0.5"))),
      "pricing-2026-06: cache-miss input: 3 values for 2 models",
    );
  });

  it("fails on a feature cell it does not know", () => {
    expectParseFailure(
      () => pricing(edit(june, (c) => c.replace("tool_calls)✓✓", "tool_calls)✓maybe"))),
      'pricing-2026-06: Tool Calls: unreadable cells "✓maybe"',
    );
  });
});

describe("deepseek models and pricing, September 2026 reader rendering", () => {
  it("the pricing page is DeepSeek's catalog of the models it serves (availability_list catalog)", () => {
    expect(ParseOutput.parse(pricing(september)).availability_list).toBe("catalog");
  });

  it("reads deepseek-flash and deepseek-v4-pro's limits and features, vision per model", () => {
    const out = ParseOutput.parse(pricing(september));
    expect(out.deployments.map((d) => d.id)).toEqual([
      "dep_deepseek_deepseek-flash_api_global",
      "dep_deepseek_deepseek-v4-pro_api_global",
      "dep_deepseek_deepseek-v4-flash_api_global",
      "dep_deepseek_deepseek-v4-flash-vision-exp_api_global",
    ]);
    const [flash, pro] = out.deployments;
    expect(flash).toMatchObject({
      context_tokens: 1_000_000,
      max_output_tokens: 384_000,
      capabilities: {
        tool_calling: { status: "supported" },
        vision: { status: "supported", verification_status: "official_declared" },
        reasoning: { status: "supported" },
      },
    });
    expect(pro?.capabilities?.vision).toEqual({
      status: "unsupported",
      verification_status: "official_declared",
    });
  });

  it("leaves prices by the hour unpriced (null, not one of them) and reports them", () => {
    const out = pricing(september);
    // The legacy names are "billed at the Flash price": by the hour too.
    expect(out.deployments.map((d) => d.rate_card)).toEqual([null, null, null, null]);
    expect(out.skipped).toEqual([
      {
        reason: "priced by the hour, off-peak / peak (a rate card has no time of day: rate_card null)",
        count: 2,
        examples: [
          "deepseek-flash: cache hit $0.003 / $0.006, cache miss $0.15 / $0.3, output $0.6 / $1.2",
          "deepseek-v4-pro: cache hit $0.022 / $0.044, cache miss $0.66 / $1.32, output $1.98 / $3.96",
        ],
      },
    ]);
  });

  it("marks the names whose models were retired legacy, their models retired, replaced by deepseek-flash", () => {
    const out = pricing(september);
    expect(out.lifecycle.map((a) => [a.scope, a.target?.provider_model_id ?? a.model_id, a.status])).toEqual([
      ["deployment", "deepseek-v4-flash", "legacy"],
      ["model", "deepseek/deepseek-v4-flash", "retired"],
      ["deployment", "deepseek-v4-flash-vision-exp", "legacy"],
      ["model", "deepseek/deepseek-v4-flash-vision-exp", "retired"],
    ]);
    for (const assertion of out.lifecycle) expect(assertion.replacements).toEqual(["deepseek-flash"]);
  });

  it("gives the legacy names their replacement's rate card, and no limits of their own", () => {
    const priced = edit(june, (c) =>
      c.replace(
        "(1) The model names",
        "(1) Use `deepseek-v4-flash` as the model name. The legacy names `deepseek-v3-flash` are still accepted, but the corresponding models have been retired. The model names",
      ),
    );
    const legacy = pricing(priced).deployments.find((d) => d.provider_model_id === "deepseek-v3-flash");
    expect(legacy?.rate_card).toMatchObject({ input_micro_usd: 140_000, output_micro_usd: 280_000 });
    expect(legacy?.context_tokens).toBeUndefined();
  });

  it("fails when an off-peak / peak row lost its peak prices", () => {
    expectParseFailure(
      () => pricing(edit(september, (c) => c.replace("PEAK$0.3$1.32", ""))),
      "pricing: no cache-miss input off-peak / peak prices",
    );
  });
});
