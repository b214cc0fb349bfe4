/**
 * `retired` exactly when end of life has passed, both ways: a retired record whose scheduled
 * end of life is still after the build date is wrong, and so is a record that is not retired
 * although its fixed (`on`) or latest (`not_after`) end-of-life day has come. A coarser date
 * counts from the last day of its month, quarter or year, as in src/release/status.ts; a passed
 * `not_before` day does not by itself mean retired.
 */
import type { CheckDefinition } from "./types.js";

export const retiredAfterEndOfLife: CheckDefinition = {
  name: "retired_after_end_of_life",
  severity: "error",
  message:
    "status disagrees with end of life at the build date: retired before the scheduled end of life, or not retired once a fixed end-of-life day has passed",
  sql: (context) => `
    WITH dated AS (
      SELECT collection, resource_type, resource_id, lifecycle_status, end_of_life_date,
        end_of_life_state, end_of_life_date_type,
        CASE end_of_life_precision
          WHEN 'month' THEN last_day(CAST(end_of_life_date AS DATE))
          WHEN 'quarter' THEN last_day(CAST(end_of_life_date AS DATE) + INTERVAL 2 MONTH)
          WHEN 'year' THEN last_day(CAST(end_of_life_date AS DATE) + INTERVAL 11 MONTH)
          ELSE CAST(end_of_life_date AS DATE)
        END AS end_of_life_last_day
      FROM lifecycle_all
      WHERE end_of_life_state = 'scheduled'
    )
    SELECT collection, resource_type, resource_id, lifecycle_status, end_of_life_date,
      CASE WHEN lifecycle_status = 'retired' THEN 'retired_before_end_of_life'
        ELSE 'not_retired_after_end_of_life' END AS problem
    FROM dated
    WHERE (lifecycle_status = 'retired' AND end_of_life_date > '${context.today}')
       OR (lifecycle_status <> 'retired' AND end_of_life_date_type IN ('on', 'not_after')
           AND end_of_life_last_day <= DATE '${context.today}')
    ORDER BY collection, resource_type, resource_id`,
};
