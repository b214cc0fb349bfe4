/** Prices are never negative: unknown is null, never a negative sentinel. */
import type { CheckDefinition } from "./types.js";

const COMPONENTS = ["input_micro_usd", "cached_input_micro_usd", "output_micro_usd", "cache_write_micro_usd"];

export const nonNegativePrices: CheckDefinition = {
  name: "non_negative_prices",
  severity: "error",
  message: "a price is negative",
  sql: () => `
    SELECT * FROM (
      ${[...COMPONENTS, "cache_write_1h_micro_usd"]
        .map(
          (c) =>
            `SELECT id AS deployment_id, '${c}' AS component, NULL::INTEGER AS tier_index, ${c} AS value FROM deployments WHERE ${c} < 0`,
        )
        .join("\n      UNION ALL\n      ")}
      UNION ALL
      ${COMPONENTS.map(
        (c) => `SELECT deployment_id, '${c}', tier_index, ${c} FROM rate_tiers WHERE ${c} < 0`,
      ).join("\n      UNION ALL\n      ")}
    )
    ORDER BY deployment_id, component, tier_index NULLS FIRST`,
};
