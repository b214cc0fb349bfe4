/**
 * The Cloud Billing Catalog API answer has never been recorded (it needs a key, and no stored
 * copy exists): these tests run on a fixture written by hand from the documented response shape
 * (test/fixtures/vertex-billing/skus.json says so in its `_fixture` field). It is not a capture
 * and is never published.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  microUsdPerMillionTokens,
  parsers,
  tokensPerUsageUnit,
  vertexSkuModelId,
} from "../../src/normalize/parsers/google-vertex-billing.js";
import type { ParserInput } from "../../src/normalize/types.js";
import { ParseOutput } from "../../src/schema/index.js";
import { loadDefinition } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { expectParseFailure, withContent } from "../helpers/parsers.js";

const parse = defined(parsers["google-vertex-billing-skus"], "parser google-vertex-billing-skus");

async function fixtureInput(): Promise<ParserInput> {
  const content = await readFile(
    join(import.meta.dirname, "..", "fixtures", "vertex-billing", "skus.json"),
    "utf8",
  );
  return {
    source: await loadDefinition("google-vertex", "billing-skus"),
    content,
    observedAt: "2026-11-22T03:17:00Z",
  };
}

describe("vertex billing SKUs (fixture in the documented shape, not a recorded answer)", () => {
  it("turns per-token text prices of global on-demand SKUs into exact rate cards", async () => {
    const input = await fixtureInput();
    const out = ParseOutput.parse(parse(input));
    expect(out.deployments.map((d) => d.id)).toEqual([
      "dep_google-vertex_gemini-2.5-flash_vertex-ai_global",
      "dep_google-vertex_gemini-2.5-pro_vertex-ai_global",
    ]);
    const pro = out.deployments[1];
    expect(pro?.model_id).toBe("google/gemini-2.5-pro");
    expect(pro?.rate_card).toMatchObject({
      input_micro_usd: 1_250_000,
      cached_input_micro_usd: 125_000,
      output_micro_usd: 10_000_000,
      source_url: input.source.url,
    });
    expect(pro?.rate_card?.source_url).not.toContain("key=");
    // $0.0003 per 1k tokens = $0.30 per million; the europe-west4-only output SKU is not read.
    expect(out.deployments[0]?.rate_card).toMatchObject({ input_micro_usd: 300_000, output_micro_usd: null });
    const reasons = Object.fromEntries(out.skipped.map((s) => [s.reason, s.count]));
    expect(reasons).toMatchObject({
      "long-context SKU (its threshold is not in the SKU)": 1,
      "audio price (the rate card is text tokens)": 1,
      "usage type Commit1Yr (only OnDemand is read)": 1,
      "description is not '<model> <modality> <Input|Output|Cached Input>'": 1,
      "not offered in the global region": 1,
    });
  });

  it("converts units and nanos exactly and refuses what it cannot express", () => {
    expect(tokensPerUsageUnit("count")).toBe(1n);
    expect(tokensPerUsageUnit("k{token}")).toBe(1000n);
    expect(tokensPerUsageUnit("M{token}")).toBe(1_000_000n);
    expect(tokensPerUsageUnit("GiBy")).toBeNull();
    expect(microUsdPerMillionTokens("0", 1250, 1n)).toBe(1_250_000n);
    expect(microUsdPerMillionTokens("2", 500_000_000, 1_000_000n)).toBe(2_500_000n);
    expect(microUsdPerMillionTokens("0", 1, 1_000_000n)).toBeNull();
    expect(vertexSkuModelId("Gemini 2.5 Flash Lite")).toBe("gemini-2.5-flash-lite");
  });

  it("fails on an answer that is not a SKU list, a non-USD price or no usable price at all", async () => {
    const input = await fixtureInput();
    expectParseFailure(
      () => parse(withContent(input, '{"services": []}')),
      'billing-skus: not a Cloud Billing SKU list: [\n  {\n    "expected": "array",\n    "code":',
    );
    expectParseFailure(() => parse(withContent(input, '{"skus": []}')), "billing-skus: found no SKUs");
    expectParseFailure(
      () =>
        parse(
          withContent(
            input,
            input.content.replace(
              '"currencyCode": "USD", "units": "0", "nanos": 1250',
              '"currencyCode": "EUR", "units": "0", "nanos": 1250',
            ),
          ),
        ),
      "billing-skus: TEST-0001 Gemini 2.5 Pro Text Input - Predictions: price in EUR, not USD",
    );
    const onlyNodeHours = JSON.parse(input.content) as { skus: { skuId: string }[] };
    onlyNodeHours.skus = onlyNodeHours.skus.filter((s) => s.skuId === "TEST-0008");
    expectParseFailure(
      () => parse(withContent(input, JSON.stringify(onlyNodeHours))),
      "billing-skus: found no Gemini text token prices",
    );
  });
});
