/**
 * Azure OpenAI's "Azure OpenAI reasoning models" how-to page (the raw Markdown file
 * how-to/reasoning.md of MicrosoftDocs/azure-ai-docs), its "## API & feature support" section:
 * feature tables (a "GPT-5 Reasoning Models" and an "O-Series Reasoning Models" tab, or one
 * table in older versions) whose header row is `**Feature**` followed by one column per model,
 * `**<model>**, **<version>**` or `**<model>**` alone. Model facts only (provider `azure`); it
 * creates no deployments.
 *
 * - HTML comments (`<!-- ... -->`, on one line or several) are not part of the page as published:
 *   the February 2026 version comments out its Image input rows ("CLASSIC-ONLY: Table row(s)
 *   removed ... uncomment"), so a row inside a comment is never read, and a comment standing on
 *   lines of its own between a table's rows does not end the table.
 * - Only the section's tables whose first header is `**Feature**` are read (the "NEW GPT-5
 *   reasoning features" table, `Feature | Description`, is counted as skipped). A feature table
 *   whose model columns are not of that form, a read row whose cells do not match the columns
 *   one for one (a July 2026 version of the page has rows with fewer cells than model columns:
 *   which model a cell belongs to would be a guess), a section without a feature table or a
 *   feature table without a Context Window row fails the source. The GPT-5 table's delimiter row has one cell fewer than its header (as published):
 *   the header row is what the columns are read from.
 * - A column names the provider model id "<model>-<version>" (azureProviderModelId, as the
 *   region matrices name deployments) when its version is one Azure deploys under (a date
 *   YYYY-MM-DD, a year-like or plain counter, "turbo-YYYY-MM-DD": the versions modelVersions of
 *   azure-model-facts accepts). A column without a version (`gpt-5.2`, `gpt-5.2-codex`) or with
 *   one that is not a version (`gpt-5-codex`'s "2025-09-011") gives a fact for the bare model
 *   name marked `version_unstated`, exactly as azure-model-facts does: the release applies it
 *   to Azure's one versioned id of the model where the region tables list exactly one
 *   (src/release/model-facts.ts), never to a version it guesses. A model listed twice fails.
 * - Rows read: "Structured Outputs" -> structured_output, "Image input" (June 2025: "Vision
 *   Support") -> vision, "Functions/Tools" -> tool_calling, "Parallel Tool Calls" ->
 *   parallel_tool_calling, each `official_declared`. A cell "✅" (with or without a <sup>
 *   footnote mark) is supported, "-" unsupported, an empty cell unknown (no entry); any other
 *   cell fails the source. Footnotes never make a capability conditional: the one on a read row,
 *   "Parallel tool calls are not supported when `reasoning_effort` is set to `minimal`", limits
 *   a request setting the caller chooses, not the model's support (every ✅ model makes parallel
 *   tool calls at its default effort, and the models page says "parallel tool calling" without
 *   a condition for the same models), so it stays supported.
 * - reasoning: supported for every column model, `official_inferred`: the page ("Azure OpenAI
 *   reasoning models", its tabs "GPT-5 Reasoning Models" / "O-Series Reasoning Models") lists
 *   them as reasoning models by its structure, not in a row (as azure-model-facts marks the
 *   capabilities a table's section gives every model it lists). The "Reasoning effort" row is
 *   not read: o1-mini, a reasoning model, has "-" there (it takes no `reasoning_effort`).
 * - "Context Window" -> context_tokens and max_output_tokens: "400,000 <br><br>Input: 272,000
 *   <br> Output: 128,000" gives the window (400,000) and the output limit (128,000), the input
 *   limit being part of the window; "Input: 200,000 <br> Output: 100,000" alone gives
 *   context_tokens 200,000 (the maximum input, the reading azure-model-facts gives a "Max
 *   request: Input: N, Output: M" cell and docs/sources.md documents for context_tokens) and
 *   max_output_tokens 100,000. An empty cell states no limit; any other item fails.
 * - Rows not read (no catalog capability, or not a model property): API Version, Developer
 *   Messages, Reasoning effort, Chat Completions API, Responses API, max_completion_tokens,
 *   System Messages, Reasoning summary, Streaming (counted as skipped); a row of any other
 *   name is counted as skipped under its own reason, so a renamed row shows in the parse report.
 */
import { group } from "../../lib/regex.js";
import type { CapabilityEntry, CapabilityName, CapabilityStatus, ModelFact } from "../../schema/index.js";
import {
  declaredCapability,
  evidenceFor,
  parseFailure,
  requireSome,
  SkipLog,
  tokenCount,
} from "../helpers.js";
import { type MarkdownTable, markdownTables, plainCell, withoutFrontMatter } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";
import { azureProviderModelId } from "./azure.js";
import { AZURE_VERSION } from "./azure-model-facts.js";

const PROVIDER_ID = "azure";

/** The section's heading line, and the next level-2 heading that ends it. */
const SECTION_HEADING = /^##\s+API\s*&\s*feature support\s*$/i;
const LEVEL_TWO_HEADING = /^##\s/;

/** `**gpt-5.1**, **2025-11-13**` or `**gpt-5.2**` (a model column's header as published). */
const MODEL_HEADER = /^\*\*([a-z0-9][a-z0-9.-]*)\*\*(?:\s*,\s*\*\*([^*]*)\*\*)?$/i;

/** Feature rows read as a capability, by their plain label. */
const CAPABILITY_ROWS: ReadonlyArray<[RegExp, CapabilityName]> = [
  [/^structured outputs?$/i, "structured_output"],
  [/^(?:image input|vision support)$/i, "vision"],
  [/^functions\/tools$/i, "tool_calling"],
  [/^parallel tool calls$/i, "parallel_tool_calling"],
];
const CONTEXT_ROW = /^context window$/i;
/** Feature rows with no catalog capability (the label may run into a misplaced cell). */
const UNREAD_ROWS =
  /^(?:api version|developer messages|reasoning effort|chat completions api|responses api|max_completion_tokens|system messages|reasoning summary|streaming)\b/i;

export interface ColumnModel {
  name: string;
  /** null when the column gives no version Azure deploys under. */
  version: string | null;
  /** The version text as published, when it is not a version ("2025-09-011"). */
  unreadVersion?: string;
}

/** A model column's header -> its model and version; null when it is not a model column. */
export function columnModel(header: string): ColumnModel | null {
  const m = MODEL_HEADER.exec(header.trim());
  if (!m) return null;
  const raw = (m[2] ?? "").trim();
  if (raw === "" || AZURE_VERSION.test(raw)) return { name: group(m, 1), version: raw === "" ? null : raw };
  return { name: group(m, 1), version: null, unreadVersion: raw };
}

/** HTML comments: whole lines of them removed with their line ends, any other in place. */
function withoutHtmlComments(text: string): string {
  return text.replace(/^[ \t]*<!--[\s\S]*?-->[ \t]*(?:\r?\n|$)/gm, "").replace(/<!--[\s\S]*?-->/g, "");
}

/** The lines of the "## API & feature support" section (front matter and HTML comments skipped). */
function featureSection(input: ParserInput): string {
  const lines = withoutHtmlComments(withoutFrontMatter(input.content)).split(/\r?\n/);
  const start = lines.findIndex((line) => SECTION_HEADING.test(line.trim()));
  if (start < 0) throw parseFailure(input.source, 'no "## API & feature support" section');
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => LEVEL_TWO_HEADING.test(line));
  return (end < 0 ? rest : rest.slice(0, end)).join("\n");
}

/** A feature cell: ✅ (footnote marks aside) supported, "-" unsupported, empty unknown (null). */
function featureStatus(input: ParserInput, cell: string, where: string): CapabilityStatus | null {
  const text = plainCell(cell);
  if (text === "") return null;
  if (text === "✅") return "supported";
  if (text === "-") return "unsupported";
  throw parseFailure(input.source, `${where}: feature cell "${cell}" is not ✅, - or empty`);
}

interface Limits {
  context_tokens?: number;
  max_output_tokens?: number;
}

/**
 * A Context Window cell -> limits: a bare size is the window, "Input: N" the maximum input
 * (context_tokens where no window is given), "Output: N" max_output_tokens.
 */
function contextLimits(input: ParserInput, cell: string, where: string): Limits {
  let window: number | undefined;
  let maxInput: number | undefined;
  let maxOutput: number | undefined;
  const items = cell
    .split(/<br\s*\/?>/i)
    .map(plainCell)
    .filter((item) => item !== "");
  for (const item of items) {
    const m = /^(?:(input|output):\s*)?([\d,]+)$/i.exec(item);
    const size = m ? tokenCount(group(m, 2)) : null;
    if (!m || size === null)
      throw parseFailure(input.source, `${where}: context window item "${item}" is not a size`);
    const label = (m[1] ?? "").toLowerCase();
    const already = label === "" ? window : label === "input" ? maxInput : maxOutput;
    if (already !== undefined)
      throw parseFailure(
        input.source,
        `${where}: context window "${cell}" gives two ${label || "window"} sizes`,
      );
    if (label === "") window = size;
    else if (label === "input") maxInput = size;
    else maxOutput = size;
  }
  const context = window ?? maxInput;
  return {
    ...(context !== undefined ? { context_tokens: context } : {}),
    ...(maxOutput !== undefined ? { max_output_tokens: maxOutput } : {}),
  };
}

/** The facts of one feature table, added to `facts` by provider model id. */
function tableFacts(
  input: ParserInput,
  table: MarkdownTable,
  facts: Map<string, ModelFact>,
  skipped: SkipLog,
  evidence: ModelFact["evidence"],
): void {
  const columns = table.headers.slice(1).map((header) => {
    const model = columnModel(header);
    if (!model)
      throw parseFailure(
        input.source,
        `feature table column "${header}" is not "**<model>**, **<version>**" or "**<model>**"`,
      );
    return model;
  });
  if (columns.length === 0) throw parseFailure(input.source, "feature table without model columns");
  const ids = columns.map((c) => azureProviderModelId(c.name, c.version));
  for (const c of columns)
    if (c.unreadVersion !== undefined)
      skipped.add(
        "column version is not an Azure version (fact for the bare name)",
        `${c.name}, ${c.unreadVersion}`,
      );

  const inferred: CapabilityEntry = { status: "supported", verification_status: "official_inferred" };
  const capabilities: Array<Partial<Record<CapabilityName, CapabilityEntry>>> = ids.map(() => ({
    reasoning: inferred,
  }));
  const limits: Limits[] = ids.map(() => ({}));
  const seen = new Set<string>();
  for (const row of table.rows) {
    const label = plainCell(row[0] ?? "");
    const capability = CAPABILITY_ROWS.find(([re]) => re.test(label))?.[1];
    const isContext = CONTEXT_ROW.test(label);
    if (capability === undefined && !isContext) {
      if (UNREAD_ROWS.test(label)) skipped.add("feature row without a catalog capability", label);
      else skipped.add("feature row not recognised", label);
      continue;
    }
    if (seen.has(label.toLowerCase()))
      throw parseFailure(input.source, `feature row "${label}" is listed twice`);
    seen.add(label.toLowerCase());
    if (row.length !== table.headers.length)
      throw parseFailure(
        input.source,
        `feature row "${label}" has ${row.length - 1} cells for ${columns.length} model columns (${ids.join(", ")})`,
      );
    ids.forEach((id, i) => {
      const cell = row[i + 1] ?? "";
      const where = `${id} ${label}`;
      if (isContext) {
        limits[i] = contextLimits(input, cell, where);
        return;
      }
      const status = featureStatus(input, cell, where);
      const caps = capabilities[i];
      if (status !== null && capability !== undefined && caps) caps[capability] = declaredCapability(status);
    });
  }
  if (!seen.has("context window"))
    throw parseFailure(input.source, `feature table (${ids.join(", ")}) has no Context Window row`);

  ids.forEach((id, i) => {
    if (facts.has(id)) throw parseFailure(input.source, `model ${id} is listed twice`);
    const limit = limits[i] ?? {};
    facts.set(id, {
      provider_id: PROVIDER_ID,
      provider_model_id: id,
      ...(limit.context_tokens !== undefined ? { context_tokens: limit.context_tokens } : {}),
      ...(limit.max_output_tokens !== undefined ? { max_output_tokens: limit.max_output_tokens } : {}),
      capabilities: capabilities[i] ?? { reasoning: inferred },
      ...(columns[i]?.version === null ? { version_unstated: true as const } : {}),
      evidence,
    });
  });
}

export const parseAzureReasoningFeatures: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const facts = new Map<string, ModelFact>();
  const tables = markdownTables(featureSection(input));
  const featureTables = tables.filter((t) => /^\*\*feature\*\*$/i.test(t.headers[0] ?? ""));
  requireSome(input.source, featureTables, 'feature table ("**Feature**" | model columns)');
  for (const table of tables)
    if (!featureTables.includes(table))
      skipped.add("table other than a feature table", table.headers.join(" | "));
  for (const table of featureTables) tableFacts(input, table, facts, skipped, evidence);
  return { deployments: [], lifecycle: [], model_facts: [...facts.values()], skipped: skipped.toArray() };
};

export const parsers: Record<string, Parser> = { "azure-reasoning-features": parseAzureReasoningFeatures };
