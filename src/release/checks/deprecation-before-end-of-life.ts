/** When both are scheduled, deprecation does not come after end of life. */
import type { CheckDefinition } from "./types.js";

export const deprecationBeforeEndOfLife: CheckDefinition = {
  name: "deprecation_before_end_of_life",
  severity: "error",
  message: "the deprecation date is after the end-of-life date",
  sql: () => `
    SELECT collection, resource_type, resource_id, deprecation_date, end_of_life_date
    FROM lifecycle_all
    WHERE deprecation_state = 'scheduled' AND end_of_life_state = 'scheduled'
      AND deprecation_date > end_of_life_date
    ORDER BY collection, resource_type, resource_id`,
};
