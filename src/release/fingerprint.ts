/**
 * What "unchanged" compares, computed from the structured values: the deployments, lifecycle
 * records and events of a catalog with every lifecycle's `coverage.last_checked_at` left out
 * (a source checked again later changes nothing), and the gathered facts. The source states
 * are not part of it. Each record is hashed on its own (canonical JSON, one line each), so a
 * 100,000-deployment catalog is never serialized into one more large string.
 */
import { createHash, type Hash } from "node:crypto";
import { canonicalJson } from "../lib/canonical-json.js";
import type { CatalogContent, Deployment, Lifecycle, LifecycleRecord } from "../schema/index.js";
import type { FactsFile } from "./facts.js";

/** The catalog's parts the fingerprint covers. */
export type FingerprintedCatalog = Pick<CatalogContent, "deployments" | "lifecycle" | "events">;

function withoutCheckTime(lifecycle: Lifecycle): Lifecycle {
  return { ...lifecycle, coverage: { ...lifecycle.coverage, last_checked_at: null } };
}

export function deploymentForFingerprint(deployment: Deployment): Deployment {
  return { ...deployment, lifecycle: withoutCheckTime(deployment.lifecycle) };
}

export function lifecycleRecordForFingerprint(record: LifecycleRecord): LifecycleRecord {
  return { ...record, lifecycle: withoutCheckTime(record.lifecycle) };
}

function section<T>(hash: Hash, name: string, records: readonly T[], prepare: (record: T) => unknown): void {
  hash.update(`${name} ${records.length}\n`);
  for (const record of records) hash.update(`${canonicalJson(prepare(record))}\n`);
}

/** The fingerprint of a catalog and its facts; equal exactly when their content is. */
export function contentFingerprint(catalog: FingerprintedCatalog, facts: FactsFile): string {
  const hash = createHash("sha256");
  section(hash, "deployments", catalog.deployments, deploymentForFingerprint);
  section(hash, "lifecycle", catalog.lifecycle, lifecycleRecordForFingerprint);
  section(hash, "events", catalog.events, (event) => event);
  hash.update(`facts format ${facts.format}\n`);
  section(hash, "sources", facts.sources, (source) => source);
  return hash.digest("hex");
}
