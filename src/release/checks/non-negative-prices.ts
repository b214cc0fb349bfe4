/** Prices are never negative: unknown is null, never a negative sentinel. */
import { PRICE_FIELDS, priceField } from "../../schema/index.js";
import type { CheckDefinition } from "./types.js";

/** A tier carries every price but the 1-hour cache write; a deployment carries them all. */
const COMPONENTS = PRICE_FIELDS.filter((field) => field !== priceField("cache_write_1h"));

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
      ${COMPONENTS.map(
        (c) => `SELECT deployment_id, '${c}', tier_index, ${c} FROM rate_tiers WHERE ${c} < 0`,
      ).join("\n      UNION ALL\n      ")}
    )
    ORDER BY deployment_id, component, tier_index NULLS FIRST`,
};
