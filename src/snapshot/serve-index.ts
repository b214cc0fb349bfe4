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
import type { ServeIndexFile } from "../schema/release-files.js";
import { type CatalogLayout, type Spans, serializeCatalog } from "./catalog-file.js";
import { CATALOG_FILE } from "./manifest.js";

export const SERVE_INDEX_FILE = "serve-index.json";

type CodedColumn = ServeIndexFile["deployments"]["provider_id"];

/** Dictionary-encodes a column: each distinct value once (in order of first use), a code per record. */
function coded(values: ReadonlyArray<string | null>): CodedColumn {
  const codeOf = new Map<string | null, number>();
  const codes = values.map((value) => {
    let code = codeOf.get(value);
    if (code === undefined) {
      code = codeOf.size;
      codeOf.set(value, code);
    }
    return code;
  });
  return { values: [...codeOf.keys()], codes };
}

function positionsWhere<T>(items: readonly T[], test: (item: T) => boolean): number[] {
  const positions: number[] = [];
  items.forEach((item, i) => {
    if (test(item)) positions.push(i);
  });
  return positions;
}

/** The order the API serves records in: deployments by id, lifecycle by (resource_type, resource_id). */
export function byDeploymentId(a: Deployment, b: Deployment): number {
  return compareCodePoints(a.id, b.id);
}
export function byTypeAndId(a: LifecycleRecord, b: LifecycleRecord): number {
  return (
    compareCodePoints(a.resource_type, b.resource_type) || compareCodePoints(a.resource_id, b.resource_id)
  );
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
 */
export function serveIndexFor(catalog: CatalogContent, layout?: CatalogLayout): ServeIndexFile {
  const depOrder = servedOrder(catalog.deployments, byDeploymentId);
  const deployments = depOrder
    ? depOrder.map((i) => catalog.deployments[i] as Deployment)
    : catalog.deployments;
  const lcOrder = servedOrder(catalog.lifecycle, byTypeAndId);
  const lifecycle = lcOrder ? lcOrder.map((i) => catalog.lifecycle[i] as LifecycleRecord) : catalog.lifecycle;
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

  const supported: Partial<Record<CapabilityName, number[]>> = {};
  deployments.forEach((d, i) => {
    for (const name in d.capabilities) {
      if (d.capabilities[name as CapabilityName]?.status !== "supported") continue;
      const list = supported[name as CapabilityName];
      if (list) list.push(i);
      else supported[name as CapabilityName] = [i];
    }
  });

  return {
    format: 1,
    catalog_bytes: layout?.bytes ?? 0,
    members: layout?.members ?? {},
    deployments: {
      offset: depSpans.offset,
      length: depSpans.length,
      id: deployments.map((d) => d.id),
      provider_model_id: deployments.map((d) => d.provider_model_id),
      provider_id: coded(deployments.map((d) => d.provider_id)),
      model_id: coded(deployments.map((d) => d.model_id)),
      region: coded(deployments.map((d) => d.region)),
      mode: coded(deployments.map((d) => d.mode)),
      status: coded(deployments.map((d) => d.status)),
      priced: positionsWhere(deployments, (d) => d.rate_card !== null),
      input_micro_usd: deployments.map((d) => d.rate_card?.input_micro_usd ?? null),
      output_micro_usd: deployments.map((d) => d.rate_card?.output_micro_usd ?? null),
      context_tokens: deployments.map((d) => d.context_tokens),
      supported,
    },
    lifecycle: {
      offset: lcSpans.offset,
      length: lcSpans.length,
      resource_id: lifecycle.map((r) => r.resource_id),
      resource_type: coded(lifecycle.map((r) => r.resource_type)),
      provider_id: coded(lifecycle.map((r) => r.provider_id ?? null)),
      model_id: coded(lifecycle.map((r) => r.model_id ?? null)),
      status: coded(lifecycle.map((r) => r.lifecycle.status)),
      deprecation_state: coded(lifecycle.map((r) => r.lifecycle.deprecation.state)),
      deprecation_date: coded(lifecycle.map((r) => r.lifecycle.deprecation.date)),
      end_of_life_state: coded(lifecycle.map((r) => r.lifecycle.end_of_life.state)),
      end_of_life_date: coded(lifecycle.map((r) => r.lifecycle.end_of_life.date)),
      coverage_status: coded(lifecycle.map((r) => r.lifecycle.coverage.status)),
      last_changed_at: coded(lifecycle.map((r) => r.lifecycle.last_changed_at)),
      summary: positionsWhere(lifecycle, (r) => r.summary !== undefined),
    },
  };
}

/**
 * The release files of a catalog: catalog.json (canonical JSON) and serve-index.json (its
 * serving index, canonical JSON too). What the release stage publishes for a catalog.
 */
export function catalogReleaseFiles(catalog: CatalogContent): Record<string, Uint8Array> {
  const { bytes, layout } = serializeCatalog(catalog);
  return {
    [CATALOG_FILE]: bytes,
    [SERVE_INDEX_FILE]: Buffer.from(canonicalJson(serveIndexFor(catalog, layout)), "utf8"),
  };
}
