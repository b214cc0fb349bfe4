/**
 * The Gemini API's own model list (`GET https://generativelanguage.googleapis.com/v1beta/models`,
 * an API key is needed: see the source's `secrets`; the collector follows `nextPageToken` and
 * joins every page into one `{"models": [...]}` document). Model facts only (provider `google`'s
 * model ids, `official_declared`: the provider's API says it); it creates no deployments.
 *
 * Each Model resource: `name` ("models/<id>"), `inputTokenLimit`, `outputTokenLimit`,
 * `supportedGenerationMethods`, and `thinking` on models that think. What it reads:
 * - context_tokens = `inputTokenLimit` (the input limit, as the models page's "Input token limit").
 * - max_output_tokens = `outputTokenLimit` only for models that generate tokens (a method among
 *   generateContent, streamGenerateContent, bidiGenerateContent, generateAnswer). Embedding models
 *   (embedContent) answer `outputTokenLimit: 1` and the Imagen / Veo models (predict,
 *   predictLongRunning) 8192, neither an output token limit: not stated, so it stays null.
 * - Capabilities: `thinking: true` -> reasoning (false -> unsupported); method createCachedContent
 *   -> prompt_caching; batchGenerateContent or asyncBatchEmbedContent -> batch. The list names only
 *   what a model supports and omits `thinking` on the others, so an absent method or field stays
 *   unknown, never unsupported. countTokens, countTextTokens, embedContent, predict and the
 *   generate methods have no catalog capability.
 * - A resource whose name is not "models/<id>", or without an input token limit, fails the source:
 *   the API's shape changed.
 */
import { z } from "zod";
import type { CapabilityEntry, CapabilityName, ModelFact } from "../../schema/index.js";
import { declaredCapability, evidenceFor, jsonDocument, parseFailure, requireSome } from "../helpers.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "google";

const Model = z.looseObject({
  name: z.string().min(1),
  inputTokenLimit: z.int().positive(),
  outputTokenLimit: z.int().positive().optional(),
  supportedGenerationMethods: z.array(z.string()).default([]),
  thinking: z.boolean().optional(),
});
type Model = z.infer<typeof Model>;
const ModelList = z.looseObject({ models: z.array(Model) });

/** Methods that generate tokens: a model with one of them has an output token limit. */
const GENERATING_METHODS = [
  "generateContent",
  "streamGenerateContent",
  "bidiGenerateContent",
  "generateAnswer",
];

/** Methods that mean a catalog capability. */
const METHOD_CAPABILITIES: ReadonlyArray<[string, CapabilityName]> = [
  ["createCachedContent", "prompt_caching"],
  ["batchGenerateContent", "batch"],
  ["asyncBatchEmbedContent", "batch"],
];

function capabilitiesOf(model: Model): Partial<Record<CapabilityName, CapabilityEntry>> {
  const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  if (model.thinking !== undefined)
    capabilities.reasoning = declaredCapability(model.thinking ? "supported" : "unsupported");
  for (const [method, name] of METHOD_CAPABILITIES)
    if (model.supportedGenerationMethods.includes(method))
      capabilities[name] = declaredCapability("supported");
  return capabilities;
}

export const parseGeminiModelsApi: Parser = (input: ParserInput) => {
  const list = jsonDocument(input, ModelList, "a Gemini API model list");
  requireSome(input.source, list.models, "models");
  const evidence = evidenceFor(input.source, input.observedAt);
  const facts = new Map<string, ModelFact>();
  for (const model of list.models) {
    const m = /^models\/([a-z0-9][a-z0-9.-]*)$/.exec(model.name);
    if (!m?.[1]) throw parseFailure(input.source, `model name "${model.name}" is not "models/<id>"`);
    const id = m[1];
    if (facts.has(id)) throw parseFailure(input.source, `model ${id} is listed twice`);
    const generates = model.supportedGenerationMethods.some((method) => GENERATING_METHODS.includes(method));
    const capabilities = capabilitiesOf(model);
    facts.set(id, {
      provider_id: PROVIDER_ID,
      provider_model_id: id,
      context_tokens: model.inputTokenLimit,
      ...(generates && model.outputTokenLimit !== undefined
        ? { max_output_tokens: model.outputTokenLimit }
        : {}),
      ...(Object.keys(capabilities).length > 0 ? { capabilities } : {}),
      evidence,
    });
  }
  return { deployments: [], lifecycle: [], model_facts: [...facts.values()], skipped: [] };
};

export const parsers: Record<string, Parser> = { "google-models-api": parseGeminiModelsApi };
