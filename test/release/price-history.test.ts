/**
 * Price history: a deployment's rate-card intervals from dated observations of its sources
 * (src/release/price-history.ts): valid_from the first copy showing a price, valid_to the first
 * showing another or none; official over community on days both cover; never overlapping.
 */
import { describe, expect, it } from "vitest";
import { intervalAt } from "../../src/pricing/index.js";
import {
  type PriceObservation,
  priceHistory,
  pricesKey,
  shownPrices,
} from "../../src/release/price-history.js";
import type { DeploymentFact, PriceInterval, RateCard, VerificationStatus } from "../../src/schema/index.js";

const ID = "anthropic:claude-3-opus-20240229@api:standard:global";
const OTHER = "anthropic:claude-3-haiku-20240307@api:standard:global";

function card(
  input: number,
  output: number,
  observedAt: string,
  url = "https://example.com/pricing",
): RateCard {
  return {
    currency: "USD",
    unit: "million_tokens",
    input_micro_usd: input,
    cached_input_micro_usd: null,
    output_micro_usd: output,
    source_url: url,
    observed_at: observedAt,
  };
}

function seen(
  source: string,
  official: boolean,
  at: string,
  prices: Record<string, [number, number]>,
  status: VerificationStatus = official ? "official_declared" : "community_reported",
): PriceObservation {
  return {
    source_id: source,
    official,
    observed_at: at,
    prices: new Map(
      Object.entries(prices).map(([id, [i, o]]) => [
        id,
        { rate_card: card(i, o, at), verification_status: status },
      ]),
    ),
  };
}

const ids = new Set([ID, OTHER]);
const intervalsOf = (observations: PriceObservation[], id = ID) =>
  priceHistory(observations, ids).deployments.find((d) => d.deployment_id === id)?.intervals ?? [];
const span = (i: PriceInterval) => [
  i.valid_from,
  i.valid_to,
  i.rate_card.input_micro_usd,
  i.verification_status,
];

describe("priceHistory", () => {
  it("starts a price at the first copy showing it and ends it at the first copy showing another; the last stays open; newest first", () => {
    const intervals = intervalsOf([
      seen("a", true, "2026-01-13T22:57:00Z", { [ID]: [15_000_000, 75_000_000] }),
      seen("a", true, "2026-02-06T13:15:50Z", { [ID]: [15_000_000, 75_000_000] }),
      seen("a", true, "2026-04-17T14:25:45Z", { [ID]: [5_000_000, 25_000_000] }),
      seen("a", true, "2026-09-23T00:00:00Z", { [ID]: [5_000_000, 25_000_000] }),
    ]);
    expect(intervals.map(span)).toEqual([
      ["2026-04-17", null, 5_000_000, "official_declared"],
      ["2026-01-13", "2026-04-17", 15_000_000, "official_declared"],
    ]);
    // the interval keeps the card of the first copy showing it
    expect(intervals[1]?.rate_card.observed_at).toBe("2026-01-13T22:57:00Z");
    expect(intervals[1]?.source_url).toBe("https://example.com/pricing");
  });

  it("ends a price when a later copy no longer lists the deployment", () => {
    const intervals = intervalsOf([
      seen("a", true, "2026-01-01T00:00:00Z", { [ID]: [1, 2], [OTHER]: [3, 4] }),
      seen("a", true, "2026-03-01T00:00:00Z", { [OTHER]: [3, 4] }),
    ]);
    expect(intervals.map(span)).toEqual([["2026-01-01", "2026-03-01", 1, "official_declared"]]);
  });

  it("gives a day both cover to the official source; community prices fill the days before it", () => {
    const intervals = intervalsOf([
      seen("litellm", false, "2025-03-01T00:00:00Z", { [ID]: [14_000_000, 70_000_000] }),
      seen("litellm", false, "2026-06-01T00:00:00Z", { [ID]: [14_000_000, 70_000_000] }),
      seen("anthropic", true, "2026-01-13T00:00:00Z", { [ID]: [15_000_000, 75_000_000] }),
    ]);
    expect(intervals.map(span)).toEqual([
      ["2026-01-13", null, 15_000_000, "official_declared"],
      ["2025-03-01", "2026-01-13", 14_000_000, "community_reported"],
    ]);
  });

  it("never overlaps, and joins days in a row with the same price and status from two sources", () => {
    const intervals = intervalsOf([
      seen("a", true, "2026-01-01T00:00:00Z", { [ID]: [1, 2] }),
      seen("a", true, "2026-02-01T00:00:00Z", {}),
      seen("b", true, "2026-01-15T00:00:00Z", { [ID]: [1, 2] }),
      seen("b", true, "2026-03-01T00:00:00Z", { [ID]: [7, 8] }),
      seen("c", false, "2025-12-01T00:00:00Z", { [ID]: [9, 9] }),
    ]);
    expect(intervals.map(span)).toEqual([
      ["2026-03-01", null, 7, "official_declared"],
      ["2026-01-01", "2026-03-01", 1, "official_declared"],
      ["2025-12-01", "2026-01-01", 9, "community_reported"],
    ]);
    const sorted = [...intervals].reverse();
    for (let i = 1; i < sorted.length; i++)
      expect((sorted[i - 1]?.valid_to ?? "9999") <= (sorted[i]?.valid_from ?? "")).toBe(true);
  });

  it("lets the later of two copies of one day speak for it", () => {
    const intervals = intervalsOf([
      seen("a", true, "2026-01-01T08:00:00Z", { [ID]: [1, 2] }),
      seen("a", true, "2026-01-01T20:00:00Z", { [ID]: [3, 4] }),
    ]);
    expect(intervals.map(span)).toEqual([["2026-01-01", null, 3, "official_declared"]]);
  });

  it("lists only the deployments the release has, and none without a price", () => {
    const file = priceHistory(
      [seen("a", true, "2026-01-01T00:00:00Z", { "x:gone@api:standard:global": [1, 2] })],
      ids,
    );
    expect(file).toEqual({ format: 1, deployments: [] });
  });

  it("finds the interval valid on a day (valid_to exclusive), or none", () => {
    const intervals = intervalsOf([
      seen("a", true, "2026-01-13T00:00:00Z", { [ID]: [15, 75] }),
      seen("a", true, "2026-04-17T00:00:00Z", { [ID]: [5, 25] }),
    ]);
    expect(intervalAt(intervals, "2026-01-12")).toBeNull();
    expect(intervalAt(intervals, "2026-01-13")?.rate_card.input_micro_usd).toBe(15);
    expect(intervalAt(intervals, "2026-04-16")?.rate_card.input_micro_usd).toBe(15);
    expect(intervalAt(intervals, "2026-04-17")?.rate_card.input_micro_usd).toBe(5);
    expect(intervalAt(intervals, "2030-01-01")?.rate_card.input_micro_usd).toBe(5);
  });
});

describe("pricesKey", () => {
  const fact = (input: number, at: string, url: string): DeploymentFact =>
    ({
      id: ID,
      model_id: "claude-3-opus",
      provider_id: "anthropic",
      provider_model_id: "claude-3-opus-20240229",
      api_surface: "api",
      mode: "standard",
      region: "global",
      rate_card: card(input, 1, at, url),
      evidence: {
        source_url: url,
        source_type: "official_pricing",
        observed_at: at,
        verification_status: "official_declared",
      },
    }) as DeploymentFact;

  it("ignores when and where a price was seen, not the price", () => {
    const a = pricesKey([fact(1, "2026-01-01T00:00:00Z", "https://a.example/p")]);
    expect(pricesKey([fact(1, "2026-02-01T00:00:00Z", "https://b.example/p")])).toBe(a);
    expect(pricesKey([fact(2, "2026-01-01T00:00:00Z", "https://a.example/p")])).not.toBe(a);
    expect(
      shownPrices([{ ...fact(1, "2026-01-01T00:00:00Z", "https://a.example/p"), rate_card: null }]).size,
    ).toBe(0);
  });
});
