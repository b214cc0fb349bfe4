/** Re-hashing the files of a release against its manifest. */
import { CatalogError } from "../lib/errors.js";
import type { ReleaseManifest } from "../schema/release.js";
import { readManifest } from "./manifest.js";
import { objectPath } from "./objects.js";
import { sha256OfFile } from "./read.js";

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
      // streamed: a release's largest files are hundreds of megabytes at 100,000 deployments
      const actual = await sha256OfFile(objectPath(snapshotsDir, file.sha256));
      if (actual.sha256 !== file.sha256)
        problems.push({ file: name, problem: `sha256 is ${actual.sha256}, manifest says ${file.sha256}` });
      else if (actual.bytes !== file.bytes)
        problems.push({ file: name, problem: `size is ${actual.bytes}, manifest says ${file.bytes}` });
    } catch (error) {
      problems.push({
        file: name,
        problem: `cannot read object ${file.sha256}: ${(error as Error).message}`,
      });
    }
  }
  return problems;
}

/** Re-hashes the files of a release (but those already checked); release_damaged on any problem. */
export async function requireIntactRelease(
  snapshotsDir: string,
  releaseId: string,
  alreadyVerified: readonly string[] = [],
): Promise<void> {
  const problems = await verifyRelease(snapshotsDir, releaseId, alreadyVerified);
  if (problems.length > 0)
    throw new CatalogError(
      "release_damaged",
      `release ${releaseId} is damaged: ${problems.map((p) => `${p.file}: ${p.problem}`).join("; ")}`,
      { problems },
    );
}
