/**
 * The parts of the previous release's catalog.json a build needs as values, read on a worker
 * thread: its events and source states (small, posted first), then its lifecycle records'
 * cores and last_changed_at (lifecycleCoreText). The worker parses the lifecycle records and
 * keeps only those texts, so the build's thread neither parses them (about 0.8 s at 100,000
 * deployments) nor holds them: it merges meanwhile and stamps last_changed_at once the cores
 * are in (stampLastChanged). The worker runs the sources of the self-contained functions it
 * needs, so the code is the same on both threads.
 */
import { readFile } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import type { SourceEvent, SourceState } from "../schema/index.js";
import {
  catalogBoundaries,
  catalogParts,
  readCatalogTailSync,
  TAIL_STEP,
} from "../snapshot/catalog-parts.js";
import {
  lifecycleCoreText,
  type PreviousCore,
  type PreviousCores,
  previousCoresOf,
} from "./merge-lifecycle.js";

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const catalogBoundaries = ${catalogBoundaries.toString()};
const readCatalogTailSync = ${readCatalogTailSync.toString()};
const lifecycleCoreText = ${lifecycleCoreText.toString()};
try {
  const tail = readCatalogTailSync(fs, workerData.path, workerData.step, catalogBoundaries);
  const spans = catalogBoundaries(tail);
  if (spans === null) {
    parentPort.postMessage({ kind: "not_canonical" });
  } else {
    const text = (name) => tail.toString("utf8", spans[name][0], spans[name][1]);
    parentPort.postMessage({ kind: "parts", events: text("events"), sources: text("sources") });
    const records = JSON.parse(text("lifecycle"));
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
    let byId = byType.get(type);
    if (byId === undefined) {
      byId = new Map();
      byType.set(type, byId);
    }
    byId.set(id, { core, last_changed_at: flat[i + 3] ?? null });
  }
  return byType;
}

/**
 * Reads a published catalog.json's events, source states and lifecycle cores (not hash-checked:
 * the caller verifies the file). Resolves with the events and source states (and the cores'
 * promise) as soon as the worker has them; a catalog not in the canonical shape is read whole
 * here instead. Rejects when the file cannot be read or its parts are not JSON. (`step`: the
 * tail's read size, for tests.)
 */
export function readPreviousParts(catalogPath: string, step = TAIL_STEP): Promise<PreviousParts> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { path: catalogPath, step } });
    let parts: ((cores: PreviousCores) => void) | null = null;
    let partsFailed: ((error: Error) => void) | null = null;
    let done = false;
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      void worker.terminate();
      if (partsFailed) partsFailed(error);
      else reject(error);
    };
    worker.on("message", (message: WorkerMessage) => {
      try {
        if (message.kind === "error") fail(new Error(message.message));
        else if (message.kind === "not_canonical") {
          done = true;
          void worker.terminate();
          readWhole(catalogPath).then(resolve, reject);
        } else if (message.kind === "parts") {
          const events = JSON.parse(message.events) as SourceEvent[];
          const sources = JSON.parse(message.sources) as SourceState[];
          if (!Array.isArray(events) || !Array.isArray(sources))
            throw new Error("its events or sources are not arrays");
          const lifecycle = new Promise<PreviousCores>((resolveCores, rejectCores) => {
            parts = resolveCores;
            partsFailed = rejectCores;
          });
          lifecycle.catch(() => {});
          resolve({ events, sources, lifecycle });
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
