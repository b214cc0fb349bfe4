/**
 * The on-disk release format and its atomic publication.
 *
 *   snapshots/objects/<sha256>          immutable content-addressed files (shared by releases)
 *   snapshots/releases/<release_id>/manifest.json
 *   snapshots/LATEST                    the published release id
 *
 * The release id is `rel_` + SHA-256 of the canonical JSON of the whole manifest except the
 * id itself (format, created_at, previous_release_id, every file's sha256 and size, counts),
 * so no field of a manifest can change without its id failing to match. Publishing writes objects first (each through a
 * temporary file and a rename, skipped when the object exists), then the release directory
 * under a temporary name, renamed into place in one step, then LATEST through a temporary file
 * and a rename. A crash at any step leaves the previous release and LATEST intact; the
 * leftovers are temporary names that no reader looks at.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempName, writeFileAtomic } from "../lib/atomic-write.js";
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import { acquireLock, isProcessAlive } from "../lib/file-lock.js";
import { sha256Hex } from "../lib/hash.js";
import { RELEASE_ID } from "../lib/ids.js";
import { CatalogContent, ReleaseManifest } from "../schema/index.js";

export const CATALOG_FILE = "catalog.json";

export interface PublishInput {
  /** File name -> bytes. Must include catalog.json. */
  files: Record<string, Uint8Array>;
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

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function writeAtomically(dir: string, name: string, data: Uint8Array | string): Promise<void> {
  await writeFileAtomic(join(dir, name), data);
}

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
    const data = input.files[name] as Uint8Array;
    const sha256 = sha256Hex(data);
    files[name] = { sha256, bytes: data.byteLength };
    if (!(await exists(join(objectsDir, sha256)))) await writeAtomically(objectsDir, sha256, data);
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
      await writeAtomically(snapshotsDir, "LATEST", `${releaseId}\n`);
    return { releaseId, created: false, manifest: existing };
  }
  const tmpDir = join(releasesDir, tempName());
  await mkdir(tmpDir);
  await writeFile(join(tmpDir, "manifest.json"), `${canonicalJson(manifest)}\n`);
  await hook?.("release_dir_written");
  await rename(tmpDir, finalDir);
  await hook?.("release_renamed");
  await writeAtomically(snapshotsDir, "LATEST", `${releaseId}\n`);
  return { releaseId, created: true, manifest };
}

export async function readLatest(snapshotsDir: string): Promise<string | null> {
  try {
    const id = (await readFile(join(snapshotsDir, "LATEST"), "utf8")).trim();
    if (!RELEASE_ID.test(id))
      throw new CatalogError("release_damaged", `LATEST holds "${id}", not a release id`);
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
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

export async function readManifest(snapshotsDir: string, releaseId: string): Promise<ReleaseManifest> {
  if (!RELEASE_ID.test(releaseId))
    throw new CatalogError("release_not_found", `"${releaseId}" is not a release id`);
  let raw: string;
  try {
    raw = await readFile(join(snapshotsDir, "releases", releaseId, "manifest.json"), "utf8");
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

export interface VerifyProblem {
  file: string;
  problem: string;
}

/**
 * Re-hash every file of a release. Returns the problems found (empty when intact).
 * `alreadyVerified` names files the caller has just read through readReleaseFile (which
 * checks the hash), so a large catalog is not hashed twice.
 */
export async function verifyRelease(
  snapshotsDir: string,
  releaseId: string,
  alreadyVerified: readonly string[] = [],
): Promise<VerifyProblem[]> {
  let manifest: ReleaseManifest;
  try {
    manifest = await readManifest(snapshotsDir, releaseId);
  } catch (error) {
    if (error instanceof CatalogError && error.code === "release_damaged")
      return [{ file: "manifest.json", problem: error.message }];
    throw error;
  }
  const problems: VerifyProblem[] = [];
  for (const [name, file] of Object.entries(manifest.files)) {
    if (alreadyVerified.includes(name)) continue;
    try {
      const data = await readFile(join(snapshotsDir, "objects", file.sha256));
      const actual = sha256Hex(data);
      if (actual !== file.sha256)
        problems.push({ file: name, problem: `sha256 is ${actual}, manifest says ${file.sha256}` });
      else if (data.byteLength !== file.bytes)
        problems.push({ file: name, problem: `size is ${data.byteLength}, manifest says ${file.bytes}` });
    } catch (error) {
      problems.push({
        file: name,
        problem: `cannot read object ${file.sha256}: ${(error as Error).message}`,
      });
    }
  }
  return problems;
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
    data = await readFile(join(snapshotsDir, "objects", file.sha256));
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
