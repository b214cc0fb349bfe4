/** A cached-input price above the input price is almost always a parsing slip (a swapped column). */
import type { CheckDefinition } from "./types.js";

export const cachedInputAboveInput: CheckDefinition = {
  name: "cached_input_above_input",
  severity: "warning",
  message: "the cached input price is above the input price",
  sql: () => `
    SELECT id AS deployment_id, input_micro_usd, cached_input_micro_usd
    FROM deployments
    WHERE cached_input_micro_usd IS NOT NULL AND input_micro_usd IS NOT NULL
      AND cached_input_micro_usd > input_micro_usd
    ORDER BY id`,
};
