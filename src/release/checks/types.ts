/**
 * A validation check: a name, a severity, and SQL that returns the violating rows (empty =
 * the check passes). Checks run over the tables of src/release/tables.ts: the new catalog
 * (no prefix), the previous release (`prev_` prefix, empty when there is none) and `facts`.
 * Every check's SQL ends in an ORDER BY so the rows it reports are deterministic.
 */
import type { CheckSeverity } from "../types.js";

export interface CheckContext {
  /** Build instant, ISO 8601 UTC (validated before it reaches SQL). */
  now: string;
  /** now's calendar date, YYYY-MM-DD. */
  today: string;
  priceChangeRatio: number;
  dateMoveDays: number;
}

export interface CheckDefinition {
  name: string;
  severity: CheckSeverity;
  /** What a violating row means, for the build log and the report. */
  message: string;
  sql(context: CheckContext): string;
}
