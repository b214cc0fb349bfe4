/**
 * Pricing on a past day (`"at": "YYYY-MM-DD"` on compare and calculate): the rate card of the
 * price interval valid that day (docs/price-history.md). Pure.
 */
import type { Deployment, PriceInterval } from "../schema/index.js";

/** The interval valid on `date` (valid_from <= date < valid_to, or open), or null when none is. */
export function intervalAt(intervals: readonly PriceInterval[], date: string): PriceInterval | null {
  return intervals.find((i) => i.valid_from <= date && (i.valid_to === null || date < i.valid_to)) ?? null;
}

/** The deployment with the rate card valid on `date`; null when no price is known that day. */
export function deploymentOn(
  deployment: Deployment,
  intervals: readonly PriceInterval[],
  date: string,
): Deployment {
  return { ...deployment, rate_card: intervalAt(intervals, date)?.rate_card ?? null };
}
