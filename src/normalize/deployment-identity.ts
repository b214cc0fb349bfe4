/** A deployment's identity fields with its id, as the parsers emit them. */
import { type DeploymentIdentity, deploymentId } from "../lib/ids.js";

/** A deployment's identity fields with its id and canonical model id. */
export function deploymentIdentity(key: DeploymentIdentity, canonicalModelId: string) {
  const ids: DeploymentIdentity = {
    provider_id: key.provider_id,
    provider_model_id: key.provider_model_id,
    api_surface: key.api_surface,
    mode: key.mode,
    region: key.region,
  };
  return { id: deploymentId(ids), model_id: canonicalModelId, ...ids };
}

/**
 * The identity of a deployment on a provider's own API: api surface `api`, the standard mode and
 * region `global` unless the source names one.
 */
export function apiDeploymentIdentity(
  providerId: string,
  providerModelId: string,
  canonicalModelId: string,
  region = "global",
  mode = "standard",
) {
  return deploymentIdentity(
    {
      provider_id: providerId,
      provider_model_id: providerModelId,
      api_surface: "api",
      mode,
      region,
    },
    canonicalModelId,
  );
}
