/**
 * The Claude models overview (platform.claude.com/docs/en/about-claude/models/overview.md): the
 * "Latest models comparison" table, one column per model, one row per feature. Model facts
 * only (limits and capabilities of provider `anthropic`'s API ids and aliases); it creates no
 * deployments.
 *
 * - context_tokens = the Context window row's first size ("200K tokens / 1M tokens (beta)" ->
 *   200,000: the beta window needs a request header), max_output_tokens = the Max output row.
 * - reasoning: supported when the Extended thinking or the Adaptive thinking row says "Yes",
 *   unsupported when every thinking row the page has says "No".
 * - vision: supported for every model of the table when the page says "All current Claude
 *   models support ... vision".
 * - Every comparison table the page has (latest and legacy models) is read.
 * - Facts apply to the Claude API ID and the Claude API alias of each column, and, marked
 *   official_inferred (an Anthropic page about another provider's deployment of the model), to
 *   the column's AWS Bedrock ID (provider amazon-bedrock) and GCP Vertex AI / Google Cloud ID
 *   (provider google-vertex).
 */
import { parse as parseYaml } from "yaml";
import { group } from "../../lib/regex.js";
import type { CapabilityEntry, CapabilityList, CapabilityName, ModelFact } from "../../schema/index.js";
import { parseCalendarDate } from "../dates.js";
import { declaredCapability, evidenceFor, parseFailure, tokenCount } from "../helpers.js";
import { anthropicIdentity, anthropicModelIdForName } from "../identity/anthropic.js";
import {
  collapseSpace,
  frontMatterText,
  linkText,
  type MarkdownTable,
  markdownTables,
  plainCell,
} from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "anthropic";

/** The row label without its bold markers, link and footnote digit ("**Claude API alias**1"). */
function rowLabel(cell: string): string {
  return plainCell(cell)
    .replace(/\s*\([^)]*\)\s*$/, "")
    .replace(/\d+$/, "")
    .trim()
    .toLowerCase();
}

/** "200K tokens / 1M tokens (beta)3" -> 200000; "128k tokens" -> 128000. */
export function firstTokenSize(cell: string): number | null {
  const m = /(\d[\d,.]*\s*[KkMm]?)\s*tokens/.exec(plainCell(cell));
  return m ? tokenCount(group(m, 1)) : null;
}

/** Bedrock / Google Cloud ids of the table, each checked against its provider's id form. */
const PLATFORM_IDS: ReadonlyArray<{
  labels: readonly string[];
  provider: string;
  form: RegExp;
  prefix: string;
}> = [
  {
    labels: ["aws bedrock id"],
    provider: "amazon-bedrock",
    form: /^anthropic\.claude-[a-z0-9.:-]+$/,
    prefix: "anthropic.",
  },
  {
    labels: ["gcp vertex ai id", "google cloud id"],
    provider: "google-vertex",
    form: /^claude-[a-z0-9-]+(?:@\d{8})?$/,
    prefix: "",
  },
];

/**
 * A platform id as the cell gives it. The page's renderings glue a footnote marker to some ids
 * ("anthropic.claude-fable-5" + footnote 3 = "anthropic.claude-fable-53"): a trailing digit is
 * dropped only when what remains is exactly the platform's form of the Claude API id.
 */
function platformId(cell: string, apiId: string, prefix: string, form: RegExp): string | null {
  const text = plainCell(cell);
  const expected = `${prefix}${apiId}`;
  if (text !== expected && /^\d$/.test(text.slice(expected.length)) && text.startsWith(expected))
    return expected;
  return form.test(text) ? text : null;
}

/** A page's capabilities of the model, for another provider's deployment of it: official_inferred. */
function inferredCapabilities(
  capabilities: Partial<Record<CapabilityName, CapabilityEntry>>,
): Partial<Record<CapabilityName, CapabilityEntry>> {
  return Object.fromEntries(
    Object.entries(capabilities).map(([name, entry]) => [
      name,
      { ...entry, verification_status: "official_inferred" },
    ]),
  );
}

/** A comparison table's rows by label, and `row`, which fails the parse when a label is missing. */
function labelledRows(input: ParserInput, table: MarkdownTable) {
  const rows = new Map(table.rows.map((r) => [rowLabel(r[0] ?? ""), r]));
  const row = (label: string): string[] => {
    const found = rows.get(label);
    if (!found) throw parseFailure(input.source, `comparison table has no "${label}" row`);
    return found;
  };
  return { rows, row };
}

/** An overview column's limits and capabilities for another provider's id of the model: official_inferred. */
function platformFact(
  provider: string,
  providerModelId: string,
  contextTokens: number,
  outputTokens: number,
  capabilities: Partial<Record<CapabilityName, CapabilityEntry>>,
  inferred: ModelFact["evidence"],
): ModelFact {
  return {
    provider_id: provider,
    provider_model_id: providerModelId,
    context_tokens: contextTokens,
    max_output_tokens: outputTokens,
    capabilities: inferredCapabilities(capabilities),
    evidence: inferred,
  };
}

export const parseAnthropicModelFacts: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const inferred = evidenceFor(input.source, input.observedAt, "official_inferred");
  const tables = markdownTables(input.content).filter(
    (t) =>
      plainCell(t.headers[0] ?? "") === "Feature" &&
      t.rows.some((r) => rowLabel(r[0] ?? "") === "claude api id"),
  );
  if (tables.length === 0)
    throw parseFailure(
      input.source,
      "no models comparison table (Feature | <model> ... with a Claude API ID row)",
    );
  const allVision = /All current Claude models support[^.]*\bvision\b/i.test(input.content);

  const facts: ModelFact[] = [];
  for (const table of tables) {
    const { rows, row } = labelledRows(input, table);
    const ids = row("claude api id");
    const aliases = rows.get("claude api alias");
    const context = row("context window");
    const maxOutput = row("max output");
    const thinking = [...rows.entries()].filter(([label]) => /thinking$/.test(label)).map(([, r]) => r);
    const platforms = PLATFORM_IDS.flatMap((p) => {
      const r = p.labels.map((l) => rows.get(l)).find((x) => x !== undefined);
      return r ? [{ ...p, row: r }] : [];
    });

    for (let col = 1; col < table.headers.length; col++) {
      const model = plainCell(table.headers[col] ?? "");
      const id = plainCell(ids[col] ?? "");
      if (!/^claude-[a-z0-9-]+$/.test(id))
        throw parseFailure(input.source, `${model}: "${id}" is not a Claude API id`);
      const contextTokens = firstTokenSize(context[col] ?? "");
      const outputTokens = firstTokenSize(maxOutput[col] ?? "");
      if (contextTokens === null || outputTokens === null)
        throw parseFailure(input.source, `${model}: context window or max output is not a token size`);
      const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
      const answers = thinking.map((r) => plainCell(r[col] ?? ""));
      if (answers.some((a) => /^yes\b/i.test(a))) capabilities.reasoning = declaredCapability("supported");
      else if (answers.length > 0 && answers.every((a) => /^no$/i.test(a)))
        capabilities.reasoning = declaredCapability("unsupported");
      if (allVision) capabilities.vision = declaredCapability("supported");
      const alias = aliases ? plainCell(aliases[col] ?? "") : "";
      for (const providerModelId of new Set([id, ...(/^claude-[a-z0-9-]+$/.test(alias) ? [alias] : [])]))
        facts.push({
          provider_id: PROVIDER_ID,
          provider_model_id: providerModelId,
          context_tokens: contextTokens,
          max_output_tokens: outputTokens,
          capabilities: { ...capabilities },
          evidence,
        });
      // The same model on Amazon Bedrock and Google Cloud, by the ids this table gives: an
      // Anthropic page about another provider's deployment, so official_inferred.
      for (const p of platforms) {
        const platform = platformId(p.row[col] ?? "", id, p.prefix, p.form);
        if (!platform) continue; // "—": not offered there
        facts.push(platformFact(p.provider, platform, contextTokens, outputTokens, capabilities, inferred));
      }
    }
  }
  if (facts.length === 0) throw parseFailure(input.source, "models comparison table has no model columns");
  return { deployments: [], lifecycle: [], model_facts: facts, skipped: [] };
};

/** The model page's "Model IDs" rows of other providers' deployments (labels as `rowLabel` gives them). */
const MODEL_PAGE_PLATFORMS: ReadonlyArray<{ labels: readonly string[]; provider: string; form: RegExp }> = [
  { labels: ["amazon bedrock"], provider: "amazon-bedrock", form: /^anthropic\.claude-[a-z0-9.:-]+$/ },
  {
    labels: ["google cloud", "vertex ai", "google cloud vertex ai"],
    provider: "google-vertex",
    form: /^claude-[a-z0-9-]+(?:@\d{8})?$/,
  },
];

/** The two-column tables of a page's Specifications by heading (Model IDs, Capabilities): row label -> value. */
function specTables(input: ParserInput): Map<string, Map<string, string>> {
  return new Map(
    markdownTables(input.content).map((t) => [
      t.heading,
      new Map(t.rows.map((r) => [rowLabel(r[0] ?? ""), plainCell(r[1] ?? "")])),
    ]),
  );
}

/**
 * A Claude model reference page (platform.claude.com/docs/<lang>/models/<model>/overview.md):
 * "Model ID: `claude-opus-4-6`" and the specs line "Context window: 1M tokens · Max output:
 * 128K tokens · ..."; no deployments. Where the whole page is recorded (its Specifications):
 * - capabilities from its "Capabilities" table: reasoning supported when the Thinking row names
 *   adaptive or extended thinking, vision supported when "Input → output" takes images (a row
 *   that says neither leaves the capability unknown);
 * - its "Model IDs" table: the Claude API row must be the page's Model ID, and the Amazon
 *   Bedrock and Google Cloud rows give the same limits and capabilities to those providers'
 *   ids, marked official_inferred (an Anthropic page about another provider's deployment, as
 *   the models overview's platform rows are read). Other platforms (Microsoft Foundry, Claude
 *   Platform on AWS) have no deployments in the catalog and are not read.
 * - released_at: the status line's "Released September 29, 2025." for the Claude API id only
 *   (the page does not state when other platforms launched it).
 */
export const parseAnthropicModelPage: Parser = (input) => {
  const id = /^Model ID: `(claude-[a-z0-9-]+)`\s*$/m.exec(input.content)?.[1];
  if (!id) throw parseFailure(input.source, 'no "Model ID: `claude-...`" line');
  const specs = /^Context window: ([^·]+?) · Max output: ([^·]+?)(?: ·|$)/m.exec(input.content);
  if (!specs) throw parseFailure(input.source, 'no "Context window: ... · Max output: ..." line');
  const contextTokens = tokenCount(group(specs, 1));
  const outputTokens = tokenCount(group(specs, 2));
  if (contextTokens === null || outputTokens === null)
    throw parseFailure(input.source, `"${specs[0]}" does not give two token sizes`);
  const evidence = evidenceFor(input.source, input.observedAt);
  const inferred = evidenceFor(input.source, input.observedAt, "official_inferred");

  const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  const tables = specTables(input);
  const capabilityRows = tables.get("Capabilities");
  if (capabilityRows) {
    if (/\b(adaptive|extended)\b/i.test(capabilityRows.get("thinking") ?? ""))
      capabilities.reasoning = declaredCapability("supported");
    if (/\bimages?\b.*→/i.test(capabilityRows.get("input → output") ?? ""))
      capabilities.vision = declaredCapability("supported");
  }
  const releasedText = /\bReleased ([A-Z][a-z]+\.? \d{1,2}, \d{4})\./.exec(input.content)?.[1];
  const released = releasedText === undefined ? null : parseCalendarDate(releasedText);
  const facts: ModelFact[] = [
    {
      provider_id: PROVIDER_ID,
      provider_model_id: id,
      context_tokens: contextTokens,
      max_output_tokens: outputTokens,
      ...(Object.keys(capabilities).length > 0 ? { capabilities: { ...capabilities } } : {}),
      ...(released?.precision === "day" ? { released_at: released.date } : {}),
      evidence,
    },
  ];

  const rows = tables.get("Model IDs");
  if (rows) {
    const apiRow = rows.get("claude api");
    if (apiRow !== id)
      throw parseFailure(
        input.source,
        `the Model IDs table's Claude API row is "${apiRow ?? ""}", not ${id}`,
      );
    for (const platform of MODEL_PAGE_PLATFORMS) {
      const label = platform.labels.find((l) => rows.has(l));
      if (label === undefined) continue;
      const platformId = rows.get(label) ?? "";
      if (!platform.form.test(platformId))
        throw parseFailure(input.source, `"${platformId}" is not a ${platform.provider} Claude model id`);
      facts.push({
        provider_id: platform.provider,
        provider_model_id: platformId,
        context_tokens: contextTokens,
        max_output_tokens: outputTokens,
        ...(Object.keys(capabilities).length > 0 ? { capabilities: inferredCapabilities(capabilities) } : {}),
        evidence: inferred,
      });
    }
  }
  return { deployments: [], lifecycle: [], model_facts: facts, skipped: [] };
};

/** Prose as read: links keep their text, white space collapsed. */
function proseText(text: string): string {
  return collapseSpace(linkText(text));
}

/** Features a launch page's "Supported features" list names, as catalog capabilities. */
const LAUNCH_FEATURES: ReadonlyArray<[RegExp, CapabilityName]> = [
  [/^vision$/i, "vision"],
  [/^code execution$/i, "code_execution"],
];

/**
 * A Claude model launch page (platform.claude.com/docs/en/about-claude/models/whats-new-….md,
 * introducing-….md): a "Model | API model ID | Description" table and, in the same section, one
 * sentence with the models' specs ("supports the 1M token context window, 128k max output
 * tokens, adaptive thinking", or "share the same specs and pricing: … a 1M token context window
 * by default, and up to 128k output tokens per request"). Model facts only; no deployments.
 *
 * - The section's specs apply to every model of its table; a table of several models needs the
 *   page to say they "share the same specs", or the parse fails.
 * - reasoning: supported when the section names adaptive thinking or the page has the heading
 *   "Adaptive thinking is always on" (headings may carry an icon glyph before their text).
 * - vision / code_execution: supported when the page's "Supported features" list names Vision /
 *   Code execution (a feature the list leaves out stays unknown).
 */
export const parseAnthropicLaunchPage: Parser = (input) => {
  const tables = markdownTables(input.content).filter(
    (t) => t.headers[0] === "Model" && t.headers[1] === "API model ID",
  );
  const table = tables[0];
  if (!table || tables.length > 1)
    throw parseFailure(input.source, `expected one "Model | API model ID" table, found ${tables.length}`);
  const ids: string[] = [];
  for (const row of table.rows) {
    const id = /^`(claude-[a-z0-9-]+)`$/.exec(row[1]?.trim() ?? "")?.[1];
    if (id === undefined)
      throw parseFailure(input.source, `the models table has a row without a \`claude-…\` API model ID`);
    ids.push(id);
  }
  if (ids.length === 0) throw parseFailure(input.source, "the models table has no rows");
  // The section of the table: from its heading to the next heading of that level or above.
  const lines = input.content.split(/\r?\n/);
  const start = lines.findIndex((l) => /^#+\s/.test(l) && l.replace(/^#+\s+/, "").trim() === table.heading);
  const level = /^#+/.exec(lines[start] ?? "")?.[0].length ?? 0;
  const end = lines.findIndex(
    (l, i) => i > start && /^#+\s/.test(l) && (/^#+/.exec(l)?.[0].length ?? 7) <= level,
  );
  const section = proseText(lines.slice(start, end === -1 ? undefined : end).join("\n"));
  if (ids.length > 1 && !/share the same specs/i.test(section))
    throw parseFailure(
      input.source,
      `${ids.length} models in the table, but the section does not say they share the same specs`,
    );
  const context = /(\d[\d,.]*\s*[KkMm]?) token context window/.exec(section);
  const output = /(\d[\d,.]*\s*[KkMm]?) (?:max )?output tokens/.exec(section);
  const contextTokens = context ? tokenCount(group(context, 1)) : null;
  const outputTokens = output ? tokenCount(group(output, 1)) : null;
  if (contextTokens === null || outputTokens === null)
    throw parseFailure(
      input.source,
      `the "${table.heading}" section states no context window and max output tokens`,
    );

  const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  if (
    /\badaptive thinking\b/i.test(section) ||
    /^#+[^\w\n]*Adaptive thinking is always on\s*$/m.test(input.content)
  )
    capabilities.reasoning = declaredCapability("supported");
  const features = /^#+[^\w\n]*Supported features\s*$([\s\S]*?)(?=^#+\s|(?![\s\S]))/m.exec(input.content);
  for (const item of (features?.[1] ?? "").matchAll(/^- (.+)$/gm)) {
    const name = proseText(group(item, 1))
      .replace(/\s*\(.*$/, "")
      .trim();
    for (const [re, capability] of LAUNCH_FEATURES)
      if (re.test(name)) capabilities[capability] = declaredCapability("supported");
  }
  const evidence = evidenceFor(input.source, input.observedAt);
  return {
    deployments: [],
    lifecycle: [],
    model_facts: ids.map((id) => ({
      provider_id: PROVIDER_ID,
      provider_model_id: id,
      context_tokens: contextTokens,
      max_output_tokens: outputTokens,
      ...(Object.keys(capabilities).length > 0 ? { capabilities: { ...capabilities } } : {}),
      evidence,
    })),
    skipped: [],
  };
};

/** A comparison cell without its escaped footnote markers: "200K\\*", "100K\\*\\*" -> "200K", "100K". */
function withoutFootnotes(cell: string): string {
  return plainCell(cell.replace(/\\\*/g, ""));
}

/** The 2024 names table's columns: the platform's header and its id form. */
const NAMES_2024 = [
  {
    header: "Latest AWS Bedrock model name",
    provider: "amazon-bedrock",
    form: /^anthropic\.claude-[a-z0-9.:-]+$/,
  },
  { header: "GCP Vertex AI model name", provider: "google-vertex", form: /^claude-[a-z0-9-]+@\d{8}$/ },
] as const;

/**
 * The Claude models overview as docs.anthropic.com served it in 2024 (/en/docs/models-overview):
 * a model names table (Model | Latest 1P API model name | Latest AWS Bedrock model name | GCP
 * Vertex AI model name) and a comparison table whose first header is empty, one column per model
 * and one row per feature. Model facts only; no deployments.
 * - context_tokens = the Context window row without its footnote marker ("200K\\*" -> 200,000),
 *   max_output_tokens = the Max output row ("4096 tokens").
 * - vision: the Vision row's Yes (supported) or No (unsupported); anything else leaves it unknown.
 * - Facts apply to each column's Latest API model name and, marked official_inferred (as the
 *   later overviews' platform rows are read), to the Bedrock and Vertex AI names the names table
 *   gives the model, whose Latest 1P API model name must be the comparison table's.
 */
export const parseAnthropicModelsOverview2024: Parser = (input) => {
  const tables = markdownTables(input.content);
  const names = tables.find((t) => t.headers.map(plainCell).includes("Latest AWS Bedrock model name"));
  const comparison = tables.find(
    (t) =>
      plainCell(t.headers[0] ?? "") === "" &&
      t.rows.some((r) => rowLabel(r[0] ?? "") === "latest api model name"),
  );
  if (!names || !comparison)
    throw parseFailure(
      input.source,
      "expected a model names table (Latest AWS Bedrock model name) and a comparison table (Latest API model name row)",
    );
  const nameHeaders = names.headers.map(plainCell);
  const apiColumn = nameHeaders.indexOf("Latest 1P API model name");
  if (apiColumn < 0)
    throw parseFailure(input.source, 'the names table has no "Latest 1P API model name" column');
  const platformsOf = new Map(names.rows.map((r) => [plainCell(r[0] ?? ""), r]));
  const { rows, row } = labelledRows(input, comparison);
  const ids = row("latest api model name");
  const context = row("context window");
  const maxOutput = row("max output");
  const vision = rows.get("vision");
  const evidence = evidenceFor(input.source, input.observedAt);
  const inferred = evidenceFor(input.source, input.observedAt, "official_inferred");

  const facts: ModelFact[] = [];
  for (let col = 1; col < comparison.headers.length; col++) {
    const model = plainCell(comparison.headers[col] ?? "");
    const id = plainCell(ids[col] ?? "");
    if (!/^claude-[a-z0-9.-]+$/.test(id))
      throw parseFailure(input.source, `${model}: "${id}" is not a Claude API model name`);
    const contextTokens = tokenCount(withoutFootnotes(context[col] ?? ""));
    const outputTokens = tokenCount(withoutFootnotes(maxOutput[col] ?? ""));
    if (contextTokens === null || outputTokens === null)
      throw parseFailure(input.source, `${model}: context window or max output is not a token size`);
    const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
    const sees = plainCell(vision?.[col] ?? "");
    if (/^yes$/i.test(sees)) capabilities.vision = declaredCapability("supported");
    else if (/^no$/i.test(sees)) capabilities.vision = declaredCapability("unsupported");
    facts.push({
      provider_id: PROVIDER_ID,
      provider_model_id: id,
      context_tokens: contextTokens,
      max_output_tokens: outputTokens,
      capabilities: { ...capabilities },
      evidence,
    });
    const platformRow = platformsOf.get(model);
    if (!platformRow) continue; // Claude 2.x: the page names no platform ids for them
    if (plainCell(platformRow[apiColumn] ?? "") !== id)
      throw parseFailure(
        input.source,
        `${model}: the names table's API model name is "${plainCell(platformRow[apiColumn] ?? "")}", the comparison table's "${id}"`,
      );
    for (const platform of NAMES_2024) {
      const column = nameHeaders.indexOf(platform.header);
      if (column < 0) continue;
      const platformId = plainCell(platformRow[column] ?? "");
      if (!platform.form.test(platformId))
        throw parseFailure(
          input.source,
          `${model}: "${platformId}" is not a ${platform.provider} Claude model id`,
        );
      facts.push(
        platformFact(platform.provider, platformId, contextTokens, outputTokens, capabilities, inferred),
      );
    }
  }
  if (facts.length === 0) throw parseFailure(input.source, "the comparison table has no model columns");
  return { deployments: [], lifecycle: [], model_facts: facts, skipped: [] };
};

/** The Compatibility table's platforms that are catalog providers: the page's name -> provider id. */
const COMPATIBILITY_PLATFORMS: Readonly<Record<string, string>> = {
  "Claude API": PROVIDER_ID,
  "Amazon Bedrock": "amazon-bedrock",
  "Google Cloud": "google-vertex",
};

/** "Opus 4.5, 4.6, and 5" -> ["4.5", "4.6", "5"]; "Mythos 5 and Preview" -> ["5", "Preview"]. */
function listedWords(text: string): string[] {
  return text
    .split(/\s*,\s*(?:and\s+)?|\s+and\s+/)
    .map((w) => w.trim())
    .filter((w) => w !== "");
}

/** A compatibility cell's bullet items: "- Fable 5 - Opus 4.5, 4.6, and 5" -> ["Fable 5", "Opus 4.5, 4.6, and 5"]. */
function bulletItems(cell: string): string[] {
  return cell
    .split(/(?:^|\s)-\s+/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/**
 * Anthropic's "Structured outputs" page (platform.claude.com/docs/en/build-with-claude/
 * structured-outputs.md): its Compatibility table's "Supported models" (one item per family:
 * "Opus 4.5, 4.6, 4.7, 4.8, and 5", "Mythos 5 and Preview") and "Supported platforms" (a
 * platform with a footnote marker, "Amazon Bedrock[1](#compat-fn-1)", is read with its footnote:
 * "On Amazon Bedrock, structured outputs are available for Claude Opus 4.6, …").
 *
 * - model_facts: `structured_output` supported (official_declared) for the Claude API id of each
 *   model the table names, when the platforms name the Claude API; ids come from the Anthropic
 *   identity module (a name it cannot map fails the parse: never guessed).
 * - capability_lists: the page as a list of the Claude models that have the feature, for the
 *   Claude API and Google Cloud (every named model) and Amazon Bedrock (the footnote's models);
 *   the release stage gives a model the page does not name `unsupported` on those providers and
 *   a model it names for a platform `supported` there (both official_inferred). Platforms the
 *   catalog has no deployments on (Claude Platform on AWS, Microsoft Foundry) are not read.
 * No deployments.
 */
export const parseAnthropicStructuredOutputs: Parser = (input) => {
  const table = markdownTables(input.content).find(
    (t) => t.heading === "Compatibility" && t.rows.some((r) => plainCell(r[0] ?? "") === "Supported models"),
  );
  if (!table) throw parseFailure(input.source, 'no Compatibility table with a "Supported models" row');
  const cell = (label: string): string => {
    const row = table.rows.find((r) => plainCell(r[0] ?? "") === label);
    if (!row) throw parseFailure(input.source, `the Compatibility table has no "${label}" row`);
    return row[1] ?? "";
  };
  const idFor = (name: string): string => {
    const id = anthropicModelIdForName(name);
    if (id === null)
      throw parseFailure(input.source, `"${name}" is not a Claude model name the catalog can map`);
    return id;
  };
  const named: string[] = [];
  for (const item of bulletItems(plainCell(cell("Supported models")))) {
    const m = /^([A-Z][a-z]+) (.+)$/.exec(item);
    if (!m) throw parseFailure(input.source, `"${item}" is not "<family> <versions>"`);
    for (const version of listedWords(group(m, 2))) named.push(idFor(`Claude ${group(m, 1)} ${version}`));
  }
  if (named.length === 0) throw parseFailure(input.source, "the Supported models row names no model");

  const footnotes = new Map<string, string>();
  for (const f of input.content.matchAll(/^(\d+)\. (.+)$/gm)) footnotes.set(group(f, 1), group(f, 2));
  const canonical = (id: string) => anthropicIdentity.canonicalModelId(id);
  const evidence = evidenceFor(input.source, input.observedAt);
  const providers: CapabilityList["providers"] = [];
  for (const raw of bulletItems(cell("Supported platforms"))) {
    const m = /^(.*?)(?:\[(\d+)\]\(#[^)]*\))?$/.exec(raw.trim());
    const platform = plainCell(m?.[1] ?? raw);
    const provider = COMPATIBILITY_PLATFORMS[platform];
    if (provider === undefined) continue;
    const marker = m?.[2];
    let ids = named;
    if (marker !== undefined) {
      const only = new RegExp(`^On ${platform}, structured outputs are available for (.+?)\\.(?=\\s|$)`).exec(
        footnotes.get(marker) ?? "",
      );
      if (!only)
        throw parseFailure(
          input.source,
          `${platform}'s footnote ${marker} does not say which models it covers`,
        );
      ids = listedWords(group(only, 1)).map(idFor);
      const unnamed = ids.filter((id) => !named.includes(id));
      if (unnamed.length > 0)
        throw parseFailure(
          input.source,
          `${platform}'s footnote names ${unnamed.join(", ")}, which Supported models does not`,
        );
    }
    providers.push({ provider_id: provider, model_ids: [...new Set(ids.map(canonical))] });
  }
  if (!providers.some((p) => p.provider_id === PROVIDER_ID))
    throw parseFailure(input.source, "the Supported platforms row does not name the Claude API");
  return {
    deployments: [],
    lifecycle: [],
    model_facts: [...new Set(named)].map((id) => ({
      provider_id: PROVIDER_ID,
      provider_model_id: id,
      capabilities: { structured_output: declaredCapability("supported") },
      evidence,
    })),
    capability_lists: [
      {
        capability: "structured_output",
        lab: "anthropic",
        model_ids: [...new Set(named.map(canonical))],
        providers,
        evidence,
      },
    ],
    skipped: [],
  };
};

/** The page's YAML front matter (markdown.ts frontMatterText), parsed, or undefined when it has none. */
function frontMatter(content: string): unknown {
  const text = frontMatterText(content);
  return text === undefined ? undefined : parseYaml(text);
}

/** The strings of a front matter list, or null when it is not a list of strings. */
function stringList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : null;
}

/**
 * Anthropic's "Computer use tool" page (platform.claude.com/docs/en/agents-and-tools/tool-use/
 * computer-use-tool.md), as a list of the Claude models with computer use (any tool version):
 * - the front matter's featureMetadata: `supportedModels` (Claude API ids: the models of the
 *   current toolset), `supportedPlatforms` (the platforms with the feature) and the `details`
 *   line "Platforms other than the Claude API and Google Cloud currently offer only the earlier
 *   beta tool versions" (the platforms with the toolset);
 * - the "Earlier tool versions" table's "Use with" cells: the models each earlier version is used
 *   with ("…, and Claude Opus 4.5; on Amazon Bedrock, also Claude Opus 5.5": a clause "on
 *   <platform>, also …" adds models for that platform only). Parenthesized notes ("retired, except
 *   on Bedrock and Google Cloud") are not read.
 * A platform with the toolset has computer use for the toolset's models and the earlier versions'
 * models; another platform the front matter names, for the earlier versions' models only (with
 * its own additions). Platforms the catalog has no deployments on (Claude Platform on AWS,
 * Microsoft Foundry) are not read.
 *
 * - model_facts: `computer_use` supported (official_declared) for the Claude API id of each model
 *   the page names for the Claude API.
 * - capability_lists: per provider the models named for it; the release stage gives a Claude
 *   model the page does not name `unsupported` (official_inferred, docs/provenance.md
 *   "Capability lists"), except a model retired at that provider by the page's date: the page
 *   drops retired models (`drops_retired`: Claude Sonnet 3.7 and Claude 3.5 Sonnet v2, which had
 *   computer use, are named no more).
 * Names map to ids through the Anthropic identity module; a name it cannot map fails the parse.
 * No deployments.
 */
export const parseAnthropicComputerUse: Parser = (input) => {
  const meta = frontMatter(input.content) as { featureMetadata?: Record<string, unknown> } | undefined;
  const feature = meta?.featureMetadata;
  const toolsetIds = stringList(feature?.supportedModels);
  const platforms = feature?.supportedPlatforms;
  const details = stringList(feature?.details);
  if (!toolsetIds || toolsetIds.length === 0 || !platforms || typeof platforms !== "object" || !details)
    throw parseFailure(
      input.source,
      "expected front matter featureMetadata with supportedModels, supportedPlatforms and details",
    );
  const canonical = (id: string) => anthropicIdentity.canonicalModelId(id);
  const idFor = (name: string): string => {
    const id = anthropicModelIdForName(name);
    if (id === null)
      throw parseFailure(input.source, `"${name}" is not a Claude model name the catalog can map`);
    return id;
  };
  const toolset = toolsetIds.map((id) => {
    if (!/^claude-[a-z0-9-]+$/.test(id))
      throw parseFailure(input.source, `supportedModels: "${id}" is not a Claude API model id`);
    return canonical(id);
  });

  let toolsetPlatforms: string[] | undefined;
  for (const line of details) {
    const m = /^Platforms other than (.+?) currently offer only the \[?earlier beta tool versions\b/.exec(
      line,
    );
    if (m) toolsetPlatforms = listedWords(group(m, 1)).map((p) => p.replace(/^the /, ""));
  }
  if (!toolsetPlatforms)
    throw parseFailure(
      input.source,
      "no details line says which platforms offer only the earlier tool versions",
    );

  const table = markdownTables(input.content).find((t) => t.heading === "Earlier tool versions");
  const useWith = table?.headers.map(plainCell).indexOf("Use with") ?? -1;
  if (!table || useWith < 0)
    throw parseFailure(input.source, 'no "Earlier tool versions" table with a "Use with" column');
  const earlier: string[] = [];
  const earlierOn = new Map<string, string[]>();
  for (const row of table.rows) {
    const [common = "", ...clauses] = plainCell(row[useWith] ?? "")
      .replace(/\s*\([^)]*\)/g, "")
      .split(/\s*;\s*/);
    for (const name of listedWords(common)) earlier.push(canonical(idFor(name)));
    for (const clause of clauses) {
      const m = /^on (.+?), also (.+)$/.exec(clause);
      if (!m) throw parseFailure(input.source, `"${clause}" is not "on <platform>, also <models>"`);
      const more = earlierOn.get(group(m, 1)) ?? [];
      for (const name of listedWords(group(m, 2))) more.push(canonical(idFor(name)));
      earlierOn.set(group(m, 1), more);
    }
  }
  if (earlier.length === 0)
    throw parseFailure(input.source, "the Earlier tool versions table names no model");

  const providers: CapabilityList["providers"] = [];
  for (const platform of Object.keys(platforms)) {
    const provider = COMPATIBILITY_PLATFORMS[platform];
    if (provider === undefined) continue;
    const ids = [
      ...(toolsetPlatforms.includes(platform) ? toolset : []),
      ...earlier,
      ...(earlierOn.get(platform) ?? []),
    ];
    providers.push({ provider_id: provider, model_ids: [...new Set(ids)].sort() });
  }
  const onApi = providers.find((p) => p.provider_id === PROVIDER_ID);
  if (!onApi) throw parseFailure(input.source, "supportedPlatforms does not name the Claude API");
  const evidence = evidenceFor(input.source, input.observedAt);
  const labPrefix = `${anthropicIdentity.providerId}/`;
  return {
    deployments: [],
    lifecycle: [],
    model_facts: onApi.model_ids.map((id) => ({
      provider_id: PROVIDER_ID,
      provider_model_id: id.slice(labPrefix.length),
      capabilities: { computer_use: declaredCapability("supported") },
      evidence,
    })),
    capability_lists: [
      {
        capability: "computer_use",
        lab: "anthropic",
        model_ids: [...new Set(providers.flatMap((p) => p.model_ids))].sort(),
        providers,
        drops_retired: true,
        evidence,
      },
    ],
    skipped: [],
  };
};

export const parsers: Record<string, Parser> = {
  "anthropic-model-facts": parseAnthropicModelFacts,
  "anthropic-models-overview-2024": parseAnthropicModelsOverview2024,
  "anthropic-model-page": parseAnthropicModelPage,
  "anthropic-launch-page": parseAnthropicLaunchPage,
  "anthropic-structured-outputs": parseAnthropicStructuredOutputs,
  "anthropic-computer-use": parseAnthropicComputerUse,
};
