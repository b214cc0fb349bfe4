/**
 * Pricing one usage profile against one rate card: the calculate operation's core, which
 * compare reuses (docs/decisions.md: "compare uses the same function").
 *
 * Rules (docs/decisions.md, "Compare and calculate"; src/schema/deployment.ts for tiers):
 * - A component costs tokens x price / 1,000,000 micro-USD, computed exactly (money.ts).
 * - A component with 0 tokens costs 0 whatever its price, even an unknown (null) one.
 * - A component with tokens > 0 and an unknown price makes the usage unpriceable: unknown is
 *   never priced as zero, so the result names the missing components instead.
 * - Long-context tiers: the usage's token counts are totals over `requests` requests of equal
 *   size (docs/finding-deployments.md). When one request's prompt ((input + cached input
 *   tokens) / requests) exceeds a tier's `above_input_tokens`, the highest such tier's prices
 *   apply to every token of the usage; a null price in that tier is unknown (it does not fall
 *   back to the base price). The comparison is exact: prompt > threshold x requests.
 */
import {
  type Pricing,
  type RateCard,
  TOKEN_PRICE_COMPONENTS,
  type TokenPriceComponent,
  type Usage,
} from "../schema/index.js";
import { formatPicoUsd, picoUsdFor } from "./money.js";

export type PriceComponentName = TokenPriceComponent;
/** The components a usage prices: those it has token counts for (src/schema/price-components.ts). */
export const USAGE_PRICE_COMPONENTS: readonly PriceComponentName[] = TOKEN_PRICE_COMPONENTS;

export type PriceResult =
  | { ok: true; pricing: Pricing; totalPicoUsd: bigint }
  | { ok: false; missing: PriceComponentName[] };

/** The unit prices (micro-USD per million tokens) that apply to a usage, and the tier they come from. */
export interface AppliedPrices {
  tierAboveInputTokens: number | null;
  prices: Record<PriceComponentName, number | null>;
}

/**
 * Whether one request's prompt is above `threshold`: (input + cached) / requests > threshold,
 * compared without division as input + cached > threshold x requests.
 */
export function promptAbove(usage: Usage, threshold: number): boolean {
  const promptTokens = BigInt(usage.input_tokens) + BigInt(usage.cached_input_tokens);
  return promptTokens > BigInt(threshold) * BigInt(usage.requests);
}

/** Which prices of `rateCard` apply to `usage`: the base prices or the highest tier one request exceeds. */
export function appliedPrices(rateCard: RateCard, usage: Usage): AppliedPrices {
  let tier: NonNullable<RateCard["tiers"]>[number] | null = null;
  for (const candidate of rateCard.tiers ?? []) {
    // Tiers are validated to be strictly increasing, but pick the highest exceeded one
    // regardless of order so an unsorted card cannot under-price a request.
    if (
      promptAbove(usage, candidate.above_input_tokens) &&
      (tier === null || candidate.above_input_tokens > tier.above_input_tokens)
    )
      tier = candidate;
  }
  const source = tier ?? rateCard;
  return {
    tierAboveInputTokens: tier?.above_input_tokens ?? null,
    prices: {
      input: source.input_micro_usd,
      cached_input: source.cached_input_micro_usd,
      output: source.output_micro_usd,
    },
  };
}

function tokensOf(usage: Usage, component: PriceComponentName): number {
  switch (component) {
    case "input":
      return usage.input_tokens;
    case "cached_input":
      return usage.cached_input_tokens;
    case "output":
      return usage.output_tokens;
  }
}

/**
 * Price `usage` with `rateCard`, exactly.
 *
 * `total_usd` is the exact total (sum of the exact pico-USD components) rounded half-up once,
 * not the sum of the rounded component amounts: rounding each component first could make the
 * shown total drift from the true price by up to 1 micro-USD per component, and would make the
 * ranking of compare depend on how a price happens to split into components. So the
 * components' `amount_usd` may not add up to `total_usd` in the last digit; `total_usd` is the
 * correctly rounded true price.
 *
 * The breakdown lists input, cached_input and output in that order; a component is left out
 * only when it has 0 tokens and an unknown price (it costs nothing and has no unit price to
 * show).
 */
export function priceUsage(rateCard: RateCard, usage: Usage): PriceResult {
  const applied = appliedPrices(rateCard, usage);
  const missing: PriceComponentName[] = [];
  const components: Pricing["components"] = [];
  let totalPicoUsd = 0n;
  for (const component of USAGE_PRICE_COMPONENTS) {
    const tokens = tokensOf(usage, component);
    const price = applied.prices[component];
    if (price === null || price === undefined) {
      if (tokens > 0) missing.push(component);
      continue;
    }
    const amount = picoUsdFor(tokens, price);
    totalPicoUsd += amount;
    components.push({
      component,
      tokens,
      unit_price_micro_usd: price,
      amount_usd: formatPicoUsd(amount),
    });
  }
  if (missing.length > 0) return { ok: false, missing };
  return {
    ok: true,
    totalPicoUsd,
    pricing: {
      currency: "USD",
      total_usd: formatPicoUsd(totalPicoUsd),
      requests: usage.requests,
      tier_above_input_tokens: applied.tierAboveInputTokens,
      components,
    },
  };
}
