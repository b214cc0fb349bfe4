/**
 * The parts of the previous release's catalog.json a build needs as values: its events and
 * source states (small: read on the build's thread where serve-index.json says they lie, or
 * posted first by the worker when it has to find them at the end of catalog.json), and its
 * lifecycle records' cores and last_changed_at (lifecycleCoreText), read on a worker thread.
 * The worker parses the lifecycle records and keeps only those texts, so the build's thread
 * neither parses them (about 0.8 s at 100,000 deployments) nor holds them: it merges meanwhile
 * and stamps last_changed_at once the cores are in (stampLastChanged). The worker runs the
 * sources of the self-contained functions it needs, so the code is the same on both threads.
 */
import * as fs from "node:fs";
import { readFile } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import type { SourceEvent, SourceState } from "../schema/index.js";
import {
  catalogBoundaries,
  catalogParts,
  readCatalogTailSync,
  TAIL_STEP,
  type TailFs,
} from "../snapshot/catalog-parts.js";
import { type ReleaseDatabase, sqlString } from "./duckdb.js";
import {
  lifecycleCoreText,
  type PreviousCore,
  type PreviousCores,
  previousCoresOf,
  setPreviousCore,
} from "./merge-lifecycle.js";

/** A part's JSON text parsed, which must be an array. */
function parsedArray(text: string, name: string): unknown[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value)) throw new Error(`its ${name} are not an array`);
  return value;
}

/**
 * A member's array at [offset, length] in catalog.json: its bytes (`whole`) or just a check of
 * its ends; null unless they are an array's, preceded by the member's name and followed by the
 * next member or the end. Self-contained: the worker runs its source too.
 */
export function readSpan(
  fs: TailFs,
  fd: number,
  name: string,
  span: readonly [number, number],
  whole: boolean,
): Buffer | true | null {
  const [offset, length] = span;
  const key = Buffer.from(`${JSON.stringify(name)}:`);
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < key.length || length < 2)
    return null;
  const readAt = (bytes: Buffer, at: number) => {
    let read = 0;
    while (read < bytes.length) {
      const n = fs.readSync(fd, bytes, read, bytes.length - read, at + read);
      if (n === 0) return false;
      read += n;
    }
    return true;
  };
  const head = Buffer.allocUnsafe(key.length + 1);
  const end = Buffer.allocUnsafe(2);
  if (!readAt(head, offset - key.length) || !readAt(end, offset + length - 1)) return null;
  if (!head.subarray(0, key.length).equals(key) || head[key.length] !== 0x5b) return null;
  if (end[0] !== 0x5d || (end[1] !== 0x2c && end[1] !== 0x7d)) return null;
  if (!whole) return true;
  const bytes = Buffer.allocUnsafe(length);
  return readAt(bytes, offset) && bytes[0] === 0x5b && bytes[length - 1] === 0x5d ? bytes : null;
}

const PART_NAMES = ["events", "lifecycle", "sources"] as const;

/**
 * Where catalog.json's events, lifecycle and sources lie, as its release's serve-index.json
 * records them (`members`, its last member: a few KB read from its end), each checked at its
 * ends in catalog.json; null without serve-index.json or when a span does not hold.
 */
function locateParts(
  fs: TailFs,
  catalogPath: string,
  serveIndexPath: string | null,
): Record<(typeof PART_NAMES)[number], [number, number]> | null {
  if (serveIndexPath === null) return null;
  let members: Record<string, unknown>;
  let fd: number | undefined;
  try {
    fd = fs.openSync(serveIndexPath, "r");
    const size = fs.fstatSync(fd).size;
    const end = Buffer.allocUnsafe(Math.min(size, 4096));
    fs.readSync(fd, end, 0, end.length, size - end.length);
    const at = end.lastIndexOf(',"members":{');
    if (at < 0 || end.toString("latin1", end.length - 2) !== "}}") return null;
    members = JSON.parse(end.toString("utf8", at + ',"members":'.length, end.length - 1)) as Record<
      string,
      unknown
    >;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  const catalog = fs.openSync(catalogPath, "r");
  try {
    const spans: Partial<Record<(typeof PART_NAMES)[number], [number, number]>> = {};
    for (const name of PART_NAMES) {
      const span = members[name];
      if (!Array.isArray(span) || span.length !== 2) return null;
      const pair: [number, number] = [Number(span[0]), Number(span[1])];
      if (readSpan(fs, catalog, name, pair, false) !== true) return null;
      spans[name] = pair;
    }
    return spans as Record<(typeof PART_NAMES)[number], [number, number]>;
  } finally {
    fs.closeSync(catalog);
  }
}

// The worker: the lifecycle part's bytes (at its span, else found at the end of catalog.json,
// whose events and sources it then posts first), parsed, and each record's core.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const catalogBoundaries = ${catalogBoundaries.toString()};
const readCatalogTailSync = ${readCatalogTailSync.toString()};
const readSpan = ${readSpan.toString()};
const lifecycleCoreText = ${lifecycleCoreText.toString()};
try {
  let lifecycle = null;
  if (workerData.lifecycleSpan) {
    const fd = fs.openSync(workerData.path, "r");
    try {
      lifecycle = readSpan(fs, fd, "lifecycle", workerData.lifecycleSpan, true);
    } finally {
      fs.closeSync(fd);
    }
    if (lifecycle === null) throw new Error("its lifecycle is not where serve-index.json says");
    lifecycle = lifecycle.toString("utf8");
  } else {
    const tail = readCatalogTailSync(fs, workerData.path, workerData.step, catalogBoundaries);
    const spans = catalogBoundaries(tail);
    if (spans !== null) {
      const text = (name) => tail.toString("utf8", spans[name][0], spans[name][1]);
      parentPort.postMessage({ kind: "parts", events: text("events"), sources: text("sources") });
      lifecycle = text("lifecycle");
    }
  }
  if (lifecycle === null) {
    parentPort.postMessage({ kind: "not_canonical" });
  } else {
    const records = JSON.parse(lifecycle);
    if (!Array.isArray(records)) throw new Error("its lifecycle is not an array");
    // four texts per record: resource type, resource id, core, last_changed_at (or null)
    const cores = new Array(records.length * 4);
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      cores[4 * i] = r.resource_type;
      cores[4 * i + 1] = r.resource_id;
      cores[4 * i + 2] = lifecycleCoreText(r.lifecycle);
      cores[4 * i + 3] = r.lifecycle.last_changed_at;
    }
    parentPort.postMessage({ kind: "cores", cores });
  }
} catch (error) {
  parentPort.postMessage({ kind: "error", message: String(error && error.message) });
}
`;

type WorkerMessage =
  | { kind: "not_canonical" }
  | { kind: "parts"; events: string; sources: string }
  | { kind: "cores"; cores: Array<string | null> }
  | { kind: "error"; message: string };

export interface PreviousParts {
  events: SourceEvent[];
  sources: SourceState[];
  /**
   * Its lifecycle records' cores, in once the worker has parsed them. Rejects when they cannot
   * be read; the rejection is handled here, so a build that stops first leaves none unhandled.
   */
  lifecycle: Promise<PreviousCores>;
}

function coresFrom(flat: ReadonlyArray<string | null>): PreviousCores {
  const byType = new Map<string, Map<string, PreviousCore>>();
  for (let i = 0; i + 3 < flat.length; i += 4) {
    const type = flat[i];
    const id = flat[i + 1];
    const core = flat[i + 2];
    if (typeof type !== "string" || typeof id !== "string" || typeof core !== "string")
      throw new Error("a lifecycle record has no resource type, id or lifecycle");
    setPreviousCore(byType, type, id, { core, last_changed_at: flat[i + 3] ?? null });
  }
  return byType;
}

/** catalog.json's events and source states, read where serve-index.json says they lie, and where its lifecycle lies. */
export interface LocatedParts {
  events: SourceEvent[];
  sources: SourceState[];
  lifecycleSpan: [number, number];
}

/**
 * The events and source states of a published catalog.json, read (a few KB) where its release's
 * serve-index.json says they lie, with the lifecycle's span; null without serve-index.json or
 * when a span does not hold. Throws when the file cannot be read or a part is not JSON.
 */
export function locatePreviousParts(catalogPath: string, serveIndexPath: string | null): LocatedParts | null {
  const spans = locateParts(fs, catalogPath, serveIndexPath);
  if (spans === null) return null;
  const fd = fs.openSync(catalogPath, "r");
  try {
    const part = (name: "events" | "sources") => {
      const bytes = readSpan(fs, fd, name, spans[name], true);
      if (!(bytes instanceof Buffer)) throw new Error(`its ${name} are not where serve-index.json says`);
      return parsedArray(bytes.toString("utf8"), name);
    };
    return {
      events: part("events") as SourceEvent[],
      sources: part("sources") as SourceState[],
      lifecycleSpan: spans.lifecycle,
    };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The lifecycle cores of a published catalog.json, parsed on a worker thread from the
 * lifecycle's span (locatePreviousParts): the way when its lifecycle.parquet cannot give them
 * (previousCoresFromParquet). Rejects when the span does not hold or the records cannot be read.
 */
export function readLifecycleCores(
  catalogPath: string,
  lifecycleSpan: [number, number],
): Promise<PreviousCores> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { path: catalogPath, lifecycleSpan, step: TAIL_STEP },
    });
    let done = false;
    const settle = (error: Error | null, cores?: PreviousCores) => {
      if (done) return;
      done = true;
      void worker.terminate();
      if (error) reject(error);
      else if (cores) resolve(cores);
    };
    worker.on("message", (message: WorkerMessage) => {
      try {
        if (message.kind === "cores") settle(null, coresFrom(message.cores));
        else if (message.kind === "error") settle(new Error(message.message));
        else settle(new Error(`the thread reading ${catalogPath}'s lifecycle sent ${message.kind}`));
      } catch (error) {
        settle(error instanceof Error ? error : new Error(String(error)));
      }
    });
    worker.once("error", (error) => settle(error));
    worker.once("exit", (code) => settle(new Error(`the thread reading ${catalogPath} exited (${code})`)));
  });
}

/** A possibly null text column as JSON in SQL: JSON.stringify's text for every value without a control character. */
const jsonText = (column: string) => `coalesce(to_json(${column})::VARCHAR, 'null')`;
/**
 * A Parquet timestamp column as the record's text: announced_at and last_changed_at are
 * instants to the second (IsoSeconds: the assertions' schema and the build's clock), so
 * 2026-11-22T00:00:00Z, as written, comes back.
 */
const instantText = (column: string) => `strftime(${column}, '%Y-%m-%dT%H:%M:%SZ')`;
/** A Parquet date column (a milestone's day) as the record's text, YYYY-MM-DD. */
const dayText = (column: string) => `CAST(${column} AS VARCHAR)`;
const milestoneText = (m: string) =>
  [
    jsonText(`${m}_state`),
    jsonText(dayText(`${m}_date`)),
    jsonText(`${m}_precision`),
    jsonText(`${m}_date_type`),
  ].join(` || ',' || `);

/**
 * lifecycleCoreText of each record, written by SQL from a lifecycle.parquet's columns (which the
 * build flattened from the same records): `[status, announced_at, [deprecation state, date,
 * precision, date_type], [end of life ...], replacement_ids]` as JSON.stringify writes it.
 * DuckDB's to_json escapes as JSON.stringify does except for control characters (it writes
 * `\u001F` where JSON.stringify writes `\u001f`), so the query counts the records that hold
 * one anywhere and the cores come from it only when none does.
 */
function lifecycleCoresQuery(lifecycleParquet: string): string {
  const core = [
    `'['`,
    jsonText("lifecycle_status"),
    `','`,
    jsonText(instantText("announced_at")),
    `',['`,
    milestoneText("deprecation"),
    `'],['`,
    milestoneText("end_of_life"),
    `'],'`,
    `coalesce(to_json(replacement_ids)::VARCHAR, '[]')`,
    `']'`,
  ].join(" || ");
  const fields = [
    "resource_type",
    "resource_id",
    "lifecycle_status",
    ...["deprecation", "end_of_life"].flatMap((m) =>
      ["state", "precision", "date_type"].map((f) => `${m}_${f}`),
    ),
    "array_to_string(replacement_ids, '')",
  ];
  return `SELECT
  count(*) FILTER (WHERE regexp_matches(concat(${fields.join(", ")}), '[\\x00-\\x1f]'))::INTEGER AS unsafe,
  string_agg(resource_type || chr(9) || resource_id || chr(9) || ${core} || chr(9) || coalesce(${instantText("last_changed_at")}, ''), chr(10)) AS lines
FROM read_parquet(${sqlString(lifecycleParquet)})`;
}

/**
 * The previous release's lifecycle cores from its lifecycle.parquet, in one DuckDB query (tens
 * of milliseconds at 100,000 deployments, and a single string to split here), instead of
 * parsing the lifecycle records of its catalog.json (about 63 MB at 100,000 deployments: 1.5 s of
 * a core, which the merge shared). Null when a value holds a control character (the caller reads
 * catalog.json then: readLifecycleCores).
 */
export async function previousCoresFromParquet(
  db: ReleaseDatabase,
  lifecycleParquet: string,
): Promise<PreviousCores | null> {
  const [row] = await db.all<{ unsafe: number; lines: string | null }>(lifecycleCoresQuery(lifecycleParquet));
  if (row?.unsafe !== 0) return null;
  const flat: Array<string | null> = [];
  if (row.lines)
    for (const line of row.lines.split("\n")) {
      const parts = line.split("\t");
      if (parts.length !== 4) throw new Error("a lifecycle row of lifecycle.parquet does not read back");
      const [type, id, core, changed] = parts;
      flat.push(type ?? null, id ?? null, core ?? null, changed ? changed : null);
    }
  return coresFrom(flat);
}

/**
 * Reads a published catalog.json's events, source states and lifecycle cores (not hash-checked:
 * the caller verifies the file). The parts are read where the release's serve-index.json says
 * they lie (its last member, `members`: a few KB read from its end), else from the end of
 * catalog.json (readCatalogTailSync, 64 MB at 100,000 deployments). Resolves with the events
 * and source states (and the cores' promise) as soon as the worker has them; a catalog not in
 * the canonical shape is read whole here instead. Rejects when the file cannot be read or its
 * parts are not JSON. (`step`: the tail's read size, for tests.)
 */
export function readPreviousParts(
  catalogPath: string,
  options: { serveIndexPath?: string; step?: number } = {},
): Promise<PreviousParts> {
  const { serveIndexPath = null, step = TAIL_STEP } = options;
  // Located by serve-index.json: the events and sources read here (small), the lifecycle on the
  // worker. Else the worker reads the end of catalog.json and posts the events and sources first.
  let located: LocatedParts | null;
  try {
    located = locatePreviousParts(catalogPath, serveIndexPath);
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { path: catalogPath, lifecycleSpan: located?.lifecycleSpan ?? null, step },
    });
    let parts: ((cores: PreviousCores) => void) | null = null;
    let partsFailed: ((error: Error) => void) | null = null;
    let done = false;
    const partsIn = (events: SourceEvent[], sources: SourceState[]) => {
      const lifecycle = new Promise<PreviousCores>((resolveCores, rejectCores) => {
        parts = resolveCores;
        partsFailed = rejectCores;
      });
      lifecycle.catch(() => {});
      resolve({ events, sources, lifecycle });
    };
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      void worker.terminate();
      if (partsFailed) partsFailed(error);
      else reject(error);
    };
    if (located) partsIn(located.events, located.sources);
    worker.on("message", (message: WorkerMessage) => {
      try {
        if (message.kind === "error") fail(new Error(message.message));
        else if (message.kind === "not_canonical") {
          done = true;
          void worker.terminate();
          readWhole(catalogPath).then(resolve, reject);
        } else if (message.kind === "parts") {
          partsIn(
            parsedArray(message.events, "events") as SourceEvent[],
            parsedArray(message.sources, "sources") as SourceState[],
          );
        } else {
          const cores = coresFrom(message.cores);
          done = true;
          void worker.terminate();
          parts?.(cores);
        }
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
      }
    });
    worker.once("error", (error) => fail(error));
    worker.once("exit", (code) => {
      if (!done) fail(new Error(`the thread reading ${catalogPath} exited (${code})`));
    });
  });
}

async function readWhole(catalogPath: string): Promise<PreviousParts> {
  const whole = catalogParts(await readFile(catalogPath), ["events", "lifecycle", "sources"]);
  return {
    events: whole.events,
    sources: whole.sources,
    lifecycle: Promise.resolve(previousCoresOf(whole.lifecycle)),
  };
}
