/**
 * The release stage: gather facts (carrying failed sources forward), merge, load into DuckDB,
 * validate, diff against the previous release, and publish a content-addressed release, or
 * nothing when validation fails or the content is unchanged.
 *
 * A release holds: catalog.json (CatalogContent, canonical JSON), facts.json (per-source
 * facts, for the next build's carry-forward), deployments.parquet and lifecycle.parquet
 * (flat tables, explicitly ordered, written by one DuckDB thread so the bytes are
 * reproducible), diff.json / diff.md (against the previous release) and report.json.
 */
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import type { CatalogContent, ReleaseManifest } from "../schema/index.js";
import {
  CATALOG_FILE,
  catalogReleaseFiles,
  DEPLOYMENTS_PARQUET,
  DIFF_JSON,
  DIFF_MARKDOWN,
  LIFECYCLE_PARQUET,
  publishRelease,
  REPORT_FILE,
  readLatest,
  readManifest,
  readReleaseFile,
  SERVE_INDEX_FILE,
} from "./artifact.js";
import { computeDiff, diffPublishedReleases, renderDiffMarkdown } from "./diff.js";
import { withDatabase } from "./duckdb.js";
import { FACTS_FILE, FactsFile } from "./facts.js";
import { contentFingerprint } from "./fingerprint.js";
import { planRelease } from "./plan.js";
import { buildReport } from "./report.js";
import { deploymentsParquetQuery, lifecycleParquetQuery, loadCatalog, loadFacts } from "./tables.js";
import type { CheckResult, PreviousRelease, ReleaseDiff, ReleaseInput, ReleaseOutcome } from "./types.js";
import { checkContext, runSqlChecks, schemaCheck } from "./validate.js";

export {
  DEPLOYMENTS_PARQUET,
  DIFF_JSON,
  DIFF_MARKDOWN,
  LIFECYCLE_PARQUET,
  REPORT_FILE,
} from "../snapshot/index.js";

const EMPTY_CATALOG: CatalogContent = { deployments: [], lifecycle: [], events: [], sources: [] };
const encoder = new TextEncoder();

/** The facts a release stored, or null for a release without facts.json. */
export async function readFacts(snapshotsDir: string, manifest: ReleaseManifest): Promise<FactsFile | null> {
  if (!manifest.files[FACTS_FILE]) return null;
  const data = await readReleaseFile(snapshotsDir, manifest, FACTS_FILE);
  try {
    return FactsFile.parse(JSON.parse(data.toString("utf8")));
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: ${FACTS_FILE} does not match the schema`,
      {},
      { cause: error },
    );
  }
}

export { contentFingerprint } from "./fingerprint.js";
export { mergeEvents, planRelease } from "./plan.js";

/**
 * The previous release, read for the merge, the checks and the diff. Its files are verified
 * against their sha256 (readReleaseFile) and were validated when they were published, so they
 * are not run through zod again: at 100,000 deployments that would cost seconds per build.
 */
async function readPrevious(
  snapshotsDir: string,
  releaseId: string,
  /** false: only the catalog is needed (a diff): facts.json is not read, no fingerprint. */
  withFingerprint = true,
): Promise<PreviousRelease> {
  const manifest = await readManifest(snapshotsDir, releaseId);
  const catalogJson = (await readReleaseFile(snapshotsDir, manifest, CATALOG_FILE)).toString("utf8");
  const factsJson =
    withFingerprint && manifest.files[FACTS_FILE]
      ? (await readReleaseFile(snapshotsDir, manifest, FACTS_FILE)).toString("utf8")
      : null;
  try {
    const catalog = JSON.parse(catalogJson) as CatalogContent;
    const facts = factsJson === null ? null : (JSON.parse(factsJson) as FactsFile);
    if (
      !Array.isArray(catalog.deployments) ||
      !Array.isArray(catalog.lifecycle) ||
      !Array.isArray(catalog.events)
    )
      throw new Error(`${CATALOG_FILE} is not a catalog`);
    if (facts !== null && (facts.format !== 1 || !Array.isArray(facts.sources)))
      throw new Error(`${FACTS_FILE} is not a facts file`);
    return {
      releaseId,
      catalog,
      facts,
      // A release without serve-index.json is never "unchanged": the next build publishes one with it.
      fingerprint:
        facts === null || !manifest.files[SERVE_INDEX_FILE] ? null : contentFingerprint(catalog, facts),
    };
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${releaseId}: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  }
}

/**
 * The latest release as the next build needs it (catalog, facts, fingerprint), or null before
 * the first release. A caller that reads it first (the build needs its source states before
 * collecting) hands it to runRelease as `previous`, so it is read once.
 */
export async function readPreviousRelease(snapshotsDir: string): Promise<PreviousRelease | null> {
  const releaseId = await readLatest(snapshotsDir);
  return releaseId ? readPrevious(snapshotsDir, releaseId) : null;
}

export async function runRelease(input: ReleaseInput): Promise<ReleaseOutcome> {
  const context = checkContext(input.now, input.thresholds);
  const { snapshotsDir, now } = input;
  const given = input.previous;
  const previousReleaseId = given !== undefined ? (given?.releaseId ?? null) : await readLatest(snapshotsDir);
  // Everything that needs DuckDB runs first and the database is closed before the catalog is
  // serialized: at 100,000 deployments the tables and the JSON texts together would double the
  // build's peak memory. The previous release goes into DuckDB first; the caller's `previous` is
  // only read, never emptied (the caller decides how long it keeps it).
  const analysed = await withDatabase(async (db) => {
    const previous: PreviousRelease | null =
      given !== undefined
        ? given
        : previousReleaseId
          ? await readPrevious(snapshotsDir, previousReleaseId)
          : null;
    await loadCatalog(db, "prev_", previous?.catalog ?? EMPTY_CATALOG);
    const plan = planRelease({
      now,
      contributions: input.contributions,
      states: input.states,
      newEvents: input.newEvents,
      previous: {
        lifecycle: previous?.catalog.lifecycle ?? [],
        events: previous?.catalog.events ?? [],
        facts: previous?.facts ?? null,
      },
    });
    const { gathered, catalog } = plan;
    await loadCatalog(db, "", catalog);
    await loadFacts(db, gathered.facts);
    const checks = [schemaCheck(catalog), ...(await runSqlChecks(db, context))];
    const diff = await computeDiff(db, "prev_", "", { fromReleaseId: previousReleaseId, toReleaseId: null });
    const failed = checks.some((c) => c.severity === "error" && c.violations > 0);
    const parquet = failed
      ? null
      : {
          [DEPLOYMENTS_PARQUET]: await db.parquet("deployments", deploymentsParquetQuery()),
          [LIFECYCLE_PARQUET]: await db.parquet("lifecycle", lifecycleParquetQuery()),
        };
    return { checks, diff, failed, parquet, plan, previousFingerprint: previous?.fingerprint ?? null };
  });
  const { checks, diff, plan, previousFingerprint } = analysed;
  const { gathered, merged, catalog } = plan;
  const markdownDiff = renderDiffMarkdown(diff);
  const report = buildReport({
    now,
    previousReleaseId,
    catalog,
    checks,
    conflicts: merged.conflicts,
    unresolvedReplacements: merged.unresolvedReplacements,
    carriedForward: gathered.carriedForward,
    failedWithoutFacts: gathered.failedWithoutFacts,
    corrections: input.corrections ?? [],
  });
  const outcome = (
    status: ReleaseOutcome["status"],
    releaseId: string | null,
    finalDiff: ReleaseDiff,
  ): ReleaseOutcome => ({
    status,
    releaseId,
    previousReleaseId,
    checks,
    report,
    diff: finalDiff,
    markdownDiff,
  });

  if (analysed.failed || !analysed.parquet) return outcome("validation_failed", null, diff);
  if (previousFingerprint !== null && previousFingerprint === plan.fingerprint)
    return outcome("unchanged", previousReleaseId, diff);

  const files: Record<string, Uint8Array> = {
    // Each text is encoded as soon as it exists, so only one large string is alive at a time.
    // catalog.json (canonical JSON) and serve-index.json (the server's columns and record spans)
    ...catalogReleaseFiles(catalog),
    [FACTS_FILE]: encoder.encode(canonicalJson(gathered.facts)),
    ...analysed.parquet,
    [DIFF_JSON]: encoder.encode(canonicalJson(diff)),
    [DIFF_MARKDOWN]: encoder.encode(markdownDiff),
    [REPORT_FILE]: encoder.encode(canonicalJson(report)),
  };
  const published = await publishRelease(
    snapshotsDir,
    {
      files,
      createdAt: now,
      previousReleaseId,
      counts: {
        deployments: catalog.deployments.length,
        priced_deployments: report.totals.priced,
        lifecycle_records: catalog.lifecycle.length,
        events: catalog.events.length,
        sources: catalog.sources.length,
      },
    },
    input.hook,
  );
  return outcome("published", published.releaseId, { ...diff, to_release_id: published.releaseId });
}

/**
 * Validate a catalog on its own (the checks of runRelease, without merging or publishing):
 * for tests, and for tools that want to vet a hand-edited catalog.
 */
export async function checkCatalog(options: {
  catalog: CatalogContent;
  now: string;
  previous?: CatalogContent | null;
  facts?: FactsFile | null;
  thresholds?: ReleaseInput["thresholds"];
}): Promise<CheckResult[]> {
  const context = checkContext(options.now, options.thresholds);
  return withDatabase(async (db) => {
    await loadCatalog(db, "", options.catalog);
    await loadCatalog(db, "prev_", options.previous ?? EMPTY_CATALOG);
    await loadFacts(db, options.facts ?? null);
    return [schemaCheck(options.catalog), ...(await runSqlChecks(db, context))];
  });
}

/** Diff two published releases (SQL over both catalogs) and render the Markdown. */
export async function diffReleases(
  snapshotsDir: string,
  fromId: string,
  toId: string,
): Promise<{ diff: ReleaseDiff; markdown: string }> {
  return diffPublishedReleases(snapshotsDir, fromId, toId);
}
