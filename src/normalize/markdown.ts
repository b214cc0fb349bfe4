/**
 * GitHub-flavoured Markdown pipe tables, as the providers' Markdown pages publish them, and the
 * cell cleaning the parsers share. Pure functions; what a cell means is the parser's business.
 */
import { group } from "../lib/regex.js";
import type { SourceDefinition } from "../schema/index.js";
import { parseFailure } from "./helpers.js";

export interface MarkdownTable {
  /** Header cells, trimmed, as written (markup kept, `\|` unescaped). */
  headers: string[];
  /** Body rows as raw cell texts aligned to the headers; rows whose cells are all empty are dropped. */
  rows: string[][];
  /** Text of the nearest preceding heading (any level). */
  heading: string;
  /** Text of the nearest preceding heading of each level (1-6) at the table's position. */
  headings: Partial<Record<number, string>>;
}

/** An ATX heading: "## Title", with an optional closing "##" sequence. */
const HEADING = /^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
/** The delimiter row under a table's header: "|---|:--|:-:|". */
const SEPARATOR_ROW = /^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

/** A leading YAML front matter block ("---" ... "---"), its body captured. */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The document without its leading front matter (unchanged when there is none). */
export function withoutFrontMatter(content: string): string {
  return content.replace(FRONT_MATTER, "");
}

/** The text of the document's leading front matter (its YAML), or undefined when it has none. */
export function frontMatterText(content: string): string | undefined {
  return FRONT_MATTER.exec(content)?.[1];
}

/** A page's non-empty lines, trimmed: a page rendered from HTML, one value per line. */
export function renderedLines(content: string): string[] {
  return content
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** The lines of the "## <heading>" section up to the next "## " heading; null when absent. */
export function levelTwoSection(content: string, heading: string): string[] | null {
  const lines = content.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start < 0) return null;
  const end = lines.findIndex((line, i) => i > start && line.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** True when `line` is the delimiter row of a pipe table ("| --- | :-: |"). */
export function isSeparatorRow(line: string): boolean {
  return SEPARATOR_ROW.test(line.trim());
}

/** The cells of one table row: split on unescaped pipes, trimmed, `\|` turned into `|`. */
export function splitTableRow(line: string): string[] {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  return body.split(/(?<!\\)\|/).map((cell) => cell.replace(/\\\|/g, "|").trim());
}

/** True when a line starts a pipe table: it begins with "|" and the next line is a delimiter row. */
export function startsTable(line: string, next: string | undefined): boolean {
  return line.trim().startsWith("|") && next !== undefined && isSeparatorRow(next);
}

/** Every pipe table in a Markdown document, with the headings it sits under. */
export function markdownTables(text: string): MarkdownTable[] {
  const lines = text.split(/\r?\n/);
  const headings: Partial<Record<number, string>> = {};
  let heading = "";
  const tables: MarkdownTable[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const h = HEADING.exec(line);
    if (h) {
      const level = group(h, 1).length;
      heading = group(h, 2);
      headings[level] = heading;
      for (let deeper = level + 1; deeper <= 6; deeper++) delete headings[deeper];
      continue;
    }
    if (!startsTable(line, lines[i + 1])) continue;
    const headers = splitTableRow(line);
    const rows: string[][] = [];
    let j = i + 2;
    for (let row = lines[j]; row?.trim().startsWith("|"); row = lines[++j]) {
      const cells = splitTableRow(row);
      if (cells.some((c) => c !== "")) rows.push(cells);
    }
    tables.push({ headers, rows, heading, headings: { ...headings } });
    i = j - 1;
  }
  return tables;
}

/** Non-breaking spaces to spaces, runs of white space to one, trimmed. */
export function collapseSpace(text: string): string {
  return text
    .replace(/\u00a0/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const SUP = /<sup>.*?<\/sup>/gi;

/** Markdown links replaced by their text: "[Vision](/docs/vision)" -> "Vision". */
export function linkText(text: string): string {
  return text.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
}

/** Cell text as read: links keep their text; code ticks, emphasis and <sup> footnotes go. */
export function plainCell(cell: string): string {
  return collapseSpace(linkText(cell.replace(SUP, "")).replace(/[`*]/g, ""));
}

/**
 * Cell text without code ticks, bold markers, <sup> footnotes, line breaks (<br>) or backslash
 * escapes; unlike `plainCell` it keeps link syntax and single `*`.
 */
export function cleanCell(raw: string): string {
  return collapseSpace(
    raw
      .replace(SUP, "")
      .replace(/<br\s*\/?>/gi, " ")
      .replace(/\*\*/g, "")
      .replace(/`/g, "")
      .replace(/\\([+|*_])/g, "$1"),
  );
}

/** Index of the first header whose plain text matches `re`; throws a parse failure when missing. */
export function requireColumn(
  source: Pick<SourceDefinition, "name" | "url">,
  headers: string[],
  re: RegExp,
): number {
  const index = headers.findIndex((h) => re.test(plainCell(h)));
  if (index < 0) throw parseFailure(source, `column ${re.source} missing (headers: ${headers.join(" | ")})`);
  return index;
}
