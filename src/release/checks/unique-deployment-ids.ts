/** Every deployment id appears once. */
import type { CheckDefinition } from "./types.js";

export const uniqueDeploymentIds: CheckDefinition = {
  name: "unique_deployment_ids",
  severity: "error",
  message: "a deployment id appears more than once",
  sql: () => `
    SELECT id, count(*) AS occurrences
    FROM deployments
    GROUP BY id
    HAVING count(*) > 1
    ORDER BY id`,
};
