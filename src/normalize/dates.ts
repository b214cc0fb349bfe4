/** Lifecycle dates as provider pages print them, to calendar dates and milestones. */
import { CatalogError } from "../lib/errors.js";
import type {
  DatePrecision,
  DateType,
  Evidence,
  LifecycleMilestone,
  SourceDefinition,
} from "../schema/index.js";
import { parseFailure } from "./failure.js";

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
  let g = captures(/^(\d{4})-(\d{2})-(\d{2})$/, t);
  if (g) return wrap(iso(Number(g[0]), Number(g[1]), Number(g[2])), "day");
  g = captures(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, t); // M/D/YYYY (US pages)
  if (g) return wrap(iso(Number(g[2]), Number(g[0]), Number(g[1])), "day");
  g = captures(/^([A-Za-z]+)\.? (\d{1,2}),? (\d{4})$/, t); // October 15, 2026
  let month = g && monthNumber(g[0]);
  if (g && month) return wrap(iso(Number(g[2]), month, Number(g[1])), "day");
  g = captures(/^(\d{1,2}) ([A-Za-z]+)\.?,? (\d{4})$/, t); // 15 October 2026
  month = g && monthNumber(g[1]);
  if (g && month) return wrap(iso(Number(g[2]), month, Number(g[0])), "day");
  g = captures(/^([A-Za-z]+)\.?,? (\d{4})$/, t); // February 2026
  month = g && monthNumber(g[0]);
  if (g && month) return wrap(iso(Number(g[1]), month, 1), "month");
  g = captures(/^(\d{4})-(\d{2})$/, t);
  if (g) return wrap(iso(Number(g[0]), Number(g[1]), 1), "month");
  g = captures(/^Q([1-4]) (\d{4})$/i, t);
  if (g) return wrap(iso(Number(g[1]), (Number(g[0]) - 1) * 3 + 1, 1), "quarter");
  return null;
}

/** The capture groups of `re` on `text` as strings (every group of these patterns is required), or null. */
function captures(re: RegExp, text: string): string[] | null {
  const match = re.exec(text);
  return match ? match.slice(1).map((group) => group ?? "") : null;
}

function monthNumber(name: string | undefined): number | undefined {
  return name === undefined ? undefined : MONTHS[name.toLowerCase()];
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
