import { beforeAll, describe, expect, it } from "vitest";
import { deploymentId } from "../../src/lib/ids.js";
import { parsers as lifecycleParsers } from "../../src/normalize/parsers/amazon-bedrock.js";
import { PRICE_LIST_MODELS, parsers } from "../../src/normalize/parsers/amazon-bedrock-pricing.js";
import { parserRegistry } from "../../src/normalize/registry.js";
import type { ParserInput } from "../../src/normalize/types.js";
import { type DeploymentFact, ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const parse = parsers["amazon-bedrock-price-list"] as NonNullable<
  (typeof parsers)["amazon-bedrock-price-list"]
>;

let bedrockInput: ParserInput;
let marketplaceInput: ParserInput;
let bedrock: ParseOutput;
let marketplace: ParseOutput;

function byId(output: ParseOutput, id: string): DeploymentFact {
  const d = output.deployments.find((x) => x.id === id);
  if (!d) throw new Error(`no deployment ${id}`);
  return d;
}

beforeAll(async () => {
  bedrockInput = await recordedInput("amazon-bedrock", "price-list-bedrock-ap-northeast-1");
  marketplaceInput = await recordedInput("amazon-bedrock", "price-list-foundation-models-ap-northeast-1");
  bedrock = ParseOutput.parse(parse(bedrockInput));
  marketplace = ParseOutput.parse(parse(marketplaceInput));
});

describe("Bedrock price list: AmazonBedrock offer (ap-northeast-1 capture, per 1K tokens)", () => {
  it("prices Nova Lite in Tokyo exactly: $0.000072 / 1K input is 72,000 micro-USD per million", () => {
    const d = byId(bedrock, "dep_amazon-bedrock_amazon.nova-lite-v1-0_bedrock-runtime_ap-northeast-1");
    expect(d).toMatchObject({
      model_id: "amazon/nova-lite-v1",
      provider_model_id: "amazon.nova-lite-v1:0",
      api_surface: "bedrock-runtime",
      mode: "standard",
      region: "ap-northeast-1",
    });
    expect(d.rate_card).toMatchObject({
      input_micro_usd: 72_000,
      output_micro_usd: 288_000,
      cached_input_micro_usd: 18_000,
      observed_at: "2026-09-11T12:44:08Z",
      source_url:
        "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonBedrock/current/ap-northeast-1/index.json",
    });
    expect(d.evidence).toMatchObject({
      source_type: "official_pricing",
      verification_status: "official_declared",
    });
  });

  it("gives batch prices the batch mode and Global cross-Region prices the global mode in the source Region", () => {
    const batch = byId(
      bedrock,
      "dep_amazon-bedrock_amazon.nova-lite-v1-0_bedrock-runtime-batch_ap-northeast-1",
    );
    expect(batch.mode).toBe("batch");
    expect(batch.rate_card).toMatchObject({ input_micro_usd: 36_000, output_micro_usd: null });
    const global = byId(
      bedrock,
      "dep_amazon-bedrock_amazon.nova-2-lite-v1-0_bedrock-runtime-global_ap-northeast-1",
    );
    expect(global).toMatchObject({
      provider_model_id: "amazon.nova-2-lite-v1:0",
      region: "ap-northeast-1",
      mode: "global",
    });
    expect(global.rate_card).toMatchObject({ input_micro_usd: 360_000, output_micro_usd: 3_010_000 });
  });

  it("yields 4 priced deployments and counts every other SKU by reason", () => {
    expect(bedrock.deployments.map((d) => d.id)).toEqual([
      "dep_amazon-bedrock_amazon.nova-2-lite-v1-0_bedrock-runtime-global_ap-northeast-1",
      "dep_amazon-bedrock_amazon.nova-lite-v1-0_bedrock-runtime-batch_ap-northeast-1",
      "dep_amazon-bedrock_amazon.nova-lite-v1-0_bedrock-runtime_ap-northeast-1",
      "dep_amazon-bedrock_nvidia.nemotron-nano-12b-v2_bedrock-runtime_ap-northeast-1",
    ]);
    expect(Object.fromEntries(bedrock.skipped.map((s) => [s.reason, s.count]))).toEqual({
      "Bedrock Mantle (OpenAI-compatible endpoint) price: no api_surface for it yet": 1,
      "embedding model (the catalog lists text-generation deployments)": 1,
      "model name not in the reviewed table (PRICE_LIST_MODELS)": 1,
    });
    // 11 SKUs: 8 became prices of the 4 deployments, the other 3 are counted above.
    const priced = 11 - bedrock.skipped.reduce((n, s) => n + s.count, 0);
    expect(priced).toBe(8);
  });
});

describe("Bedrock price list: AmazonBedrockFoundationModels offer (per 1M tokens)", () => {
  it("prices Claude Sonnet 4.5 Regional in Tokyo with cache read and 1-hour cache write", () => {
    const d = byId(
      marketplace,
      "dep_amazon-bedrock_anthropic.claude-sonnet-4-5-20250929-v1-0_bedrock-runtime_ap-northeast-1",
    );
    expect(d.model_id).toBe("anthropic/claude-sonnet-4-5-20250929");
    expect(d.rate_card).toMatchObject({
      input_micro_usd: 3_300_000,
      output_micro_usd: 16_500_000,
      cached_input_micro_usd: 330_000,
      cache_write_1h_micro_usd: 6_600_000,
    });
    expect(d.rate_card?.cache_write_micro_usd).toBeUndefined(); // not in the capture: absent, not zero
  });

  it("maps Global usage types to the global mode at the lower Global price, and _Batch to batch", () => {
    const global = byId(
      marketplace,
      "dep_amazon-bedrock_anthropic.claude-sonnet-4-5-20250929-v1-0_bedrock-runtime-global_ap-northeast-1",
    );
    expect(global.rate_card).toMatchObject({
      input_micro_usd: 3_000_000,
      output_micro_usd: 15_000_000,
      cached_input_micro_usd: null,
    });
    const batch = byId(
      marketplace,
      "dep_amazon-bedrock_anthropic.claude-sonnet-4-5-20250929-v1-0_bedrock-runtime-batch_ap-northeast-1",
    );
    expect(batch.rate_card).toMatchObject({ input_micro_usd: 1_650_000, output_micro_usd: null });
  });

  it("counts the reserved-throughput SKU and the embedding model, and prices the other 7 SKUs", () => {
    expect(marketplace.deployments).toHaveLength(3);
    expect(Object.fromEntries(marketplace.skipped.map((s) => [s.reason, s.count]))).toEqual({
      "embedding model (the catalog lists text-generation deployments)": 1,
      "reserved / provisioned throughput price (per TPM-hour, not per token)": 1,
    });
  });
});

describe("Bedrock price list: identity and structure", () => {
  it("prices Claude Sonnet 4.5 in Tokyo on the very deployment the lifecycle parser lists", async () => {
    const legacy = await recordedInput("amazon-bedrock", "model-lifecycle-legacy");
    const parseLifecycle = lifecycleParsers["amazon-bedrock-model-lifecycle"] as NonNullable<
      (typeof lifecycleParsers)["amazon-bedrock-model-lifecycle"]
    >;
    const lifecycleIds = new Set(parseLifecycle(legacy).deployments.map((d) => d.id));
    const id = "dep_amazon-bedrock_anthropic.claude-sonnet-4-5-20250929-v1-0_bedrock-runtime_ap-northeast-1";
    expect(lifecycleIds.has(id)).toBe(true);
    expect(byId(marketplace, id).model_id).toBe(
      parseLifecycle(legacy).deployments.find((d) => d.id === id)?.model_id,
    );
  });

  it("builds the same deployment ids as the lifecycle parser (provider, bedrock-runtime, model id, Region)", () => {
    for (const d of [...bedrock.deployments, ...marketplace.deployments])
      expect(d.id).toBe(
        deploymentId({
          provider_id: "amazon-bedrock",
          provider_model_id: d.provider_model_id,
          api_surface: "bedrock-runtime",
          mode: d.mode,
          region: d.region,
        }),
      );
    expect(parserRegistry["amazon-bedrock-price-list"]).toBe(parse);
  });

  it("maps every text model of the reviewed table to a Bedrock model id (vendor.model)", () => {
    for (const [name, model] of Object.entries(PRICE_LIST_MODELS))
      if (model.kind === "text") expect(model.modelId, name).toMatch(/^[a-z0-9-]+\.[a-z0-9.:-]+$/);
  });

  it("fails on a document that is not a Bedrock offer file, and on one with no priced model", () => {
    expectParseFailure(
      () =>
        parse(edit(bedrockInput, (c) => c.replace('"offerCode":"AmazonBedrock"', '"offerCode":"AmazonEC2"'))),
      'price-list-bedrock-ap-northeast-1: offerCode "AmazonEC2" is not a Bedrock offer',
    );
    expectParseFailure(
      () =>
        parse(
          edit(bedrockInput, (c) =>
            c
              .replace(/"Nova Lite"/g, '"Nova Unknown"')
              .replace(/"NVIDIA Nemotron Nano 2 VL"/g, '"X"')
              .replace(/"Nova 2.0 Lite"/g, '"Y"'),
          ),
        ),
      "price-list-bedrock-ap-northeast-1: found no priced Bedrock model SKUs",
    );
    expectParseFailure(
      () => parse(edit(bedrockInput, () => "not json")),
      "price-list-bedrock-ap-northeast-1: not valid JSON (Unexpected token 'o', \"not json\" is not valid JSON)",
    );
  });

  it("refuses to round: a price finer than a micro-dollar per million tokens is skipped and counted", () => {
    const out = parse(
      edit(bedrockInput, (c) => c.replace('"USD":"0.0000720000"', '"USD":"0.0000720000001"')),
    );
    expect(out.skipped.find((s) => s.reason.startsWith("price finer"))?.count).toBe(1);
    // Nova Lite's standard deployment lost its input price, so it has no rate card and its
    // other SKUs are counted too.
    expect(out.deployments.map((d) => d.id)).not.toContain(
      "dep_amazon-bedrock_amazon.nova-lite-v1-0_bedrock-runtime_ap-northeast-1",
    );
    expect(out.skipped.find((s) => s.reason.startsWith("deployment has no single input price"))?.count).toBe(
      2,
    );
  });
});
