/**
 * The large files of a release, serialized once: catalog.json and facts.json are assembled
 * record by record from each record's canonical JSON (the same bytes as `canonicalJson` of the
 * whole value: the top-level keys are written in their sorted order) and handed to a sink in
 * chunks of about a mebibyte (the build's sink writes them to a staged object file), so no
 * string or buffer of the whole file exists; the content fingerprint is fed the same texts on
 * the way (fingerprint.ts). Pure apart from the sinks it is given.
 */
import { createHash } from "node:crypto";
import { canonicalJson, writeCanonicalJson } from "../lib/canonical-json.js";
import type { CatalogContent } from "../schema/index.js";
import { type CatalogLayoutRecorder, type SpannedList, storedLifecycle } from "../snapshot/index.js";
import type { FactsFile } from "./facts.js";
import { Fingerprint } from "./fingerprint.js";

/**
 * Receives a file's bytes, chunk by chunk, in order, and consumes each chunk before it
 * returns (writes it to a file, hashes it): the writer reuses the chunk's memory afterwards.
 * A sink that keeps chunks copies them. (At 100,000 deployments the files are about 350 MB:
 * a fresh mebibyte per chunk cost about 0.3 s of page faults on the build machine.)
 */
export type Sink = (chunk: Uint8Array) => void;

/** Text is encoded in pieces of about this many characters. */
const PENDING_CHARS = 1 << 16;
/** Bytes are handed to the sink in chunks of about a mebibyte. */
const CHUNK_BYTES = 1 << 20;

/**
 * Assembles a file's bytes in one reused chunk of CHUNK_BYTES and hands it to its sink when
 * full. Small pieces of text are gathered and encoded together; a record's canonical JSON is
 * encoded straight into the chunk (writeRecord), and that view of its bytes is what the
 * fingerprint and DuckDB's staging file get too, so each record is encoded once and never
 * copied to a buffer of its own. With a layout recorder (catalog.json), every piece also goes
 * to it, so the spans of the records and members are known when the file is
 * (serve-index.json is made from them).
 */
class ChunkWriter {
  private pending = "";
  private chunk: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;

  constructor(
    private readonly sink: Sink,
    private readonly layout: CatalogLayoutRecorder | null = null,
  ) {}

  write(text: string): void {
    this.layout?.text(text);
    this.pending += text;
    if (this.pending.length >= PENDING_CHARS) this.encodePending();
  }

  /**
   * One whole record's canonical JSON, encoded into the chunk (`record`: of that list, its
   * span is recorded). Returns the view of its bytes, valid until the next write.
   */
  writeRecord(text: string, record?: SpannedList): Uint8Array {
    this.encodePending();
    let bytes: Uint8Array;
    if (text.length * 3 <= this.chunk.byteLength) {
      // a UTF-16 unit is 3 UTF-8 bytes at most: room is made first, then it is encoded in place
      if (text.length * 3 > this.chunk.byteLength - this.used) this.flush();
      const length = this.chunk.write(text, this.used, "utf8");
      bytes = this.chunk.subarray(this.used, this.used + length);
      this.used += length;
    } else {
      bytes = Buffer.from(text, "utf8");
      this.put(bytes);
    }
    if (this.layout) {
      if (record) this.layout.recordBytes(record, bytes.byteLength);
      else this.layout.bytes(bytes.byteLength);
    }
    return bytes;
  }

  /** Writes a top-level member's value, recording its span. */
  member(name: string, writeValue: () => void): void {
    this.layout?.beginMember();
    writeValue();
    this.layout?.endMember(name);
  }

  end(): void {
    this.encodePending();
    this.flush();
  }

  private encodePending(): void {
    if (this.pending.length === 0) return;
    const text = this.pending;
    this.pending = "";
    // short text is written straight into the chunk when it surely fits (3 bytes per UTF-16 unit at most)
    if (text.length * 3 <= this.chunk.byteLength - this.used)
      this.used += this.chunk.write(text, this.used, "utf8");
    else this.put(Buffer.from(text, "utf8"));
  }

  private put(bytes: Uint8Array): void {
    if (this.used + bytes.byteLength > this.chunk.byteLength) this.flush();
    if (bytes.byteLength >= this.chunk.byteLength) {
      this.sink(bytes);
      return;
    }
    this.chunk.set(bytes, this.used);
    this.used += bytes.byteLength;
  }

  private flush(): void {
    if (this.used === 0) return;
    this.sink(this.chunk.subarray(0, this.used));
    this.used = 0;
  }
}

/**
 * `canonicalJson(value)` to `sink` a mebibyte at a time, written piece by piece down to `depth`
 * levels (writeCanonicalJson), so neither a key-sorted copy nor a string nor a buffer of the
 * whole value is made: prices.json (about 60 MB at 100,000 deployments, one string, its copy
 * and its bytes before) is written at depth 2, a deployment's intervals per piece.
 */
export function writeCanonicalJsonTo(value: unknown, sink: Sink, depth: number): void {
  const out = new ChunkWriter(sink);
  writeCanonicalJson(value, (piece) => out.write(piece), depth);
  out.end();
}

/**
 * A source's facts can be the whole of a 100,000-deployment map: written piece by piece, down
 * to its output's lists, whose records are one piece each.
 */
const SOURCE_FACTS_DEPTH = 3;

/**
 * `"name":[r1,r2,...]`, each record's canonical JSON encoded once and its bytes handed to `each`
 * on the way (`spanned`: each record's span recorded).
 */
function writeArray<T>(
  out: ChunkWriter,
  name: string,
  records: readonly T[],
  serialize: (record: T) => string,
  each: (bytes: Uint8Array, text: string, index: number) => void,
  spanned?: SpannedList,
): void {
  out.write(`${JSON.stringify(name)}:`);
  out.member(name, () => {
    out.write("[");
    for (let i = 0; i < records.length; i++) {
      if (i > 0) out.write(",");
      const text = serialize(records[i] as T);
      each(out.writeRecord(text, spanned), text, i);
    }
    out.write("]");
  });
}

/**
 * Writes catalog.json and facts.json (canonical JSON) to their sinks; returns the content
 * fingerprint, contentFingerprint(catalog, facts), computed from the same texts. With
 * `sinks.layout`, the layout of catalog.json (record and member spans) is recorded on the way;
 * `sinks.records` receives every deployment's and stored lifecycle record's text (the build
 * stages them for DuckDB); `sinks.between` is called between the two files.
 */
export function serializeRelease(
  catalog: CatalogContent,
  facts: FactsFile,
  sinks: {
    catalog: Sink;
    facts: Sink;
    layout?: CatalogLayoutRecorder;
    between?: () => void;
    /** Each deployment's and stored lifecycle record's canonical JSON (UTF-8 bytes) and index, as written. */
    records?: Record<SpannedList, (bytes: Uint8Array, index: number) => void>;
    /** The deployments' own lifecycle records are left out (deploymentLifecyclesEmbedded). */
    embedded?: boolean;
  },
): string {
  const fingerprint = writeCatalogJson(catalog, sinks);
  sinks.between?.();
  return writeFactsJson(facts, sinks.facts, fingerprint);
}

/**
 * The first half of serializeRelease: catalog.json to `sinks.catalog` (with its layout and
 * records, as there). Returns the fingerprint so far, for writeFactsJson to finish: a build
 * lets go of the catalog in between.
 */
export function writeCatalogJson(
  catalog: CatalogContent,
  sinks: {
    catalog: Sink;
    layout?: CatalogLayoutRecorder;
    records?: Record<SpannedList, (bytes: Uint8Array, index: number) => void>;
    embedded?: boolean;
  },
): Fingerprint {
  const fingerprint = new Fingerprint();
  const record = (list: SpannedList) => {
    const each = sinks.records?.[list];
    return (bytes: Uint8Array, text: string, index: number) => {
      fingerprint.recordBytes(bytes, text);
      each?.(bytes, index);
    };
  };
  const cat = new ChunkWriter(sinks.catalog, sinks.layout ?? null);
  // canonical key order of CatalogContent: deployments, events, lifecycle, sources
  cat.write("{");
  fingerprint.section("deployments", catalog.deployments.length);
  writeArray(cat, "deployments", catalog.deployments, canonicalJson, record("deployments"), "deployments");
  cat.write(",");
  // the fingerprint's section order (deployments, lifecycle, events) predates this file's
  const events = catalog.events.map(canonicalJson);
  cat.write(`"events":`);
  cat.member("events", () => cat.write(`[${events.join(",")}]`));
  cat.write(",");
  // the stored records (deployment-lifecycles.ts): a deployment's own is in the deployment
  const lifecycle = storedLifecycle(catalog.lifecycle, sinks.embedded ?? false);
  fingerprint.section("lifecycle", lifecycle.length);
  writeArray(cat, "lifecycle", lifecycle, canonicalJson, record("lifecycle"), "lifecycle");
  fingerprint.section("events", events.length);
  for (const text of events) fingerprint.record(text);
  cat.write(",");
  writeArray(cat, "sources", catalog.sources, canonicalJson, () => {});
  cat.write("}");
  cat.end();
  return fingerprint;
}

/**
 * The second half of serializeRelease: facts.json to `sink`; returns the content fingerprint.
 * `sinkDigest`: the SHA-256 (hex) of the bytes the sink was given, called once they all were,
 * for a sink that hashes them itself (a staged object does): they are not hashed twice.
 */
export function writeFactsJson(
  facts: FactsFile,
  sink: Sink,
  fingerprint: Fingerprint,
  sinkDigest?: () => string,
): string {
  const factsHash = sinkDigest ? null : createHash("sha256");
  const out = new ChunkWriter(
    factsHash
      ? (chunk) => {
          factsHash.update(chunk);
          sink(chunk);
        }
      : sink,
  );
  out.write(`{"format":${JSON.stringify(facts.format)},"sources":[`);
  const emit = (piece: string) => out.write(piece);
  facts.sources.forEach((source, i) => {
    if (i > 0) out.write(",");
    writeCanonicalJson(source, emit, SOURCE_FACTS_DEPTH);
  });
  out.write("]}");
  out.end();
  fingerprint.facts(factsHash ? factsHash.digest("hex") : (sinkDigest as () => string)());
  return fingerprint.digest();
}
