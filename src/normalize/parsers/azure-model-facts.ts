/**
 * Azure OpenAI models as "Foundry Models sold directly by Azure" describes them (the raw
 * Markdown file includes/models-azure-direct-openai.md of MicrosoftDocs/azure-ai-docs): tables
 * of "Model ID | Description | Context window | Max output tokens" or "Model ID | Description |
 * Max request (tokens)". Model facts only (provider `azure`); it creates no deployments.
 *
 * - A Model ID cell names one or more "`<model>` (<version>)"; the facts apply to the
 *   provider model id "<model>-<version>" (azureProviderModelId, as the region matrices name
 *   deployments), or "<model>" when the row gives no version ("(Preview)" is not one). A bare
 *   model name is never given a versioned row's facts: Azure deploys each version separately.
 * - context_tokens: the Context window cell's first size; a size qualified "(batch
 *   deployments)" applies to the batch modes only; "(provisioned managed deployments)" is not
 *   read (the catalog has no provisioned deployments). Max request "Input: N, Output: M" ->
 *   context_tokens N (the maximum input), max_output_tokens M; a single number is the request
 *   limit (context_tokens).
 * - Capabilities from the Description bullets: reasoning ("Reasoning", "reasoning
 *   abilities"), structured_output ("Structured outputs"; "(chat completions)" only ->
 *   conditional), vision ("Text and image processing / input", "Input: Text/Image",
 *   "Image (input)"; "Text-only processing", "Text in/text out only" -> unsupported),
 *   tool_calling ("Function calling", "Functions and tools", "Tools", "parallel tool / function
 *   calling"), parallel_tool_calling ("parallel tool calling", "Parallel function calling"),
 *   computer_use ("computer use tool"), audio_output ("Audio model for audio and text
 *   generation"), audio_input ("Audio model for real-time audio processing").
 * - Tables without token limits (the Audio API's speech-to-text, speech translation and
 *   text-to-speech tables; image and video generation): capabilities only, from the section
 *   the table sits under, `official_inferred` (the page's structure says it, not a row):
 *   speech-to-text / translation -> audio_input, text-to-speech -> audio_output, image
 *   generation -> image_output, video generation -> video_output. Their request limits are in
 *   characters or megabytes, not tokens: not read. A model in two such tables (`whisper`) gets
 *   both tables' capabilities.
 * - A row naming a model without a version (`text-embedding-3-large`, `whisper`, plain `sora`)
 *   gives a fact for that name marked `version_unstated`: the release applies it to Azure's one
 *   versioned id of the model where the region tables list exactly one
 *   (src/release/model-facts.ts), never to a version it guesses.
 */
import { group } from "../../lib/regex.js";
import type { CapabilityEntry, CapabilityName, ModelFact } from "../../schema/index.js";
import {
  declaredCapability,
  evidenceFor,
  parseFailure,
  requireSome,
  SkipLog,
  tokenCount,
} from "../helpers.js";
import { plainCell } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";
import { azureProviderModelId, azureTables } from "./azure.js";

const PROVIDER_ID = "azure";
/** The batch deployment modes of Azure OpenAI (as azure.ts and the LiteLLM map name them). */
const BATCH_MODES = ["global-batch", "data-zone-batch"];

interface Limits {
  context_tokens?: number;
  max_output_tokens?: number;
  batchContext?: number;
}

/** "`gpt-5-chat` (2025-10-03)<br>**Preview**" -> [{name, version}]; versions are dates, snapshots or counters. */
export function modelVersions(cell: string): Array<{ name: string; version: string | null }> {
  const found: Array<{ name: string; version: string | null }> = [];
  for (const m of cell.matchAll(/`([a-z0-9][a-z0-9.-]*)`\s*(?:\(([^)]*)\))?/gi)) {
    const raw = (m[2] ?? "").trim().replace(/^version\s+/i, "");
    const version = /^(?:\d{4}-\d{2}-\d{2}|\d{4}|turbo-\d{4}-\d{2}-\d{2}|\d+)$/.test(raw) ? raw : null;
    found.push({ name: group(m, 1), version });
  }
  // A bare model name without code ticks (the video table's "sora").
  const plain = /^\s*([a-z][a-z0-9.-]*)\s*$/.exec(cell);
  if (found.length === 0 && plain) found.push({ name: group(plain, 1), version: null });
  return found;
}

/** Capabilities a table's section states for every model it lists (tables without token limits). */
const SECTION_CAPABILITIES: ReadonlyArray<[RegExp, CapabilityName]> = [
  [/^speech-to-text models|^speech translation models/i, "audio_input"],
  [/^text-to-speech models/i, "audio_output"],
  [/^image generation models/i, "image_output"],
  [/^video generation models/i, "video_output"],
];

function items(cell: string): string[] {
  return cell
    .split(/<br\s*\/?>/i)
    .map((item) => plainCell(item).replace(/^-\s*/, ""))
    .filter((item) => item !== "");
}

function contextWindow(input: ParserInput, cell: string, skipped: SkipLog, model: string): Limits {
  const limits: Limits = {};
  for (const item of items(cell)) {
    if (/^(?:input|output):/i.test(item)) continue; // the window's breakdown
    const m = /^([\d,]+)\s*(?:\(([^)]*)\))?$/.exec(item);
    const size = m ? tokenCount(group(m, 1)) : null;
    if (!m || size === null)
      throw parseFailure(input.source, `${model}: context window "${item}" is not a size`);
    const qualifier = (m[2] ?? "").toLowerCase();
    if (qualifier === "") limits.context_tokens ??= size;
    else if (/^batch deployments$/.test(qualifier)) limits.batchContext = size;
    else skipped.add(`context window for ${qualifier} (no such deployments)`, model);
  }
  if (limits.context_tokens === undefined)
    throw parseFailure(input.source, `${model}: no context window in "${cell}"`);
  return limits;
}

function maxRequest(input: ParserInput, cell: string, model: string): Limits {
  const parts = items(cell);
  const [only] = parts;
  const single = parts.length === 1 && only !== undefined ? tokenCount(only) : null;
  if (single !== null) return { context_tokens: single };
  const limits: Limits = {};
  for (const item of parts) {
    const m = /^(input|output):\s*([\d,]+)$/i.exec(item);
    const size = m ? tokenCount(group(m, 2)) : null;
    if (!m || size === null)
      throw parseFailure(input.source, `${model}: max request "${item}" is not "Input: N" / "Output: N"`);
    if (group(m, 1).toLowerCase() === "input") limits.context_tokens = size;
    else limits.max_output_tokens = size;
  }
  if (limits.context_tokens === undefined)
    throw parseFailure(input.source, `${model}: no input limit in "${cell}"`);
  return limits;
}

export function describedCapabilities(description: string): Partial<Record<CapabilityName, CapabilityEntry>> {
  const caps: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  const supported = declaredCapability("supported");
  for (const item of items(description)) {
    if (/\breasoning\b/i.test(item)) caps.reasoning = supported;
    const structured = /^structured outputs?\b(.*)$/i.exec(item);
    if (structured)
      caps.structured_output = /\(chat completions\)/i.test(group(structured, 1))
        ? declaredCapability("conditional")
        : supported;
    if (/text and image (?:processing|input)|^input: text\/image|^image \(input\)/i.test(item))
      caps.vision = supported;
    if (/text-only processing|text in\/text out only/i.test(item))
      caps.vision = declaredCapability("unsupported");
    if (/parallel (?:tool|function) calling/i.test(item)) {
      caps.tool_calling = supported;
      caps.parallel_tool_calling = supported;
    }
    if (/^(?:function calling|functions and tools|tools)\.?$/i.test(item)) caps.tool_calling = supported;
    if (/computer use tool/i.test(item)) caps.computer_use = supported;
    // The GPT-4o audio models' descriptions: "Audio model for audio and text generation." /
    // "Audio model for real-time audio processing." (it takes audio in; output is not stated).
    if (/^audio model for audio and text generation\b/i.test(item)) caps.audio_output = supported;
    if (/^audio model for real-time audio processing\b/i.test(item)) caps.audio_input = supported;
  }
  return caps;
}

/** One capability (official_inferred) for every model a table without token limits lists. */
function sectionCapabilities(
  input: ParserInput,
  rows: readonly string[][],
  capability: CapabilityName,
  facts: Map<string, ModelFact>,
  evidence: ModelFact["evidence"],
): void {
  const entry: CapabilityEntry = { status: "supported", verification_status: "official_inferred" };
  for (const row of rows) {
    const versions = modelVersions(row[0] ?? "");
    if (versions.length === 0) throw parseFailure(input.source, `row "${row[0]}" names no model`);
    for (const v of versions) {
      const providerModelId = azureProviderModelId(v.name, v.version);
      const known = facts.get(providerModelId);
      facts.set(providerModelId, {
        provider_id: PROVIDER_ID,
        provider_model_id: providerModelId,
        ...known,
        capabilities: { ...known?.capabilities, [capability]: entry },
        ...(v.version === null ? { version_unstated: true as const } : {}),
        evidence,
      });
    }
  }
}

export const parseAzureModelFacts: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const facts = new Map<string, ModelFact>();
  const tables = azureTables(input.content).filter((t) => /^model id$/i.test(t.headers[0] ?? ""));
  requireSome(input.source, tables, "model table (Model ID | ...)");
  for (const table of tables) {
    const col = (re: RegExp) => table.headers.findIndex((h) => re.test(h));
    const iDescription = col(/^description$/i);
    const iContext = col(/^context window$/i);
    const iOutput = col(/^max output tokens$/i);
    const iRequest = col(/^max request \(tokens\)$/i);
    if (iContext < 0 && iRequest < 0) {
      const capability = SECTION_CAPABILITIES.find(([re]) => re.test(table.heading))?.[1];
      if (capability === undefined) skipped.add("table without token limits", table.heading);
      else sectionCapabilities(input, table.rows, capability, facts, evidence);
      continue;
    }
    for (const row of table.rows) {
      const versions = modelVersions(row[0] ?? "");
      if (versions.length === 0) throw parseFailure(input.source, `row "${row[0]}" names no model`);
      const label = versions.map((v) => azureProviderModelId(v.name, v.version)).join(", ");
      let limits: Limits;
      if (iContext >= 0) {
        limits = contextWindow(input, row[iContext] ?? "", skipped, label);
        const output = tokenCount(plainCell(row[iOutput] ?? ""));
        if (iOutput >= 0 && output === null)
          throw parseFailure(input.source, `${label}: max output tokens "${row[iOutput]}" is not a size`);
        if (output !== null) limits.max_output_tokens = output;
      } else limits = maxRequest(input, row[iRequest] ?? "", label);
      const capabilities = iDescription >= 0 ? describedCapabilities(row[iDescription] ?? "") : {};
      for (const v of versions) {
        const providerModelId = azureProviderModelId(v.name, v.version);
        if (facts.has(providerModelId))
          throw parseFailure(input.source, `model ${providerModelId} is listed twice`);
        facts.set(providerModelId, {
          provider_id: PROVIDER_ID,
          provider_model_id: providerModelId,
          ...(limits.context_tokens !== undefined ? { context_tokens: limits.context_tokens } : {}),
          ...(limits.max_output_tokens !== undefined ? { max_output_tokens: limits.max_output_tokens } : {}),
          ...(Object.keys(capabilities).length > 0 ? { capabilities } : {}),
          ...(v.version === null ? { version_unstated: true as const } : {}),
          evidence,
        });
        if (limits.batchContext !== undefined)
          facts.set(`${providerModelId}\u0000batch`, {
            provider_id: PROVIDER_ID,
            provider_model_id: providerModelId,
            modes: [...BATCH_MODES],
            context_tokens: limits.batchContext,
            evidence,
          });
      }
    }
  }
  const modelFacts = requireSome(
    input.source,
    [...facts.values()],
    "models with token limits or capabilities",
  );
  return { deployments: [], lifecycle: [], model_facts: modelFacts, skipped: skipped.toArray() };
};

export const parsers: Record<string, Parser> = { "azure-model-facts": parseAzureModelFacts };
