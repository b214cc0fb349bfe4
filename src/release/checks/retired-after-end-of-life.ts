/** `retired` only once end of life has passed: a retired record with a scheduled end of life after now is wrong. */
import type { CheckDefinition } from "./types.js";

export const retiredAfterEndOfLife: CheckDefinition = {
  name: "retired_after_end_of_life",
  severity: "error",
  message: "status is retired but the scheduled end of life is after the build date",
  sql: (context) => `
    SELECT collection, resource_type, resource_id, lifecycle_status, end_of_life_date
    FROM lifecycle_all
    WHERE lifecycle_status = 'retired' AND end_of_life_state = 'scheduled'
      AND end_of_life_date > '${context.today}'
    ORDER BY collection, resource_type, resource_id`,
};
