import { describe, expect, it } from "vitest";
import { parsers } from "../../src/normalize/parsers/deepseek.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const pricing = defined(parsers["deepseek-pricing"], "parser deepseek-pricing");
const input = await recordedInput("deepseek", "pricing");

describe("deepseek models and pricing", () => {
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
    expectParseFailure(() => pricing(edit(input, (c) => c.replace("| $0.28", "| about 28 cents"))));
  });

  it("fails when a row has more values than models", () => {
    expectParseFailure(() =>
      pricing(edit(input, (c) => c.replace("CONTEXT LENGTH| 128K", "CONTEXT LENGTH| 128K| 64K| 32K"))),
    );
  });

  it("fails when the Model Details table is gone", () => {
    expectParseFailure(() => pricing(edit(input, (c) => c.replace("**MODEL|", "**NAME|"))));
  });
});
