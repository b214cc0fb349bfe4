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
import { readFile } from "node:fs/promises";
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import { collectGarbage } from "../lib/gc.js";
import { SHA256_HEX } from "../lib/hash.js";
import type { CatalogContent, ReleaseManifest } from "../schema/index.js";
import {
  CATALOG_FILE,
  CatalogLayoutRecorder,
  DEPLOYMENTS_PARQUET,
  DIFF_JSON,
  DIFF_MARKDOWN,
  discardStaged,
  type FileBytes,
  LIFECYCLE_PARQUET,
  ObjectWriter,
  objectPath,
  publishRelease,
  REPORT_FILE,
  readLatest,
  readManifest,
  readReleaseFile,
  SERVE_INDEX_FILE,
  type StagedObject,
  serveIndexFor,
  verifyReleaseFileLater,
} from "./artifact.js";
import { deploymentRefs, diffPublishedReleases, queryDiff, readDiff, renderDiffMarkdown } from "./diff.js";
import { type ReleaseDatabase, type StagedTable, withDatabase } from "./duckdb.js";
import { FACTS_FILE, FactsFile } from "./facts.js";
import type { Fingerprint } from "./fingerprint.js";
import { type PreviousCores, previousCoresOf, stampLastChanged } from "./merge-lifecycle.js";
import { planRelease } from "./plan.js";
import {
  locatePreviousParts,
  previousCoresFromParquet,
  readLifecycleCores,
  readPreviousParts,
} from "./previous-release.js";
import { reportWithoutChecks, withCheckResults } from "./report.js";
import { writeCatalogJson, writeFactsJson, writeText } from "./serialize.js";
import {
  deploymentLifecyclesEmbedded,
  deploymentsParquetQuery,
  lifecycleParquetQuery,
  loadCatalog,
  loadFacts,
  loadPublishedRelease,
  loadStagedRecords,
  loadStagedTables,
  recordLineWriters,
  stageCatalogRows,
  stageFacts,
} from "./tables.js";
import type {
  BuildReport,
  CheckResult,
  DeploymentRef,
  PreviousRelease,
  ReleaseDiff,
  ReleaseInput,
  ReleaseOutcome,
} from "./types.js";
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

/** A release's stored content fingerprint (report.json), or null for a release from before it was stored. */
async function storedFingerprint(snapshotsDir: string, manifest: ReleaseManifest): Promise<string | null> {
  if (!manifest.files[REPORT_FILE]) return null;
  const report = JSON.parse(
    (await readReleaseFile(snapshotsDir, manifest, REPORT_FILE)).toString("utf8"),
  ) as {
    content_fingerprint?: unknown;
  };
  const value = report.content_fingerprint;
  return typeof value === "string" && SHA256_HEX.test(value) ? value : null;
}

/**
 * The previous release, read for the merge, the checks and the diff. Its files are verified
 * against their sha256 (readReleaseFile) and were validated when they were published, so they
 * are not run through zod again: at 100,000 deployments that would cost seconds per build.
 * facts.json is read only when asked for (a build needs it to carry a failed or skipped source
 * forward).
 */
async function readPrevious(snapshotsDir: string, releaseId: string): Promise<PreviousRelease> {
  const manifest = await readManifest(snapshotsDir, releaseId);
  const damaged = (error: unknown) =>
    new CatalogError(
      "release_damaged",
      `release ${releaseId}: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  let factsRead: Promise<FactsFile | null> | null = null;
  const facts = () => {
    factsRead ??= (async () => {
      if (!manifest.files[FACTS_FILE]) return null;
      const text = (await readReleaseFile(snapshotsDir, manifest, FACTS_FILE)).toString("utf8");
      try {
        const parsed = JSON.parse(text) as FactsFile;
        if (parsed.format !== 1 || !Array.isArray(parsed.sources))
          throw new Error(`${FACTS_FILE} is not a facts file`);
        return parsed;
      } catch (error) {
        throw damaged(error);
      }
    })();
    return factsRead;
  };
  // catalog.json's hash is verified on another thread (which reads the file itself) while the
  // build goes on (PreviousRelease.verified): only its end is read here, or all of it for a
  // release without Parquet files
  const verified = verifyReleaseFileLater(snapshotsDir, manifest, CATALOG_FILE);
  const catalogFile = manifest.files[CATALOG_FILE];
  const deployments = manifest.files[DEPLOYMENTS_PARQUET];
  const lifecycle = manifest.files[LIFECYCLE_PARQUET];
  let catalog: PreviousRelease["catalog"];
  let cores: (db: ReleaseDatabase) => Promise<PreviousCores>;
  let load: PreviousRelease["load"];
  let stored: string | null;
  try {
    if (!catalogFile) throw new Error(`it has no ${CATALOG_FILE}`);
    const catalogPath = objectPath(snapshotsDir, catalogFile.sha256);
    if (deployments && lifecycle) {
      // Its deployments are read by DuckDB from its Parquet files, never parsed here.
      await readReleaseFile(snapshotsDir, manifest, DEPLOYMENTS_PARQUET);
      await readReleaseFile(snapshotsDir, manifest, LIFECYCLE_PARQUET);
      // its events and sources where serve-index.json says they lie, and its lifecycle cores from
      // lifecycle.parquet (one DuckDB query once the build has its database); without
      // serve-index.json, all three from another thread (previous-release.ts)
      const serveIndex = manifest.files[SERVE_INDEX_FILE];
      const serveIndexPath = serveIndex ? objectPath(snapshotsDir, serveIndex.sha256) : null;
      const located = locatePreviousParts(catalogPath, serveIndexPath);
      if (located) {
        catalog = { events: located.events, sources: located.sources };
        const lifecycleParquet = objectPath(snapshotsDir, lifecycle.sha256);
        cores = async (db) =>
          (await previousCoresFromParquet(db, lifecycleParquet)) ??
          (await readLifecycleCores(catalogPath, located.lifecycleSpan));
      } else {
        const parts = await readPreviousParts(catalogPath, serveIndexPath ? { serveIndexPath } : {});
        catalog = { events: parts.events, sources: parts.sources };
        cores = () => parts.lifecycle;
      }
      const { events, sources } = catalog;
      load = (db, prefix) =>
        loadPublishedRelease(db, prefix, {
          deploymentsParquet: objectPath(snapshotsDir, deployments.sha256),
          lifecycleParquet: objectPath(snapshotsDir, lifecycle.sha256),
          events,
          sources,
        });
    } else {
      const whole = JSON.parse((await readFile(catalogPath)).toString("utf8")) as CatalogContent;
      if (
        !Array.isArray(whole.deployments) ||
        !Array.isArray(whole.lifecycle) ||
        !Array.isArray(whole.events)
      )
        throw new Error(`${CATALOG_FILE} is not a catalog`);
      catalog = whole;
      cores = async () => previousCoresOf(whole.lifecycle);
      load = (db, prefix) => loadCatalog(db, prefix, whole);
    }
    stored = await storedFingerprint(snapshotsDir, manifest);
  } catch (error) {
    // a damaged catalog.json is reported as such, not as whatever parsing it did
    await verified;
    if (error instanceof CatalogError) throw error;
    throw damaged(error);
  }
  // lifecycle records that cannot be read are a damaged release too
  const previousCores = (db: ReleaseDatabase) => {
    const read = cores(db).catch(async (error: unknown) => {
      await verified;
      throw damaged(error);
    });
    read.catch(() => {});
    return read;
  };
  // A release from before the fingerprint was stored (and serve-index.json) is never
  // "unchanged": the next build publishes the same content in the current format.
  return {
    releaseId,
    catalog,
    lifecycle: previousCores,
    load,
    facts,
    fingerprint: stored,
    verified,
  };
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

/** What the JS phase of a release leaves for the DuckDB phase and publishing: no catalog values. */
interface StagedRelease {
  /** The previous release's tables (prev_), loading into DuckDB since catalog.json was written (stageCatalogHalf). */
  previousLoaded: Promise<void>;
  /** The catalog's records, loading into DuckDB since catalog.json was written (stageCatalogHalf). */
  recordsLoaded: Promise<void>;
  /** The catalog's small staged tables (events, sources, facts). */
  tables: StagedTable[];
  schema: CheckResult;
  report: BuildReport;
  /** serve-index.json: the server's columns and every record's span in catalog.json. */
  files: { catalog: StagedObject; facts: StagedObject; serveIndex: StagedObject; fingerprint: string };
  counts: Record<string, number>;
  /** With no previous release, the diff's added deployments: every one (deploymentRefs). */
  firstAdded: DeploymentRef[] | null;
}

/** The catalog's half of the JS phase (stageCatalogHalf): everything but facts.json. */
interface StagedCatalogHalf extends Omit<StagedRelease, "files"> {
  facts: FactsFile;
  catalogFile: StagedObject;
  serveIndexFile: StagedObject;
  /** The content fingerprint so far: writeFactsJson finishes it. */
  fingerprint: Fingerprint;
}

/**
 * The JS phase: merge, validate every record through its schema, summarize, and write
 * everything out (catalog.json and facts.json to staged objects; the records' texts and the
 * small tables' rows to DuckDB staging files). Each record is serialized once: the same texts
 * make catalog.json and facts.json and the fingerprint that decides whether anything changed.
 * Only what it returns survives it, and the catalog's values are unreachable (collected)
 * before facts.json is written, while DuckDB loads the records on its own threads.
 */
async function stageRelease(
  db: ReleaseDatabase,
  input: ReleaseInput,
  previous: PreviousRelease | null,
  previousReleaseId: string | null,
): Promise<StagedRelease> {
  const { facts, catalogFile, serveIndexFile, fingerprint, ...half } = await stageCatalogHalf(
    db,
    input,
    previous,
    previousReleaseId,
  );
  // the catalog (and the texts made writing it) is garbage now: collected before the facts make more
  collectGarbage();
  const factsFile = new ObjectWriter(input.snapshotsDir);
  try {
    // the staged object's own hash is the facts' hash in the fingerprint
    let factsObject: StagedObject | null = null;
    const digest = writeFactsJson(
      facts,
      (chunk) => factsFile.write(chunk),
      fingerprint,
      () => {
        factsObject = factsFile.close();
        return factsObject.sha256;
      },
    );
    return {
      ...half,
      files: {
        catalog: catalogFile,
        facts: factsObject ?? factsFile.close(),
        serveIndex: serveIndexFile,
        fingerprint: digest,
      },
    };
  } catch (error) {
    factsFile.abort();
    await discardStaged(catalogFile);
    await discardStaged(serveIndexFile);
    throw error;
  }
}

/**
 * Merge, validate, summarize, write catalog.json to a staged object and its records to
 * DuckDB's staging files, and hand those to DuckDB (`recordsLoaded`: its threads load them
 * while the caller writes facts.json; at 100,000 deployments each takes about 2 s). Returns no
 * catalog value.
 */
async function stageCatalogHalf(
  db: ReleaseDatabase,
  input: ReleaseInput,
  previous: PreviousRelease | null,
  previousReleaseId: string | null,
): Promise<StagedCatalogHalf> {
  // The previous facts only matter to a source that failed or was skipped (carried forward).
  const needsFacts = input.contributions.some((c) => c.failed || !c.output);
  // the previous lifecycle cores, read by DuckDB while the merge runs
  const previousCores = previous?.lifecycle(db) ?? null;
  const { gathered, merged, catalog } = planRelease({
    now: input.now,
    contributions: input.contributions,
    states: input.states,
    newEvents: input.newEvents,
    previous: {
      // stamped below, once the other thread has read the previous lifecycles
      lifecycle: [],
      events: previous?.catalog.events ?? [],
      facts: previous && needsFacts ? await previous.facts() : null,
    },
  });
  if (previousCores) stampLastChanged(catalog.lifecycle, await previousCores, input.now);
  // what the merge left behind (its intermediate values, the previous cores) is garbage:
  // collected before staging makes more
  collectGarbage();
  const rows = await stageCatalogRows(db, "", catalog);
  const facts = await stageFacts(db, gathered.facts);
  const report = reportWithoutChecks({
    now: input.now,
    previousReleaseId,
    catalog,
    conflicts: merged.conflicts,
    officialDisagreements: merged.officialDisagreements,
    communityDisagreements: merged.communityDisagreements,
    officialSpecs: merged.officialSpecs,
    unresolvedReplacements: merged.unresolvedReplacements,
    carriedForward: gathered.carriedForward,
    failedWithoutFacts: gathered.failedWithoutFacts,
    corrections: input.corrections ?? [],
  });
  // No full collection here: the schema pass makes almost no garbage since the schema rules are
  // called without zod's payloads (src/schema/refine.ts). With them, one was needed here (a
  // second 100,000-deployment build peaked at 1,076 MiB without it); now the builds peak lower
  // without it (809-817 against 842-871 MiB) and 0.3-1.0 s sooner.
  const schema = schemaCheck(catalog);
  const catalogFile = new ObjectWriter(input.snapshotsDir);
  const layout = new CatalogLayoutRecorder();
  // the records' bytes are DuckDB's staged lines too (tables.ts flattens them); the deployments'
  // lifecycle records, the deployments' own lifecycles, come from the deployments' lines
  const lines = recordLineWriters(db, "");
  const embedded = deploymentLifecyclesEmbedded(catalog);
  const lifecycleLine = embedded
    ? (bytes: Uint8Array, index: number) => {
        if (catalog.lifecycle[index]?.resource_type !== "deployment") lines.lifecycle.writeBytes(bytes);
      }
    : lines.lifecycle.writeBytes;
  let fingerprint: Fingerprint;
  try {
    fingerprint = writeCatalogJson(catalog, {
      catalog: (chunk) => catalogFile.write(chunk),
      layout,
      records: { deployments: lines.deployments.writeBytes, lifecycle: lifecycleLine },
    });
  } catch (error) {
    catalogFile.abort();
    lines.deployments.close();
    lines.lifecycle.close();
    throw error;
  }
  // DuckDB loads the previous release's tables and these records now (the statements are handed
  // over synchronously), on its own threads, while the caller writes facts.json. Not earlier:
  // with the catalog's values and the merge's, DuckDB's tables would add up to the build's peak
  // memory (a 100,000-deployment second build reached 1,022 MiB with the previous release
  // loading during the merge).
  const previousLoaded = db.settleBeforeClose(
    previous ? previous.load(db, "prev_") : loadCatalog(db, "prev_", EMPTY_CATALOG),
  );
  const recordsLoaded = db.settleBeforeClose(
    loadStagedRecords(db, {
      prefix: "",
      deployments: lines.deployments.close(),
      lifecycle: lines.lifecycle.close(),
      ...(embedded ? { deploymentLifecycles: "from deployments" as const } : {}),
    }),
  );
  const catalogStaged = catalogFile.close();
  const serveIndexWriter = new ObjectWriter(input.snapshotsDir);
  try {
    writeText(canonicalJson(serveIndexFor(catalog, layout.finish())), (chunk) =>
      serveIndexWriter.write(chunk),
    );
  } catch (error) {
    serveIndexWriter.abort();
    await discardStaged(catalogStaged);
    throw error;
  }
  return {
    previousLoaded,
    firstAdded: previous === null ? deploymentRefs(catalog.deployments) : null,
    facts: gathered.facts,
    catalogFile: catalogStaged,
    serveIndexFile: serveIndexWriter.close(),
    fingerprint,
    recordsLoaded,
    tables: [...rows, facts],
    schema,
    report,
    counts: {
      deployments: catalog.deployments.length,
      priced_deployments: report.totals.priced,
      lifecycle_records: catalog.lifecycle.length,
      events: catalog.events.length,
      sources: catalog.sources.length,
    },
  };
}

export async function runRelease(input: ReleaseInput): Promise<ReleaseOutcome> {
  const context = checkContext(input.now, input.thresholds);
  const { snapshotsDir, now } = input;
  const given = input.previous;
  const previousReleaseId = given !== undefined ? (given?.releaseId ?? null) : await readLatest(snapshotsDir);
  // Two phases: the JS phase (stageRelease) merges and writes everything out, then DuckDB runs
  // the checks, the diff and the Parquet exports. DuckDB's loads overlap the JS phase on the
  // other core: the previous release's compared columns from the start, the new records once
  // catalog.json is written (while facts.json is). Its memory is bounded by its limit
  // (DUCKDB_MEMORY_LIMIT; beyond it, it spills), and the JS phase's garbage is collected
  // between the steps. The caller's `previous` is only read, never emptied (the caller decides
  // how long it keeps it).
  const holder: { staged?: StagedRelease } = {};
  try {
    const analysed = await withDatabase(async (db) => {
      const previous: PreviousRelease | null =
        given !== undefined
          ? given
          : previousReleaseId
            ? await readPrevious(snapshotsDir, previousReleaseId)
            : null;
      const staged = await stageRelease(db, input, previous, previousReleaseId);
      holder.staged = staged;
      await staged.previousLoaded;
      await staged.recordsLoaded;
      await loadStagedTables(db, { prefix: "", tables: staged.tables });
      const checks = [staged.schema, ...(await runSqlChecks(db, context))];
      const failed = checks.some((c) => c.severity === "error" && c.violations > 0);
      // DuckDB's half of the diff first (milliseconds), then the two Parquet files, written
      // side by side on DuckDB's threads (ReleaseDatabase.parquetFiles) while this thread turns
      // the diff's results into rows and renders them. A first build's added deployments (all of
      // them) are the catalog's own (firstAdded), not 100,000 rows read back from DuckDB; its
      // Markdown and JSON take 0.3-0.5 s at 100,000. No join runs beside the Parquet writers:
      // with the diff's joins running beside them, one second build in four exceeded DuckDB's
      // memory limit.
      const diffResults = await queryDiff(
        db,
        "prev_",
        "",
        staged.firstAdded ? { deploymentsAdded: staged.firstAdded } : {},
      );
      const parquetWritten = failed
        ? null
        : db.parquetFiles({
            [DEPLOYMENTS_PARQUET]: deploymentsParquetQuery(),
            [LIFECYCLE_PARQUET]: lifecycleParquetQuery(),
          });
      const diff = readDiff(diffResults, { fromReleaseId: previousReleaseId, toReleaseId: null });
      const markdownDiff = renderDiffMarkdown(diff);
      const diffJson = encoder.encode(canonicalJson(diff));
      // nothing is published from a previous release whose catalog.json is damaged
      await previous?.verified;
      return {
        checks,
        diff,
        diffJson,
        markdownDiff,
        failed,
        parquet: parquetWritten ? await parquetWritten : null,
        release: staged,
        previousFingerprint: previous?.fingerprint ?? null,
      };
    });
    const { checks, diff, markdownDiff, previousFingerprint, release } = analysed;
    const report = withCheckResults(release.report, checks);
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
    if (previousFingerprint !== null && previousFingerprint === release.files.fingerprint)
      return outcome("unchanged", previousReleaseId, diff);

    const files: Record<string, FileBytes | StagedObject> = {
      [CATALOG_FILE]: release.files.catalog,
      [SERVE_INDEX_FILE]: release.files.serveIndex,
      [FACTS_FILE]: release.files.facts,
      ...analysed.parquet,
      [DIFF_JSON]: analysed.diffJson,
      [DIFF_MARKDOWN]: encoder.encode(markdownDiff),
      [REPORT_FILE]: encoder.encode(
        canonicalJson({ ...report, content_fingerprint: release.files.fingerprint }),
      ),
    };
    const published = await publishRelease(
      snapshotsDir,
      { files, createdAt: now, previousReleaseId, counts: release.counts },
      input.hook,
    );
    return outcome("published", published.releaseId, { ...diff, to_release_id: published.releaseId });
  } finally {
    // published objects were renamed into place; what is left (failed, unchanged, or an
    // error on the way) is removed
    const files = holder.staged?.files;
    if (files) {
      await discardStaged(files.catalog);
      await discardStaged(files.facts);
      await discardStaged(files.serveIndex);
    }
  }
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
