/**
 * Identities of the providers added from their own pages: labs that serve their own models
 * (xAI, DeepSeek, Cohere) and hosts of other labs' open models (Groq, Together AI), whose
 * canonical model is the maker's (see hosted-models.ts).
 */
import { modelId } from "../../lib/ids.js";
import { deploymentVocabulary, OWN_API, placedDeployment } from "./deployment.js";
import { groqModelId, togetherMode, togetherModelId } from "./hosted-models.js";
import { ownLabIdentity, type ProviderIdentity } from "./types.js";

export const xaiIdentity: ProviderIdentity = ownLabIdentity("xai", "xai", Object.freeze({}));
export const deepseekIdentity: ProviderIdentity = ownLabIdentity("deepseek", "deepseek", Object.freeze({}));
export const cohereIdentity: ProviderIdentity = ownLabIdentity("cohere", "cohere", Object.freeze({}));

function hostIdentity(providerId: string, maker: (id: string) => string | null): ProviderIdentity {
  return {
    providerId,
    aliases: Object.freeze({}),
    providerModelId: (name) => name.trim(),
    // An id whose maker cannot be told stays the host's own model name.
    canonicalModelId: (name) => maker(name.trim()) ?? modelId(providerId, name.trim()),
  };
}

export const groqIdentity: ProviderIdentity = hostIdentity("groq", groqModelId);
export const togetherIdentity: ProviderIdentity = hostIdentity("together-ai", togetherModelId);

/** xAI's API: one global endpoint, and the regional clusters its models page names (`us-east-1`). */
export const XAI = OWN_API;
/** DeepSeek's API: one global endpoint in the standard mode. */
export const DEEPSEEK = OWN_API;
/** Cohere's API: one global endpoint in the standard mode. */
export const COHERE = OWN_API;
/** Groq's API: one global endpoint in the standard mode. */
export const GROQ = OWN_API;
/** Together AI's API: one global endpoint; a model's free tier is an endpoint of its own (mode `free`). */
export const TOGETHER = deploymentVocabulary({
  surfaces: { api: "api" },
  modes: { standard: "standard", free: "free" },
  regions: { global: "global" },
});

/**
 * The deployments of a provider's own API, one global endpoint unless the source names a region:
 * the provider model id as the source gives it, the canonical model from the provider's identity.
 */
function ownApiDeployment(identity: ProviderIdentity) {
  return (
    providerModelId: string,
    region: string = OWN_API.regions.global,
    mode: string = OWN_API.modes.standard,
  ) =>
    placedDeployment(
      identity.providerId,
      providerModelId,
      { api_surface: OWN_API.surfaces.api, mode, region },
      identity.canonicalModelId(providerModelId),
    );
}

export const xaiDeployment = ownApiDeployment(xaiIdentity);
export const deepseekDeployment = ownApiDeployment(deepseekIdentity);
export const cohereDeployment = ownApiDeployment(cohereIdentity);
export const groqDeployment = ownApiDeployment(groqIdentity);

/** A Together AI API model string's deployment: its free tier (`...-Free`) is mode `free`. */
export function togetherDeployment(apiModelString: string) {
  return placedDeployment(
    togetherIdentity.providerId,
    apiModelString,
    {
      api_surface: TOGETHER.surfaces.api,
      mode: togetherMode(apiModelString),
      region: TOGETHER.regions.global,
    },
    togetherIdentity.canonicalModelId(apiModelString),
  );
}
