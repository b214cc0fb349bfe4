/**
 * Validation of a candidate catalog: the named SQL checks of ./checks over the loaded tables,
 * plus every record through its zod schema (`schema_valid`). An error-severity check with
 * violating rows blocks publication; warnings go to the build report.
 */
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import { compileCheck } from "../schema/compiled-check.js";
import {
  type CatalogContent,
  Deployment,
  IsoSeconds,
  LifecycleRecord,
  SourceEvent,
  SourceState,
} from "../schema/index.js";
import { deploymentLifecyclesEmbedded } from "../snapshot/index.js";
import { CHECKS, type CheckContext } from "./checks/index.js";
import type { ReleaseDatabase } from "./duckdb.js";
import type { CheckResult, CheckRow, ReleaseThresholds } from "./types.js";

export const MAX_CHECK_ROWS = 50;
export const DEFAULT_PRICE_CHANGE_RATIO = 0.5;
export const DEFAULT_DATE_MOVE_DAYS = 30;

export function checkContext(now: string, thresholds: ReleaseThresholds = {}): CheckContext {
  // to the second, as the pipeline's clock gives it (toIsoSeconds): it becomes last_changed_at,
  // which a later build reads back from this release's Parquet timestamps (previous-release.ts)
  if (!IsoSeconds.safeParse(now).success)
    throw new CatalogError(
      "invalid_argument",
      `now must be an ISO 8601 UTC instant to the second (2026-11-22T00:00:00Z), got "${now}"`,
    );
  const priceChangeRatio = thresholds.priceChangeRatio ?? DEFAULT_PRICE_CHANGE_RATIO;
  const dateMoveDays = thresholds.dateMoveDays ?? DEFAULT_DATE_MOVE_DAYS;
  if (!Number.isFinite(priceChangeRatio) || priceChangeRatio < 0)
    throw new CatalogError(
      "invalid_argument",
      `priceChangeRatio must be a non-negative number, got ${priceChangeRatio}`,
    );
  if (!Number.isInteger(dateMoveDays) || dateMoveDays < 0)
    throw new CatalogError(
      "invalid_argument",
      `dateMoveDays must be a non-negative integer, got ${dateMoveDays}`,
    );
  return { now, today: now.slice(0, 10), priceChangeRatio, dateMoveDays };
}

/**
 * The statement that counts every SQL check's violations, in one query, into the table
 * check_counts (a build hands it to DuckDB beside its other work; readSqlChecks reads it).
 */
export function sqlCheckCountsStatement(context: CheckContext): string {
  const counts = CHECKS.map(
    (check, i) => `SELECT ${i} AS i, count(*)::INTEGER AS n FROM (${check.sql(context)})`,
  );
  return `CREATE OR REPLACE TABLE check_counts AS ${counts.join("\nUNION ALL\n")}`;
}

/**
 * Run every SQL check against the tables loaded in `db`: their violations counted in one query
 * (sqlCheckCountsStatement), then the first rows of each check that has any (at 100,000
 * deployments, with the small tables' load before them: 0.27-0.37 s as a query per check,
 * 0.17-0.26 s so).
 */
export async function runSqlChecks(db: ReleaseDatabase, context: CheckContext): Promise<CheckResult[]> {
  await db.run(sqlCheckCountsStatement(context));
  return readSqlChecks(db, context);
}

/** The SQL checks' results once sqlCheckCountsStatement has run: the first rows of each check with violations. */
export async function readSqlChecks(db: ReleaseDatabase, context: CheckContext): Promise<CheckResult[]> {
  const checks = CHECKS.map((check) => ({ check, sql: check.sql(context) }));
  const counts = await db.all<{ i: number; n: number }>("SELECT i, n FROM check_counts");
  const violationsOf = new Map(counts.map((c) => [c.i, c.n]));
  const results: CheckResult[] = [];
  for (const [i, { check, sql }] of checks.entries()) {
    const violations = violationsOf.get(i) ?? 0;
    const rows = violations > 0 ? await db.all<CheckRow>(`${sql}\nLIMIT ${MAX_CHECK_ROWS}`) : [];
    results.push({ name: check.name, severity: check.severity, message: check.message, violations, rows });
  }
  return results;
}

/**
 * The catalog's records checked against their schemas without a copy of each (SourceState, whose
 * parse fills a default, through zod itself).
 */
const checkDeployment = compileCheck(Deployment);
const checkLifecycleRecord = compileCheck(LifecycleRecord);
const checkSourceEvent = compileCheck(SourceEvent);

/** resource_type, resource_id, provider_id, model_id, lifecycle. */
const DEPLOYMENT_RECORD_KEYS = 5;

/** Every record through its schema; one row per invalid record (first issue). */
export function schemaCheck(
  catalog: CatalogContent,
  embedded: boolean = deploymentLifecyclesEmbedded(catalog),
): CheckResult {
  const rows: CheckRow[] = [];
  let violations = 0;
  const validate = (
    collection: string,
    id: string,
    result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } },
  ) => {
    if (result.success) return;
    violations++;
    if (rows.length >= MAX_CHECK_ROWS) return;
    const issue = result.error?.issues[0];
    rows.push({
      collection,
      id,
      path: issue ? issue.path.map(String).join(".") : "",
      problem: issue?.message ?? "invalid",
    });
  };
  for (const d of catalog.deployments) validate("deployments", d.id, checkDeployment(d));
  // a deployment's lifecycle record, as the merge makes it, is its deployment's own lifecycle
  // object under the deployment's id, provider and model (deploymentLifecyclesEmbedded), all
  // checked with the deployment just above: what is left to check is that it adds nothing
  // (`embedded`: a build that staged the catalog has already found it out)
  for (const r of catalog.lifecycle) {
    if (embedded && r.resource_type === "deployment" && Object.keys(r).length === DEPLOYMENT_RECORD_KEYS)
      continue;
    validate("lifecycle", `${r.resource_type}:${r.resource_id}`, checkLifecycleRecord(r));
  }
  for (const e of catalog.events) validate("events", e.id, checkSourceEvent(e));
  for (const s of catalog.sources) validate("sources", s.source_id, SourceState.safeParse(s));
  return {
    name: "schema_valid",
    severity: "error",
    message: "a record does not match its schema",
    violations,
    rows: rows.map((row) => JSON.parse(canonicalJson(row)) as CheckRow),
  };
}
