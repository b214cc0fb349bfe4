/**
 * The one list of a rate card's price components, in the order every table and report shows them,
 * and the field that holds each (integer micro-USD per million tokens). The first three are the
 * per-token prices a tier also carries and that cost calculation and price-move checks use.
 */
export const PRICE_COMPONENTS = ["input", "cached_input", "output", "cache_write", "cache_write_1h"] as const;
export type RateComponent = (typeof PRICE_COMPONENTS)[number];

/** Input, cached input and output: the components a usage has token counts for. */
export const TOKEN_PRICE_COMPONENTS = [
  "input",
  "cached_input",
  "output",
] as const satisfies readonly RateComponent[];
export type TokenPriceComponent = (typeof TOKEN_PRICE_COMPONENTS)[number];

export type PriceField<C extends RateComponent = RateComponent> = `${C}_micro_usd`;

export function priceField<C extends RateComponent>(component: C): PriceField<C> {
  return `${component}_micro_usd`;
}

/** Every component's field, in list order. */
export const PRICE_FIELDS: readonly PriceField[] = PRICE_COMPONENTS.map(priceField);
/** The token components' fields: input_micro_usd, cached_input_micro_usd, output_micro_usd. */
export const TOKEN_PRICE_FIELDS: readonly PriceField<TokenPriceComponent>[] =
  TOKEN_PRICE_COMPONENTS.map(priceField);
