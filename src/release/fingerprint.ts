/**
 * What "unchanged" compares: the deployments, lifecycle records and events of a catalog with
 * every lifecycle's `coverage.last_checked_at` left out (a source checked again later changes
 * nothing), and the gathered facts. The source states are not part of it. Each record is
 * hashed on its own as one line of canonical JSON, so a 100,000-deployment catalog is never
 * serialized into one more large string.
 *
 * The facts enter as the SHA-256 of their canonical JSON (facts.json's bytes): equal facts,
 * equal bytes. The lines and that hash come from the very texts the release files are
 * assembled from (serialize.ts), so a build serializes each record once: `fingerprintLine`
 * turns a record's canonical JSON into its fingerprint line by nulling `last_checked_at` in
 * the text (`fingerprintPieces` does the same on the text's UTF-8 bytes, without copying
 * them: what the build hashes). That is exact on canonical
 * JSON: a quote inside a string is escaped, so `"last_checked_at":"` only ever starts that
 * member, and `coverage` is the only object with such a key (the schema test holds that).
 * A release stores its fingerprint in report.json (`content_fingerprint`), so the next build
 * does not recompute it from the previous catalog and facts.
 */
import { createHash, type Hash } from "node:crypto";
import { canonicalJson } from "../lib/canonical-json.js";
import { sha256Hex } from "../lib/hash.js";
import type { CatalogContent } from "../schema/index.js";
import type { FactsFile } from "./facts.js";

/** The catalog's parts the fingerprint covers. */
export type FingerprintedCatalog = Pick<CatalogContent, "deployments" | "lifecycle" | "events">;

const CHECK_TIME = /"last_checked_at":"[^"]*"/g;

/** A record's fingerprint line from its canonical JSON: the check time nulled. */
export function fingerprintLine(canonical: string): string {
  return canonical.includes('"last_checked_at":"')
    ? canonical.replace(CHECK_TIME, '"last_checked_at":null')
    : canonical;
}

const CHECK_KEY_TEXT = '"last_checked_at":';
const CHECK_KEY = Buffer.from(CHECK_KEY_TEXT, "utf8");
const QUOTE = 0x22;
const NULL_BYTES = Buffer.from("null", "utf8");

/** A record's UTF-8 bytes as a Buffer (a view, not a copy). */
function asBuffer(canonical: Uint8Array): Buffer {
  return Buffer.isBuffer(canonical)
    ? canonical
    : Buffer.from(canonical.buffer, canonical.byteOffset, canonical.byteLength);
}

/**
 * `text`, the same JSON as the bytes, when it is ASCII (as many UTF-16 units as bytes): its
 * offsets are then the bytes' and the string is searched (no call into the buffer per record).
 */
function asciiOf(text: string | undefined, bytes: Buffer): string | null {
  return text !== undefined && text.length === bytes.byteLength ? text : null;
}

/**
 * The next check time of a record from offset `search` on: the offsets of its opening and closing
 * quotes, or null when there is none left. A check time is the string from `"last_checked_at":"`
 * to the next quote; `"last_checked_at":null` (or any value but a string) is passed over, and an
 * unterminated one ends the search.
 */
function nextCheckTime(
  bytes: Buffer,
  ascii: string | null,
  search: number,
): [open: number, close: number] | null {
  for (let from = search; ; ) {
    const at = ascii !== null ? ascii.indexOf(CHECK_KEY_TEXT, from) : bytes.indexOf(CHECK_KEY, from);
    if (at < 0) return null;
    const open = at + CHECK_KEY.length;
    if (bytes[open] !== QUOTE) {
      from = open;
      continue;
    }
    const close = ascii !== null ? ascii.indexOf('"', open + 1) : bytes.indexOf(QUOTE, open + 1);
    return close < 0 ? null : [open, close];
  }
}

/**
 * The fingerprint line of a record, given its canonical JSON as UTF-8 bytes, handed out piece
 * by piece (views of `canonical`, and `null` where a check time was): the bytes of
 * `fingerprintLine(text)` without a copy of the record.
 */
export function fingerprintPieces(
  canonical: Uint8Array,
  emit: (piece: Uint8Array) => void,
  text?: string,
): void {
  const bytes = asBuffer(canonical);
  const ascii = asciiOf(text, bytes);
  let from = 0;
  for (
    let found = nextCheckTime(bytes, ascii, 0);
    found !== null;
    found = nextCheckTime(bytes, ascii, from)
  ) {
    const [open, close] = found;
    emit(bytes.subarray(from, open));
    emit(NULL_BYTES);
    from = close + 1;
  }
  emit(from === 0 ? bytes : bytes.subarray(from));
}

const NEWLINE = Buffer.from("\n", "utf8");
const NEWLINE_BYTE = 0x0a;

/** Bytes gathered before they are handed to the hash in one call. */
const BATCH_BYTES = 1 << 16;

/**
 * The fingerprint hash, fed section by section with the records' canonical texts. The bytes
 * are gathered in a batch and hashed a batch at a time (a hash call per piece of a record was
 * about three calls per record, 600,000 at 100,000 deployments); the digest is the same.
 */
export class Fingerprint {
  private readonly hash: Hash = createHash("sha256");
  private readonly batch = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  private readonly update = (piece: Uint8Array) => {
    if (piece.byteLength > BATCH_BYTES - this.used) {
      this.flush();
      if (piece.byteLength > BATCH_BYTES) {
        this.hash.update(piece);
        return;
      }
    }
    this.batch.set(piece, this.used);
    this.used += piece.byteLength;
  };

  private flush(): void {
    if (this.used === 0) return;
    this.hash.update(this.batch.subarray(0, this.used));
    this.used = 0;
  }

  section(name: string, count: number): void {
    this.update(Buffer.from(`${name} ${count}\n`, "utf8"));
  }

  /** One record of a catalog section (deployments, lifecycle, events). */
  record(canonical: string): void {
    this.recordBytes(Buffer.from(canonical, "utf8"));
  }

  /**
   * `record`, for the record's canonical JSON as UTF-8 bytes (and as text, when the caller has
   * it). The record is copied into the batch whole and each check time nulled there, its tail
   * moved over the rest of the value (copyWithin): one copy per record instead of a view and a
   * copy per piece (about 0.3 s for the 200,000 records of a 100,000-deployment build). A record
   * larger than the batch, or a check time shorter than `null`, takes fingerprintPieces' way;
   * the bytes hashed are the same.
   */
  recordBytes(canonical: Uint8Array, text?: string): void {
    const length = canonical.byteLength;
    if (length + 1 > BATCH_BYTES || !this.recordInBatch(canonical, text)) {
      fingerprintPieces(canonical, this.update, text);
      this.update(NEWLINE);
    }
  }

  /** recordBytes in the batch; false (nothing written) where a value would grow. */
  private recordInBatch(canonical: Uint8Array, text: string | undefined): boolean {
    const bytes = asBuffer(canonical);
    const ascii = asciiOf(text, bytes);
    const length = bytes.byteLength;
    if (length + 1 > BATCH_BYTES - this.used) this.flush();
    const start = this.used;
    const batch = this.batch;
    batch.set(bytes, start);
    // offsets are the record's; `removed` bytes of it are gone from the batch so far
    let removed = 0;
    for (let found = nextCheckTime(bytes, ascii, 0); found !== null; ) {
      const [open, close] = found;
      const quoted = close + 1 - open;
      if (quoted < NULL_BYTES.byteLength) return false;
      const to = start + open - removed;
      batch.set(NULL_BYTES, to);
      batch.copyWithin(to + NULL_BYTES.byteLength, start + close + 1 - removed, start + length - removed);
      removed += quoted - NULL_BYTES.byteLength;
      found = nextCheckTime(bytes, ascii, close + 1);
    }
    const end = start + length - removed;
    batch[end] = NEWLINE_BYTE;
    this.used = end + 1;
    return true;
  }

  /** The facts, by the SHA-256 (hex) of their canonical JSON. */
  facts(sha256: string): void {
    this.update(Buffer.from(`facts ${sha256}\n`, "utf8"));
  }

  digest(): string {
    this.flush();
    return this.hash.digest("hex");
  }
}

/** The fingerprint of a catalog and its facts; equal exactly when their content is. */
export function contentFingerprint(catalog: FingerprintedCatalog, facts: FactsFile): string {
  const fingerprint = new Fingerprint();
  for (const [name, records] of [
    ["deployments", catalog.deployments],
    ["lifecycle", catalog.lifecycle],
    ["events", catalog.events],
  ] as const) {
    fingerprint.section(name, records.length);
    for (const record of records) fingerprint.record(canonicalJson(record));
  }
  fingerprint.facts(sha256Hex(canonicalJson(facts)));
  return fingerprint.digest();
}
