/**
 * serve-index.json (schema `ServeIndexFile`): the columns the server filters, sorts and
 * searches on, and the byte span of every record in catalog.json. The build writes it beside
 * catalog.json from the catalog it has just validated; a server verifies both files' hashes,
 * parses only this one, and reads a record from catalog.json when a request needs it. A server
 * on a release without it (published before it existed) builds the same columns from the
 * parsed catalog with `serveIndexFor(catalog)`.
 */
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";

import type { CapabilityName, Deployment } from "../schema/deployment.js";
import type { LifecycleRecord } from "../schema/lifecycle.js";
import type { CatalogContent } from "../schema/release.js";
import type { CodedColumn, ServeIndexFile } from "../schema/release-files.js";
import { deploymentLevel } from "../schema/verification.js";
import { type CatalogLayout, type Spans, serializeCatalog } from "./catalog-file.js";
import { byTypeAndId, deploymentLifecyclesEmbedded, storedLifecycle } from "./deployment-lifecycles.js";
import { CATALOG_FILE } from "./manifest.js";

export const SERVE_INDEX_FILE = "serve-index.json";

/**
 * A dictionary-encoded column built value by value: each distinct value once (in order of first
 * use), a code per record.
 */
class CodedBuilder {
  private readonly codeOf = new Map<string | null, number>();
  private readonly codes: number[];
  private n = 0;
  constructor(size: number) {
    this.codes = new Array<number>(size);
  }
  add(value: string | null): void {
    let code = this.codeOf.get(value);
    if (code === undefined) {
      code = this.codeOf.size;
      this.codeOf.set(value, code);
    }
    this.codes[this.n++] = code;
  }
  finish(): CodedColumn {
    return { values: [...this.codeOf.keys()], codes: this.codes };
  }
}

/** A coded column's values, one per record (what CodedBuilder encoded). */
export function decodeColumn<T extends string | null>(column: CodedColumn): T[] {
  return column.codes.map((code) => column.values[code] as T);
}

/** The order the API serves deployments in: by id (lifecycle records: byTypeAndId). */
export function byDeploymentId(a: Deployment, b: Deployment): number {
  return compareCodePoints(a.id, b.id);
}

/**
 * Catalog positions in the served order (stable: equal keys keep their catalog order), or null
 * when that is the catalog's own order (a build writes its records sorted so): one pass to
 * see it, no sort and no reordered copies.
 */
function servedOrder<T>(items: readonly T[], compare: (a: T, b: T) => number): number[] | null {
  let sorted = true;
  for (let i = 1; i < items.length && sorted; i++) sorted = compare(items[i - 1] as T, items[i] as T) <= 0;
  if (sorted) return null;
  return items.map((_, i) => i).sort((a, b) => compare(items[a] as T, items[b] as T) || a - b);
}

const NO_SPANS: Spans = { offset: [], length: [] };

/**
 * The serving index of a catalog. With the layout of its catalog.json (serializeCatalog, or a
 * CatalogLayoutRecorder beside another writer), every record's span in it; without one (a
 * release published before serve-index.json existed, loaded whole), no spans and no members.
 * `embedded` (deploymentLifecyclesEmbedded): catalog.json leaves the deployments' own lifecycle
 * records out, and the index is format 2 (their columns by deployment position); else format 1.
 */
export function serveIndexFor(
  catalog: CatalogContent,
  layout?: CatalogLayout,
  embedded = false,
): ServeIndexFile {
  const depOrder = servedOrder(catalog.deployments, byDeploymentId);
  const deployments = depOrder
    ? depOrder.map((i) => catalog.deployments[i] as Deployment)
    : catalog.deployments;
  const stored = storedLifecycle(catalog.lifecycle, embedded);
  const lcOrder = servedOrder(stored, byTypeAndId);
  const lifecycle = lcOrder ? lcOrder.map((i) => stored[i] as LifecycleRecord) : stored;
  const pick = (spans: Spans, order: number[] | null): Spans =>
    !layout
      ? NO_SPANS
      : order
        ? {
            offset: order.map((i) => spans.offset[i] as number),
            length: order.map((i) => spans.length[i] as number),
          }
        : spans;
  const depSpans = pick(layout?.deployments ?? NO_SPANS, depOrder);
  const lcSpans = pick(layout?.lifecycle ?? NO_SPANS, lcOrder);

  return {
    format: embedded ? 2 : 1,
    catalog_bytes: layout?.bytes ?? 0,
    members: layout?.members ?? {},
    deployments: { offset: depSpans.offset, length: depSpans.length, ...deploymentColumns(deployments) },
    lifecycle: { offset: lcSpans.offset, length: lcSpans.length, ...lifecycleColumns(lifecycle) },
    ...(embedded ? { deployment_lifecycle: deploymentLifecycleColumns(deployments) } : {}),
  };
}

type DeploymentColumns = Omit<ServeIndexFile["deployments"], "offset" | "length">;
type LifecycleColumns = Omit<ServeIndexFile["lifecycle"], "offset" | "length">;

/**
 * The deployments' columns in one pass over the records (a 100,000-deployment build: one walk
 * instead of one per column, each reading the records' properties again).
 */
function deploymentColumns(deployments: readonly Deployment[]): DeploymentColumns {
  const n = deployments.length;
  const id = new Array<string>(n);
  const providerModelId = new Array<string>(n);
  const input = new Array<number | null>(n);
  const output = new Array<number | null>(n);
  const context = new Array<number | null>(n);
  const maxOutput = new Array<number | null>(n);
  const provider = new CodedBuilder(n);
  const model = new CodedBuilder(n);
  const region = new CodedBuilder(n);
  const mode = new CodedBuilder(n);
  const status = new CodedBuilder(n);
  const verification = new CodedBuilder(n);
  const priced: number[] = [];
  const supported: Partial<Record<CapabilityName, number[]>> = {};
  for (let i = 0; i < n; i++) {
    const d = deployments[i] as Deployment;
    id[i] = d.id;
    providerModelId[i] = d.provider_model_id;
    provider.add(d.provider_id);
    model.add(d.model_id);
    region.add(d.region);
    mode.add(d.mode);
    status.add(d.status);
    verification.add(deploymentLevel(d));
    const card = d.rate_card;
    if (card !== null) priced.push(i);
    input[i] = card?.input_micro_usd ?? null;
    output[i] = card?.output_micro_usd ?? null;
    context[i] = d.context_tokens;
    maxOutput[i] = d.max_output_tokens;
    const capabilities = d.capabilities;
    for (const name in capabilities) {
      if (capabilities[name as CapabilityName]?.status !== "supported") continue;
      const list = supported[name as CapabilityName];
      if (list) list.push(i);
      else supported[name as CapabilityName] = [i];
    }
  }
  return {
    id,
    provider_model_id: providerModelId,
    provider_id: provider.finish(),
    model_id: model.finish(),
    region: region.finish(),
    mode: mode.finish(),
    status: status.finish(),
    priced,
    input_micro_usd: input,
    output_micro_usd: output,
    context_tokens: context,
    max_output_tokens: maxOutput,
    supported,
    verification: verification.finish(),
  };
}

/** The lifecycle records' columns in one pass (deploymentColumns). */
function lifecycleColumns(records: readonly LifecycleRecord[]): LifecycleColumns {
  const n = records.length;
  const resourceId = new Array<string>(n);
  const columns = {
    resource_type: new CodedBuilder(n),
    provider_id: new CodedBuilder(n),
    model_id: new CodedBuilder(n),
    status: new CodedBuilder(n),
    deprecation_state: new CodedBuilder(n),
    deprecation_date: new CodedBuilder(n),
    end_of_life_state: new CodedBuilder(n),
    end_of_life_date: new CodedBuilder(n),
    coverage_status: new CodedBuilder(n),
    last_changed_at: new CodedBuilder(n),
  };
  const summary: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = records[i] as LifecycleRecord;
    const lifecycle = r.lifecycle;
    resourceId[i] = r.resource_id;
    columns.resource_type.add(r.resource_type);
    columns.provider_id.add(r.provider_id ?? null);
    columns.model_id.add(r.model_id ?? null);
    columns.status.add(lifecycle.status);
    columns.deprecation_state.add(lifecycle.deprecation.state);
    columns.deprecation_date.add(lifecycle.deprecation.date);
    columns.end_of_life_state.add(lifecycle.end_of_life.state);
    columns.end_of_life_date.add(lifecycle.end_of_life.date);
    columns.coverage_status.add(lifecycle.coverage.status);
    columns.last_changed_at.add(lifecycle.last_changed_at);
    if (r.summary !== undefined) summary.push(i);
  }
  return {
    resource_id: resourceId,
    resource_type: columns.resource_type.finish(),
    provider_id: columns.provider_id.finish(),
    model_id: columns.model_id.finish(),
    status: columns.status.finish(),
    deprecation_state: columns.deprecation_state.finish(),
    deprecation_date: columns.deprecation_date.finish(),
    end_of_life_state: columns.end_of_life_state.finish(),
    end_of_life_date: columns.end_of_life_date.finish(),
    coverage_status: columns.coverage_status.finish(),
    last_changed_at: columns.last_changed_at.finish(),
    summary,
  };
}

/** The deployments' own lifecycles as columns (format 2), in one pass. */
function deploymentLifecycleColumns(
  deployments: readonly Deployment[],
): NonNullable<ServeIndexFile["deployment_lifecycle"]> {
  const n = deployments.length;
  const columns = {
    announced_at: new CodedBuilder(n),
    deprecation_state: new CodedBuilder(n),
    deprecation_date: new CodedBuilder(n),
    deprecation_precision: new CodedBuilder(n),
    deprecation_date_type: new CodedBuilder(n),
    end_of_life_state: new CodedBuilder(n),
    end_of_life_date: new CodedBuilder(n),
    end_of_life_precision: new CodedBuilder(n),
    end_of_life_date_type: new CodedBuilder(n),
    replacement_ids: new CodedBuilder(n),
    coverage_status: new CodedBuilder(n),
    last_changed_at: new CodedBuilder(n),
  };
  for (const d of deployments) {
    const lifecycle = d.lifecycle;
    const deprecation = lifecycle.deprecation;
    const endOfLife = lifecycle.end_of_life;
    columns.announced_at.add(lifecycle.announced_at);
    columns.deprecation_state.add(deprecation.state);
    columns.deprecation_date.add(deprecation.date);
    columns.deprecation_precision.add(deprecation.precision);
    columns.deprecation_date_type.add(deprecation.date_type);
    columns.end_of_life_state.add(endOfLife.state);
    columns.end_of_life_date.add(endOfLife.date);
    columns.end_of_life_precision.add(endOfLife.precision);
    columns.end_of_life_date_type.add(endOfLife.date_type);
    columns.replacement_ids.add(JSON.stringify(lifecycle.replacement_ids));
    columns.coverage_status.add(lifecycle.coverage.status);
    columns.last_changed_at.add(lifecycle.last_changed_at);
  }
  return Object.fromEntries(
    Object.entries(columns).map(([name, column]) => [name, column.finish()]),
  ) as NonNullable<ServeIndexFile["deployment_lifecycle"]>;
}

/**
 * The release files of a catalog: catalog.json (canonical JSON) and serve-index.json (its
 * serving index, canonical JSON too). What the release stage publishes for a catalog.
 */
export function catalogReleaseFiles(catalog: CatalogContent): Record<string, Uint8Array> {
  const embedded = deploymentLifecyclesEmbedded(catalog);
  const { bytes, layout } = serializeCatalog(catalog, embedded);
  return {
    [CATALOG_FILE]: bytes,
    [SERVE_INDEX_FILE]: Buffer.from(canonicalJson(serveIndexFor(catalog, layout, embedded)), "utf8"),
  };
}
