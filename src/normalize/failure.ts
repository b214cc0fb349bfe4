/** A source's parse failure, and the rule that a parser which found nothing has failed. */
import { CatalogError } from "../lib/errors.js";
import type { SourceDefinition } from "../schema/index.js";

export function parseFailure(source: Pick<SourceDefinition, "name" | "url">, message: string): CatalogError {
  return new CatalogError("parse_failed", `${source.name}: ${message}`, { source_url: source.url });
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
