/** A price that moved by more than the threshold since the previous release deserves a look. */
import { TOKEN_PRICE_FIELDS } from "../../schema/index.js";
import type { CheckDefinition } from "./types.js";

const COMPONENTS = TOKEN_PRICE_FIELDS;

export const priceMoved: CheckDefinition = {
  name: "price_moved",
  severity: "warning",
  message: "a price moved by more than the threshold since the previous release",
  // one join of the two catalogs, kept to the pairs where some price moved, then a row per
  // moved price (a join per price took about 3x as long at 100,000 deployments)
  sql: (context) => {
    const moved = (c: string) =>
      `o_${c} > 0 AND n_${c} IS NOT NULL AND abs(n_${c} - o_${c}) > ${context.priceChangeRatio} * o_${c}`;
    return `
    WITH pairs AS MATERIALIZED (
      SELECT * FROM (
        SELECT n.id AS deployment_id, ${COMPONENTS.map((c) => `o.${c} AS o_${c}, n.${c} AS n_${c}`).join(", ")}
        FROM deployments n JOIN prev_deployments o ON o.id = n.id
      )
      WHERE ${COMPONENTS.map((c) => `(${moved(c)})`).join(" OR ")}
    )
    SELECT * FROM (
      ${COMPONENTS.map(
        (c) => `SELECT deployment_id, '${c}' AS component, o_${c} AS old_value, n_${c} AS new_value
        FROM pairs WHERE ${moved(c)}`,
      ).join("\n      UNION ALL\n      ")}
    )
    ORDER BY deployment_id, component`;
  },
};
