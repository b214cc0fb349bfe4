/** Token counts as models pages print them. */
import { group } from "../lib/regex.js";
import type { SourceDefinition } from "../schema/index.js";
import { parseFailure } from "./failure.js";

/**
 * A token count as a models page prints it: "1,048,576", "400,000", "200K tokens", "1M tokens",
 * "64k" -> an integer (K = 1,000 and M = 1,000,000, as the pages use them); null when the text
 * is not a token count.
 */
export function tokenCount(text: string): number | null {
  const m = /^(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*([km])?(?:\s*tokens?)?$/i.exec(text.trim());
  if (!m) return null;
  const scale = m[2] === undefined ? 1 : m[2].toLowerCase() === "m" ? 1_000_000 : 1000;
  const value = Math.round(Number(group(m, 1).replace(/,/g, "")) * scale);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
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
