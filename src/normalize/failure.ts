/** A source's parse failure, and the rule that a parser which found nothing has failed. */
import type { z } from "zod";
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

/**
 * A JSON source's content checked against its schema: JSON that does not parse or does not have
 * the shape is a parse failure naming `what` the document should have been.
 */
export function jsonDocument<T>(
  input: { source: Pick<SourceDefinition, "name" | "url">; content: string },
  schema: z.ZodType<T>,
  what: string,
): T {
  try {
    return schema.parse(JSON.parse(input.content));
  } catch (error) {
    throw parseFailure(input.source, `not ${what}: ${(error as Error).message.slice(0, 300)}`);
  }
}

/** A JSON object (not null, not an array): what a community map's entries are read as, key by key. */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
