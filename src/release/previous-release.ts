/**
 * The previous release as a build reads it, one way: its manifest, its catalog.json (verified
 * against its sha256) of which the events, lifecycle records and source states are taken
 * (catalogBoundaries: its deployments, most of the file, are never parsed), and its two Parquet
 * tables (also verified), which DuckDB loads for the checks and the diff. facts.json is read only
 * when asked for: a build needs it only to carry a failed or skipped source forward.
 *
 * Its files were validated when they were published, so they are not run through zod again; a
 * file that does not match its hash, or a part that is not what it should be, is a damaged
 * release (release_damaged). docs/lean-core.md says why this is the one way.
 */
import { CatalogError } from "../lib/errors.js";
import { SHA256_HEX } from "../lib/hash.js";
import type { CatalogContent, LifecycleRecord, ReleaseManifest } from "../schema/index.js";
import { catalogParts, catalogPartsBySpans, EVENTS_MARKER } from "../snapshot/catalog-parts.js";
import { readServeIndex, SERVE_INDEX_FILE } from "../snapshot/index.js";
import {
  CATALOG_FILE,
  DEPLOYMENTS_PARQUET,
  LIFECYCLE_PARQUET,
  objectPath,
  REPORT_FILE,
  readLatest,
  readManifest,
  readReleaseFile,
  readReleaseFileFrom,
} from "./artifact.js";
import type { ReleaseDatabase } from "./duckdb.js";
import { FACTS_FILE, type FactsFile } from "./facts.js";
import { deploymentCoresOf, type PreviousCores, previousCoresOf } from "./lifecycle-cores.js";
import { loadPublishedRelease } from "./tables.js";

/** The previous release: the values a build plans with, and its tables for DuckDB. */
export interface PreviousRelease {
  releaseId: string;
  /** Its catalog.json's events and source states. */
  catalog: Pick<CatalogContent, "events" | "sources">;
  /** Its lifecycle records' cores (the deployments' own included), what last_changed_at is kept against. */
  cores: PreviousCores;
  /** Loads its tables (deployments, lifecycle, events, sources) into `db` under `prefix`. */
  load: (db: ReleaseDatabase, prefix: string) => Promise<void>;
  /** Its facts.json, read on first call (null for a release without one). */
  facts: () => Promise<FactsFile | null>;
  /** What "unchanged" compares (contentFingerprint); null for a release that did not store it. */
  fingerprint: string | null;
}

function damaged(releaseId: string, error: unknown): CatalogError {
  if (error instanceof CatalogError) return error;
  return new CatalogError(
    "release_damaged",
    `release ${releaseId}: ${(error as Error).message}`,
    {},
    { cause: error },
  );
}

/** A release's stored content fingerprint (report.json), or null when it has none. */
async function storedFingerprint(snapshotsDir: string, manifest: ReleaseManifest): Promise<string | null> {
  if (!manifest.files[REPORT_FILE]) return null;
  const text = (await readReleaseFile(snapshotsDir, manifest, REPORT_FILE)).toString("utf8");
  const value = (JSON.parse(text) as { content_fingerprint?: unknown }).content_fingerprint;
  return typeof value === "string" && SHA256_HEX.test(value) ? value : null;
}

/** facts.json of a release, parsed (its shape checked, not its records), or null without one. */
async function readFactsFile(snapshotsDir: string, manifest: ReleaseManifest): Promise<FactsFile | null> {
  if (!manifest.files[FACTS_FILE]) return null;
  const text = (await readReleaseFile(snapshotsDir, manifest, FACTS_FILE)).toString("utf8");
  const parsed = JSON.parse(text) as FactsFile;
  if (parsed.format !== 1 || !Array.isArray(parsed.sources))
    throw new Error(`${FACTS_FILE} is not a facts file`);
  return parsed;
}

/** The path of one of a release's files, verified against its hash first (read a chunk at a time, not kept). */
async function verifiedPath(snapshotsDir: string, manifest: ReleaseManifest, name: string): Promise<string> {
  const file = manifest.files[name];
  if (!file) throw new Error(`it has no ${name}`);
  await readReleaseFileFrom(snapshotsDir, manifest, name);
  return objectPath(snapshotsDir, file.sha256);
}

/**
 * The events, stored lifecycle records and source states of a release's catalog.json, which is
 * hash-checked a chunk at a time, keeping only its bytes from the events on (the deployments,
 * most of the file, are neither kept nor parsed); a catalog not in the canonical shape is read
 * and parsed whole.
 */
async function catalogWithoutDeployments(
  snapshotsDir: string,
  manifest: ReleaseManifest,
): Promise<Pick<CatalogContent, "events" | "lifecycle" | "sources">> {
  const names = ["events", "lifecycle", "sources"] as const;
  const tail = await readReleaseFileFrom(snapshotsDir, manifest, CATALOG_FILE, EVENTS_MARKER);
  return (
    (tail && catalogPartsBySpans(tail, names)) ??
    catalogParts(await readReleaseFile(snapshotsDir, manifest, CATALOG_FILE), names)
  );
}

/**
 * The cores of a release's lifecycle records: those catalog.json stores, and, where it leaves
 * the deployments' own out (src/snapshot/deployment-lifecycles.ts), theirs from serve-index.json
 * (format 2 holds each deployment's lifecycle as columns, the status in the deployments'), which
 * is hash-checked and parsed. The deployments are not read.
 */
async function lifecycleCores(
  snapshotsDir: string,
  manifest: ReleaseManifest,
  stored: readonly LifecycleRecord[],
): Promise<PreviousCores> {
  const cores = previousCoresOf(stored);
  const catalogFile = manifest.files[CATALOG_FILE];
  if (
    stored.some((r) => r.resource_type === "deployment") ||
    !manifest.files[SERVE_INDEX_FILE] ||
    !catalogFile
  )
    return cores;
  const index = await readServeIndex(snapshotsDir, manifest, catalogFile.bytes);
  if (index.deployment_lifecycle) cores.set("deployment", deploymentCoresOf(index));
  return cores;
}

/** A published release, read as the previous release of a build. */
export async function readRelease(snapshotsDir: string, releaseId: string): Promise<PreviousRelease> {
  const manifest = await readManifest(snapshotsDir, releaseId);
  try {
    const { lifecycle, ...catalog } = await catalogWithoutDeployments(snapshotsDir, manifest);
    const cores = await lifecycleCores(snapshotsDir, manifest, lifecycle);
    const deploymentsParquet = await verifiedPath(snapshotsDir, manifest, DEPLOYMENTS_PARQUET);
    const lifecycleParquet = await verifiedPath(snapshotsDir, manifest, LIFECYCLE_PARQUET);
    let factsRead: Promise<FactsFile | null> | null = null;
    return {
      releaseId,
      catalog,
      cores,
      load: (db, prefix) =>
        loadPublishedRelease(db, prefix, {
          deploymentsParquet,
          lifecycleParquet,
          events: catalog.events,
          sources: catalog.sources,
        }),
      facts: () => {
        factsRead ??= readFactsFile(snapshotsDir, manifest).catch((error: unknown) => {
          throw damaged(releaseId, error);
        });
        return factsRead;
      },
      fingerprint: await storedFingerprint(snapshotsDir, manifest),
    };
  } catch (error) {
    throw damaged(releaseId, error);
  }
}

/**
 * The latest release as the next build needs it, or null before the first release. A caller
 * that reads it first (the build needs its source states before collecting) hands it to
 * runRelease as `previous`, so it is read once.
 */
export async function readPreviousRelease(snapshotsDir: string): Promise<PreviousRelease | null> {
  const releaseId = await readLatest(snapshotsDir);
  return releaseId ? readRelease(snapshotsDir, releaseId) : null;
}
