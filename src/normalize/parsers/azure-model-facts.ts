/**
 * Azure OpenAI models as "Foundry Models sold directly by Azure" describes them (the raw
 * Markdown file includes/models-azure-direct-openai.md of MicrosoftDocs/azure-ai-docs, or the
 * Learn page's processed Markdown with that include expanded, whose headers are capitalized
 * "Context Window | Max Output Tokens" as the file's newer tables are): tables
 * of "Model ID | Description | Context window | Max output tokens" or "Model ID | Description |
 * Max request (tokens)". Model facts only (provider `azure`); it creates no deployments.
 *
 * - A Model ID cell names one or more "`<model>` (<version>)"; the facts apply to the
 *   provider model id "<model>-<version>" (azureProviderModelId, as the region matrices name
 *   deployments), or "<model>" when the row gives no version ("(Preview)" is not one). A bare
 *   model name is never given a versioned row's facts: Azure deploys each version separately.
 * - A Model ID cell's <sup> footnote marks are not part of it: "`gpt-4`<sup>1</sup>
 *   (turbo-2024-04-09)" (June 2026) names gpt-4 turbo-2024-04-09, as "`gpt-4` (turbo-2024-04-09)"
 *   did before.
 * - context_tokens: the Context window cell's first unqualified size. A size qualified "(<kinds>
 *   deployments)" applies to those deployment kinds only, the kinds listed with "," / "and":
 *   "batch" -> the batch modes (global-batch, data-zone-batch); "standard" -> the standard
 *   modes (global-standard, data-zone-standard, standard: Azure's standard deployment types,
 *   which the June 2026 page sets apart from "provisioned managed and batch deployments");
 *   "provisioned managed" is not read (the catalog has no provisioned deployments). Any other
 *   kind fails the source. Such a fact names its modes, so it beats the model's unqualified
 *   window for deployments of those modes (src/release/model-facts.ts). Max request "Input: N,
 *   Output: M" -> context_tokens N (the maximum input), max_output_tokens M; a single number
 *   is the request limit (context_tokens).
 * - A limit whose digit grouping is malformed ("Input: 128,00", as the June 2026 page prints
 *   gpt-audio's) states a limit that cannot be read: that limit is null (unknown, which also
 *   outranks an older version's value), never a corrected guess, and the row is counted as
 *   skipped under "malformed number"; any other text that is not a size fails the source.
 * - Capabilities from the Description bullets: reasoning ("Reasoning", "reasoning
 *   abilities"), structured_output ("Structured outputs"; "(chat completions)" only ->
 *   conditional), vision ("Text and image processing / input", "Input: Text/Image",
 *   "Image (input)"; "Text-only processing", "Text in/text out only" -> unsupported),
 *   tool_calling ("Function calling", "Functions and tools", "Tools", "parallel tool / function
 *   calling", "Functions & tools"), parallel_tool_calling ("parallel tool calling", "Parallel
 *   function calling"); a tool-calling bullet qualified "(Responses API only)" (gpt-6.1-sol,
 *   September 2026) -> conditional, as "(chat completions)" only is for structured outputs, and
 *   any other qualifier on such a bullet fails the source; computer_use ("computer use tool", a bullet "Computer use"),
 *   audio_output ("Audio model for audio and text generation"), audio_input ("Audio model(s)
 *   for real-time audio processing").
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
import { AZURE_BATCH_MODES, AZURE_STANDARD_MODES } from "../identity/index.js";
import { plainCell } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";
import { azureProviderModelId, azureTables } from "./azure.js";

const PROVIDER_ID = "azure";
/** The batch and the standard deployment modes of Azure OpenAI (../identity/azure.ts). */
const BATCH_MODES = AZURE_BATCH_MODES;
const STANDARD_MODES = AZURE_STANDARD_MODES;

interface Limits {
  context_tokens?: number | null;
  max_output_tokens?: number | null;
  /** Context windows of some deployment kinds only ("300,000 (standard deployments)"). */
  byModes?: Array<{ modes: string[]; context_tokens: number }>;
}

/** A number whose digit groups are not all three digits ("128,00"): a limit printed wrongly. */
const MALFORMED_NUMBER = /^\d{1,3}(?:,\d{1,3})+$/;

/** A version Azure deploys a model under: a date, a year-like or plain counter, "turbo-<date>". */
export const AZURE_VERSION = /^(?:\d{4}-\d{2}-\d{2}|\d{4}|turbo-\d{4}-\d{2}-\d{2}|\d+)$/;

/** "`gpt-5-chat` (2025-10-03)<br>**Preview**" -> [{name, version}]; versions are dates, snapshots or counters. */
export function modelVersions(cell: string): Array<{ name: string; version: string | null }> {
  const found: Array<{ name: string; version: string | null }> = [];
  const text = cell.replace(/<sup>.*?<\/sup>/gi, "");
  for (const m of text.matchAll(/`([a-z0-9][a-z0-9.-]*)`\s*(?:\(([^)]*)\))?/gi)) {
    const raw = (m[2] ?? "").trim().replace(/^version\s+/i, "");
    const version = AZURE_VERSION.test(raw) ? raw : null;
    found.push({ name: group(m, 1), version });
  }
  // A bare model name without code ticks (the video table's "sora").
  const plain = /^\s*([a-z][a-z0-9.-]*)\s*$/.exec(text);
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

/** The modes a context window's qualifier "(<kinds> deployments)" names; null when none is read. */
function qualifiedModes(
  input: ParserInput,
  qualifier: string,
  skipped: SkipLog,
  model: string,
): string[] | null {
  const m = /^(.+?)\s+deployments$/i.exec(qualifier.trim());
  if (!m)
    throw parseFailure(
      input.source,
      `${model}: context window qualifier "(${qualifier})" names no deployments`,
    );
  const modes: string[] = [];
  for (const kind of group(m, 1).split(/\s*,\s*(?:and\s+)?|\s+and\s+/i)) {
    const k = kind.trim().toLowerCase();
    if (/^batch$/.test(k)) modes.push(...BATCH_MODES);
    else if (/^standard$/.test(k)) modes.push(...STANDARD_MODES);
    else if (k === "provisioned managed")
      skipped.add("context window for provisioned managed deployments (no such deployments)", model);
    else
      throw parseFailure(
        input.source,
        `${model}: context window for "${kind}" deployments is not a known kind`,
      );
  }
  return modes.length > 0 ? modes : null;
}

function contextWindow(input: ParserInput, cell: string, skipped: SkipLog, model: string): Limits {
  const limits: Limits = {};
  for (const item of items(cell)) {
    if (/^(?:input|output):/i.test(item)) continue; // the window's breakdown
    const m = /^([\d,]+)\s*(?:\(([^)]*)\))?$/.exec(item);
    const size = m ? tokenCount(group(m, 1)) : null;
    if (!m || size === null)
      throw parseFailure(input.source, `${model}: context window "${item}" is not a size`);
    const qualifier = m[2] ?? "";
    if (qualifier === "") {
      limits.context_tokens ??= size;
      continue;
    }
    const modes = qualifiedModes(input, qualifier, skipped, model);
    if (modes) limits.byModes = [...(limits.byModes ?? []), { modes, context_tokens: size }];
  }
  if (limits.context_tokens === undefined)
    throw parseFailure(input.source, `${model}: no context window in "${cell}"`);
  return limits;
}

function maxRequest(input: ParserInput, cell: string, skipped: SkipLog, model: string): Limits {
  const parts = items(cell);
  const [only] = parts;
  const single = parts.length === 1 && only !== undefined ? tokenCount(only) : null;
  if (single !== null) return { context_tokens: single };
  const limits: Limits = {};
  for (const item of parts) {
    const m = /^(input|output):\s*([\d,]+)$/i.exec(item);
    if (!m)
      throw parseFailure(input.source, `${model}: max request "${item}" is not "Input: N" / "Output: N"`);
    let size = tokenCount(group(m, 2));
    if (size === null && MALFORMED_NUMBER.test(group(m, 2))) {
      skipped.add("malformed number (limit unknown)", `${model}: ${item}`);
      size = null;
    } else if (size === null)
      throw parseFailure(input.source, `${model}: max request "${item}" is not a size`);
    if (group(m, 1).toLowerCase() === "input") limits.context_tokens = size;
    else limits.max_output_tokens = size;
  }
  if (limits.context_tokens === undefined)
    throw parseFailure(input.source, `${model}: no input limit in "${cell}"`);
  return limits;
}

/**
 * A tool-calling bullet's qualifier: none -> supported; "(Responses API only)" (gpt-6.1-sol,
 * September 2026) -> conditional, as "(chat completions)" only is for structured outputs; any
 * other qualifier fails (through `fail`), never read as plain support nor dropped.
 */
function toolCallingStatus(
  qualifier: string | undefined,
  item: string,
  fail: (message: string) => Error,
): CapabilityEntry {
  if (qualifier === undefined) return declaredCapability("supported");
  if (/^responses api only$/i.test(qualifier.trim())) return declaredCapability("conditional");
  throw fail(`tool calling bullet "${item}" has an unknown qualifier "(${qualifier})"`);
}

export function describedCapabilities(
  description: string,
  fail: (message: string) => Error = (message) => new Error(message),
): Partial<Record<CapabilityName, CapabilityEntry>> {
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
    const parallel = /parallel (?:tool|function) calling\b(?:\s*\(([^)]*)\))?/i.exec(item);
    if (parallel) {
      const status = toolCallingStatus(parallel[1], item, fail);
      caps.tool_calling = status;
      caps.parallel_tool_calling = status;
    }
    const tools = /^(?:function calling|functions (?:and|&) tools|tools)\.?(?:\s*\(([^)]*)\)\.?)?$/i.exec(
      item,
    );
    if (tools) caps.tool_calling = toolCallingStatus(tools[1], item, fail);
    if (/computer use tool|^computer use$/i.test(item)) caps.computer_use = supported;
    // The GPT-4o audio models' descriptions: "Audio model for audio and text generation." /
    // "Audio model for real-time audio processing." (it takes audio in; output is not stated).
    if (/^audio model for audio and text generation\b/i.test(item)) caps.audio_output = supported;
    if (/^audio models? for real-time audio processing\b/i.test(item)) caps.audio_input = supported;
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
      } else limits = maxRequest(input, row[iRequest] ?? "", skipped, label);
      const capabilities =
        iDescription >= 0
          ? describedCapabilities(row[iDescription] ?? "", (message) =>
              parseFailure(input.source, `${label}: ${message}`),
            )
          : {};
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
        for (const qualified of limits.byModes ?? [])
          facts.set(`${providerModelId}\u0000${qualified.modes.join(",")}`, {
            provider_id: PROVIDER_ID,
            provider_model_id: providerModelId,
            modes: [...qualified.modes],
            context_tokens: qualified.context_tokens,
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
