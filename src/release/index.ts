/**
 * The release stage's public entry: merge, validate, diff and publish a release
 * (`runRelease`), diff two published releases (`diffReleases`), the build report's text
 * table, and the on-disk release format (artifact.ts).
 */

export * from "./announcements.js";
export * from "./artifact.js";
export { CHECKS, type CheckContext, type CheckDefinition } from "./checks/index.js";
export { computeDiff, formatMicroUsd, MAX_MARKDOWN_ROWS, percentChange, renderDiffMarkdown } from "./diff.js";
export { ReleaseDatabase, withDatabase } from "./duckdb.js";
export * from "./export.js";
export { FACTS_FILE, FactsFile, gatherFacts, SourceFacts } from "./facts.js";
export * from "./history.js";
export { type MergeInput, type MergeResult, mergeCatalog, summarize } from "./merge.js";
export * from "./price-history.js";
export { buildReport, formatBuildReport } from "./report.js";
export {
  checkCatalog,
  contentFingerprint,
  DEPLOYMENTS_PARQUET,
  DIFF_JSON,
  DIFF_MARKDOWN,
  diffReleases,
  LIFECYCLE_PARQUET,
  mergeEvents,
  REPORT_FILE,
  readFacts,
  readPreviousRelease,
  runRelease,
} from "./run.js";
export { loadCatalog, loadFacts } from "./tables.js";
export type * from "./types.js";
export {
  checkContext,
  DEFAULT_DATE_MOVE_DAYS,
  DEFAULT_PRICE_CHANGE_RATIO,
  runSqlChecks,
  schemaCheck,
} from "./validate.js";
