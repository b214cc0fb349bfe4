/**
 * Release history: the chain of published releases (newest first, following
 * previous_release_id from LATEST or from a given release), and release ids by unique prefix.
 */

import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { CatalogError } from "../lib/errors.js";
import { RELEASE_ID } from "../lib/ids.js";
import { group } from "../lib/regex.js";
import { readLatest, readManifest } from "./artifact.js";

/** One release as `catalog releases` and `GET /v1/releases` show it. */
export interface ReleaseSummary {
  id: string;
  created_at: string;
  previous_release_id: string | null;
  counts: Record<string, number>;
}

/** At least this many hex digits of a release id name it (with or without `rel_`). */
export const MIN_PREFIX_DIGITS = 8;
const PREFIX = /^(?:rel_)?([0-9a-f]+)$/;

/** The short form diff headers and listings print: `rel_` + 12 hex digits. */
export function shortReleaseId(id: string): string {
  return id.slice(0, 16);
}

/**
 * The release a full id or a unique prefix names (`rel_3f2a9c01`, `3f2a9c01`; at least 8 hex
 * digits). Every published release directory counts, not only the chain from LATEST. Unknown ->
 * release_not_found; too short, not hex or matching several -> invalid_argument.
 */
export async function resolveReleaseId(snapshotsDir: string, idOrPrefix: string): Promise<string> {
  if (RELEASE_ID.test(idOrPrefix)) return idOrPrefix;
  const match = PREFIX.exec(idOrPrefix);
  if (!match || group(match, 1).length < MIN_PREFIX_DIGITS)
    throw new CatalogError(
      "invalid_argument",
      `"${idOrPrefix}" is not a release id or a prefix of at least ${MIN_PREFIX_DIGITS} hex digits`,
    );
  const prefix = `rel_${match[1]}`;
  let names: string[] = [];
  try {
    names = await readdir(join(snapshotsDir, "releases"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const found = names.filter((n) => RELEASE_ID.test(n) && n.startsWith(prefix)).sort();
  const [first] = found;
  if (first === undefined)
    throw new CatalogError("release_not_found", `no release ${idOrPrefix} in ${snapshotsDir}`);
  if (found.length > 1)
    throw new CatalogError(
      "invalid_argument",
      `release prefix ${idOrPrefix} is ambiguous: it matches ${found.join(", ")}; give more digits`,
    );
  return first;
}

/**
 * The releases of the chain that ends at `from` (default LATEST), newest first. A previous
 * release that is not there (pruned) ends the chain; a damaged manifest throws.
 */
export async function releaseHistory(snapshotsDir: string, from?: string): Promise<ReleaseSummary[]> {
  const history: ReleaseSummary[] = [];
  const seen = new Set<string>();
  let id = from ?? (await readLatest(snapshotsDir));
  while (id && !seen.has(id)) {
    seen.add(id);
    let manifest: Awaited<ReturnType<typeof readManifest>>;
    try {
      manifest = await readManifest(snapshotsDir, id);
    } catch (error) {
      if (history.length > 0 && error instanceof CatalogError && error.code === "release_not_found") break;
      throw error;
    }
    history.push({
      id,
      created_at: manifest.created_at,
      previous_release_id: manifest.previous_release_id,
      counts: manifest.counts,
    });
    id = manifest.previous_release_id;
  }
  return history;
}
