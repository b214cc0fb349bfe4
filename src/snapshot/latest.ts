/** `snapshots/LATEST`: the published release id, replaced in one rename. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CatalogError } from "../lib/errors.js";
import { RELEASE_ID } from "../lib/ids.js";
import { readManifest } from "./manifest.js";
import { writeAtomically } from "./objects.js";

export const LATEST_FILE = "LATEST";

export async function readLatest(snapshotsDir: string): Promise<string | null> {
  try {
    const id = (await readFile(join(snapshotsDir, LATEST_FILE), "utf8")).trim();
    if (!RELEASE_ID.test(id))
      throw new CatalogError("release_damaged", `LATEST holds "${id}", not a release id`);
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export async function writeLatest(snapshotsDir: string, releaseId: string): Promise<void> {
  await writeAtomically(snapshotsDir, LATEST_FILE, `${releaseId}\n`);
}

/** Release ids in publication order (oldest first), following previous_release_id from LATEST. */
export async function listReleases(snapshotsDir: string): Promise<string[]> {
  const chain: string[] = [];
  let id = await readLatest(snapshotsDir);
  const seen = new Set<string>();
  while (id && !seen.has(id)) {
    seen.add(id);
    chain.unshift(id);
    id = (await readManifest(snapshotsDir, id)).previous_release_id;
  }
  return chain;
}
