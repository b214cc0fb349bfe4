/** Loading a published release: manifest, hash-checked catalog.json, schema-checked content. */

import { z } from "zod";
import { CatalogError } from "../lib/errors.js";
import type { Deployment } from "../schema/deployment.js";
import { SourceEvent, SourceState } from "../schema/events.js";
import { LifecycleRecord } from "../schema/lifecycle.js";
import { CatalogContent, type ReleaseManifest } from "../schema/release.js";
import { readLatest } from "./latest.js";
import { CATALOG_FILE, readManifest } from "./manifest.js";
import { readReleaseFile } from "./objects.js";

export interface LoadedRelease {
  manifest: ReleaseManifest;
  catalog: CatalogContent;
}

/** Load and verify a release (LATEST when no id is given). Throws release_not_found / release_damaged. */
export async function loadRelease(snapshotsDir: string, releaseId?: string): Promise<LoadedRelease> {
  const id = releaseId ?? (await readLatest(snapshotsDir));
  if (!id) throw new CatalogError("release_not_found", `no release published in ${snapshotsDir} (no LATEST)`);
  const manifest = await readManifest(snapshotsDir, id);
  const data = await readReleaseFile(snapshotsDir, manifest, CATALOG_FILE);
  let catalog: CatalogContent;
  try {
    catalog = CatalogContent.parse(JSON.parse(data.toString("utf8")));
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${id}: ${CATALOG_FILE} does not match the schema`,
      {},
      { cause: error },
    );
  }
  return { manifest, catalog };
}

/**
 * The catalog without the deployments' schema pass: everything but the deployments is checked
 * against the schema (a few thousand records), the deployments only for being an array of
 * objects. Their content is what the build validated before publishing it, and the hash of
 * catalog.json has just matched the manifest, which the release id covers.
 */
const TrustedCatalog = z.strictObject({
  deployments: z.array(
    z.custom<Deployment>(
      (d) => typeof d === "object" && d !== null && typeof (d as { id?: unknown }).id === "string",
      "a deployment object with an id",
    ),
  ),
  lifecycle: z.array(LifecycleRecord),
  events: z.array(SourceEvent),
  sources: z.array(SourceState),
});

/**
 * Load a release for serving (LATEST when no id is given): manifest and catalog.json
 * hash-checked like loadRelease, but the deployments are not parsed through the schema again
 * (at 100,000 deployments that pass costs more than reading, hashing and JSON.parse together).
 * Their objects keep the stored (canonical, sorted) key order and the validated values; a
 * consumer that serializes one for the API parses it through `Deployment` first.
 */
export async function loadTrustedRelease(snapshotsDir: string, releaseId?: string): Promise<LoadedRelease> {
  const id = releaseId ?? (await readLatest(snapshotsDir));
  if (!id) throw new CatalogError("release_not_found", `no release published in ${snapshotsDir} (no LATEST)`);
  const manifest = await readManifest(snapshotsDir, id);
  const data = await readReleaseFile(snapshotsDir, manifest, CATALOG_FILE);
  try {
    const raw = JSON.parse(data.toString("utf8")) as unknown;
    const checked = TrustedCatalog.parse(raw);
    return { manifest, catalog: checked };
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${id}: ${CATALOG_FILE} does not match the schema`,
      {},
      { cause: error },
    );
  }
}

const EVENTS_START = Buffer.from('],"events":[');
const EVENTS_END = Buffer.from('],"lifecycle":[');

/**
 * The events of a release's catalog.json (hash-checked), without parsing its deployments:
 * catalog.json is canonical JSON (keys sorted, no whitespace), so the events array sits between
 * `],"events":[` and `],"lifecycle":[` at the top level (a quote inside a string is escaped, so
 * neither marker can occur in one, and no record has an `events` key). The start is searched
 * from the end, as the deployments fill almost all of the file. A catalog not in that shape
 * is parsed whole. A manifest that counts no events needs no read at all.
 */
export async function readReleaseEvents(
  snapshotsDir: string,
  manifest: ReleaseManifest,
): Promise<SourceEvent[]> {
  // The counts are covered by the release id (readManifest checked it): none counted, none held.
  if (manifest.counts.events === 0) return [];
  const data = await readReleaseFile(snapshotsDir, manifest, CATALOG_FILE);
  const start = data.lastIndexOf(EVENTS_START);
  const end = start < 0 ? -1 : data.indexOf(EVENTS_END, start);
  try {
    if (start >= 0 && end >= 0) {
      const events = JSON.parse(data.subarray(start + EVENTS_START.length - 1, end + 1).toString("utf8"));
      if (Array.isArray(events)) return events as SourceEvent[];
    }
  } catch {
    // not the canonical shape: fall through to the whole catalog
  }
  const catalog = JSON.parse(data.toString("utf8")) as { events?: unknown };
  if (!Array.isArray(catalog.events))
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: ${CATALOG_FILE} has no events`,
    );
  return catalog.events as SourceEvent[];
}
