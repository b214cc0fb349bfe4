/**
 * Shared parsing helpers for every parser: exact money parsing, lifecycle date phrases,
 * evidence, and HTML tables located by their header names. Pure functions; a page whose
 * structure does not match throws a `parse_failed` CatalogError, never an empty success.
 */
import * as cheerio from "cheerio";
import { CatalogError } from "../lib/errors.js";
import { type DeploymentIdentity, deploymentId } from "../lib/ids.js";
import type {
  CapabilityEntry,
  CapabilityStatus,
  DatePrecision,
  DateType,
  Evidence,
  LifecycleMilestone,
  RateCard,
  SkipCount,
  SourceDefinition,
  VerificationStatus,
} from "../schema/index.js";

export function parseFailure(source: Pick<SourceDefinition, "name" | "url">, message: string): CatalogError {
  return new CatalogError("parse_failed", `${source.name}: ${message}`, { source_url: source.url });
}

export function evidenceFor(
  source: Pick<SourceDefinition, "url" | "source_type">,
  observedAt: string,
  verification: VerificationStatus = source.source_type === "community_catalog"
    ? "community_reported"
    : "official_declared",
): Evidence {
  return {
    source_url: source.url,
    source_type: source.source_type,
    observed_at: observedAt,
    verification_status: verification,
  };
}

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
  const whole = (match[1] as string).replace(/,/g, "");
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
  const intDigits = m[1] as string;
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

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

function iso(year: number, month: number, day: number): string | null {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

export interface ParsedDate {
  date: string;
  precision: DatePrecision;
}

/** A bare date in the formats provider pages use; null when the text is not one. */
export function parseCalendarDate(text: string): ParsedDate | null {
  const t = text
    .replace(/\u00a0/g, " ")
    .replace(/\s+/g, " ")
    .replace(/(\d)(st|nd|rd|th)\b/gi, "$1")
    .trim()
    .replace(/[.*]+$/, "");
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (m) return wrap(iso(+m[1]!, +m[2]!, +m[3]!), "day");
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t); // M/D/YYYY (US pages)
  if (m) return wrap(iso(+m[3]!, +m[1]!, +m[2]!), "day");
  m = /^([A-Za-z]+)\.? (\d{1,2}),? (\d{4})$/.exec(t); // October 15, 2026
  if (m && MONTHS[m[1]!.toLowerCase()]) return wrap(iso(+m[3]!, MONTHS[m[1]!.toLowerCase()]!, +m[2]!), "day");
  m = /^(\d{1,2}) ([A-Za-z]+)\.?,? (\d{4})$/.exec(t); // 15 October 2026
  if (m && MONTHS[m[2]!.toLowerCase()]) return wrap(iso(+m[3]!, MONTHS[m[2]!.toLowerCase()]!, +m[1]!), "day");
  m = /^([A-Za-z]+)\.?,? (\d{4})$/.exec(t); // February 2026
  if (m && MONTHS[m[1]!.toLowerCase()]) return wrap(iso(+m[2]!, MONTHS[m[1]!.toLowerCase()]!, 1), "month");
  m = /^(\d{4})-(\d{2})$/.exec(t);
  if (m) return wrap(iso(+m[1]!, +m[2]!, 1), "month");
  m = /^Q([1-4]) (\d{4})$/i.exec(t);
  if (m) return wrap(iso(+m[2]!, (+m[1]! - 1) * 3 + 1, 1), "quarter");
  return null;
}

function wrap(date: string | null, precision: DatePrecision): ParsedDate | null {
  return date ? { date, precision } : null;
}

const NOT_BEFORE =
  /^(?:not sooner than|no sooner than|no earlier than|not earlier than|earliest|not before|on or after)\s*:?\s*/i;
const NOT_AFTER = /^(?:no later than|not later than|by|before|on or before)\s*:?\s*/i;
const NOT_ANNOUNCED =
  /^(?:tbd|tba|to be (?:announced|determined)|not (?:yet )?(?:announced|scheduled|determined)|no date|none announced|n\/a|-|–|—)$/i;

/**
 * A lifecycle date phrase to a milestone: "Not sooner than October 15, 2026" (not_before, day),
 * "Earliest February 2026" (not_before, month), "10/15/2026" (on, day), "TBD" (not_announced),
 * "" (unknown). Throws on text that is none of these, so a changed page format is noticed.
 */
export function parseMilestone(text: string | null | undefined, evidence: Evidence[]): LifecycleMilestone {
  const t = (text ?? "")
    .replace(/\u00a0/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (t === "")
    return { state: "unknown", date: null, precision: "unknown", date_type: "unknown", evidence: [] };
  if (NOT_ANNOUNCED.test(t))
    return { state: "not_announced", date: null, precision: "unknown", date_type: "unknown", evidence };
  let dateType: DateType = "on";
  let rest = t;
  if (NOT_BEFORE.test(rest)) {
    dateType = "not_before";
    rest = rest.replace(NOT_BEFORE, "");
  } else if (NOT_AFTER.test(rest)) {
    dateType = "not_after";
    rest = rest.replace(NOT_AFTER, "");
  }
  const parsed = parseCalendarDate(rest);
  if (!parsed) throw new CatalogError("parse_failed", `"${text}" is not a lifecycle date`);
  return {
    state: "scheduled",
    date: parsed.date,
    precision: parsed.precision,
    date_type: dateType,
    evidence,
  };
}

/**
 * `parseMilestone` for a source's cell: text that is not a lifecycle date is a parse failure of
 * that source (its message prefixed with `what` when given).
 */
export function sourceMilestone(
  source: Pick<SourceDefinition, "name" | "url">,
  text: string | null | undefined,
  evidence: Evidence[],
  what?: string,
): LifecycleMilestone {
  try {
    return parseMilestone(text, evidence);
  } catch (error) {
    const message = (error as Error).message;
    throw parseFailure(source, what === undefined ? message : `${what}: ${message}`);
  }
}

export function unknownMilestone(): LifecycleMilestone {
  return { state: "unknown", date: null, precision: "unknown", date_type: "unknown", evidence: [] };
}

export function cellText($: cheerio.CheerioAPI, el: Parameters<cheerio.CheerioAPI>[0]): string {
  return $(el)
    .text()
    .replace(/\u00a0/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

export interface FoundTable {
  headers: string[];
  /** Rows as arrays of cell texts, aligned to headers. */
  rows: string[][];
  /** Text of the nearest preceding heading (h1-h4), for section-scoped tables. */
  heading: string;
}

/**
 * Every table whose header row contains a cell matching each of `required` (case-insensitive
 * regexes). Throws when none matches, so a renamed column is a parse failure.
 */
export function findTables(
  source: Pick<SourceDefinition, "name" | "url">,
  html: string,
  required: RegExp[],
): FoundTable[] {
  const $ = cheerio.load(html);
  const found: FoundTable[] = [];
  $("table").each((_, table) => {
    const headerCells = $(table).find("thead tr").first().find("th,td");
    const headerRow = headerCells.length ? headerCells : $(table).find("tr").first().find("th,td");
    const headers = headerRow.toArray().map((c) => cellText($, c));
    if (!required.every((re) => headers.some((h) => re.test(h)))) return;
    const bodyRows = $(table).find("tbody tr").length
      ? $(table).find("tbody tr")
      : $(table).find("tr").slice(1);
    const rows = bodyRows
      .toArray()
      .map((tr) =>
        $(tr)
          .find("th,td")
          .toArray()
          .map((c) => cellText($, c)),
      )
      .filter((r) => r.some((c) => c !== ""));
    const heading = cellText(
      $,
      $(table).prevAll("h1,h2,h3,h4").first().get(0) ??
        $(table).parents().prevAll("h1,h2,h3,h4").first().get(0) ??
        [],
    );
    found.push({ headers, rows, heading });
  });
  if (found.length === 0)
    throw parseFailure(source, `no table with columns ${required.map((r) => r.source).join(", ")}`);
  return found;
}

/** Index of the first header matching `re`; throws when the column is missing. */
export function columnIndex(
  source: Pick<SourceDefinition, "name" | "url">,
  headers: string[],
  re: RegExp,
): number {
  const index = headers.findIndex((h) => re.test(h));
  if (index < 0) throw parseFailure(source, `column ${re.source} missing (headers: ${headers.join(" | ")})`);
  return index;
}

/** Throws a parse failure when a parser found nothing: zero rows is a broken page, not an empty catalog. */
export function requireSome<T>(
  source: Pick<SourceDefinition, "name" | "url">,
  items: T[],
  what: string,
): T[] {
  if (items.length === 0) throw parseFailure(source, `found no ${what}`);
  return items;
}

/** A deployment's identity fields with its id and canonical model id. */
export function deploymentIdentity(key: DeploymentIdentity, canonicalModelId: string) {
  const ids: DeploymentIdentity = {
    provider_id: key.provider_id,
    provider_model_id: key.provider_model_id,
    api_surface: key.api_surface,
    mode: key.mode,
    region: key.region,
  };
  return { id: deploymentId(ids), model_id: canonicalModelId, ...ids };
}

/**
 * Skip bookkeeping: reason -> count and up to five examples, reasons in first-seen order.
 * `distinctExamples: false` keeps a repeated example as often as it was added.
 */
export class SkipLog {
  private readonly entries = new Map<string, { count: number; examples: string[] }>();
  constructor(private readonly options: { distinctExamples: boolean } = { distinctExamples: true }) {}
  add(reason: string, example: string): void {
    const entry = this.entries.get(reason) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < 5 && !(this.options.distinctExamples && entry.examples.includes(example)))
      entry.examples.push(example);
    this.entries.set(reason, entry);
  }
  toArray(): SkipCount[] {
    return [...this.entries].map(([reason, e]) => ({ reason, count: e.count, examples: e.examples }));
  }
}

export { googleModelId } from "./identity/google.js";

/**
 * A token count as a models page prints it: "1,048,576", "400,000", "200K tokens", "1M tokens",
 * "64k" -> an integer (K = 1,000 and M = 1,000,000, as the pages use them); null when the text
 * is not a token count.
 */
export function tokenCount(text: string): number | null {
  const m = /^(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*([km])?(?:\s*tokens?)?$/i.exec(text.trim());
  if (!m) return null;
  const scale = m[2] === undefined ? 1 : m[2].toLowerCase() === "m" ? 1_000_000 : 1000;
  const value = Math.round(Number((m[1] as string).replace(/,/g, "")) * scale);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** A capability entry as an official page states it. */
export function declaredCapability(status: CapabilityStatus): CapabilityEntry {
  return { status, verification_status: "official_declared" };
}

/**
 * A token count as a page prints it: "128k" -> 128000, "8K" -> 8000, "1M" -> 1000000,
 * "2,000,000" -> 2000000; "" and "-" -> null (not stated). A "k" is read as the thousands the page
 * prints, not as 1024. Throws a parse failure on anything else.
 */
export function printedTokenCount(
  source: Pick<SourceDefinition, "name" | "url">,
  cell: string,
): number | null {
  const text = cell.trim();
  if (text === "" || text === "-" || text === "—") return null;
  const value = tokenCount(text);
  if (value === null) throw parseFailure(source, `"${cell}" is not a positive token count`);
  return value;
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

/**
 * The identity of a deployment on a provider's own API: api surface `api`, the standard mode and
 * region `global` unless the source names one.
 */
export function apiDeploymentIdentity(
  providerId: string,
  providerModelId: string,
  canonicalModelId: string,
  region = "global",
  mode = "standard",
) {
  return deploymentIdentity(
    {
      provider_id: providerId,
      provider_model_id: providerModelId,
      api_surface: "api",
      mode,
      region,
    },
    canonicalModelId,
  );
}
