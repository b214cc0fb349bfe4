/**
 * Atomic publication of a release in the on-disk format of src/snapshot/, the snapshots
 * directory's build lock and the cleanup of crashed publications' leftovers.
 *
 * Publishing writes objects first (each through a temporary file and a rename, skipped when
 * the object exists), then the release directory under a temporary name, renamed into place in
 * one step, then LATEST through a temporary file and a rename. A crash at any step leaves the
 * previous release and LATEST intact; the leftovers are temporary names that no reader looks at.
 */
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import { acquireLock, isProcessAlive } from "../lib/file-lock.js";
import { ReleaseManifest } from "../schema/index.js";
import {
  byteLength,
  CATALOG_FILE,
  exists,
  type FileBytes,
  readLatest,
  readManifest,
  releaseIdFor,
  type StagedObject,
  storeStaged,
  tempName,
  writeLatest,
  writeObject,
} from "../snapshot/index.js";

// The format itself (manifest, objects, LATEST, verify, read) is src/snapshot/; the release
// stage's users keep importing it from here.
export * from "../snapshot/index.js";

export interface PublishInput {
  /** File name -> bytes (one buffer or chunks), or an object staged by an ObjectWriter. Must include catalog.json. */
  files: Record<string, FileBytes | StagedObject>;
  createdAt: string;
  previousReleaseId: string | null;
  counts: Record<string, number>;
}

export interface PublishResult {
  releaseId: string;
  created: boolean;
  manifest: ReleaseManifest;
}

/** Test seam: a function called between publish steps, so tests can inject a crash. */
export type PublishHook = (
  step: "objects_written" | "release_dir_written" | "release_renamed",
) => void | Promise<void>;

export async function publishRelease(
  snapshotsDir: string,
  input: PublishInput,
  hook?: PublishHook,
): Promise<PublishResult> {
  if (!input.files[CATALOG_FILE])
    throw new CatalogError("invalid_argument", `a release needs ${CATALOG_FILE}`);
  const objectsDir = join(snapshotsDir, "objects");
  const releasesDir = join(snapshotsDir, "releases");
  await mkdir(objectsDir, { recursive: true });
  await mkdir(releasesDir, { recursive: true });

  const files: ReleaseManifest["files"] = {};
  for (const name of Object.keys(input.files).sort(compareCodePoints)) {
    const data = input.files[name] as FileBytes | StagedObject;
    files[name] =
      "tempPath" in data
        ? { sha256: await storeStaged(snapshotsDir, data), bytes: data.bytes }
        : { sha256: await writeObject(snapshotsDir, data), bytes: byteLength(data) };
  }
  await hook?.("objects_written");

  const content = {
    format: 1 as const,
    created_at: input.createdAt,
    previous_release_id: input.previousReleaseId,
    files,
    counts: input.counts,
  };
  const releaseId = releaseIdFor(content);
  const manifest = ReleaseManifest.parse({ release_id: releaseId, ...content });
  const finalDir = join(releasesDir, releaseId);
  if (await exists(finalDir)) {
    // A release that exists is never rewritten; the same content means the same release.
    const existing = await readManifest(snapshotsDir, releaseId);
    // A publication that crashed after the rename but before LATEST left a complete release
    // that no reader follows; publishing the same content on top of the same previous release
    // finishes that publication.
    if (
      existing.previous_release_id === input.previousReleaseId &&
      (await readLatest(snapshotsDir)) === input.previousReleaseId
    )
      await writeLatest(snapshotsDir, releaseId);
    return { releaseId, created: false, manifest: existing };
  }
  const tmpDir = join(releasesDir, tempName());
  await mkdir(tmpDir);
  await writeFile(join(tmpDir, "manifest.json"), `${canonicalJson(manifest)}\n`);
  await hook?.("release_dir_written");
  await rename(tmpDir, finalDir);
  await hook?.("release_renamed");
  await writeLatest(snapshotsDir, releaseId);
  return { releaseId, created: true, manifest };
}

/** The lock a build holds on a snapshots directory from reading LATEST to publishing. */
export const BUILD_LOCK = ".build.lock";

/**
 * Takes the snapshots directory's build lock, or fails at once with `locked` naming the
 * build that holds it (a lock of a build that died, kill -9 included, is broken: its pid is
 * gone). Resolves to the release function.
 */
export async function lockSnapshots(snapshotsDir: string): Promise<() => Promise<void>> {
  await mkdir(snapshotsDir, { recursive: true });
  return acquireLock(join(snapshotsDir, BUILD_LOCK), {
    waitMs: 0,
    what: `snapshots directory ${snapshotsDir} (another build is publishing into it)`,
  });
}

/** `.tmp-<pid>-…` of another process that is still running (e.g. the server writing quota.json). */
function ownedByLiveProcess(name: string): boolean {
  const pid = Number(/^\.tmp-(\d+)-/.exec(name)?.[1]);
  return Number.isSafeInteger(pid) && pid !== process.pid && isProcessAlive(pid);
}

/**
 * Removes temporary leftovers of crashed publications (never a published release). Call it
 * holding the build lock: under objects/ and releases/ only a publication writes temporary
 * names; at the top level, temporary files of other live processes (the server's quota file)
 * are kept.
 */
export async function cleanTemporary(snapshotsDir: string): Promise<number> {
  let removed = 0;
  for (const dir of [snapshotsDir, join(snapshotsDir, "objects"), join(snapshotsDir, "releases")]) {
    let names: string[] = [];
    try {
      names = await readdir(dir);
    } catch {
      continue;
    }
    const topLevel = dir === snapshotsDir;
    for (const name of names.filter((n) => n.startsWith(".tmp-") && !(topLevel && ownedByLiveProcess(n)))) {
      await rm(join(dir, name), { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}
