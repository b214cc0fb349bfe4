/** HTML tables located by their header names. A renamed column is a parse failure, never an empty result. */
import * as cheerio from "cheerio";
import type { SourceDefinition } from "../schema/index.js";
import { parseFailure } from "./failure.js";

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
