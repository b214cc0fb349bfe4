/**
 * The in-memory form of one loaded release: the columns that filters, sorts and search read
 * (from the release's serve-index.json, or built from the parsed catalog for a release
 * without one), exact-match indexes (lists of record positions in id order), and each
 * record's JSON, read (from its span of catalog.json), parsed and serialized on first use and
 * then kept, up to a cap (the least recently used out beyond it). Built once per release and
 * never mutated but for those memos, so a request that captured a ServedRelease sees one
 * release from start to end.
 */
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import {
  CapabilityName,
  type CatalogContent,
  type CodedColumn,
  type CoverageStatus,
  Deployment,
  LifecycleRecord,
  type LifecycleStatus,
  type MilestoneState,
  type PriceInterval,
  type ReleaseManifest,
  type ResourceType,
  type ServeIndexFile,
  type SourceEvent,
  type VerificationStatus,
} from "../schema/index.js";
import {
  byDeploymentId,
  byTypeAndId,
  decodeColumn,
  deploymentLifecycleRecord,
  type IndexedRelease,
  type LoadedRelease,
  type OpenCatalog,
  serveIndexFor,
} from "../snapshot/index.js";
import { DEFAULT_RECORD_CACHE } from "./defaults.js";
import { nullsLastOrder } from "./page.js";
import { PostAnswerCache, ResponseCache } from "./response-cache.js";

export type LifecycleSortKey = "end_of_life" | "deprecation" | "last_changed";

export interface LifecycleOrders {
  readonly asc: Uint32Array;
  readonly desc: Uint32Array;
}

/** What list filters, sorts and search read of each deployment, by position (id order). */
export interface DeploymentFields {
  id: string[];
  provider_id: string[];
  model_id: string[];
  region: string[];
  mode: string[];
  provider_model_id: string[];
  status: LifecycleStatus[];
  /** 1 when the deployment has a rate card. */
  priced: Uint8Array;
  input_micro_usd: Array<number | null>;
  output_micro_usd: Array<number | null>;
  context_tokens: Array<number | null>;
  /** Bit k set: the status of capability CAPABILITIES[k] is `supported`. */
  supported: Uint32Array;
  /** The weaker level of the listing and (when priced) the rate card (precedence.ts deploymentLevel). */
  verification: VerificationStatus[];
}

/** What lifecycle filters and sorts read of each record, by position ((resource_type, resource_id) order). */
export interface LifecycleFields {
  resource_type: ResourceType[];
  resource_id: string[];
  provider_id: Array<string | null>;
  model_id: Array<string | null>;
  status: LifecycleStatus[];
  deprecation_state: MilestoneState[];
  deprecation_date: Array<string | null>;
  end_of_life_state: MilestoneState[];
  end_of_life_date: Array<string | null>;
  coverage_status: CoverageStatus[];
  last_changed_at: Array<string | null>;
  /** Positions of the records with a summary (providers and models). */
  summary: number[];
}

/** Stored records by position: parsed on first use from catalog.json, or held in memory (a release without serve-index.json). */
export interface StoredRecords<T> {
  readonly length: number;
  /** The record as stored (canonical key order, validated by the build), or undefined beyond the end. */
  at(position: number): T | undefined;
  /** Every record, in position order. */
  all(): Promise<T[]>;
  /**
   * A reader of each record's stored bytes (its canonical JSON, as in catalog.json), neither
   * parsed nor kept: what history compares. Fastest in position order; the Buffer it returns
   * is valid until its next call.
   */
  bytes(): (position: number) => Buffer | undefined;
}

export interface ServedRelease {
  releaseId: string;
  manifest: ReleaseManifest;
  deploymentCount: number;
  /** A position in these columns is the deployment's index everywhere below. */
  deploymentFields: DeploymentFields;
  /**
   * Each deployment's max_output_tokens: the index's column, or, for a release published before
   * the index stored it, read from the records on first use.
   */
  maxOutputTokens: ReadonlyArray<number | null>;
  deployments: StoredRecords<Deployment>;
  /** Each record's JSON in the API's field order, serialized on first use and then kept. */
  deploymentJson: RecordJson;
  deploymentById: Map<string, number>;
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

  lifecycleCount: number;
  lifecycleFields: LifecycleFields;
  lifecycle: StoredRecords<LifecycleRecord>;
  lifecycleJson: RecordJson;
  /** Sorted on first use per key. */
  lifecycleOrders: Record<LifecycleSortKey, LifecycleOrders>;

  /** Sorted by (detected_at, id). */
  events: SourceEvent[];
  eventJson: RecordJson;
  /** detected_at as epoch milliseconds, per event. */
  eventTimes: Float64Array;

  /**
   * Each deployment's price intervals (prices.json), newest first; empty for a release without
   * the file. Set once when the release is loaded (server.ts).
   */
  prices: ReadonlyMap<string, readonly PriceInterval[]>;
  /** Prepared GET answers of this release (the only mutable part: a memo). */
  answers: ResponseCache;
  /** Computed answers to identical compare bodies on this release (a memo too). */
  postAnswers: PostAnswerCache;
  /** How many records each memo holds now (each stays within the release's cap). */
  cached(): { deployments: number; deploymentJson: number; lifecycleJson: number };
  /** Closes catalog.json (a release loaded from its index holds it open); idempotent. */
  close(): void;
}

export { DEFAULT_RECORD_CACHE };

/** Values by record position, the least recently used dropped beyond `max` (0: none kept). */
export class RecordCache<V> {
  private readonly kept = new Map<number, V>();
  constructor(private readonly max: number) {
    if (!Number.isInteger(max) || max < 0) throw new Error(`record cache size ${max} is not a count`);
  }
  get size(): number {
    return this.kept.size;
  }
  get(position: number): V | undefined {
    const value = this.kept.get(position);
    if (value !== undefined) {
      // most recently used last
      this.kept.delete(position);
      this.kept.set(position, value);
    }
    return value;
  }
  set(position: number, value: V): void {
    if (this.max === 0) return;
    this.kept.set(position, value);
    if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value as number);
  }
}

/** Pre-serialized records by position (a Buffer[] is one). */
export interface RecordJson {
  readonly length: number;
  at(index: number): Buffer | undefined;
}

/** The capability names in bit order of DeploymentFields.supported. */
export const CAPABILITIES: readonly CapabilityName[] = CapabilityName.options;
// one bit per capability in a Uint32Array
if (CAPABILITIES.length > 32) throw new Error("DeploymentFields.supported holds at most 32 capabilities");

/** The deployments whose capability status for `name` is `supported`: a bit test. */
export function supportsCapability(
  fields: DeploymentFields,
  position: number,
  name: CapabilityName,
): boolean {
  const bit = CAPABILITIES.indexOf(name);
  return bit >= 0 && ((fields.supported[position] as number) & (1 << bit)) !== 0;
}

/**
 * Records serialized when first asked for: a 100,000-deployment release does not read or
 * stringify every record at start-up. Each goes through its schema first, so the bytes have
 * the API's field order (the stored records have the canonical, sorted one).
 */
class LazyRecordJson<T> implements RecordJson {
  readonly done: RecordCache<Buffer>;
  constructor(
    private readonly records: StoredRecords<T>,
    private readonly schema: { parse(value: unknown): unknown },
    cacheSize: number,
  ) {
    this.done = new RecordCache(cacheSize);
  }
  get length(): number {
    return this.records.length;
  }
  at(index: number): Buffer | undefined {
    const cached = this.done.get(index);
    if (cached) return cached;
    const record = this.records.at(index);
    if (record === undefined) return undefined;
    const body = json(this.schema.parse(record));
    this.done.set(index, body);
    return body;
  }
}

class MemoryRecords<T> implements StoredRecords<T> {
  constructor(private readonly records: readonly T[]) {}
  get length(): number {
    return this.records.length;
  }
  at(position: number): T | undefined {
    return this.records[position];
  }
  all(): Promise<T[]> {
    return Promise.resolve([...this.records]);
  }
  bytes(): (position: number) => Buffer | undefined {
    return (position) => {
      const record = this.records[position];
      return record === undefined ? undefined : Buffer.from(canonicalJson(record), "utf8");
    };
  }
}

/**
 * Records read from their spans of the open catalog.json. With `parsed`, each parsed record is
 * kept there (deployments: compare and calculate read the same ones again and again).
 */
class SpanRecords<T> implements StoredRecords<T> {
  constructor(
    private readonly catalog: OpenCatalog,
    private readonly spans: { offset: readonly number[]; length: readonly number[] },
    private readonly whole: readonly [number, number],
    readonly parsed: RecordCache<T> | null,
  ) {}
  get length(): number {
    return this.spans.offset.length;
  }
  at(position: number): T | undefined {
    const kept = this.parsed?.get(position);
    if (kept !== undefined) return kept;
    const offset = this.spans.offset[position];
    const length = this.spans.length[position];
    if (offset === undefined || length === undefined) return undefined;
    const record = JSON.parse(this.catalog.read(offset, length).toString("utf8")) as T;
    this.parsed?.set(position, record);
    return record;
  }
  bytes(): (position: number) => Buffer | undefined {
    const read = this.catalog.spanReader();
    return (position) => {
      const offset = this.spans.offset[position];
      const length = this.spans.length[position];
      return offset === undefined || length === undefined ? undefined : read(offset, length);
    };
  }
  async all(): Promise<T[]> {
    const text = (await this.catalog.readAsync(this.whole[0], this.whole[1])).toString("utf8");
    const records = JSON.parse(text) as T[];
    // the file holds them in the build's order; the k-th record in it is the one whose span
    // starts k-th, put at its position in the served order
    const starts = this.spans.offset;
    const order = Array.from(starts.keys()).sort((a, b) => (starts[a] as number) - (starts[b] as number));
    const result = new Array<T>(records.length);
    order.forEach((position, i) => {
      result[position] = records[i] as T;
    });
    return result;
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

export function lifecycleSortValue(
  fields: LifecycleFields,
  position: number,
  key: LifecycleSortKey,
): string | null {
  if (key === "end_of_life") return fields.end_of_life_date[position] ?? null;
  if (key === "deprecation") return fields.deprecation_date[position] ?? null;
  return fields.last_changed_at[position] ?? null;
}

/**
 * Nulls last in both orders; ties (and the null tail) by resource_type, resource_id
 * ascending (docs/decisions.md: "the requested sort with nulls last in both orders, then
 * resource_type, resource_id"). Each order is sorted when first asked for.
 */
function lazyLifecycleOrders(fields: LifecycleFields, key: LifecycleSortKey): LifecycleOrders {
  // positions are already in (resource_type, resource_id) order
  const sorted: Partial<Record<"asc" | "desc", Uint32Array>> = {};
  const order = (direction: "asc" | "desc"): Uint32Array => {
    sorted[direction] ??= Uint32Array.from(
      nullsLastOrder(
        fields.resource_id.map((_, i) => lifecycleSortValue(fields, i, key)),
        compareCodePoints,
        direction === "desc",
      ),
    );
    return sorted[direction];
  };
  return {
    get asc() {
      return order("asc");
    },
    get desc() {
      return order("desc");
    },
  };
}

function byDetectedAtAndId(a: SourceEvent, b: SourceEvent): number {
  return compareCodePoints(a.detected_at, b.detected_at) || compareCodePoints(a.id, b.id);
}

function deploymentFields(index: ServeIndexFile["deployments"]): DeploymentFields {
  const count = index.id.length;
  const priced = new Uint8Array(count);
  for (const p of index.priced) priced[p] = 1;
  const supported = new Uint32Array(count);
  for (const [name, positions] of Object.entries(index.supported)) {
    const bit = 1 << CAPABILITIES.indexOf(name as CapabilityName);
    for (const p of positions ?? []) supported[p] = (supported[p] as number) | bit;
  }
  return {
    id: index.id,
    provider_id: decodeColumn(index.provider_id),
    model_id: decodeColumn(index.model_id),
    region: decodeColumn(index.region),
    mode: decodeColumn(index.mode),
    provider_model_id: index.provider_model_id,
    status: decodeColumn(index.status),
    priced,
    input_micro_usd: index.input_micro_usd,
    output_micro_usd: index.output_micro_usd,
    context_tokens: index.context_tokens,
    supported,
    verification: decodeColumn(index.verification),
  };
}

/**
 * The lifecycle records' columns by position. Format 2 (src/snapshot/deployment-lifecycles.ts):
 * the deployments' own records first, at the deployments' positions (they sort first: resource
 * type `deployment`, then id), then the stored ones; format 1: the stored ones, which are all.
 */
function lifecycleFields(index: ServeIndexFile, deployments: DeploymentFields): LifecycleFields {
  const stored = index.lifecycle;
  const own = index.deployment_lifecycle;
  const n = own ? deployments.id.length : 0;
  const column = <T>(ownValues: readonly T[] | null, storedValues: T[]): T[] =>
    ownValues === null ? storedValues : [...ownValues, ...storedValues];
  const derived = <T extends string | null>(coded: CodedColumn | undefined): T[] | null =>
    own && coded ? decodeColumn<T>(coded) : null;
  return {
    resource_type: column(
      own ? new Array<ResourceType>(n).fill("deployment") : null,
      decodeColumn(stored.resource_type),
    ),
    resource_id: column(own ? deployments.id : null, stored.resource_id),
    provider_id: column(own ? deployments.provider_id : null, decodeColumn(stored.provider_id)),
    model_id: column(own ? deployments.model_id : null, decodeColumn(stored.model_id)),
    status: column(own ? deployments.status : null, decodeColumn(stored.status)),
    deprecation_state: column(derived(own?.deprecation_state), decodeColumn(stored.deprecation_state)),
    deprecation_date: column(derived(own?.deprecation_date), decodeColumn(stored.deprecation_date)),
    end_of_life_state: column(derived(own?.end_of_life_state), decodeColumn(stored.end_of_life_state)),
    end_of_life_date: column(derived(own?.end_of_life_date), decodeColumn(stored.end_of_life_date)),
    coverage_status: column(derived(own?.coverage_status), decodeColumn(stored.coverage_status)),
    last_changed_at: column(derived(own?.last_changed_at), decodeColumn(stored.last_changed_at)),
    summary: stored.summary.map((p) => p + n),
  };
}

/**
 * Format 2's lifecycle records by position: the deployments' own first (deploymentLifecycleRecord
 * of the deployment at that position), then the stored ones.
 */
class WithDeploymentLifecycles implements StoredRecords<LifecycleRecord> {
  constructor(
    private readonly deployments: StoredRecords<Deployment>,
    private readonly stored: StoredRecords<LifecycleRecord>,
  ) {}
  get length(): number {
    return this.deployments.length + this.stored.length;
  }
  at(position: number): LifecycleRecord | undefined {
    const n = this.deployments.length;
    if (position >= n) return this.stored.at(position - n);
    const d = this.deployments.at(position);
    return d === undefined ? undefined : deploymentLifecycleRecord(d);
  }
  async all(): Promise<LifecycleRecord[]> {
    return [...(await this.deployments.all()).map(deploymentLifecycleRecord), ...(await this.stored.all())];
  }
  bytes(): (position: number) => Buffer | undefined {
    const stored = this.stored.bytes();
    return (position) => {
      const n = this.deployments.length;
      if (position >= n) return stored(position - n);
      const record = this.at(position);
      return record === undefined ? undefined : Buffer.from(canonicalJson(record), "utf8");
    };
  }
}

interface ReleaseParts {
  manifest: ReleaseManifest;
  index: ServeIndexFile;
  deployments: StoredRecords<Deployment>;
  /** The parsed deployments kept (a release read from spans), or null (held in memory anyway). */
  parsedDeployments: RecordCache<Deployment> | null;
  lifecycle: StoredRecords<LifecycleRecord>;
  events: readonly SourceEvent[];
  cacheSize: number;
  close(): void;
}

/** Builds every index of a release from its serving index; records, serialization and search text wait for first use. */
function serve(parts: ReleaseParts): ServedRelease {
  const { manifest, index } = parts;
  const fields = deploymentFields(index.deployments);
  const count = fields.id.length;
  const events = [...parts.events].sort(byDetectedAtAndId);

  const deploymentById = new Map<string, number>();
  const byProvider = new Map<string, number[]>();
  const byModel = new Map<string, number[]>();
  const byRegion = new Map<string, number[]>();
  const byMode = new Map<string, number[]>();
  const priced: number[] = [];
  const unpriced: number[] = [];
  const allDeployments: number[] = new Array(count);
  fields.id.forEach((id, i) => {
    deploymentById.set(id, i);
    push(byProvider, fields.provider_id[i], i);
    push(byModel, fields.model_id[i], i);
    push(byRegion, fields.region[i], i);
    push(byMode, fields.mode[i], i);
    (fields.priced[i] ? priced : unpriced).push(i);
    allDeployments[i] = i;
  });
  const bySupportedCapability = new Map<CapabilityName, number[]>();
  for (const name of CAPABILITIES) {
    const positions = index.deployments.supported[name];
    if (positions && positions.length > 0) bySupportedCapability.set(name, positions);
  }
  let deploymentSearch: string[] | null = null;
  let maxOutputTokens: ReadonlyArray<number | null> | null = index.deployments.max_output_tokens ?? null;
  const deploymentJson = new LazyRecordJson(parts.deployments, Deployment, parts.cacheSize);
  const lifecycleJson = new LazyRecordJson(parts.lifecycle, LifecycleRecord, parts.cacheSize);

  const lcFields = lifecycleFields(index, fields);
  const lifecycleOrders = {} as Record<LifecycleSortKey, LifecycleOrders>;
  for (const key of ["end_of_life", "deprecation", "last_changed"] as const)
    lifecycleOrders[key] = lazyLifecycleOrders(lcFields, key);

  return {
    releaseId: manifest.release_id,
    manifest,
    deploymentCount: count,
    deploymentFields: fields,
    get maxOutputTokens() {
      maxOutputTokens ??= fields.id.map((_, i) => parts.deployments.at(i)?.max_output_tokens ?? null);
      return maxOutputTokens;
    },
    deployments: parts.deployments,
    deploymentJson,
    deploymentById,
    get deploymentSearch() {
      // model_id is `<lab>/<model-name>`, so it covers the lab and the model name too.
      deploymentSearch ??= fields.id.map((id, i) =>
        [id, fields.model_id[i], fields.provider_id[i], fields.provider_model_id[i], fields.mode[i]]
          .join("\n")
          .toLowerCase(),
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
    lifecycleCount: lcFields.resource_id.length,
    lifecycleFields: lcFields,
    lifecycle: parts.lifecycle,
    lifecycleJson,
    lifecycleOrders,
    events,
    eventJson: events.map(json),
    eventTimes: Float64Array.from(events.map((e) => Date.parse(e.detected_at))),
    prices: new Map(),
    answers: new ResponseCache(),
    postAnswers: new PostAnswerCache(),
    cached: () => ({
      deployments: parts.parsedDeployments?.size ?? 0,
      deploymentJson: deploymentJson.done.size,
      lifecycleJson: lifecycleJson.done.size,
    }),
    close: parts.close,
  };
}

/** Closes a dropped release's catalog.json once nothing references the release any more. */
const unreferenced = new FinalizationRegistry<() => void>((close) => close());

/**
 * A release with serve-index.json: records stay in catalog.json until a request needs them.
 * `cacheSize` caps each memo of records (DEFAULT_RECORD_CACHE).
 */
export function indexOpenedRelease(
  opened: IndexedRelease,
  cacheSize: number = DEFAULT_RECORD_CACHE,
): ServedRelease {
  const { manifest, index, catalog, events } = opened;
  const close = () => catalog.close();
  const parsedDeployments = new RecordCache<Deployment>(cacheSize);
  const deployments = new SpanRecords<Deployment>(
    catalog,
    index.deployments,
    index.members.deployments as [number, number],
    parsedDeployments,
  );
  const stored = new SpanRecords<LifecycleRecord>(
    catalog,
    index.lifecycle,
    index.members.lifecycle as [number, number],
    null,
  );
  const release = serve({
    manifest,
    index,
    deployments,
    parsedDeployments,
    lifecycle: index.deployment_lifecycle ? new WithDeploymentLifecycles(deployments, stored) : stored,
    events,
    cacheSize,
    close,
  });
  unreferenced.register(release, close);
  return release;
}

/**
 * A release loaded whole (one without serve-index.json, or any parsed catalog): the same
 * columns, computed from the records the way the build computes serve-index.json.
 */
export function indexRelease(loaded: LoadedRelease, cacheSize: number = DEFAULT_RECORD_CACHE): ServedRelease {
  const { manifest, catalog } = loaded;
  // The release stage writes these arrays sorted; sorting again costs little and makes the
  // server's ordering guarantee independent of that.
  const sorted: CatalogContent = {
    ...catalog,
    deployments: [...catalog.deployments].sort(byDeploymentId),
    lifecycle: [...catalog.lifecycle].sort(byTypeAndId),
  };
  return serve({
    manifest,
    index: serveIndexFor(sorted),
    deployments: new MemoryRecords(sorted.deployments),
    parsedDeployments: null,
    lifecycle: new MemoryRecords(sorted.lifecycle),
    events: catalog.events,
    cacheSize,
    close: () => {},
  });
}

/** The stored deployment with this id, or undefined. */
export function deploymentWithId(release: ServedRelease, id: string): Deployment | undefined {
  const position = release.deploymentById.get(id);
  return position === undefined ? undefined : release.deployments.at(position);
}

/** The release's deployments among `ids`, by id (what compare looks its candidates up in). */
export function deploymentsWithIds(release: ServedRelease, ids: Iterable<string>): Map<string, Deployment> {
  const found = new Map<string, Deployment>();
  for (const id of ids) {
    const deployment = deploymentWithId(release, id);
    if (deployment) found.set(id, deployment);
  }
  return found;
}
