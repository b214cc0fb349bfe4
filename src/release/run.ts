/**
 * The release stage: read the previous release (previous-release.ts), plan the release from it,
 * this build's facts and the clock (plan.ts, pure), then stage what the plan returns, check it
 * and diff it in DuckDB, and publish a content-addressed release, or nothing when validation
 * fails or the content is unchanged.
 *
 * A release holds: catalog.json (CatalogContent, canonical JSON), serve-index.json (the
 * server's index of it), facts.json (per-source facts, for the next build's carry-forward),
 * deployments.parquet and lifecycle.parquet (flat tables, explicitly ordered, written by one
 * DuckDB thread so the bytes are reproducible), diff.json / diff.md (against the previous
 * release) and report.json.
 */
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import type { CatalogContent, ReleaseManifest } from "../schema/index.js";
import { deploymentLifecyclesEmbedded } from "../snapshot/index.js";
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
  PRICES_FILE,
  publishRelease,
  REPORT_FILE,
  readReleaseFile,
  SERVE_INDEX_FILE,
  type StagedObject,
  serveIndexFor,
} from "./artifact.js";
import {
  deploymentRefs,
  diffPairsStatements,
  diffPublishedReleases,
  fetchDiff,
  readDiff,
  renderDiffMarkdown,
} from "./diff.js";
import { type ReleaseDatabase, type StagedTable, withDatabase } from "./duckdb.js";
import { FACTS_FILE, FactsFile } from "./facts.js";
import type { Fingerprint } from "./fingerprint.js";
import { needsPreviousFacts, planRelease, type ReleasePlan, type ReleasePlanInput } from "./plan.js";
import { type PreviousRelease, readPreviousRelease } from "./previous-release.js";
import { withCheckResults } from "./report.js";
import { writeCanonicalJsonTo, writeCatalogJson, writeFactsJson } from "./serialize.js";
import {
  deploymentsParquetQuery,
  lifecycleParquetQuery,
  loadCatalog,
  loadFacts,
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
  ReleaseDiff,
  ReleaseInput,
  ReleaseOutcome,
} from "./types.js";
import {
  checkContext,
  readSqlChecks,
  runSqlChecks,
  schemaCheck,
  sqlCheckCountsStatement,
} from "./validate.js";

export {
  DEPLOYMENTS_PARQUET,
  DIFF_JSON,
  DIFF_MARKDOWN,
  LIFECYCLE_PARQUET,
  REPORT_FILE,
} from "../snapshot/index.js";
export { contentFingerprint } from "./fingerprint.js";
export { mergeEvents, planRelease } from "./plan.js";
export { type PreviousRelease, readPreviousRelease } from "./previous-release.js";

const EMPTY_CATALOG: CatalogContent = { deployments: [], lifecycle: [], events: [], sources: [] };
const encoder = new TextEncoder();

/** The facts a release stored, validated by their schema, or null for a release without facts.json. */
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

/** A staged object written by `write`; aborted (nothing left behind) when `write` throws. */
function stageObject(snapshotsDir: string, write: (sink: (chunk: Uint8Array) => void) => void): StagedObject {
  const writer = new ObjectWriter(snapshotsDir);
  try {
    write((chunk) => writer.write(chunk));
  } catch (error) {
    writer.abort();
    throw error;
  }
  return writer.close();
}

/** What staging a release leaves for the checks, the diff and publishing. */
interface StagedRelease {
  report: BuildReport;
  counts: Record<string, number>;
  /**
   * schemaCheck of the catalog, run once (it holds the catalog until then, and no other value
   * of the plan): the build runs it while DuckDB writes the Parquet files.
   */
  checkSchema: () => CheckResult;
  /** With no previous release, the diff's added deployments: every one (deploymentRefs). */
  firstAdded: DeploymentRef[] | null;
  fingerprint: string;
  /** prices.json's sha256 (its staged object went to `keep`). */
  pricesSha256: string;
}

/**
 * The previous release's tables (or an empty catalog's), under prev_, handed to DuckDB at once:
 * they load on DuckDB's thread while this one plans the release, not beside the new catalog's
 * records after it (at 100,000 deployments: the Parquet files read while DuckDB is otherwise
 * idle, their memory given back before the records' load). Settled before the database closes.
 */
function loadPreviousTables(db: ReleaseDatabase, previous: PreviousRelease | null): Promise<unknown> {
  return db.settleBeforeClose(
    previous ? previous.load(db, "prev_") : loadCatalog(db, "prev_", EMPTY_CATALOG),
  );
}

/**
 * Plans the release (`plan`: planRelease) and writes it out: catalog.json, serve-index.json and
 * facts.json to staged objects (`keep` gets each as it is made, for the caller to discard
 * unless published), every record's canonical JSON, serialized once, to DuckDB's staging files
 * as well, and the catalog's small tables. Returns once DuckDB has loaded the new catalog's
 * tables and the previous release's (`previous.loaded`: loadPreviousTables, under prev_). Of the
 * plan, only the catalog is left, for the schema check (checkSchema), which lets it go.
 */
async function stageRelease(
  db: ReleaseDatabase,
  snapshotsDir: string,
  plan: () => ReleasePlan,
  previous: { release: PreviousRelease | null; loaded: Promise<unknown> },
  keep: (staged: StagedObject) => void,
): Promise<StagedRelease> {
  const { facts, ...catalogSide } = await stageCatalog(db, snapshotsDir, plan(), previous, keep);
  // facts.json's own hash is the facts' hash in the fingerprint
  const factsWriter = new ObjectWriter(snapshotsDir);
  let factsObject: StagedObject | null = null;
  let fingerprint: string;
  try {
    fingerprint = writeFactsJson(
      facts,
      (chunk) => factsWriter.write(chunk),
      catalogSide.fingerprint,
      () => {
        factsObject = factsWriter.close();
        return factsObject.sha256;
      },
    );
  } catch (error) {
    factsWriter.abort();
    throw error;
  }
  keep(factsObject ?? factsWriter.close());
  await catalogSide.loaded;
  await loadStagedTables(db, { prefix: "", tables: catalogSide.tables });
  // the price history is content too: a new dated capture changes the release
  return { ...catalogSide, fingerprint: sha256Hex(`${fingerprint}\n${catalogSide.pricesSha256}`) };
}

/**
 * The catalog's side of stageRelease: everything but facts.json. DuckDB starts loading the new
 * catalog's records once catalog.json is written (`loaded`, with the previous release's tables),
 * on its own thread, while the caller writes facts.json; the catalog is not returned.
 */
async function stageCatalog(
  db: ReleaseDatabase,
  snapshotsDir: string,
  plan: ReleasePlan,
  previous: { release: PreviousRelease | null; loaded: Promise<unknown> },
  keep: (staged: StagedObject) => void,
): Promise<
  Omit<StagedRelease, "fingerprint"> & {
    facts: FactsFile;
    fingerprint: Fingerprint;
    tables: StagedTable[];
    loaded: Promise<unknown>;
  }
> {
  const { catalog } = plan;
  const tables = [...(await stageCatalogRows(db, "", catalog)), await stageFacts(db, plan.facts)];
  const layout = new CatalogLayoutRecorder();
  // the deployments' own lifecycle records are not stored (they are the deployments' own
  // lifecycles): catalog.json leaves them out and DuckDB takes them from the deployments' lines
  const lines = recordLineWriters(db, "");
  const embedded = deploymentLifecyclesEmbedded(catalog);
  const catalogWriter = new ObjectWriter(snapshotsDir);
  let fingerprint: Fingerprint;
  try {
    fingerprint = writeCatalogJson(catalog, {
      catalog: (chunk) => catalogWriter.write(chunk),
      layout,
      records: { deployments: lines.deployments.writeBytes, lifecycle: lines.lifecycle.writeBytes },
      embedded,
    });
  } catch (error) {
    catalogWriter.abort();
    throw error;
  } finally {
    lines.deployments.close();
    lines.lifecycle.close();
  }
  keep(catalogWriter.close());
  const loaded = Promise.all([
    previous.loaded,
    db.settleBeforeClose(
      loadStagedRecords(db, {
        prefix: "",
        deployments: lines.deployments.close(),
        lifecycle: lines.lifecycle.close(),
        ...(embedded ? { deploymentLifecycles: "from deployments" as const } : {}),
      }),
    ),
  ]);
  // a column per piece: no string of the whole 25 MB index (at 100,000 deployments)
  keep(
    stageObject(snapshotsDir, (sink) =>
      writeCanonicalJsonTo(serveIndexFor(catalog, layout.finish(), embedded), sink, 2),
    ),
  );
  // a deployment's intervals per piece
  const prices = stageObject(snapshotsDir, (sink) => writeCanonicalJsonTo(plan.prices, sink, 2));
  keep(prices);
  return {
    facts: plan.facts,
    pricesSha256: prices.sha256,
    report: plan.report,
    counts: plan.counts,
    checkSchema: schemaCheckOnce(catalog, embedded),
    firstAdded: previous.release ? null : deploymentRefs(catalog.deployments),
    fingerprint,
    tables,
    loaded,
  };
}

/** Whether a check's result blocks publication. */
function blocks(check: CheckResult): boolean {
  return check.severity === "error" && check.violations > 0;
}

/**
 * schemaCheck of `catalog` when first called, which then lets go of the catalog; `embedded` is
 * what staging found (deploymentLifecyclesEmbedded), not computed again.
 */
function schemaCheckOnce(catalog: CatalogContent, embedded: boolean): () => CheckResult {
  let pending: CatalogContent | null = catalog;
  let result: CheckResult | null = null;
  return () => {
    if (pending !== null) {
      result = schemaCheck(pending, embedded);
      pending = null;
    }
    return result as CheckResult;
  };
}

/** The plan's input: this build's facts and clock, and the previous release's lifecycle records, events and facts. */
function planInput(
  input: ReleaseInput,
  previous: PreviousRelease | null,
  previousFacts: FactsFile | null,
): ReleasePlanInput {
  return {
    now: input.now,
    contributions: input.contributions,
    states: input.states,
    newEvents: input.newEvents,
    ...(input.corrections ? { corrections: input.corrections } : {}),
    ...(input.datedPrices ? { datedPrices: input.datedPrices } : {}),
    ...(input.datedLifecycle ? { datedLifecycle: input.datedLifecycle } : {}),
    previous: previous && {
      releaseId: previous.releaseId,
      cores: previous.cores,
      events: previous.catalog.events,
      facts: previousFacts,
    },
  };
}

export async function runRelease(input: ReleaseInput): Promise<ReleaseOutcome> {
  const { snapshotsDir, now } = input;
  const context = checkContext(now, input.thresholds);
  // the caller's `previous` is only read (the caller decides how long it keeps it)
  const previous = input.previous !== undefined ? input.previous : await readPreviousRelease(snapshotsDir);
  const previousReleaseId = previous?.releaseId ?? null;
  const staged: StagedObject[] = [];
  try {
    const analysed = await withDatabase(async (db) => {
      const previousLoaded = loadPreviousTables(db, previous);
      const previousFacts =
        previous && needsPreviousFacts(input.contributions) ? await previous.facts() : null;
      const release = await stageRelease(
        db,
        snapshotsDir,
        () => planRelease(planInput(input, previous, previousFacts)),
        { release: previous, loaded: previousLoaded },
        (object) => staged.push(object),
      );
      // DuckDB's share of the analysis, handed over as one script: the checks' counts, the
      // diff's pairs, then the two Parquet files (written before the checks' verdict is known,
      // and dropped with the database when a check blocks publication). This thread meanwhile
      // runs every record through its schema (about 0.8 s at 100,000 deployments, against
      // about 1 s of DuckDB's), instead of waiting for each query in turn.
      const parquet = db.parquetFiles(
        {
          [DEPLOYMENTS_PARQUET]: deploymentsParquetQuery(),
          [LIFECYCLE_PARQUET]: lifecycleParquetQuery(),
        },
        [sqlCheckCountsStatement(context), ...diffPairsStatements("prev_", "")],
      );
      const schema = release.checkSchema();
      const parquetFiles = await parquet;
      const checks = [schema, ...(await readSqlChecks(db, context))];
      const failed = checks.some(blocks);
      // a first build's added deployments are the catalog's own, not every row read back from DuckDB
      const diffResults = await fetchDiff(
        db,
        "prev_",
        "",
        release.firstAdded ? { deploymentsAdded: release.firstAdded } : {},
      );
      const diff = readDiff(diffResults, { fromReleaseId: previousReleaseId, toReleaseId: null });
      const markdownDiff = renderDiffMarkdown(diff);
      return {
        checks,
        diff,
        markdownDiff,
        failed,
        release,
        parquet: failed ? null : parquetFiles,
      };
    });
    const { checks, diff, markdownDiff, release } = analysed;
    const { fingerprint } = release;
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
    if (previous?.fingerprint != null && previous.fingerprint === fingerprint)
      return outcome("unchanged", previousReleaseId, diff);

    const [catalogFile, serveIndexFile, pricesFile, factsFile] = staged as [
      StagedObject,
      StagedObject,
      StagedObject,
      StagedObject,
    ];
    const files: Record<string, FileBytes | StagedObject> = {
      [CATALOG_FILE]: catalogFile,
      [SERVE_INDEX_FILE]: serveIndexFile,
      [FACTS_FILE]: factsFile,
      [PRICES_FILE]: pricesFile,
      ...analysed.parquet,
      [DIFF_JSON]: encoder.encode(canonicalJson(diff)),
      [DIFF_MARKDOWN]: encoder.encode(markdownDiff),
      [REPORT_FILE]: encoder.encode(canonicalJson({ ...report, content_fingerprint: fingerprint })),
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
    for (const object of staged) await discardStaged(object);
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
