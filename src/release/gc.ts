/**
 * `catalog gc`: removes the releases and objects that no release chain from LATEST reaches.
 *
 * What is kept: LATEST and every release its chain reaches (following previous_release_id
 * until the first release, or a pruned one), and every object a kept release's manifest names.
 * What goes: release directories outside that chain (a build killed after renaming its release
 * into place but before moving LATEST, followed by a build of other content, leaves one), the
 * objects only they name, and objects no release names at all (a build killed after writing
 * its objects).
 *
 * Safe under concurrent builds: it holds the build lock (the one a build holds from reading
 * LATEST to publishing), so no build is between writing its objects and publishing the release
 * that names them while it looks; a build that starts meanwhile fails at once with `locked`,
 * as gc does when a build holds the lock. A chain whose manifest is damaged stops it before it
 * removes anything (it could not tell what that release's ancestors are).
 */
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { CatalogError } from "../lib/errors.js";
import { RELEASE_ID } from "../lib/ids.js";
import { OBJECTS_DIR, RELEASES_DIR, readLatest, readManifest } from "../snapshot/index.js";
import { cleanTemporary, lockSnapshots } from "./artifact.js";

const OBJECT_NAME = /^[0-9a-f]{64}$/;

export interface GcResult {
  /** The releases LATEST's chain reaches, kept. */
  kept: string[];
  releases: string[];
  objects: string[];
  /** Bytes of the objects removed (or that would be). */
  bytes: number;
  /** Temporary leftovers of interrupted publications removed (none on a dry run). */
  temporary: number;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The chain from LATEST (newest first) and the objects its manifests name. */
async function reachable(snapshotsDir: string): Promise<{ releases: string[]; objects: Set<string> }> {
  const latest = await readLatest(snapshotsDir);
  if (!latest)
    throw new CatalogError(
      "release_not_found",
      `no release published in ${snapshotsDir} (no LATEST): nothing to tell kept from unreachable`,
    );
  const releases: string[] = [];
  const objects = new Set<string>();
  let id: string | null = latest;
  while (id !== null && !releases.includes(id)) {
    let manifest: Awaited<ReturnType<typeof readManifest>>;
    try {
      manifest = await readManifest(snapshotsDir, id);
    } catch (error) {
      // a pruned ancestor ends the chain; LATEST itself must be there
      if (releases.length > 0 && error instanceof CatalogError && error.code === "release_not_found") break;
      throw error;
    }
    releases.push(id);
    for (const file of Object.values(manifest.files)) objects.add(file.sha256);
    id = manifest.previous_release_id;
  }
  return { releases, objects };
}

async function unreachable(snapshotsDir: string): Promise<Omit<GcResult, "temporary">> {
  const kept = await reachable(snapshotsDir);
  const releases = (await names(join(snapshotsDir, RELEASES_DIR)))
    .filter((name) => RELEASE_ID.test(name) && !kept.releases.includes(name))
    .sort();
  const objects = (await names(join(snapshotsDir, OBJECTS_DIR)))
    .filter((name) => OBJECT_NAME.test(name) && !kept.objects.has(name))
    .sort();
  let bytes = 0;
  for (const name of objects) bytes += (await stat(join(snapshotsDir, OBJECTS_DIR, name))).size;
  return { kept: kept.releases, releases, objects, bytes };
}

/** Removes (or, with dryRun, lists) what no chain from LATEST reaches, holding the build lock. */
export async function collectGarbage(snapshotsDir: string, options: { dryRun: boolean }): Promise<GcResult> {
  const unlock = await lockSnapshots(snapshotsDir);
  try {
    const found = await unreachable(snapshotsDir);
    if (options.dryRun) return { ...found, temporary: 0 };
    // releases first: an interrupted gc never leaves a release whose objects are gone
    for (const id of found.releases)
      await rm(join(snapshotsDir, RELEASES_DIR, id), { recursive: true, force: true });
    for (const name of found.objects) await rm(join(snapshotsDir, OBJECTS_DIR, name), { force: true });
    return { ...found, temporary: await cleanTemporary(snapshotsDir) };
  } finally {
    await unlock();
  }
}
