/** Every deployment names at least one page that supports it. */
import type { CheckDefinition } from "./types.js";

export const deploymentHasEvidence: CheckDefinition = {
  name: "deployment_has_evidence",
  severity: "error",
  message: "a deployment has no evidence_urls",
  sql: () => `
    SELECT id AS deployment_id
    FROM deployments
    WHERE evidence_urls IS NULL OR len(evidence_urls) = 0
    ORDER BY id`,
};
