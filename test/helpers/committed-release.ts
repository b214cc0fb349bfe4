/**
 * Test helper: the committed snapshot's release (catalog, facts, build report), which
 * test/pipeline/build.test.ts holds to be the offline build of the recorded captures at
 * COMMITTED_BUILD_TIME: tests about that build read it instead of building it again.
 *
 * The repository's snapshots/ is also where the README's quick start publishes (a build at
 * today's clock moves LATEST to a new release). So no test reads that directory's LATEST or
 * release chain: the committed release is found by what it is (built from an empty directory,
 * previous_release_id null, at COMMITTED_BUILD_TIME) and read by its id; a test that needs a
 * snapshots directory (a server, a CLI command, a build over it) gets a copy holding that
 * release alone (copyCommittedSnapshots).
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FactsFile,
  loadRelease,
  REPORT_FILE,
  readFacts,
  readManifest,
  readReleaseFile,
} from "../../src/release/index.js";
import type { BuildReport } from "../../src/release/types.js";
import {
  BuildReportFile,
  type CatalogContent,
  type ReleaseManifest as Manifest,
  ReleaseManifest,
} from "../../src/schema/index.js";
import { REPO } from "./cli.js";

/** The repository's snapshots/: read only by release id, never by its LATEST. */
export const REPO_SNAPSHOTS = join(REPO, "snapshots");
/** The `--now` of the committed snapshot's offline build (README: rebuilding the snapshot). */
export const COMMITTED_BUILD_TIME = "2026-11-23T00:00:00Z";

let committedId: Promise<string> | undefined;

/** The committed release's id: the one release in snapshots/ built from nothing at COMMITTED_BUILD_TIME. */
export function committedReleaseId(): Promise<string> {
  committedId ??= findCommittedRelease();
  return committedId;
}

async function findCommittedRelease(): Promise<string> {
  const ids = await readdir(join(REPO_SNAPSHOTS, "releases"));
  const found: string[] = [];
  for (const id of ids) {
    const text = await readFile(join(REPO_SNAPSHOTS, "releases", id, "manifest.json"), "utf8");
    const manifest = ReleaseManifest.parse(JSON.parse(text));
    if (manifest.previous_release_id === null && manifest.created_at === COMMITTED_BUILD_TIME) found.push(id);
  }
  if (found.length !== 1)
    throw new Error(
      `snapshots/ should hold exactly one release built from an empty directory at ${COMMITTED_BUILD_TIME} (the committed snapshot), found ${found.length}: restore it with \`git checkout -- snapshots\``,
    );
  return found[0] as string;
}

/**
 * Copies the committed release (its manifest and the objects it lists) into `snapshotsDir`
 * and points LATEST at it: a snapshots directory as a fresh clone has it, whatever builds
 * were run in the checkout since. Returns the release id.
 */
export async function copyCommittedSnapshots(snapshotsDir: string): Promise<string> {
  const id = await committedReleaseId();
  const manifest = await readManifest(REPO_SNAPSHOTS, id);
  await mkdir(join(snapshotsDir, "releases", id), { recursive: true });
  await mkdir(join(snapshotsDir, "objects"), { recursive: true });
  await copyFile(
    join(REPO_SNAPSHOTS, "releases", id, "manifest.json"),
    join(snapshotsDir, "releases", id, "manifest.json"),
  );
  for (const file of Object.values(manifest.files))
    await copyFile(join(REPO_SNAPSHOTS, "objects", file.sha256), join(snapshotsDir, "objects", file.sha256));
  await writeFile(join(snapshotsDir, "LATEST"), `${id}\n`);
  return id;
}

/** A new temp directory `<tmp>/snapshots` holding the committed release alone; the caller removes its parent. */
export async function committedSnapshotsCopy(): Promise<{
  dir: string;
  snapshots: string;
  releaseId: string;
}> {
  const dir = await mkdtemp(join(tmpdir(), "catalog-committed-"));
  const snapshots = join(dir, "snapshots");
  const releaseId = await copyCommittedSnapshots(snapshots);
  return { dir, snapshots, releaseId };
}

export interface CommittedRelease {
  releaseId: string;
  manifest: Manifest;
  catalog: CatalogContent;
  facts: FactsFile;
  report: BuildReport;
}

export async function committedRelease(): Promise<CommittedRelease> {
  const releaseId = await committedReleaseId();
  const release = await loadRelease(REPO_SNAPSHOTS, releaseId);
  const facts = await readFacts(REPO_SNAPSHOTS, release.manifest);
  if (!facts) throw new Error("the committed release has no facts.json");
  const report = BuildReportFile.parse(
    JSON.parse((await readReleaseFile(REPO_SNAPSHOTS, release.manifest, REPORT_FILE)).toString("utf8")),
  ) as BuildReport;
  return { releaseId, manifest: release.manifest, catalog: release.catalog, facts, report };
}
