/**
 * Content-addressed objects: `snapshots/objects/<sha256>`, immutable files shared by releases.
 * Every write goes through a temporary name and a rename, so a reader never sees half a file.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { tempName, writeFileAtomic } from "../lib/atomic-write.js";
import { CatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import type { ReleaseManifest } from "../schema/release.js";

export const OBJECTS_DIR = "objects";

export function objectPath(snapshotsDir: string, sha256: string): string {
  return join(snapshotsDir, OBJECTS_DIR, sha256);
}

// `.tmp-<pid>-<random>`: the names that no reader looks at and cleanup removes.
export { tempName };

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function writeAtomically(dir: string, name: string, data: Uint8Array | string): Promise<void> {
  await writeFileAtomic(join(dir, name), data);
}

/** Stores bytes as an object (skipped when it exists); resolves to its sha256. */
export async function writeObject(snapshotsDir: string, data: Uint8Array): Promise<string> {
  const sha256 = sha256Hex(data);
  if (!(await exists(objectPath(snapshotsDir, sha256))))
    await writeAtomically(join(snapshotsDir, OBJECTS_DIR), sha256, data);
  return sha256;
}

/** Read one file of a release, verifying its hash. */
export async function readReleaseFile(
  snapshotsDir: string,
  manifest: ReleaseManifest,
  name: string,
): Promise<Buffer> {
  const file = manifest.files[name];
  if (!file) throw new CatalogError("release_damaged", `release ${manifest.release_id} has no ${name}`);
  let data: Buffer;
  try {
    data = await readFile(objectPath(snapshotsDir, file.sha256));
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: object for ${name} is missing`,
      {},
      { cause: error },
    );
  }
  if (sha256Hex(data) !== file.sha256)
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: ${name} does not match its sha256`,
    );
  return data;
}
