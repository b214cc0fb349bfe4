/**
 * Identities of the providers added from their own pages: labs that serve their own models
 * (xAI, DeepSeek, Cohere) and hosts of other labs' open models (Groq, Together AI), whose
 * canonical model is the maker's (see hosted-models.ts).
 */
import { modelId } from "../../lib/ids.js";
import { groqModelId, togetherModelId } from "./hosted-models.js";
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
