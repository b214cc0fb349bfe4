import { beforeAll, describe, expect, it } from "vitest";
import { SkipLog } from "../../src/normalize/helpers.js";
import { cardPrices, parsers, placementOf, priceSetOn } from "../../src/normalize/parsers/genai-prices.js";
import type { ParserInput } from "../../src/normalize/types.js";
import { type DeploymentFact, ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { expectParseFailure } from "../helpers/parsers.js";

const parse = parsers["genai-prices"] as NonNullable<(typeof parsers)["genai-prices"]>;

let input: ParserInput;
let output: ParseOutput;
let byId: Map<string, DeploymentFact>;

function dep(id: string): DeploymentFact {
  const d = byId.get(id);
  if (!d) throw new Error(`no deployment ${id}`);
  return d;
}

function skipped(reason: string) {
  return output.skipped.find((s) => s.reason === reason);
}

beforeAll(async () => {
  input = await recordedInput("genai-prices", "data");
  output = ParseOutput.parse(parse(input));
  byId = new Map(output.deployments.map((d) => [d.id, d]));
});

describe("genai-prices (the recorded data.json at 47df840)", () => {
  it("maps a model id through the provider's identity module, with long-context tiers", () => {
    // `claude-sonnet-4-5` is Anthropic's alias of claude-sonnet-4-5-20250929
    const sonnet = dep("dep_anthropic_claude-sonnet-4-5-20250929_api_global");
    expect(sonnet.rate_card).toMatchObject({
      input_micro_usd: 3_000_000,
      cached_input_micro_usd: 300_000,
      output_micro_usd: 15_000_000,
      cache_write_micro_usd: 3_750_000,
      tiers: [
        {
          above_input_tokens: 200_000,
          input_micro_usd: 6_000_000,
          cached_input_micro_usd: 600_000,
          output_micro_usd: 22_500_000,
          cache_write_micro_usd: 7_500_000,
        },
      ],
      observed_at: "2026-08-21T20:02:24Z",
    });
  });

  it("takes the price set in force on the capture's day", () => {
    // claude-opus-4-6: a tiered set, then from 2026-03-13 a flat 5 / 25
    const opus = dep("dep_anthropic_claude-opus-4-6_api_global");
    expect(opus.rate_card).toMatchObject({ input_micro_usd: 5_000_000, output_micro_usd: 25_000_000 });
    expect(opus.rate_card?.tiers).toBeUndefined();
    const set = [
      { prices: { input_mtok: 1 } },
      { constraint: { start_date: "2026-03-13" }, prices: { input_mtok: 2 } },
    ];
    expect(priceSetOn(set, "2026-03-12")).toEqual({ ok: true, set: { input_mtok: 1 } });
    expect(priceSetOn(set, "2026-03-13")).toEqual({ ok: true, set: { input_mtok: 2 } });
  });

  it("a price that changes within the day has no rate card (DeepSeek's off-peak hours)", () => {
    expect(skipped("price that varies by time of day")?.examples).toContain("deepseek/deepseek-chat");
    expect(byId.has("dep_deepseek_deepseek-chat_api_global")).toBe(false);
  });

  it("Azure prices are Global Standard, as the dataset says; Google's and unprefixed Bedrock ids name none", () => {
    expect(dep("dep_azure_o3-mini_azure-openai-global-standard_global").rate_card).not.toBeNull();
    expect(output.deployments.some((d) => d.provider_id === "google")).toBe(false);
    expect(skipped("Google price without its surface (Gemini API or Vertex AI)")?.count).toBe(42);
    expect(placementOf("amazon-bedrock", "amazon.nova-pro-v1:0")).toMatchObject({ ok: false });
    expect(placementOf("amazon-bedrock", "global.anthropic.claude-sonnet-4-6-v1:0")).toMatchObject({
      ok: true,
      endpoint: { region: "global" },
    });
  });

  it("a zero price is unknown (null)", () => {
    const log = new SkipLog();
    expect(cardPrices({ input_mtok: 0, output_mtok: 2 }, "x", log)).toMatchObject({
      input: null,
      output: 2_000_000,
    });
    expect(log.toArray()).toEqual([
      { reason: "zero price (a community zero is unknown: null)", count: 1, examples: ["x: input_mtok"] },
    ]);
  });

  it("fails on a document that is not data.json", () => {
    expectParseFailure(() => parse({ ...input, content: "{}" }), /data\.json is not a JSON array/);
    expectParseFailure(
      () => parse({ ...input, content: '[{"id":"openrouter","models":[]}]' }),
      /no model of the catalog's providers/,
    );
  });
});
