/**
 * Exact money parsing for the parsers: printed US dollar amounts and per-token JSON numbers to
 * integer micro-USD (decimal arithmetic, never floating point), and a per-million-tokens rate card.
 */

import { CatalogError } from "../lib/errors.js";
import { group } from "../lib/regex.js";
import type { RateCard, SourceDefinition } from "../schema/index.js";

const NO_PRICE = /^(?:-|–|—|n\/?a|not available|not supported|none|tbd|free\*?|)$/i;

/**
 * Parse a US dollar amount ("$2.50", "$0.075", "2.5 USD", "$1,000") into integer micro-units of
 * the same unit, exactly (decimal string arithmetic, no floating point). Returns null for
 * "-", "N/A", "" and similar: unknown, never zero. Throws on anything else that is not money,
 * and on sub-micro precision after scaling.
 * `scale` multiplies the amount first: a price per 1K tokens is scale 1000 to get per million.
 */
export function usdToMicro(text: string, scale: 1 | 1000 | 1_000_000 = 1): number | null {
  const cleaned = text.replace(/\s+/g, " ").trim();
  if (NO_PRICE.test(cleaned)) return null;
  const match =
    /^(?:US)?\$?\s*([0-9][0-9,]*)(?:\.([0-9]+))?(?:\s*(?:USD|\/\s*1?M(?:TOK)?|per million tokens?))?$/i.exec(
      cleaned,
    );
  if (!match) throw new CatalogError("parse_failed", `"${text}" is not a US dollar amount`);
  const whole = group(match, 1).replace(/,/g, "");
  const fraction = match[2] ?? "";
  // amount * 1e6 * scale as an exact integer: shift the decimal point.
  const shift = 6 + Math.log10(scale);
  const digits = whole + fraction.padEnd(shift, "0");
  const integerPart = digits.slice(0, whole.length + shift);
  const rest = digits.slice(whole.length + shift);
  if (/[1-9]/.test(rest)) throw new CatalogError("parse_failed", `"${text}" has sub-micro-dollar precision`);
  const value = Number.parseInt(integerPart, 10);
  if (!Number.isSafeInteger(value)) throw new CatalogError("parse_failed", `"${text}" is too large`);
  return value;
}

/** Significant digits a double is guaranteed to carry through a decimal round trip (DBL_DIG). */
const EXACT_DIGITS = 15;

export type PriceConversion =
  | { ok: true; micro: number }
  | { ok: false; reason: "sub_micro" | "imprecise" | "invalid" };

/**
 * A per-token USD price (a JSON number such as `2.5e-06` or `0.0000025`) to integer micro-USD
 * per million tokens, exactly: the value times 10^12.
 *
 * Why this is exact although JSON.parse turned the file's decimal text into a double:
 * `String(n)` prints the shortest decimal that reads back as the same double. A decimal with
 * at most 15 significant digits is recovered exactly by that round trip (two different such
 * decimals are further apart than a double's spacing, so they cannot read as the same double),
 * so for every price the file writes with <= 15 significant digits `String(n)` is the file's
 * own decimal value, not an approximation. The scaling by 10^12 is then done on the decimal
 * digits with BigInt, never by float multiplication (0.0000165 * 1e12 is 16500000.000000002 in
 * floating point). A printed value with more than 15 significant digits is "imprecise" (it
 * may not be what the file says); a value whose exact micro-USD-per-million amount is not an
 * integer is "sub_micro". Both are refused rather than rounded.
 */
export function perTokenToMicroPerMillion(value: unknown): PriceConversion {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    return { ok: false, reason: "invalid" };
  const text = String(value);
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  if (!m) return { ok: false, reason: "invalid" };
  const intDigits = group(m, 1);
  const fracDigits = m[2] ?? "";
  const exponent = Number.parseInt(m[3] ?? "0", 10);
  const digits = (intDigits + fracDigits).replace(/^0+/, "");
  if (digits.replace(/0+$/, "").length > EXACT_DIGITS) return { ok: false, reason: "imprecise" };
  if (digits === "") return { ok: true, micro: 0 };
  // value = digits x 10^(exponent - fracDigits.length); times 10^12 for micro-USD per million.
  const shift = exponent - fracDigits.length + 12;
  const mantissa = BigInt(digits);
  let micro: bigint;
  if (shift >= 0) micro = mantissa * 10n ** BigInt(shift);
  else {
    const divisor = 10n ** BigInt(-shift);
    if (mantissa % divisor !== 0n) return { ok: false, reason: "sub_micro" };
    micro = mantissa / divisor;
  }
  if (micro > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, reason: "invalid" };
  return { ok: true, micro: Number(micro) };
}

/** A USD-per-million-tokens rate card from a source's prices (null = not published). */
export function tokenRateCard(
  source: Pick<SourceDefinition, "url">,
  observedAt: string,
  prices: { input: number; cachedInput: number | null; output: number | null },
): RateCard {
  return {
    currency: "USD",
    unit: "million_tokens",
    input_micro_usd: prices.input,
    cached_input_micro_usd: prices.cachedInput,
    output_micro_usd: prices.output,
    source_url: source.url,
    observed_at: observedAt,
  };
}
