/**
 * An OpenAI model page in its Markdown form (developers.openai.com/api/docs/models/<model>.md):
 * "Model ID: `gpt-4.1`", the "## Model details" bullets, the Endpoints table, and the
 * "Supported features" / "Supported tools" lists. Model facts only; it creates no deployments.
 *
 * - context_tokens = "N context window", max_output_tokens = "N max output tokens". The
 *   "Maximum input tokens" bullet some pages add is not the context window and is not read.
 * - Facts apply to the Model ID and to the Default snapshot the details describe, never to the
 *   other snapshots of the Snapshots list: they can differ (gpt-4o-2024-05-13 is listed under
 *   GPT-4o, whose details are those of gpt-4o-2024-08-06).
 * - The Snapshots list ("a list of all available snapshots and aliases") names ids the provider
 *   serves: each other id there gets a bare fact (no limits, no capabilities), which only lists
 *   the model (docs/provenance.md "Status from official listings"): a community-placed
 *   deployment of gpt-4o-2024-11-20 is then `available` by the listing, not `unknown`.
 * - vision / audio_input from "Input modalities", image_output / audio_output from "Output
 *   modalities": supported when listed, unsupported when the line is there and does not list it.
 * - reasoning: supported when the details say "Reasoning token support"; otherwise unknown.
 * - batch: the Endpoints table's Batch row ("Supported" / "Not supported").
 * - tool_calling (function_calling), structured_output (structured_outputs), prompt_caching,
 *   web_search, code_execution (code_interpreter), computer_use (computer_use): supported when
 *   the Supported features or Supported tools list names them. The lists name only what is
 *   supported, so a name they leave out stays unknown.
 * - aliases: a description line "The `<name>` alias routes requests to <model>." (GPT-5.6 Sol:
 *   `gpt-5.6`) declares <name> an alias of the page's Model ID (src/release/declared-aliases.ts
 *   folds a community deployment named by it into the model's official one). The Snapshots list
 *   ("snapshots and aliases") does not say which entry is which, and is not read as aliases.
 *
 * The same page rendered from its HTML (a crawler's Markdown of developers.openai.com/api/docs/
 * models/<model>: no "Model ID:" line, no "## " headings, one value per line) is read too, where
 * a copy of the Markdown form was not found (parseRenderedModelPage below).
 */
import { group } from "../../lib/regex.js";
import type {
  CapabilityEntry,
  CapabilityName,
  ModelFact,
  ParseOutput,
  ProviderAlias,
} from "../../schema/index.js";
import {
  declaredCapability,
  evidenceFor,
  modalityUse,
  parseFailure,
  setModality,
  tokenCount,
} from "../helpers.js";
import { levelTwoSection, markdownTables, plainCell, renderedLines } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "openai";
const MODEL_ID = /^[a-z0-9][a-z0-9.-]*$/;

/** Names of the Supported features / Supported tools lists -> capability. */
const LISTED: Readonly<Record<string, CapabilityName>> = {
  function_calling: "tool_calling",
  structured_outputs: "structured_output",
  prompt_caching: "prompt_caching",
  web_search: "web_search",
  code_interpreter: "code_execution",
  computer_use: "computer_use",
};

/** "- item" lines of a section. */
function bullets(lines: string[]): string[] {
  return lines.flatMap((l) => {
    const m = /^\s*-\s+(.+?)\s*$/.exec(l);
    return m ? [group(m, 1)] : [];
  });
}

export const parseOpenAiModelPage: Parser = (input) => {
  const id = /^Model ID: `([^`]+)`\s*$/m.exec(input.content)?.[1];
  if (!id && RENDERED_ICON.test(input.content)) return parseRenderedModelPage(input);
  if (!id || !MODEL_ID.test(id)) throw parseFailure(input.source, 'no "Model ID: `<model>`" line');
  const detailLines = levelTwoSection(input.content, "Model details");
  if (!detailLines) throw parseFailure(input.source, `${id}: no "## Model details" section`);
  const details = bullets(detailLines);
  const detail = (re: RegExp) => details.map((d) => re.exec(d)).find((m) => m !== null) ?? null;

  const contextMatch = detail(/^([\d,]+) context window$/);
  const outputMatch = detail(/^([\d,]+) max output tokens$/);
  const contextTokens = contextMatch ? tokenCount(group(contextMatch, 1)) : null;
  const outputTokens = outputMatch ? tokenCount(group(outputMatch, 1)) : null;
  if (contextTokens === null || outputTokens === null)
    throw parseFailure(
      input.source,
      `${id}: the details give no "N context window" and "N max output tokens"`,
    );

  const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  const modalities = (label: string): string[] | null => {
    const m = detail(new RegExp(`^${label} modalities: (.+)$`));
    return m
      ? group(m, 1)
          .split(",")
          .map((s) => s.trim().toLowerCase())
      : null;
  };
  const modal = (list: string[] | null, kind: string, name: CapabilityName) => {
    if (list) capabilities[name] = declaredCapability(list.includes(kind) ? "supported" : "unsupported");
  };
  const inputs = modalities("Input");
  const outputs = modalities("Output");
  modal(inputs, "image", "vision");
  modal(inputs, "audio", "audio_input");
  modal(outputs, "image", "image_output");
  modal(outputs, "audio", "audio_output");
  if (details.includes("Reasoning token support")) capabilities.reasoning = declaredCapability("supported");

  const endpointLines = levelTwoSection(input.content, "Endpoints");
  if (endpointLines) {
    const table = markdownTables(endpointLines.join("\n")).find(
      (t) => plainCell(t.headers[0] ?? "") === "Endpoint",
    );
    const batch = table?.rows.find((r) => plainCell(r[0] ?? "") === "Batch");
    const support = batch ? plainCell(batch[2] ?? "") : "";
    if (support === "Supported") capabilities.batch = declaredCapability("supported");
    else if (support === "Not supported") capabilities.batch = declaredCapability("unsupported");
    else
      throw parseFailure(
        input.source,
        `${id}: the Endpoints table has no Batch row saying Supported / Not supported`,
      );
  }
  for (const heading of ["Supported features", "Supported tools"])
    for (const item of bullets(levelTwoSection(input.content, heading) ?? [])) {
      const name = LISTED[item];
      if (name) capabilities[name] = declaredCapability("supported");
    }

  const stated = detail(/^Default snapshot: `([^`]+)`$/)?.[1];
  const evidence = evidenceFor(input.source, input.observedAt);
  // "## Snapshots": the ids the page lists as available
  const listed = bullets(levelTwoSection(input.content, "Snapshots") ?? []).flatMap((item) => {
    const name = /^`([^`]+)`$/.exec(item)?.[1];
    return name === undefined ? [] : [name];
  });
  const facts = pageFacts(
    input,
    id,
    stated !== undefined && MODEL_ID.test(stated) ? stated : undefined,
    { context_tokens: contextTokens, max_output_tokens: outputTokens, capabilities },
    listed,
    evidence,
  );
  // "The `gpt-5.6` alias routes requests to GPT-5.6 Sol." (the page's description): a name the
  // page declares an alias of its Model ID
  const aliases: ProviderAlias[] = [];
  for (const m of input.content.matchAll(/^The `([^`]+)` alias routes requests to /gm)) {
    const alias = group(m, 1);
    if (!MODEL_ID.test(alias))
      throw parseFailure(input.source, `${id}: the alias "${alias}" is not a model id`);
    if (alias !== id) aliases.push({ provider_id: PROVIDER_ID, alias, provider_model_id: id, evidence });
  }
  return {
    deployments: [],
    lifecycle: [],
    model_facts: facts,
    ...(aliases.length > 0 ? { aliases } : {}),
    skipped: [],
  };
};

/**
 * The model icon of a rendered page, "![gpt-5.4-mini](/images/api/models/icons/gpt-5.4-mini.png)"
 * (developers.openai.com) or "![o3](https://cdn.openai.com/API/docs/images/model-page/model-icons/o3.png)"
 * (the page as platform.openai.com served it in 2025).
 */
const RENDERED_ICON = /^!\[([a-z0-9][a-z0-9.-]*)\]\([^)]*\/(?:models\/icons|model-icons)\/\1\.png\)$/m;

/** Rendered "Features" / "Tools" item names -> capability. */
const RENDERED_LISTED: Readonly<Record<string, CapabilityName>> = {
  "Function calling": "tool_calling",
  "Structured outputs": "structured_output",
  "Web search": "web_search",
  "Code interpreter": "code_execution",
  "Computer use": "computer_use",
};

/**
 * The page rendered from its HTML: the model id is the alt text of the model icon that opens the
 * page (it must be the model the source URL names); lines "N context window", "N max output tokens" and "Reasoning token support" as in the
 * details; "Modalities" then name / "Input and output" | "Input only" | "Output only" | "Not
 * supported" pairs (Text, Image, Audio, Video; Image and Audio read as in the Markdown form);
 * "Features" and "Tools" then name / "Supported" | "Not supported" pairs (an item marked "Not
 * supported" is unsupported, not left unknown). The rendered Endpoints list shows no support
 * status, so batch stays unknown. "Snapshots" shows a group per alias: the alias, the snapshot it
 * points to, then the group's snapshots (o1's page: "o1", "o1-2024-12-17", "o1-2024-12-17").
 * The group of the page's own model id therefore names its Default snapshot second (the
 * Markdown form's "Default snapshot: `gpt-5.4-mini-2026-03-17`" is rendered as "gpt-5.4-mini",
 * "gpt-5.4-mini-2026-03-17"), and the facts apply to it as in the Markdown form. The other ids
 * get bare listing facts, except those of a group the page marks "Deprecated".
 */
function parseRenderedModelPage(input: ParserInput): ParseOutput {
  const icon = RENDERED_ICON.exec(input.content);
  if (!icon) throw parseFailure(input.source, "no model icon line");
  const id = group(icon, 1);
  const named = /\/models\/([^/]+?)(?:\.md)?$/.exec(input.source.url)?.[1];
  if (named !== undefined && named !== id)
    throw parseFailure(input.source, `the page's model icon names ${id}, its URL ${named}`);
  const lines = renderedLines(input.content);
  const count = (re: RegExp) => {
    const m = lines.map((l) => re.exec(l)).find((x) => x !== null);
    return m ? tokenCount(group(m, 1)) : null;
  };
  const contextTokens = count(/^([\d,]+) context window$/);
  const outputTokens = count(/^([\d,]+) max output tokens$/);
  if (contextTokens === null || outputTokens === null)
    throw parseFailure(input.source, `${id}: no "N context window" and "N max output tokens" lines`);
  /** The name / status pairs after the line `start` up to the line `end`. */
  const pairs = (start: string, end: string): Array<[string, string]> => {
    const from = lines.indexOf(start);
    if (from < 0) return [];
    const to = lines.indexOf(end, from + 1);
    const body = lines.slice(from + 1, to < 0 ? undefined : to);
    const out: Array<[string, string]> = [];
    for (let i = 0; i + 1 < body.length; i++) {
      const status = body[i + 1] ?? "";
      if (/^(Supported|Not supported|Input and output|Input only|Output only)$/.test(status)) {
        out.push([body[i] ?? "", status]);
        i++;
      }
    }
    return out;
  };

  const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  const modes = new Map(pairs("Modalities", "Endpoints"));
  // Image and Audio, as in the Markdown form (a video row is not read)
  for (const kind of ["Image", "Audio"]) {
    const use = modalityUse(modes.get(kind) ?? "");
    if (use) setModality((name, status) => (capabilities[name] = declaredCapability(status)), kind, use);
  }
  if (lines.includes("Reasoning token support")) capabilities.reasoning = declaredCapability("supported");
  for (const [name, status] of [...pairs("Features", "Tools"), ...pairs("Tools", "Snapshots")]) {
    const capability = RENDERED_LISTED[name];
    if (capability && (status === "Supported" || status === "Not supported"))
      capabilities[capability] = declaredCapability(status === "Supported" ? "supported" : "unsupported");
  }

  // "Snapshots": after its paragraph, groups each opened by a model icon, one id per line, up to
  // "Rate limits"; a group marked "Deprecated" (o1's o1-preview group) lists nothing
  const from = lines.indexOf("Snapshots");
  const groups: string[][] = [];
  if (from >= 0)
    for (const line of lines.slice(from + 2)) {
      if (line === "Rate limits") break;
      if (line.startsWith("![")) groups.push([]);
      else if (groups.length === 0) groups.push([line]);
      else groups.at(-1)?.push(line);
    }
  // the model id's own group: the alias, then the snapshot it points to (its Default snapshot)
  const own = groups.find((entries) => entries[0] === id && !entries.includes("Deprecated"));
  const facts = pageFacts(
    input,
    id,
    own?.[1],
    { context_tokens: contextTokens, max_output_tokens: outputTokens, capabilities },
    groups.filter((entries) => !entries.includes("Deprecated")).flat(),
    evidenceFor(input.source, input.observedAt),
  );
  return { deployments: [], lifecycle: [], model_facts: facts, skipped: [] };
}

/**
 * A model page's facts, in both of its forms: the stated limits and capabilities for the model
 * id and for its Default snapshot (the details describe both), a bare listing fact for every
 * other id of the Snapshots list, and the Default snapshot as the id's `only_snapshot` where the
 * list names no other (GPT-5: `gpt-5-2025-08-07`; GPT-4o lists three, so none): the name can
 * point nowhere else, and its lifecycle follows that snapshot's (src/release/alias-lifecycle.ts).
 */
function pageFacts(
  input: ParserInput,
  id: string,
  defaultSnapshot: string | undefined,
  stated: Required<Pick<ModelFact, "context_tokens" | "max_output_tokens" | "capabilities">>,
  listed: readonly string[],
  evidence: ModelFact["evidence"],
): ModelFact[] {
  for (const name of defaultSnapshot === undefined ? listed : [defaultSnapshot, ...listed])
    if (!MODEL_ID.test(name))
      throw parseFailure(input.source, `${id}: the Snapshots list names "${name}", not a model id`);
  const ids = new Set([id, ...(defaultSnapshot ? [defaultSnapshot] : [])]);
  const facts: ModelFact[] = [...ids].map((providerModelId) => ({
    provider_id: PROVIDER_ID,
    provider_model_id: providerModelId,
    ...stated,
    capabilities: { ...stated.capabilities },
    evidence,
  }));
  for (const name of listed)
    if (!ids.has(name)) {
      ids.add(name);
      facts.push({ provider_id: PROVIDER_ID, provider_model_id: name, evidence });
    }
  const snapshots = new Set(listed.filter((name) => name !== id));
  const own = facts[0];
  if (
    own !== undefined &&
    defaultSnapshot !== undefined &&
    defaultSnapshot !== id &&
    snapshots.size === 1 &&
    snapshots.has(defaultSnapshot)
  )
    own.only_snapshot = defaultSnapshot;
  return facts;
}

export const parsers: Record<string, Parser> = {
  "openai-model-page": parseOpenAiModelPage,
};
