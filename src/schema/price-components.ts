/**
 * The one declaration of a rate card's price components. Everything else that names them is
 * made from it: the rate card's and a tier's zod shapes (deployment.ts), the DuckDB columns and
 * the CSV/Parquet export columns (src/release/tables.ts), the diff's price-change components
 * (src/release/diff.ts), the checks on prices, and the components a usage prices
 * (src/pricing/price.ts). A test (test/schema/price-components.test.ts) fails when another list
 * of them appears in src/.
 *
 * Each component, in the order every table and report shows them:
 * - `card`: how a rate card holds its price: `required` (always a price), `nullable` (null when
 *   the provider publishes none: unknown, never zero) or `optional` (absent or null: an extension);
 * - `tier`: how a long-context tier holds it, or null when a tier has no such price;
 * - `usage`: whether a usage has token counts for it (input, cached input, output): the prices
 *   cost calculation and the price-move check use.
 * A price is integer micro-USD per million tokens, in the field `<component>_micro_usd`.
 */
import { MicroUsd } from "./common.js";

type Presence = "required" | "nullable" | "optional";

const DECLARATION = {
  input: { card: "required", tier: "required", usage: true },
  cached_input: { card: "nullable", tier: "nullable", usage: true },
  output: { card: "nullable", tier: "nullable", usage: true },
  cache_write: { card: "optional", tier: "optional", usage: false },
  cache_write_1h: { card: "optional", tier: null, usage: false },
} as const satisfies Record<string, { card: Presence; tier: Presence | null; usage: boolean }>;
type Declaration = typeof DECLARATION;

export type RateComponent = keyof Declaration;
/** The components a usage has token counts for. */
export type TokenPriceComponent = {
  [C in RateComponent]: Declaration[C]["usage"] extends true ? C : never;
}[RateComponent];
/** The components a long-context tier has a price for. */
export type TierPriceComponent = {
  [C in RateComponent]: Declaration[C]["tier"] extends null ? never : C;
}[RateComponent];

/** Every component, in declaration order. */
export const PRICE_COMPONENTS = Object.keys(DECLARATION) as readonly RateComponent[];

/** Input, cached input and output: the components a usage has token counts for. */
export const TOKEN_PRICE_COMPONENTS = PRICE_COMPONENTS.filter(
  (c) => DECLARATION[c].usage,
) as readonly TokenPriceComponent[];

/** The components a long-context tier prices (all but the 1-hour cache write). */
export const TIER_PRICE_COMPONENTS = PRICE_COMPONENTS.filter(
  (c) => DECLARATION[c].tier !== null,
) as readonly TierPriceComponent[];

export type PriceField<C extends RateComponent = RateComponent> = `${C}_micro_usd`;

export function priceField<C extends RateComponent>(component: C): PriceField<C> {
  return `${component}_micro_usd`;
}

/** Every component's field, in list order. */
export const PRICE_FIELDS: readonly PriceField[] = PRICE_COMPONENTS.map(priceField);
/** The token components' fields: input_micro_usd, cached_input_micro_usd, output_micro_usd. */
export const TOKEN_PRICE_FIELDS: readonly PriceField<TokenPriceComponent>[] =
  TOKEN_PRICE_COMPONENTS.map(priceField);
/** The fields of a long-context tier's prices. */
export const TIER_PRICE_FIELDS: readonly PriceField<TierPriceComponent>[] =
  TIER_PRICE_COMPONENTS.map(priceField);

const PRICE_SCHEMAS = {
  required: () => MicroUsd,
  nullable: () => MicroUsd.nullable(),
  optional: () => MicroUsd.nullable().optional(),
};
type PriceSchema<P extends Presence> = ReturnType<(typeof PRICE_SCHEMAS)[P]>;

export type RateCardPriceShape = {
  [C in RateComponent as PriceField<C>]: PriceSchema<Declaration[C]["card"]>;
};
export type TierPriceShape = {
  [C in TierPriceComponent as PriceField<C>]: PriceSchema<NonNullable<Declaration[C]["tier"]>>;
};

/** The zod shape of a rate card's prices, one member per component in declaration order. */
export function rateCardPriceShape(): RateCardPriceShape {
  return Object.fromEntries(
    PRICE_COMPONENTS.map((c) => [priceField(c), PRICE_SCHEMAS[DECLARATION[c].card]()]),
  ) as RateCardPriceShape;
}

/** The zod shape of a long-context tier's prices, one member per tier component. */
export function tierPriceShape(): TierPriceShape {
  return Object.fromEntries(
    TIER_PRICE_COMPONENTS.map((c) => [priceField(c), PRICE_SCHEMAS[DECLARATION[c].tier as Presence]()]),
  ) as TierPriceShape;
}
