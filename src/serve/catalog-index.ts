/**
 * The in-memory form of one loaded release: records in their catalog order, each record's
 * JSON pre-serialized into a Buffer, exact-match indexes (lists of record positions in id
 * order) and the precomputed lifecycle sort orders. Built once per release and never
 * mutated, so a request that captured a ServedRelease sees one release from start to end.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import {
  type CapabilityName,
  Deployment,
  type LifecycleRecord,
  type ReleaseManifest,
  type SourceEvent,
} from "../schema/index.js";
import type { LoadedRelease } from "../snapshot/index.js";
import { nullsLastOrder } from "./page.js";
import { PostAnswerCache, ResponseCache } from "./response-cache.js";

export type LifecycleSortKey = "end_of_life" | "deprecation" | "last_changed";

export interface LifecycleOrders {
  asc: Uint32Array;
  desc: Uint32Array;
}

export interface ServedRelease {
  releaseId: string;
  manifest: ReleaseManifest;
  /** Sorted by id; a position in this array is the record's index everywhere below. */
  deployments: Deployment[];
  /** Each record's JSON in the API's field order, serialized on first use and then kept. */
  deploymentJson: RecordJson;
  deploymentById: Map<string, number>;
  /** The same records by id, for compare and calculate. */
  deploymentMap: Map<string, Deployment>;
  /** Lowercased search text per deployment (id, model, lab, provider, provider model id, mode); built on first use. */
  deploymentSearch: string[];
  byProvider: Map<string, number[]>;
  byModel: Map<string, number[]>;
  byRegion: Map<string, number[]>;
  byMode: Map<string, number[]>;
  /** Deployments whose capability status is `supported` (never `conditional`). */
  bySupportedCapability: Map<CapabilityName, number[]>;
  priced: number[];
  unpriced: number[];
  allDeployments: number[];

  /** Sorted by (resource_type, resource_id). */
  lifecycle: LifecycleRecord[];
  lifecycleJson: RecordJson;
  lifecycleOrders: Record<LifecycleSortKey, LifecycleOrders>;

  /** Sorted by (detected_at, id). */
  events: SourceEvent[];
  eventJson: RecordJson;
  /** detected_at as epoch milliseconds, per event. */
  eventTimes: Float64Array;

  /** Prepared GET answers of this release (the only mutable part: a memo). */
  answers: ResponseCache;
  /** Computed answers to identical compare bodies on this release (a memo too). */
  postAnswers: PostAnswerCache;
}

/** Pre-serialized records by position (a Buffer[] is one). */
export interface RecordJson {
  readonly length: number;
  at(index: number): Buffer | undefined;
}

/**
 * Deployments serialized when first asked for: a 100,000-deployment release does not
 * stringify every record at start-up. Each goes through the `Deployment` schema first, so the
 * bytes have the API's field order whether the record was loaded with the schema pass or
 * without it (loadTrustedRelease keeps the stored key order).
 */
class LazyDeploymentJson implements RecordJson {
  private readonly done: Array<Buffer | undefined>;
  constructor(private readonly records: readonly Deployment[]) {
    this.done = new Array(records.length);
  }
  get length(): number {
    return this.records.length;
  }
  at(index: number): Buffer | undefined {
    const cached = this.done[index];
    if (cached) return cached;
    const record = this.records[index];
    if (record === undefined) return undefined;
    const body = json(Deployment.parse(record));
    this.done[index] = body;
    return body;
  }
}

function push<K>(map: Map<K, number[]>, key: K, index: number): void {
  const list = map.get(key);
  if (list) list.push(index);
  else map.set(key, [index]);
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), "utf8");
}

export function lifecycleSortValue(record: LifecycleRecord, key: LifecycleSortKey): string | null {
  if (key === "end_of_life") return record.lifecycle.end_of_life.date;
  if (key === "deprecation") return record.lifecycle.deprecation.date;
  return record.lifecycle.last_changed_at;
}

/**
 * Nulls last in both orders; ties (and the null tail) by resource_type, resource_id
 * ascending (decisions.md: "the requested sort with nulls last in both orders, then
 * resource_type, resource_id").
 */
function lifecycleOrder(
  records: LifecycleRecord[],
  key: LifecycleSortKey,
  order: "asc" | "desc",
): Uint32Array {
  // records are already sorted by (resource_type, resource_id), so position order is that order
  const values = records.map((r) => lifecycleSortValue(r, key));
  return Uint32Array.from(nullsLastOrder(values, compareCodePoints, order === "desc"));
}

function byTypeAndId(a: LifecycleRecord, b: LifecycleRecord): number {
  return (
    compareCodePoints(a.resource_type, b.resource_type) || compareCodePoints(a.resource_id, b.resource_id)
  );
}

function byDetectedAtAndId(a: SourceEvent, b: SourceEvent): number {
  return compareCodePoints(a.detected_at, b.detected_at) || compareCodePoints(a.id, b.id);
}

/** Builds every index of a loaded (already verified) release; serialization and search text wait for first use. */
export function indexRelease(loaded: LoadedRelease): ServedRelease {
  const { manifest, catalog } = loaded;
  // The release stage writes these arrays sorted; sorting again costs little and makes the
  // server's ordering guarantee independent of that.
  const deployments = [...catalog.deployments].sort((a, b) => compareCodePoints(a.id, b.id));
  const lifecycle = [...catalog.lifecycle].sort(byTypeAndId);
  const events = [...catalog.events].sort(byDetectedAtAndId);

  const deploymentById = new Map<string, number>();
  const byProvider = new Map<string, number[]>();
  const byModel = new Map<string, number[]>();
  const byRegion = new Map<string, number[]>();
  const byMode = new Map<string, number[]>();
  const bySupportedCapability = new Map<CapabilityName, number[]>();
  const priced: number[] = [];
  const unpriced: number[] = [];
  const allDeployments: number[] = [];

  deployments.forEach((d, i) => {
    deploymentById.set(d.id, i);
    push(byProvider, d.provider_id, i);
    push(byModel, d.model_id, i);
    push(byRegion, d.region, i);
    push(byMode, d.mode, i);
    for (const [name, entry] of Object.entries(d.capabilities)) {
      if (entry?.status === "supported") push(bySupportedCapability, name as CapabilityName, i);
    }
    (d.rate_card === null ? unpriced : priced).push(i);
    allDeployments.push(i);
  });
  let deploymentSearch: string[] | null = null;

  const lifecycleOrders = {} as Record<LifecycleSortKey, LifecycleOrders>;
  for (const key of ["end_of_life", "deprecation", "last_changed"] as const) {
    lifecycleOrders[key] = {
      asc: lifecycleOrder(lifecycle, key, "asc"),
      desc: lifecycleOrder(lifecycle, key, "desc"),
    };
  }

  return {
    releaseId: manifest.release_id,
    manifest,
    deployments,
    deploymentJson: new LazyDeploymentJson(deployments),
    deploymentById,
    deploymentMap: new Map(deployments.map((d) => [d.id, d])),
    get deploymentSearch() {
      // model_id is `<lab>/<model-name>`, so it covers the lab and the model name too.
      deploymentSearch ??= deployments.map((d) =>
        [d.id, d.model_id, d.provider_id, d.provider_model_id, d.mode].join("\n").toLowerCase(),
      );
      return deploymentSearch;
    },
    byProvider,
    byModel,
    byRegion,
    byMode,
    bySupportedCapability,
    priced,
    unpriced,
    allDeployments,
    lifecycle,
    lifecycleJson: lifecycle.map(json),
    lifecycleOrders,
    events,
    eventJson: events.map(json),
    eventTimes: Float64Array.from(events.map((e) => Date.parse(e.detected_at))),
    answers: new ResponseCache(),
    postAnswers: new PostAnswerCache(),
  };
}
