/**
 * Exact money arithmetic. Prices are integer micro-USD per million tokens, so the exact cost
 * of `tokens` at `price` is `tokens * price / 1_000_000` micro-USD = `tokens * price`
 * pico-USD (1e-12 USD). Every amount is kept as a BigInt count of pico-USD (token counts and
 * prices are each up to 2^53, so their product can reach 2^106, far beyond a float's exact
 * range) and is rounded half-up to whole micro-USD only when it is shown
 * (docs/decisions.md, "Compare and calculate").
 */

export const PICO_PER_MICRO = 1_000_000n;
const MICRO_PER_USD = 1_000_000n;

/** Exact cost in pico-USD of `tokens` at `priceMicroUsdPerMillion`. */
export function picoUsdFor(tokens: number | bigint, priceMicroUsdPerMillion: number | bigint): bigint {
  const t = BigInt(tokens);
  const p = BigInt(priceMicroUsdPerMillion);
  if (t < 0n || p < 0n) throw new RangeError("token counts and prices are never negative");
  return t * p;
}

/** Round a non-negative pico-USD amount half-up to whole micro-USD. */
export function roundPicoToMicro(pico: bigint): bigint {
  if (pico < 0n) throw new RangeError("money amounts are never negative");
  return (pico + PICO_PER_MICRO / 2n) / PICO_PER_MICRO;
}

/** A whole micro-USD amount as a US dollar decimal string with exactly six fraction digits. */
export function formatMicroUsd(micro: bigint | number): string {
  const m = BigInt(micro);
  if (m < 0n) throw new RangeError("money amounts are never negative");
  const whole = m / MICRO_PER_USD;
  const fraction = (m % MICRO_PER_USD).toString().padStart(6, "0");
  return `${whole}.${fraction}`;
}

/**
 * A whole micro-USD amount as a short dollar figure for reports: "$2.50", "$0.075", "$1.234567",
 * "-$0.10" (at least two and at most six fraction digits, trailing zeros dropped, exact).
 */
export function formatUsdCompact(micro: bigint | number): string {
  const m = BigInt(micro);
  const exact = formatMicroUsd(m < 0n ? -m : m).replace(/(\.\d\d\d*?)0+$/, "$1");
  return `${m < 0n ? "-" : ""}$${exact}`;
}

/**
 * An exact pico-USD amount as shown to users: rounded half-up to whole micro-USD, then six
 * fraction digits. `formatPicoUsd(3_086_417_500_000n)` is `"3.086418"`.
 */
export function formatPicoUsd(pico: bigint): string {
  return formatMicroUsd(roundPicoToMicro(pico));
}
