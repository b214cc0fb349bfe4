/** Builders and fast-check arbitraries for the pricing tests. */
import fc from "fast-check";
import { deploymentId } from "../../src/lib/ids.js";
import type { Capabilities, Deployment, RateCard, RateTier, Usage } from "../../src/schema/index.js";

export const SOURCE_URL = "https://example.com/pricing";
export const OBSERVED_AT = "2026-11-23T00:00:00Z";

export function card(
  input: number,
  cached: number | null,
  output: number | null,
  tiers?: RateTier[],
): RateCard {
  return {
    currency: "USD",
    unit: "million_tokens",
    input_micro_usd: input,
    cached_input_micro_usd: cached,
    output_micro_usd: output,
    ...(tiers ? { tiers } : {}),
    source_url: SOURCE_URL,
    observed_at: OBSERVED_AT,
  };
}

export function usage(
  input_tokens: number,
  cached_input_tokens: number,
  output_tokens: number,
  requests = 1,
): Usage {
  return { input_tokens, cached_input_tokens, output_tokens, requests };
}

export function deployment(
  model: string,
  rate_card: RateCard | null,
  capabilities: Capabilities = {},
  region = "global",
): Deployment {
  const identity = {
    provider_id: "openai",
    provider_model_id: model,
    api_surface: "api",
    mode: "standard",
    region,
  };
  const unknown = {
    state: "unknown" as const,
    date: null,
    precision: "unknown" as const,
    date_type: "unknown" as const,
    evidence: [],
  };
  return {
    id: deploymentId(identity),
    model_id: `openai/${model}`,
    ...identity,
    status: "available",
    lifecycle: {
      status: "available",
      announced_at: null,
      deprecation: unknown,
      end_of_life: unknown,
      replacement_ids: [],
      coverage: { status: "unmonitored", last_checked_at: null, source_count: 0, source_ids: [] },
      last_changed_at: null,
    },
    context_tokens: null,
    max_output_tokens: null,
    capabilities,
    rate_card,
    evidence_urls: [SOURCE_URL],
    provenance: {
      listing: {
        verification_status: "official_declared",
        source_urls: [SOURCE_URL],
        observed_at: OBSERVED_AT,
      },
      rate_card: rate_card
        ? { verification_status: "official_declared", source_urls: [SOURCE_URL], observed_at: OBSERVED_AT }
        : null,
      context_tokens: null,
      max_output_tokens: null,
    },
  };
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** A price in micro-USD per million tokens: mostly realistic, sometimes huge. */
export const priceArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 200_000_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: MAX_SAFE }) },
);
export const tokenArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 2_000_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: MAX_SAFE }) },
);
/** How many requests a usage spans: mostly one, sometimes many, now and then huge. */
export const requestsArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(1) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 10_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: MAX_SAFE }) },
);
export const usageArb = fc.record({
  input_tokens: tokenArb,
  cached_input_tokens: tokenArb,
  output_tokens: tokenArb,
  requests: requestsArb,
});

/** Tiers with strictly increasing thresholds, arbitrary (possibly null) prices. */
export const tiersArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 3_000_000 }), { maxLength: 3 })
  .chain((thresholds) =>
    fc.tuple(
      ...[...thresholds]
        .sort((a, b) => a - b)
        .map((above) =>
          fc.record({
            above_input_tokens: fc.constant(above),
            input_micro_usd: priceArb,
            cached_input_micro_usd: fc.option(priceArb, { nil: null }),
            output_micro_usd: fc.option(priceArb, { nil: null }),
          }),
        ),
    ),
  );

export const rateCardArb = fc
  .record({
    input: priceArb,
    cached: fc.option(priceArb, { nil: null }),
    output: fc.option(priceArb, { nil: null }),
    tiers: fc.option(tiersArb, { nil: undefined }),
  })
  .map(({ input, cached, output, tiers }) => card(input, cached, output, tiers));

/**
 * A rate card whose every tier is at least as expensive as the level below it, component by
 * component, and fully priced: the shape real long-context pricing has, for which more tokens
 * can never cost less.
 */
export const monotoneRateCardArb = fc
  .record({
    base: fc.tuple(
      fc.integer({ min: 0, max: 200_000_000 }),
      fc.integer({ min: 0, max: 200_000_000 }),
      fc.integer({ min: 0, max: 200_000_000 }),
    ),
    steps: fc.array(
      fc.tuple(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 50_000_000 }),
        fc.integer({ min: 0, max: 50_000_000 }),
        fc.integer({ min: 0, max: 50_000_000 }),
      ),
      { maxLength: 3 },
    ),
  })
  .map(({ base, steps }) => {
    let [input, cached, output] = base;
    let above = 0;
    const tiers: RateTier[] = [];
    for (const [gap, di, dc, dout] of steps) {
      above += gap;
      input += di;
      cached += dc;
      output += dout;
      tiers.push({
        above_input_tokens: above,
        input_micro_usd: input,
        cached_input_micro_usd: cached,
        output_micro_usd: output,
      });
    }
    return card(base[0], base[1], base[2], tiers);
  });
