/** A deprecation or end-of-life date that moved by more than N days since the previous release deserves a look. */
import type { CheckDefinition } from "./types.js";

function moved(milestone: "deprecation" | "end_of_life", days: number): string {
  return `
    SELECT n.resource_type, n.resource_id, '${milestone}' AS milestone,
           o.${milestone}_date AS old_date, n.${milestone}_date AS new_date,
           date_diff('day', try_cast(o.${milestone}_date AS DATE), try_cast(n.${milestone}_date AS DATE)) AS days
    FROM lifecycle n
    JOIN prev_lifecycle o ON o.resource_type = n.resource_type AND o.resource_id = n.resource_id
    WHERE n.${milestone}_state = 'scheduled' AND o.${milestone}_state = 'scheduled'
      AND abs(date_diff('day', try_cast(o.${milestone}_date AS DATE), try_cast(n.${milestone}_date AS DATE))) > ${days}`;
}

export const lifecycleDateMoved: CheckDefinition = {
  name: "lifecycle_date_moved",
  severity: "warning",
  message: "a deprecation or end-of-life date moved by more than the threshold since the previous release",
  sql: (context) => `
    SELECT * FROM (${moved("deprecation", context.dateMoveDays)} UNION ALL ${moved("end_of_life", context.dateMoveDays)})
    ORDER BY resource_type, resource_id, milestone`,
};
