/**
 * A release's manifest: `snapshots/releases/<release_id>/manifest.json`.
 *
 * The release id is `rel_` + SHA-256 of the canonical JSON of the whole manifest except the
 * id itself (format, created_at, previous_release_id, every file's sha256 and size, counts),
 * so no field of a manifest can change without its id failing to match.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import { RELEASE_ID } from "../lib/ids.js";
import { ReleaseManifest } from "../schema/release.js";

/** The files of a release. */
export const CATALOG_FILE = "catalog.json";
export const DEPLOYMENTS_PARQUET = "deployments.parquet";
export const LIFECYCLE_PARQUET = "lifecycle.parquet";
export const DIFF_JSON = "diff.json";
export const DIFF_MARKDOWN = "diff.md";
export const REPORT_FILE = "report.json";
/** Every deployment's price intervals (docs/price-history.md); releases before it have none. */
export const PRICES_FILE = "prices.json";
export const MANIFEST_FILE = "manifest.json";
export const RELEASES_DIR = "releases";

/** The id a manifest's content gives: every field but `release_id` is covered. */
export function releaseIdFor(manifest: Omit<ReleaseManifest, "release_id">): string {
  const { format, created_at, previous_release_id, files, counts } = manifest;
  return `rel_${sha256Hex(canonicalJson({ format, created_at, previous_release_id, files, counts }))}`;
}

/** The first id rule (files table only), recognized to tell an old release from an altered one. */
function legacyReleaseIdFor(files: ReleaseManifest["files"]): string {
  const table = Object.fromEntries(Object.entries(files).map(([name, f]) => [name, f.sha256]));
  return `rel_${sha256Hex(canonicalJson({ format: 1, files: table }))}`;
}

export function releaseDir(snapshotsDir: string, releaseId: string): string {
  return join(snapshotsDir, RELEASES_DIR, releaseId);
}

/** Reads a release's manifest and checks that its content hashes to its id. */
export async function readManifest(snapshotsDir: string, releaseId: string): Promise<ReleaseManifest> {
  if (!RELEASE_ID.test(releaseId))
    throw new CatalogError("release_not_found", `"${releaseId}" is not a release id`);
  let raw: string;
  try {
    raw = await readFile(join(releaseDir(snapshotsDir, releaseId), MANIFEST_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new CatalogError("release_not_found", `release ${releaseId} not found in ${snapshotsDir}`);
    throw error;
  }
  let manifest: ReleaseManifest;
  try {
    manifest = ReleaseManifest.parse(JSON.parse(raw));
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${releaseId}: manifest.json is not a valid manifest`,
      {},
      { cause: error },
    );
  }
  if (manifest.release_id !== releaseId)
    throw new CatalogError(
      "release_damaged",
      `release ${releaseId}: manifest.json names release_id ${manifest.release_id}`,
    );
  if (releaseIdFor(manifest) !== releaseId)
    throw new CatalogError(
      "release_damaged",
      legacyReleaseIdFor(manifest.files) === releaseId
        ? `release ${releaseId}: its id covers only the file table (the rule before ids covered the whole manifest), so created_at, previous_release_id and counts are unverified; rebuild it`
        : `release ${releaseId}: manifest.json was altered: its content (created_at, previous_release_id, files, counts) does not hash to the release id`,
    );
  return manifest;
}
