/**
 * A deployment's own lifecycle record, stored once. Every deployment carries its lifecycle, and
 * the lifecycle list holds a record for it too (`resource_type` deployment, the same lifecycle
 * under the deployment's id, provider and model, no summary). catalog.json keeps only one copy:
 * where every deployment record is exactly its deployment's own lifecycle, as the merge makes
 * them, the stored lifecycle list leaves them out and holds the provider and model records (at
 * 100,000 deployments, 62 MB of a 302 MB catalog.json). Readers put them back
 * (`withDeploymentLifecycles`): a deployment without a stored record gets its own. A catalog made
 * otherwise (edited by hand, a release published before this) stores every record, and reads
 * the same way. docs/release-format.md says why and what each reader does.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import type { Deployment } from "../schema/deployment.js";
import type { LifecycleRecord } from "../schema/lifecycle.js";
import type { CatalogContent } from "../schema/release.js";

/** A deployment's own lifecycle record: its lifecycle (the same object) under its id, provider and model. */
export function deploymentLifecycleRecord(d: Deployment): LifecycleRecord {
  return {
    resource_type: "deployment",
    resource_id: d.id,
    provider_id: d.provider_id,
    model_id: d.model_id,
    lifecycle: d.lifecycle,
  };
}

/**
 * Whether a catalog's deployment lifecycle records are exactly its deployments' own lifecycles,
 * as the merge makes them (the same object, the same ids, no summary), one per deployment: then
 * catalog.json leaves them out, and DuckDB takes them from the deployments' lines. A catalog made
 * otherwise (edited by hand, read from a file) stores and stages them all.
 */
export function deploymentLifecyclesEmbedded(
  catalog: Pick<CatalogContent, "deployments" | "lifecycle">,
): boolean {
  const byLifecycle = new Map<unknown, Deployment>();
  for (const d of catalog.deployments) byLifecycle.set(d.lifecycle, d);
  const matched = new Set<Deployment>();
  for (const r of catalog.lifecycle) {
    if (r.resource_type !== "deployment") continue;
    const d = byLifecycle.get(r.lifecycle);
    if (
      d === undefined ||
      matched.has(d) ||
      d.id !== r.resource_id ||
      d.provider_id !== r.provider_id ||
      d.model_id !== r.model_id ||
      r.summary !== undefined
    )
      return false;
    matched.add(d);
  }
  return matched.size === catalog.deployments.length;
}

/**
 * The lifecycle records catalog.json stores: without the deployments' own when `embedded`
 * (deploymentLifecyclesEmbedded), else all of them.
 */
export function storedLifecycle(
  lifecycle: readonly LifecycleRecord[],
  embedded: boolean,
): readonly LifecycleRecord[] {
  return embedded ? lifecycle.filter((r) => r.resource_type !== "deployment") : lifecycle;
}

/** The order the API serves lifecycle records in: by (resource_type, resource_id). */
export function byTypeAndId(a: LifecycleRecord, b: LifecycleRecord): number {
  return (
    compareCodePoints(a.resource_type, b.resource_type) || compareCodePoints(a.resource_id, b.resource_id)
  );
}

/**
 * The catalog as the API knows it, from catalog.json as stored: every deployment that has no
 * stored lifecycle record gets its own (deploymentLifecycleRecord), and the list is in
 * (resource_type, resource_id) order. A catalog that stores them all is returned as it is.
 */
export function withDeploymentLifecycles<C extends Pick<CatalogContent, "deployments" | "lifecycle">>(
  catalog: C,
): C {
  const stored = new Set<string>();
  for (const r of catalog.lifecycle) if (r.resource_type === "deployment") stored.add(r.resource_id);
  const added = catalog.deployments.filter((d) => !stored.has(d.id)).map(deploymentLifecycleRecord);
  if (added.length === 0) return catalog;
  return { ...catalog, lifecycle: [...added, ...catalog.lifecycle].sort(byTypeAndId) };
}
