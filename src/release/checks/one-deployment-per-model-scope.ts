/**
 * One model is one record: a provider has at most one deployment per (model, api_surface,
 * mode, region). Two would mean two spellings of one model (an alias, a short and a versioned
 * name, another source's spelling) that the provider's identity module
 * (src/normalize/identity/) does not resolve, which splits the model's facts and hides conflicts.
 */
import type { CheckDefinition } from "./types.js";

export const oneDeploymentPerModelScope: CheckDefinition = {
  name: "one_deployment_per_model_scope",
  severity: "error",
  message:
    "a provider has two deployments of one model on one surface, mode and region: two spellings of one model that its identity module does not resolve",
  sql: () => `
    SELECT provider_id, model_id, api_surface, mode, region,
           string_agg(id, ' ' ORDER BY id) AS deployment_ids
    FROM deployments
    GROUP BY provider_id, model_id, api_surface, mode, region
    HAVING count(*) > 1
    ORDER BY provider_id, model_id, api_surface, mode, region`,
};
