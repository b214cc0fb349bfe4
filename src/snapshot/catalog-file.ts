/**
 * catalog.json as a release stores it: the canonical JSON of the catalog (keys sorted, no
 * whitespace), assembled record by record so the byte span of every deployment and lifecycle
 * record inside the file is known. The bytes are exactly `canonicalJson(catalog)` (a test holds
 * them equal); the spans let the server read one record without parsing the file.
 */
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import type { CatalogContent } from "../schema/release.js";

/** Byte spans in catalog.json: `offset[i]` and `length[i]` of the i-th item. */
export interface Spans {
  offset: number[];
  length: number[];
}

export interface CatalogFile {
  bytes: Buffer;
  /** The span of each top-level member's value (the whole `[...]` array of each list). */
  members: Record<string, [offset: number, length: number]>;
  /** Each deployment's span, in catalog order. */
  deployments: Spans;
  /** Each lifecycle record's span, in catalog order. */
  lifecycle: Spans;
}

/** The members whose items get a span each. */
const SPANNED = ["deployments", "lifecycle"] as const;

/** Serializes a catalog to the bytes of catalog.json, with the span of every record. */
export function serializeCatalog(catalog: CatalogContent): CatalogFile {
  const pieces: string[] = [];
  let position = 0;
  const add = (text: string): number => {
    pieces.push(text);
    const bytes = Buffer.byteLength(text, "utf8");
    position += bytes;
    return bytes;
  };
  const members: CatalogFile["members"] = {};
  const record = catalog as unknown as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort(compareCodePoints);
  const result: Partial<Record<(typeof SPANNED)[number], Spans>> = {};

  add("{");
  keys.forEach((key, k) => {
    add(`${k > 0 ? "," : ""}${JSON.stringify(key)}:`);
    const value = record[key];
    const start = position;
    if ((SPANNED as readonly string[]).includes(key) && Array.isArray(value)) {
      const itemSpans: Spans = { offset: [], length: [] };
      add("[");
      value.forEach((item, i) => {
        if (i > 0) add(",");
        itemSpans.offset.push(position);
        // an undefined array item is null in JSON, as canonicalJson writes it
        itemSpans.length.push(add(item === undefined ? "null" : canonicalJson(item)));
      });
      add("]");
      result[key as (typeof SPANNED)[number]] = itemSpans;
    } else add(canonicalJson(value));
    members[key] = [start, position - start];
  });
  add("}");

  const bytes = Buffer.allocUnsafe(position);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at, "utf8");
  return {
    bytes,
    members,
    deployments: result.deployments ?? { offset: [], length: [] },
    lifecycle: result.lifecycle ?? { offset: [], length: [] },
  };
}
