import { describe, expect, it } from "vitest";
import { PartPrices, perUnitToMicroPerMillion } from "../../src/normalize/price-parts.js";

const evidence = { source_url: "https://prices.example/", observed_at: "2026-11-23T00:00:00Z" };

describe("price feed rows to rate cards", () => {
  it("converts per-1K and per-1M prices to micro-USD per million exactly, refusing sub-micro amounts", () => {
    expect(perUnitToMicroPerMillion("0.0000720000", 1000)).toBe(72_000);
    expect(perUnitToMicroPerMillion("0.001375", 1000)).toBe(1_375_000);
    expect(perUnitToMicroPerMillion("16.5000000000", 1_000_000)).toBe(16_500_000);
    expect(perUnitToMicroPerMillion("0.0000000001", 1000)).toBeNull();
    expect(perUnitToMicroPerMillion("0.0000001", 1_000_000)).toBeNull();
    expect(perUnitToMicroPerMillion("free", 1000)).toBeNull();
  });

  it("builds a rate card with only the published parts, and none without an input price", () => {
    const prices = new PartPrices();
    prices.add("output", 10_000_000);
    expect(prices.rateCard(evidence, () => {})).toBeNull();
    prices.add("input", 2_500_000);
    prices.add("cache_write_1h", 5_000_000);
    expect(prices.rateCard(evidence, () => {})).toEqual({
      currency: "USD",
      unit: "million_tokens",
      input_micro_usd: 2_500_000,
      cached_input_micro_usd: null,
      output_micro_usd: 10_000_000,
      cache_write_1h_micro_usd: 5_000_000,
      ...evidence,
    });
  });

  it("leaves a part that two rows price differently unknown and says which", () => {
    const prices = new PartPrices();
    prices.add("input", 2_500_000);
    prices.add("input", 2_500_000);
    prices.add("output", 10_000_000);
    prices.add("output", 11_000_000);
    const conflicts: string[] = [];
    const card = prices.rateCard(evidence, (part) => conflicts.push(part));
    expect(card?.input_micro_usd).toBe(2_500_000);
    expect(card?.output_micro_usd).toBeNull();
    expect(conflicts).toEqual(["output"]);
  });
});
