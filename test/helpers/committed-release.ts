/**
 * Test helper: the committed snapshot's release (catalog, facts, build report), which
 * test/pipeline/build.test.ts holds to be the offline build of the recorded captures at
 * 2026-11-23T00:00:00Z: tests about that build read it instead of building it again.
 */
import { join } from "node:path";
import {
  type FactsFile,
  loadRelease,
  REPORT_FILE,
  readFacts,
  readReleaseFile,
} from "../../src/release/index.js";
import type { BuildReport } from "../../src/release/types.js";
import { BuildReportFile, type CatalogContent } from "../../src/schema/index.js";
import { SOURCES_DIR } from "./captures.js";

export const COMMITTED_SNAPSHOTS = join(SOURCES_DIR, "..", "snapshots");

export interface CommittedRelease {
  snapshotsDir: string;
  catalog: CatalogContent;
  facts: FactsFile;
  report: BuildReport;
}

export async function committedRelease(): Promise<CommittedRelease> {
  const release = await loadRelease(COMMITTED_SNAPSHOTS);
  const facts = await readFacts(COMMITTED_SNAPSHOTS, release.manifest);
  if (!facts) throw new Error("the committed release has no facts.json");
  const report = BuildReportFile.parse(
    JSON.parse((await readReleaseFile(COMMITTED_SNAPSHOTS, release.manifest, REPORT_FILE)).toString("utf8")),
  ) as BuildReport;
  return { snapshotsDir: COMMITTED_SNAPSHOTS, catalog: release.catalog, facts, report };
}
