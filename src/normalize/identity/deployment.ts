/**
 * A deployment's identity: the provider's model id placed on one API surface, in one mode and one
 * region, and the deployment id built from them. Each provider's identity module names its
 * surfaces, modes and regions once (a `DeploymentVocabulary`) and builds its deployments here;
 * a parser calls its provider's module and never spells a surface, mode or region itself
 * (docs/identity.md; test/structure/identity-names.test.ts holds the parsers to it).
 */
import { type DeploymentIdentity, deploymentId } from "../../lib/ids.js";

/** The names a provider gives the places it deploys a model, by a code name for each. */
export interface DeploymentVocabulary {
  readonly surfaces: Readonly<Record<string, string>>;
  readonly modes: Readonly<Record<string, string>>;
  readonly regions: Readonly<Record<string, string>>;
}

/** A provider's vocabulary, frozen (its literal names kept as types). */
export function deploymentVocabulary<const V extends DeploymentVocabulary>(names: V): V {
  Object.freeze(names.surfaces);
  Object.freeze(names.modes);
  Object.freeze(names.regions);
  return Object.freeze(names);
}

/** The names shared by the providers whose own API is one global endpoint in a standard mode. */
export const OWN_API = deploymentVocabulary({
  surfaces: { api: "api" },
  modes: { standard: "standard" },
  regions: { global: "global" },
});

/** Where a deployment is: its API surface, mode and region. */
export interface Placement {
  readonly api_surface: string;
  readonly mode: string;
  readonly region: string;
}

/** A provider's own API, one global endpoint in the standard mode. */
export const OWN_API_STANDARD: Placement = Object.freeze({
  api_surface: OWN_API.surfaces.api,
  mode: OWN_API.modes.standard,
  region: OWN_API.regions.global,
});

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

/** A deployment of `providerId`'s model at a placement, with the canonical model id given. */
export function placedDeployment(
  providerId: string,
  providerModelId: string,
  placement: Placement,
  canonicalModelId: string,
) {
  return deploymentIdentity(
    {
      provider_id: providerId,
      provider_model_id: providerModelId,
      api_surface: placement.api_surface,
      mode: placement.mode,
      region: placement.region,
    },
    canonicalModelId,
  );
}
