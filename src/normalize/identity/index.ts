/**
 * The identity module of every provider, by catalog provider id: which model a provider's
 * name means, whichever source (official page or community map) uses it. See types.ts.
 */

import { type DeploymentIdentity, deploymentId } from "../../lib/ids.js";
import { BEDROCK, bedrockIdentity } from "./amazon-bedrock.js";
import { ANTHROPIC, anthropicIdentity } from "./anthropic.js";
import { AZURE, azureIdentity } from "./azure.js";
import { type DeploymentVocabulary, deploymentIdentity } from "./deployment.js";
import { GOOGLE, googleIdentity } from "./google.js";
import { VERTEX, vertexIdentity } from "./google-vertex.js";
import {
  COHERE,
  cohereIdentity,
  DEEPSEEK,
  deepseekIdentity,
  GROQ,
  groqIdentity,
  TOGETHER,
  togetherIdentity,
  XAI,
  xaiIdentity,
} from "./hosts.js";
import { MISTRAL, mistralIdentity } from "./mistral.js";
import { OPENAI, openaiIdentity } from "./openai.js";
import type { ProviderIdentity } from "./types.js";

export {
  AWS_REGIONS,
  BEDROCK,
  BEDROCK_GEOGRAPHIES,
  type BedrockMode,
  bedrockDeployment,
  bedrockIdentity,
  geographyIncludes,
  isGovCloudRegion,
} from "./amazon-bedrock.js";
export {
  ANTHROPIC,
  ANTHROPIC_DATED_IDS,
  ANTHROPIC_STANDARD,
  anthropicDeployment,
  anthropicIdentity,
  anthropicModelIdForName,
} from "./anthropic.js";
export {
  AZURE,
  AZURE_BATCH_MODES,
  AZURE_DATA_ZONES,
  AZURE_SCOPES,
  AZURE_STANDARD_MODES,
  type AzureScope,
  azureCanonicalModelId,
  azureDataZone,
  azureDeployment,
  azureIdentity,
  azureMode,
  azureProviderModelId,
} from "./azure.js";
export {
  type DeploymentVocabulary,
  OWN_API,
  OWN_API_STANDARD,
  type Placement,
  placedDeployment,
} from "./deployment.js";
export { GOOGLE, GOOGLE_STANDARD, googleDeployment, googleIdentity, googleModelId } from "./google.js";
export {
  VERTEX,
  vertexClaudeModelId,
  vertexDeployment,
  vertexIdentity,
  vertexPublisherOf,
} from "./google-vertex.js";
export { groqModelId, publisherLab, splitPublisher, togetherModelId } from "./hosted-models.js";
export {
  COHERE,
  cohereDeployment,
  cohereIdentity,
  DEEPSEEK,
  deepseekDeployment,
  deepseekIdentity,
  GROQ,
  groqDeployment,
  groqIdentity,
  TOGETHER,
  togetherDeployment,
  togetherIdentity,
  XAI,
  xaiDeployment,
  xaiIdentity,
} from "./hosts.js";
export {
  MISTRAL,
  MISTRAL_STANDARD,
  mistralAliasList,
  mistralDeployment,
  mistralIdentity,
  mistralIdentityWith,
} from "./mistral.js";
export { OPENAI, OPENAI_STANDARD, openaiDeployment, openaiIdentity } from "./openai.js";
export type { ProviderIdentity } from "./types.js";

export const PROVIDER_IDENTITIES: Readonly<Record<string, ProviderIdentity>> = Object.freeze({
  "amazon-bedrock": bedrockIdentity,
  anthropic: anthropicIdentity,
  azure: azureIdentity,
  cohere: cohereIdentity,
  deepseek: deepseekIdentity,
  google: googleIdentity,
  "google-vertex": vertexIdentity,
  groq: groqIdentity,
  mistral: mistralIdentity,
  openai: openaiIdentity,
  "together-ai": togetherIdentity,
  xai: xaiIdentity,
});

/**
 * Every provider's deployment vocabulary (its surface, mode and region names), by catalog
 * provider id: the names only the identity modules spell (docs/identity.md).
 */
export const DEPLOYMENT_VOCABULARIES: Readonly<Record<string, DeploymentVocabulary>> = Object.freeze({
  "amazon-bedrock": BEDROCK,
  anthropic: ANTHROPIC,
  azure: AZURE,
  cohere: COHERE,
  deepseek: DEEPSEEK,
  google: GOOGLE,
  "google-vertex": VERTEX,
  groq: GROQ,
  mistral: MISTRAL,
  openai: OPENAI,
  "together-ai": TOGETHER,
  xai: XAI,
});

/** The identity module of a provider, or null when the catalog has none for it. */
export function identityOf(providerId: string): ProviderIdentity | null {
  return Object.hasOwn(PROVIDER_IDENTITIES, providerId) ? (PROVIDER_IDENTITIES[providerId] ?? null) : null;
}

/**
 * A deployment's identity fields, id and canonical model id, with the provider model id
 * resolved through the provider's aliases first (so an alias and its model are one deployment).
 */
export function identifiedDeployment(
  identity: ProviderIdentity,
  key: { provider_model_id: string; api_surface: string; mode: string; region: string },
) {
  const providerModelId = identity.providerModelId(key.provider_model_id);
  return deploymentIdentity(
    { provider_id: identity.providerId, ...key, provider_model_id: providerModelId },
    identity.canonicalModelId(providerModelId),
  );
}

/**
 * The id of a deployment its provider's identity module has placed (a community key's
 * provider model id, surface, mode and region, src/normalize/parsers/litellm.ts).
 */
export function deploymentIdOf(placed: DeploymentIdentity): string {
  return deploymentId(placed);
}
