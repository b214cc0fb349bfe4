/**
 * catalog.json as a release stores it: the canonical JSON of the catalog (keys sorted, no
 * whitespace) with the lifecycle records it stores (deployment-lifecycles.ts), assembled record
 * by record so the byte span of every deployment and lifecycle record inside the file is known.
 * The bytes are exactly `canonicalJson` of that (a test holds them equal); the spans (a
 * `CatalogLayout`) let the server read one record without parsing the file. A writer that
 * streams catalog.json in its own way records the same layout by handing each piece of text it
 * writes to a `CatalogLayoutRecorder`.
 */
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import type { CatalogContent } from "../schema/release.js";
import { storedLifecycle } from "./deployment-lifecycles.js";

/** Byte spans in catalog.json: `offset[i]` and `length[i]` of the i-th item. */
export interface Spans {
  offset: number[];
  length: number[];
}

/** Where things are in a catalog.json. */
export interface CatalogLayout {
  /** The file's size. */
  bytes: number;
  /** The span [offset, length] of each top-level member's value (the whole `[...]` of each list). */
  members: Record<string, [offset: number, length: number]>;
  /** Each deployment's span, in the file's order. */
  deployments: Spans;
  /** Each lifecycle record's span, in the file's order. */
  lifecycle: Spans;
}

/** The lists whose records get a span each. */
export type SpannedList = "deployments" | "lifecycle";

/**
 * Records a CatalogLayout while catalog.json is written: every piece of text goes through
 * `text` (or `record`, for one record of a spanned list) in the order it is written, and each
 * top-level member's value between `beginMember` and `endMember`.
 */
export class CatalogLayoutRecorder {
  private position = 0;
  private memberStart = 0;
  private readonly layout: CatalogLayout = {
    bytes: 0,
    members: {},
    deployments: { offset: [], length: [] },
    lifecycle: { offset: [], length: [] },
  };

  /** Text outside any record; returns its length in bytes. */
  text(text: string): number {
    return this.bytes(Buffer.byteLength(text, "utf8"));
  }

  /** `text`, for a piece already encoded: its length in bytes. */
  bytes(length: number): number {
    this.position += length;
    return length;
  }

  /** One record of a spanned list (its canonical JSON, nothing else). */
  record(list: SpannedList, text: string): void {
    this.recordBytes(list, Buffer.byteLength(text, "utf8"));
  }

  /** `record`, for a record already encoded: its length in bytes. */
  recordBytes(list: SpannedList, length: number): void {
    const spans = this.layout[list];
    spans.offset.push(this.position);
    spans.length.push(this.bytes(length));
  }

  /** Call right before the member's value is written. */
  beginMember(): void {
    this.memberStart = this.position;
  }

  /** Call right after the member's value is written. */
  endMember(name: string): void {
    this.layout.members[name] = [this.memberStart, this.position - this.memberStart];
  }

  /** The layout of everything written so far. */
  finish(): CatalogLayout {
    return { ...this.layout, bytes: this.position };
  }
}

const SPANNED: readonly string[] = ["deployments", "lifecycle"] satisfies SpannedList[];

/**
 * Serializes a catalog to the bytes of catalog.json, with its layout; `embedded`
 * (deploymentLifecyclesEmbedded): the deployments' own lifecycle records are left out.
 */
export function serializeCatalog(
  catalog: CatalogContent,
  embedded = false,
): { bytes: Buffer; layout: CatalogLayout } {
  const pieces: string[] = [];
  const layout = new CatalogLayoutRecorder();
  const add = (text: string) => {
    pieces.push(text);
    layout.text(text);
  };
  const record = {
    ...catalog,
    lifecycle: storedLifecycle(catalog.lifecycle, embedded),
  } as unknown as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort(compareCodePoints);

  add("{");
  keys.forEach((key, k) => {
    add(`${k > 0 ? "," : ""}${JSON.stringify(key)}:`);
    const value = record[key];
    layout.beginMember();
    if (SPANNED.includes(key) && Array.isArray(value)) {
      add("[");
      value.forEach((item, i) => {
        if (i > 0) add(",");
        // an undefined array item is null in JSON, as canonicalJson writes it
        const text = item === undefined ? "null" : canonicalJson(item);
        pieces.push(text);
        layout.record(key as SpannedList, text);
      });
      add("]");
    } else add(canonicalJson(value));
    layout.endMember(key);
  });
  add("}");

  const finished = layout.finish();
  const bytes = Buffer.allocUnsafe(finished.bytes);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at, "utf8");
  return { bytes, layout: finished };
}
