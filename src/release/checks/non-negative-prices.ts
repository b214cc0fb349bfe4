/** Prices are never negative: unknown is null, never a negative sentinel. */
import { PRICE_FIELDS, TIER_PRICE_FIELDS } from "../../schema/index.js";
import type { CheckDefinition } from "./types.js";

export const nonNegativePrices: CheckDefinition = {
  name: "non_negative_prices",
  severity: "error",
  message: "a price is negative",
  sql: () => `
    SELECT * FROM (
      ${PRICE_FIELDS.map(
        (c) =>
          `SELECT id AS deployment_id, '${c}' AS component, NULL::INTEGER AS tier_index, ${c} AS value FROM deployments WHERE ${c} < 0`,
      ).join("\n      UNION ALL\n      ")}
      UNION ALL
      ${TIER_PRICE_FIELDS.map(
        (c) => `SELECT deployment_id, '${c}', tier_index, ${c} FROM rate_tiers WHERE ${c} < 0`,
      ).join("\n      UNION ALL\n      ")}
    )
    ORDER BY deployment_id, component, tier_index NULLS FIRST`,
};
