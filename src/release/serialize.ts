/**
 * The large files of a release, serialized once: catalog.json and facts.json are assembled
 * record by record from each record's canonical JSON (the same bytes as `canonicalJson` of the
 * whole value: the top-level keys are written in their sorted order) and handed to a sink in
 * chunks of about a mebibyte (the build's sink writes them to a staged object file), so no
 * string or buffer of the whole file exists; the content fingerprint is fed the same texts on
 * the way (fingerprint.ts). Pure apart from the sinks it is given.
 */
import { createHash } from "node:crypto";
import { canonicalSerializer, canonicalWriter } from "../schema/canonical.js";
import {
  type CatalogContent,
  Deployment,
  LifecycleRecord,
  SourceEvent,
  SourceFacts,
  SourceState,
} from "../schema/index.js";
import type { CatalogLayoutRecorder, SpannedList } from "../snapshot/index.js";
import type { FactsFile } from "./facts.js";
import { Fingerprint } from "./fingerprint.js";

/** Receives a file's bytes, chunk by chunk, in order. */
export type Sink = (chunk: Uint8Array) => void;

const CHUNK_CHARS = 1 << 20;

/**
 * Appends text and cuts it into encoded chunks of about CHUNK_CHARS characters; with a layout
 * recorder (catalog.json), every piece of text also goes to it, so the spans of the records
 * and members are known when the file is (serve-index.json is made from them).
 */
class ChunkWriter {
  private pending = "";

  constructor(
    private readonly sink: Sink,
    private readonly layout: CatalogLayoutRecorder | null = null,
  ) {}

  /** `record`: the text is one whole record of that list (its span is recorded). */
  write(text: string, record?: SpannedList): void {
    if (this.layout) {
      if (record) this.layout.record(record, text);
      else this.layout.text(text);
    }
    this.pending += text;
    if (this.pending.length >= CHUNK_CHARS) this.flush();
  }

  /** Writes a top-level member's value, recording its span. */
  member(name: string, writeValue: () => void): void {
    this.layout?.beginMember();
    writeValue();
    this.layout?.endMember(name);
  }

  end(): void {
    this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.sink(Buffer.from(this.pending, "utf8"));
    this.pending = "";
  }
}

// Each record's canonical JSON, compiled from its schema (the same bytes as canonicalJson).
const deploymentJson = canonicalSerializer(Deployment);
const lifecycleJson = canonicalSerializer(LifecycleRecord);
const eventJson = canonicalSerializer(SourceEvent);
const sourceStateJson = canonicalSerializer(SourceState);
// A source's facts can be the whole of a 100,000-deployment map: written piece by piece.
const writeSourceFacts = canonicalWriter(SourceFacts);

/** `"name":[r1,r2,...]`, each record's text handed to `each` on the way (`spanned`: each record's span recorded). */
function writeArray<T>(
  out: ChunkWriter,
  name: string,
  records: readonly T[],
  serialize: (record: T) => string,
  each: (text: string) => void,
  spanned?: SpannedList,
): void {
  out.write(`${JSON.stringify(name)}:`);
  out.member(name, () => {
    out.write("[");
    for (let i = 0; i < records.length; i++) {
      const text = serialize(records[i] as T);
      each(text);
      if (i > 0) out.write(",");
      out.write(text, spanned);
    }
    out.write("]");
  });
}

/**
 * Writes catalog.json and facts.json (canonical JSON) to their sinks; returns the content
 * fingerprint, contentFingerprint(catalog, facts), computed from the same texts. With
 * `sinks.layout`, the layout of catalog.json (record and member spans) is recorded on the way;
 * `sinks.records` receives every deployment's and lifecycle record's text (the build stages them
 * for DuckDB); `sinks.between` is called between the two files.
 */
export function serializeRelease(
  catalog: CatalogContent,
  facts: FactsFile,
  sinks: {
    catalog: Sink;
    facts: Sink;
    layout?: CatalogLayoutRecorder;
    between?: () => void;
    /** Each deployment's and lifecycle record's canonical JSON, as it is written. */
    records?: Record<SpannedList, (text: string) => void>;
  },
): string {
  const fingerprint = new Fingerprint();
  const record = (list: SpannedList) => {
    const each = sinks.records?.[list];
    return (text: string) => {
      fingerprint.record(text);
      each?.(text);
    };
  };
  const cat = new ChunkWriter(sinks.catalog, sinks.layout ?? null);
  // canonical key order of CatalogContent: deployments, events, lifecycle, sources
  cat.write("{");
  fingerprint.section("deployments", catalog.deployments.length);
  writeArray(cat, "deployments", catalog.deployments, deploymentJson, record("deployments"), "deployments");
  cat.write(",");
  // the fingerprint's section order (deployments, lifecycle, events) predates this file's
  const events = catalog.events.map(eventJson);
  cat.write(`"events":`);
  cat.member("events", () => cat.write(`[${events.join(",")}]`));
  cat.write(",");
  fingerprint.section("lifecycle", catalog.lifecycle.length);
  writeArray(cat, "lifecycle", catalog.lifecycle, lifecycleJson, record("lifecycle"), "lifecycle");
  fingerprint.section("events", events.length);
  for (const text of events) fingerprint.record(text);
  cat.write(",");
  writeArray(cat, "sources", catalog.sources, sourceStateJson, () => {});
  cat.write("}");

  cat.end();
  sinks.between?.();
  const factsHash = createHash("sha256");
  const out = new ChunkWriter((chunk) => {
    factsHash.update(chunk);
    sinks.facts(chunk);
  });
  out.write(`{"format":${JSON.stringify(facts.format)},"sources":[`);
  const emit = (piece: string) => out.write(piece);
  facts.sources.forEach((source, i) => {
    if (i > 0) out.write(",");
    writeSourceFacts(source, emit);
  });
  out.write("]}");
  out.end();
  fingerprint.facts(factsHash.digest("hex"));
  return fingerprint.digest();
}
