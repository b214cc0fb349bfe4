/** A price that moved by more than the threshold since the previous release deserves a look. */
import { TOKEN_PRICE_FIELDS } from "../../schema/index.js";
import type { CheckDefinition } from "./types.js";

const COMPONENTS = TOKEN_PRICE_FIELDS;

export const priceMoved: CheckDefinition = {
  name: "price_moved",
  severity: "warning",
  message: "a price moved by more than the threshold since the previous release",
  sql: (context) => `
    SELECT * FROM (
      ${COMPONENTS.map(
        (c) => `SELECT n.id AS deployment_id, '${c}' AS component, o.${c} AS old_value, n.${c} AS new_value
        FROM deployments n JOIN prev_deployments o ON o.id = n.id
        WHERE o.${c} > 0 AND n.${c} IS NOT NULL
          AND abs(n.${c} - o.${c}) > ${context.priceChangeRatio} * o.${c}`,
      ).join("\n      UNION ALL\n      ")}
    )
    ORDER BY deployment_id, component`,
};
