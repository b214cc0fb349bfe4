/**
 * Community source: models.dev's catalog (https://models.dev/api.json; anomalyco/models.dev,
 * MIT), one JSON object `{<provider>: {id, name, models: {<model id>: model}}}` built from the
 * repository's hand-curated TOML files. A model carries `cost` (USD per million tokens: input,
 * output, cache_read, cache_write), `limit` (context, output, and for some models input), `tool_call`,
 * `structured_output`, `reasoning` and `modalities` (input / output lists of text, image, pdf,
 * audio, video).
 *
 * The source fills values of deployments other sources place and creates none (its definition's
 * `fills_only`; docs/corroboration.md). Placement, through the provider identity modules:
 *   openai, anthropic, google (Gemini API), mistral, xai, deepseek, cohere, groq, togetherai
 *     -> the provider's one API endpoint (identity/endpoints.ts providerApiEndpoint);
 *   amazon-bedrock: a cross-Region inference profile id (`us.anthropic.claude-...`) -> that
 *     geography; an unprefixed Bedrock model id names no region and models.dev documents none
 *     for such ids (its provider.toml asks for AWS_REGION at run time), so no deployment;
 *   azure, google-vertex: models.dev documents no deployment type or location (the user's
 *     AZURE_RESOURCE_NAME / GOOGLE_VERTEX_LOCATION), so no deployment.
 * Every other provider of the document, and every skipped record, is counted in `skipped`.
 *
 * Capabilities: `tool_call` -> tool_calling, `structured_output` -> structured_output,
 * `reasoning` -> reasoning (true: supported, false: unsupported); the input modalities list
 * image -> vision, pdf -> pdf_input, audio -> audio_input, and the output list audio ->
 * audio_output: a listed modality is supported, and a missing one says nothing (the lists
 * leave out what models do accept: OpenAI's GPT-5 reads PDFs, its input list is text and
 * image). A zero cost is unknown (null). An embedding model's `limit.output` (its vector size)
 * is not a max output. A `limit.input` below `limit.context` is kept as `max_input_tokens`: it
 * tells another dataset's input limit from a context window (src/release/input-limits.ts).
 */
import { compareCodePoints } from "../../lib/canonical-json.js";
import type { Capabilities, CapabilityName, ParseOutput } from "../../schema/index.js";
import { evidenceFor, isJsonObject, type JsonObject, parseFailure, SkipLog } from "../helpers.js";
import { bedrockProfileEndpoint, type Endpoint, providerApiEndpoint } from "../identity/endpoints.js";
import type { Parser, ParserInput } from "../types.js";
import {
  type CommunityRecord,
  communityRateCard,
  deploymentFacts,
  type Placement,
  perMillionPrice,
  positiveInt,
} from "./community-records.js";

/** models.dev provider id -> catalog provider id. */
const PROVIDERS: Readonly<Record<string, string>> = Object.freeze({
  "amazon-bedrock": "amazon-bedrock",
  anthropic: "anthropic",
  azure: "azure",
  cohere: "cohere",
  deepseek: "deepseek",
  google: "google",
  "google-vertex": "google-vertex",
  groq: "groq",
  mistral: "mistral",
  openai: "openai",
  togetherai: "together-ai",
  xai: "xai",
});

type Entry = JsonObject;

const EMBEDDING = /embed/i;

/** Where a models.dev record is offered, or why it names no deployment. */
export function placementOf(providerId: string, modelId: string): Placement {
  if (providerId === "amazon-bedrock") {
    const endpoint = bedrockProfileEndpoint(modelId);
    return endpoint
      ? { ok: true, endpoint }
      : { ok: false, reason: "Bedrock model id without a region (models.dev documents none)" };
  }
  if (providerId === "azure")
    return {
      ok: false,
      reason: "Azure record without a deployment type or region (models.dev documents none)",
    };
  if (providerId === "google-vertex")
    return { ok: false, reason: "Vertex AI record without a location (models.dev documents none)" };
  const endpoint = providerApiEndpoint(providerId, modelId);
  return endpoint ? { ok: true, endpoint } : { ok: false, reason: "provider not in the catalog" };
}

const FLAGS: Array<[string, CapabilityName]> = [
  ["tool_call", "tool_calling"],
  ["structured_output", "structured_output"],
  ["reasoning", "reasoning"],
];

const MODALITIES: Array<["input" | "output", string, CapabilityName]> = [
  ["input", "image", "vision"],
  ["input", "pdf", "pdf_input"],
  ["input", "audio", "audio_input"],
  ["output", "audio", "audio_output"],
];

export function capabilitiesOf(model: Entry): Capabilities {
  const capabilities: Capabilities = {};
  const set = (name: CapabilityName, supported: boolean) => {
    capabilities[name] = {
      status: supported ? "supported" : "unsupported",
      verification_status: "community_reported",
    };
  };
  for (const [field, name] of FLAGS) {
    const value = model[field];
    if (typeof value === "boolean") set(name, value);
  }
  const modalities = isJsonObject(model["modalities"]) ? model["modalities"] : {};
  for (const [side, modality, name] of MODALITIES) {
    const list = modalities[side];
    if (Array.isArray(list) && list.includes(modality)) set(name, true);
  }
  return capabilities;
}

function recordOf(
  providerId: string,
  modelId: string,
  model: Entry,
  endpoint: Endpoint,
  input: ParserInput,
  skipped: SkipLog,
): CommunityRecord {
  const key = `${providerId}/${modelId}`;
  const cost = isJsonObject(model["cost"]) ? model["cost"] : {};
  const limit = isJsonObject(model["limit"]) ? model["limit"] : {};
  const context = positiveInt(limit["context"]);
  const inputLimit = positiveInt(limit["input"]);
  const rate_card = communityRateCard(
    {
      input: perMillionPrice(cost["input"], `${key}: cost.input`, skipped),
      cached_input: perMillionPrice(cost["cache_read"], `${key}: cost.cache_read`, skipped),
      output: perMillionPrice(cost["output"], `${key}: cost.output`, skipped),
      cache_write: perMillionPrice(cost["cache_write"], `${key}: cost.cache_write`, skipped),
    },
    input,
  );
  return {
    key,
    providerId,
    providerModelId: modelId,
    endpoint,
    rate_card,
    context_tokens: context,
    // `limit.input` below `limit.context`: the input share of the window (GPT-5.1: 272,000 of 400,000)
    ...(inputLimit !== undefined && context !== undefined && inputLimit < context
      ? { max_input_tokens: inputLimit }
      : {}),
    // an embedding model's `output` limit is its vector size (Gemini Embedding 001: 1), not tokens
    max_output_tokens: EMBEDDING.test(modelId) ? undefined : positiveInt(limit["output"]),
    capabilities: capabilitiesOf(model),
  };
}

export function parseModelsDev(input: ParserInput): ParseOutput {
  let document: unknown;
  try {
    document = JSON.parse(input.content);
  } catch (error) {
    throw parseFailure(input.source, `not valid JSON (${(error as Error).message})`);
  }
  if (!isJsonObject(document)) throw parseFailure(input.source, "api.json is not a JSON object");
  const skipped = new SkipLog();
  const records: CommunityRecord[] = [];
  for (const name of Object.keys(document).sort(compareCodePoints)) {
    const provider = document[name];
    const providerId = Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined;
    if (providerId === undefined || !isJsonObject(provider) || !isJsonObject(provider["models"])) {
      skipped.add("provider not in the catalog", name);
      continue;
    }
    const models = provider["models"];
    for (const modelId of Object.keys(models).sort(compareCodePoints)) {
      const model = models[modelId];
      if (!isJsonObject(model)) {
        skipped.add("not a model entry", `${name}/${modelId}`);
        continue;
      }
      const placement = placementOf(providerId, modelId);
      if (!placement.ok) {
        skipped.add(placement.reason, `${name}/${modelId}`);
        continue;
      }
      records.push(recordOf(providerId, modelId, model, placement.endpoint, input, skipped));
    }
  }
  if (records.length === 0) throw parseFailure(input.source, "no model of the catalog's providers");
  const deployments = deploymentFacts(records, evidenceFor(input.source, input.observedAt), skipped);
  return { deployments, lifecycle: [], skipped: skipped.toSortedArray() };
}

export const parsers: Record<string, Parser> = { "models-dev": parseModelsDev };
