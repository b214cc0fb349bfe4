/**
 * Spec section 3: a scheduled milestone carries a date, a known precision and a known
 * date_type; an unknown (or not_announced) milestone has a null date, precision `unknown`
 * and date_type `unknown`.
 */
import type { CheckDefinition } from "./types.js";

function violations(milestone: "deprecation" | "end_of_life"): string {
  return `
    SELECT collection, resource_type, resource_id, '${milestone}' AS milestone,
           ${milestone}_state AS state, ${milestone}_date AS date,
           ${milestone}_precision AS precision, ${milestone}_date_type AS date_type
    FROM lifecycle_all
    WHERE ${milestone}_state NOT IN ('unknown', 'not_announced', 'scheduled')
       OR (${milestone}_state = 'scheduled' AND (
             ${milestone}_date IS NULL OR try_cast(${milestone}_date AS DATE) IS NULL
             OR ${milestone}_precision = 'unknown' OR ${milestone}_date_type = 'unknown'))
       OR (${milestone}_state <> 'scheduled' AND (
             ${milestone}_date IS NOT NULL OR ${milestone}_precision <> 'unknown' OR ${milestone}_date_type <> 'unknown'))`;
}

export const milestoneRules: CheckDefinition = {
  name: "milestone_rules",
  severity: "error",
  message:
    "a milestone breaks the section-3 rules (scheduled: date, precision and date_type known; otherwise: null date, precision and date_type unknown)",
  sql: () => `
    SELECT * FROM (${violations("deprecation")} UNION ALL ${violations("end_of_life")})
    ORDER BY collection, resource_type, resource_id, milestone`,
};
