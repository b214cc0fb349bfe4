/**
 * Where a community dataset's model record is offered, in the deployment terms the official
 * parsers use (api_surface, mode, region), for the placements a dataset can name without
 * inventing one (docs/corroboration.md):
 * - a provider whose models are served by one API endpoint with no regions (OpenAI, Anthropic,
 *   the Gemini API, Mistral, xAI, DeepSeek, Cohere, Groq, Together AI): that endpoint, the
 *   catalog's region `global` (the same identity the provider's official parsers give it);
 * - an Amazon Bedrock cross-Region inference profile id (`us.`, `eu.`, `apac.`, `au.`, `jp.`,
 *   `ca.`, `us-gov.`, `global.` + model id): the profile's geography is the region;
 * - Azure's Global Standard deployment type (region `global`), for a dataset that says its
 *   Azure prices are those of the Global deployments.
 * Any other placement (an unprefixed Bedrock id, a Vertex AI model, an Azure price without a
 * deployment type) has no region the key itself names: callers skip it unless their dataset
 * documents one.
 */
import { group } from "../../lib/regex.js";
import { togetherMode } from "./hosted-models.js";

export interface Endpoint {
  api_surface: string;
  mode: string;
  region: string;
}

const GLOBAL = "global";
const STANDARD = "standard";

/** api_surface of each provider served by one regionless API endpoint. */
const SINGLE_ENDPOINT_SURFACE: Readonly<Record<string, string>> = Object.freeze({
  anthropic: "api",
  cohere: "api",
  deepseek: "api",
  google: "gemini-api",
  groq: "api",
  mistral: "api",
  openai: "api",
  "together-ai": "api",
  xai: "api",
});

/**
 * The provider's one API endpoint for a provider model id, or null when the provider is not
 * served by a single regionless endpoint (Bedrock, Azure, Vertex AI). Together AI's `-Free`
 * endpoint of a model is its own mode (hosted-models.ts togetherMode).
 */
export function providerApiEndpoint(providerId: string, providerModelId: string): Endpoint | null {
  const api_surface = Object.hasOwn(SINGLE_ENDPOINT_SURFACE, providerId)
    ? SINGLE_ENDPOINT_SURFACE[providerId]
    : undefined;
  if (api_surface === undefined) return null;
  const mode = providerId === "together-ai" ? togetherMode(providerModelId) : STANDARD;
  return { api_surface, mode, region: GLOBAL };
}

const BEDROCK_PROFILE = /^(us-gov|us|eu|apac|au|jp|ca|global)\.(?=[a-z0-9-]+\.)/;

/**
 * A Bedrock cross-Region inference profile's geography and endpoint, or null when the id is
 * not a profile id (a bare model id names no region).
 */
export function bedrockProfileEndpoint(bedrockId: string): Endpoint | null {
  const m = BEDROCK_PROFILE.exec(bedrockId.trim());
  if (!m) return null;
  return { api_surface: "bedrock-runtime", mode: STANDARD, region: group(m, 1) };
}

/** Azure OpenAI's Global Standard deployment type. */
export const AZURE_GLOBAL_STANDARD: Readonly<Endpoint> = Object.freeze({
  api_surface: "azure-openai",
  mode: "global-standard",
  region: GLOBAL,
});
