/**
 * Identifier builders and validators.
 *
 * Deployment ids are `dep_<provider>_<model>_<api_surface>_<region>`, all lowercase, each part
 * `[a-z0-9.-]+`. The mode is part of the deployment's identity but the spec's id has no mode
 * segment, so a non-default mode is appended to the api_surface segment
 * (`dep_openai_gpt-4o_api-batch_global`). Ids are derived only from the provider's own
 * names, so they are stable across builds.
 */
export const ID_PART = /^[a-z0-9.-]+$/;
/** A lowercase slug: provider ids, source names, parser names. */
export const SLUG = /^[a-z0-9][a-z0-9-]*$/;
export const PROVIDER_ID = SLUG;
export const DEPLOYMENT_ID = /^dep_[a-z0-9.-]+_[a-z0-9.-]+_[a-z0-9.-]+_[a-z0-9.-]+$/;
export const MODEL_ID = /^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9.-]*$/;
export const EVENT_ID = /^evt_[a-z0-9]+$/;
export const RELEASE_ID = /^rel_[0-9a-f]{64}$/;
export const SHA256_HEX = /^[0-9a-f]{64}$/;
export const DEFAULT_MODE = "standard";

/** Lowercase a provider's name and replace every run of characters outside `[a-z0-9.-]` by `-`. */
export function slugPart(raw: string): string {
  const slug = raw
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "");
  if (!slug) throw new RangeError(`slugPart: "${raw}" has no usable characters`);
  return slug;
}

export interface DeploymentIdentity {
  provider_id: string;
  provider_model_id: string;
  api_surface: string;
  mode: string;
  region: string;
}

export function deploymentId(identity: DeploymentIdentity): string {
  const surface =
    identity.mode === DEFAULT_MODE ? identity.api_surface : `${identity.api_surface}-${identity.mode}`;
  return `dep_${slugPart(identity.provider_id)}_${slugPart(identity.provider_model_id)}_${slugPart(surface)}_${slugPart(identity.region)}`;
}

export function isDeploymentId(value: string): boolean {
  return DEPLOYMENT_ID.test(value);
}

/** Canonical model id `<lab>/<model-name>`. */
export function modelId(lab: string, name: string): string {
  return `${slugPart(lab).replace(/\./g, "-")}/${slugPart(name)}`;
}

export function isModelId(value: string): boolean {
  return MODEL_ID.test(value);
}
