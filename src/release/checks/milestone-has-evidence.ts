/** A known milestone (scheduled, or not_announced) carries the evidence that says so. */
import type { CheckDefinition } from "./types.js";

function missing(milestone: "deprecation" | "end_of_life"): string {
  return `
    SELECT collection, resource_type, resource_id, '${milestone}' AS milestone, ${milestone}_state AS state
    FROM lifecycle_all
    WHERE ${milestone}_state IN ('scheduled', 'not_announced') AND ${milestone}_evidence_count = 0`;
}

export const milestoneHasEvidence: CheckDefinition = {
  name: "milestone_has_evidence",
  severity: "error",
  message: "a known milestone has no evidence",
  sql: () => `
    SELECT * FROM (${missing("deprecation")} UNION ALL ${missing("end_of_life")})
    ORDER BY collection, resource_type, resource_id, milestone`,
};
