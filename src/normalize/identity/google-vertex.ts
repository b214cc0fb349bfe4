/**
 * Google Vertex AI (provider `google-vertex`). Vertex serves Google's models under their Gemini
 * ids and partner models under the partner's name:
 * - Claude: `claude-3-5-sonnet-v2@20241022` -> `anthropic/claude-3-5-sonnet-20241022`; an
 *   undated Claude name is Anthropic's alias of a dated model (`claude-sonnet-4-5` ->
 *   `claude-sonnet-4-5@20250929`, via the Anthropic identity's aliases);
 * - Model-as-a-service ids name the lab by their publisher path and the lab's model by the rest,
 *   without Vertex's `-maas` serving suffix (`meta/llama-3.1-405b-instruct-maas` ->
 *   `meta/llama-3.1-405b-instruct`, `deepseek-ai/deepseek-v3.2-maas` -> `deepseek/deepseek-v3.2`:
 *   the model Groq, Together and Bedrock name the same way, so it is one model record); Mistral's
 *   models are addressed by name (`codestral-2`), and `mistralai/codestral-2` (LiteLLM's
 *   spelling) is an alias of it;
 * - `@` versions become part of the name (`multimodalembedding@001` -> `google/multimodalembedding-001`).
 */

import { modelId } from "../../lib/ids.js";
import { group } from "../../lib/regex.js";
import { anthropicIdentity } from "./anthropic.js";
import { deploymentVocabulary, placedDeployment } from "./deployment.js";
import { googleModelId } from "./google.js";
import type { ProviderIdentity } from "./types.js";

/** Publisher path -> lab slug. */
const PUBLISHER_LAB: Readonly<Record<string, string>> = Object.freeze({
  "deepseek-ai": "deepseek",
  minimaxai: "minimax",
  moonshotai: "moonshot",
  "zai-org": "zai",
  mistralai: "mistral",
});

/**
 * The Model Garden publisher of an open model that a page names by its bare MaaS Model ID
 * (`deepseek-r1-0528-maas` -> `deepseek-ai`), by the model's family, as the Open models and MaaS
 * pages' Model Garden links name it; undefined for a family not listed here (a new family is
 * noticed, not guessed).
 */
export function vertexPublisherOf(maasModelId: string): string | undefined {
  return MAAS_PUBLISHERS.find(([family]) => family.test(maasModelId))?.[1];
}

const MAAS_PUBLISHERS: ReadonlyArray<readonly [RegExp, string]> = Object.freeze([
  [/^deepseek-/, "deepseek-ai"],
  [/^glm-/, "zai-org"],
  [/^gpt-oss-/, "openai"],
  [/^kimi-/, "moonshotai"],
  [/^llama-/, "meta"],
  [/^minimax-/, "minimaxai"],
  [/^multilingual-e5-/, "intfloat"],
  [/^qwen\d/, "qwen"],
  [/^gemma-/, "google"],
] as const);

/** Lab of a Vertex model named without a publisher path. */
function labByName(name: string): string {
  if (/^claude/.test(name)) return "anthropic";
  if (/^(mistral|codestral|ministral|pixtral)/.test(name)) return "mistral";
  if (/^jamba/.test(name)) return "ai21";
  return "google";
}

/**
 * A MaaS model's name as its lab's API spells it: without Vertex's `-maas` serving suffix; Meta's
 * `llama3-…` as `llama-3-…` (as Bedrock's ids are read); xAI's `grok-4.1-fast-…` as xAI's own
 * API id `grok-4-1-fast-…` (xAI's models page).
 */
function labName(publisher: string, name: string): string {
  let n = name.replace(/-maas$/, "");
  if (publisher === "meta") n = n.replace(/^llama(\d)-/, "llama-$1-");
  if (publisher === "xai") n = n.replace(/^grok-4\.1-fast-/, "grok-4-1-fast-");
  return n;
}

function providerModelId(name: string): string {
  let id = name.trim().replace(/@default$/, "");
  if (id.startsWith("mistralai/")) id = id.slice("mistralai/".length);
  if (/^claude-[a-z0-9-]+$/.test(id)) {
    const dated = anthropicIdentity.providerModelId(id);
    const m = /^(.*)-(\d{8})$/.exec(dated);
    if (m) id = `${group(m, 1)}@${group(m, 2)}`;
  }
  return id;
}

/**
 * Anthropic canonical model id of a Vertex Claude model id: `claude-3-5-sonnet-v2@20241022` ->
 * `anthropic/claude-3-5-sonnet-20241022`. Null when the id is not a dated Vertex Claude id.
 */
export function vertexClaudeModelId(vertexId: string): string | null {
  const m = /^(claude-[a-z0-9-]+?)(?:-v\d+)?@(\d{8})$/.exec(vertexId.trim());
  if (!m) return null;
  return modelId("anthropic", `${group(m, 1)}-${group(m, 2)}`);
}

function canonicalModelId(name: string): string {
  const id = providerModelId(name);
  const slash = id.indexOf("/");
  if (slash > 0) {
    const publisher = id.slice(0, slash);
    return modelId(PUBLISHER_LAB[publisher] ?? publisher, labName(publisher, id.slice(slash + 1)));
  }
  const lab = labByName(id);
  if (lab === "anthropic")
    return vertexClaudeModelId(id) ?? anthropicIdentity.canonicalModelId(id.replace(/@/g, "-"));
  if (lab === "google") return googleModelId(id);
  return modelId(lab, id.replace(/@/g, "-"));
}

export const vertexIdentity: ProviderIdentity = {
  providerId: "google-vertex",
  aliases: Object.freeze({}),
  providerModelId,
  canonicalModelId,
};

/** Vertex AI's generative AI surface; its global endpoint is the region `global`. */
export const VERTEX = deploymentVocabulary({
  surfaces: { vertexAi: "vertex-ai" },
  modes: { standard: "standard" },
  regions: { global: "global" },
});

/** The deployment of a Vertex model id (default: the standard mode on the global endpoint). */
export function vertexDeployment(
  providerModelId: string,
  mode: string = VERTEX.modes.standard,
  region: string = VERTEX.regions.global,
) {
  return placedDeployment(
    vertexIdentity.providerId,
    providerModelId,
    { api_surface: VERTEX.surfaces.vertexAi, mode, region },
    vertexIdentity.canonicalModelId(providerModelId),
  );
}
