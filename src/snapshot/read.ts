/** Loading a published release: manifest, hash-checked catalog.json, schema-checked content. */
import { CatalogError } from "../lib/errors.js";
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
