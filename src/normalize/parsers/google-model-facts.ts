/**
 * The Gemini API models page (ai.google.dev/gemini-api/docs/models, Markdown form) and its
 * per-model pages (…/models/<model>, Markdown or rendered with <br> line breaks and linked
 * labels): one "Property | Description" table per model with its model code, supported data
 * types, token limits, capabilities (newer pages move Batch API, Flex and Priority inference to
 * a "Consumption options" row, read like capabilities) and versions. Model facts only (limits
 * and capabilities of provider `google`'s model ids); it creates no deployments.
 *
 * - context_tokens = the input token limit, max_output_tokens = the output token limit.
 * - Capabilities the page states as Supported / Not supported / Experimental:
 *   Batch API -> batch, Caching -> prompt_caching, Code execution -> code_execution,
 *   Function calling -> tool_calling, Search grounding -> web_search, Structured outputs ->
 *   structured_output, Thinking -> reasoning, Image generation -> image_output, Audio
 *   generation -> audio_output, Computer use -> computer_use (Experimental and "Supported
 *   (Preview)" -> conditional). File search, Grounding with Google Maps, Live API, URL context,
 *   Flex and Priority inference have no catalog capability and are not read.
 * - Input data types: image / video / audio / PDF listed -> vision / video_input /
 *   audio_input / pdf_input supported. A type the list leaves out is not read as unsupported:
 *   the page does not say the list is exhaustive (silence stays unknown).
 * - Embedding models (the Embeddings page's Model versions tables: output "Text embeddings"):
 *   their token limits give an input token limit and an output dimension size, not an output
 *   token limit, so max_output_tokens is not stated (a limit that does not apply); they have no
 *   Capabilities row. Any other table without an output token limit or capabilities fails.
 * - The facts apply to the model code and to every model id the Versions row names
 *   ("Stable: `gemini-2.0-flash-001`", "Deprecated: `gemini-2.5-flash-image-preview`"). A
 *   version's label is the status the page declares for it: Stable -> available, Preview and
 *   Experimental -> preview, Deprecated -> deprecated; "Latest" (an alias) declares none.
 * - The page's text rendering (stored copies of the HTML page as plain text: a "Property
 *   Description" line, then "Model code <id>" and each property's label / value lines, the
 *   Versions as bullets) is read like the table: same properties, same rules.
 * - "Supported (low, medium, high)" (thinking levels) reads as supported.
 */
import { group } from "../../lib/regex.js";
import type { CapabilityEntry, CapabilityName, LifecycleStatus, ModelFact } from "../../schema/index.js";
import { declaredCapability, evidenceFor, parseFailure, requireSome, tokenCount } from "../helpers.js";
import { collapseSpace, linkText, markdownTables } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "google";

/** A Versions row's model id, with its label ("Preview: `gemini-2.5-flash-preview-09-2025`"). */
const VERSION = /(?:([A-Za-z]+):\s*)?`([a-z0-9][a-z0-9.-]*)`/g;

/** The status a version's label declares; "Latest" (an alias of the newest) declares none. */
const VERSION_LABELS: Readonly<Record<string, LifecycleStatus>> = {
  stable: "available",
  preview: "preview",
  experimental: "preview",
  deprecated: "deprecated",
};

const CAPABILITY_LABELS: Readonly<Record<string, CapabilityName>> = {
  "batch api": "batch",
  caching: "prompt_caching",
  "code execution": "code_execution",
  "function calling": "tool_calling",
  "search grounding": "web_search",
  "structured outputs": "structured_output",
  thinking: "reasoning",
  "image generation": "image_output",
  "audio generation": "audio_output",
  "computer use": "computer_use",
};

/** Labels the page states that no catalog capability stands for. */
const IGNORED_LABELS = new Set([
  "file search",
  "grounding with google maps",
  "live api",
  "url context",
  "flex inference",
  "priority inference",
]);

const INPUT_TYPES: ReadonlyArray<[RegExp, CapabilityName]> = [
  [/\bimages?\b/i, "vision"],
  [/\bvideos?\b/i, "video_input"],
  [/\baudio\b/i, "audio_input"],
  [/\bpdf\b/i, "pdf_input"],
];

/** "**Input token limit** 1,048,576 **Output token limit** 65,536" -> label/value pairs. */
export function labelledValues(cell: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const m of cell.matchAll(/\*\*([^*]+)\*\*([^*]*)/g))
    pairs.push([collapseSpace(group(m, 1)), collapseSpace(group(m, 2))]);
  return pairs;
}

function status(input: ParserInput, label: string, value: string): CapabilityEntry {
  if (/^supported$/i.test(value)) return declaredCapability("supported");
  if (/^not supported$/i.test(value)) return declaredCapability("unsupported");
  if (/^(experimental|supported \(preview\))$/i.test(value)) return declaredCapability("conditional");
  // Thinking: "Supported (low, medium, high)", the levels the model accepts.
  if (/^supported \((?:minimal|low|medium|high)(?:, (?:minimal|low|medium|high))*\)$/i.test(value))
    return declaredCapability("supported");
  throw parseFailure(input.source, `capability "${label}" has the unknown value "${value}"`);
}

/** The property a row describes: its label without the icon name the page glues to it and the footnote link after it. */
function property(label: string): string | null {
  const text = collapseSpace(label.replace(/\^?\[.*$/, "").replace(/\*\*/g, ""));
  const m = /(Model code|Supported data types|Token limits|Capabilities|Consumption options|Versions)$/i.exec(
    text,
  );
  return m ? group(m, 1).toLowerCase() : null;
}

/** A description cell with its line breaks as spaces and its links as their text (the per-model pages' rendering). */
function descriptionText(cell: string): string {
  return collapseSpace(linkText(cell.replace(/<br\s*\/?>/gi, " ")));
}

/** One model details table: the heading above it and its description text by property. */
interface DetailsTable {
  heading: string;
  rows: Map<string, string>;
}

function markdownDetails(content: string): DetailsTable[] {
  return markdownTables(content)
    .filter((t) => t.headers[0] === "Property" && t.headers[1] === "Description")
    .map((table) => {
      const rows = new Map<string, string>();
      for (const row of table.rows) {
        const key = property(row[0] ?? "");
        if (key) rows.set(key, descriptionText(row[1] ?? ""));
      }
      return { heading: table.heading, rows };
    });
}

const LABELLED_PROPERTIES = new Set([
  "supported data types",
  "token limits",
  "capabilities",
  "consumption options",
]);

/**
 * The text rendering: after a "Property Description" line, "Model code <id>", then each property
 * on a line of its own followed by its label and value lines (a "Note: …" line under a value is
 * the page's remark, not a label), the Versions as "• Stable: <id>" bullets; "Latest update",
 * "Knowledge cutoff" or "Model card" ends the table. Rebuilt in the table's own form
 * ("**label** value", "`id`") so both renderings go through one reading.
 */
function textDetails(input: ParserInput): DetailsTable[] {
  const lines = input.content.split(/\r?\n/).map((l) => collapseSpace(l));
  const tables: DetailsTable[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "Property Description") continue;
    const heading =
      lines
        .slice(0, i)
        .filter((l) => l !== "")
        .at(-1) ?? "";
    const rows = new Map<string, string>();
    const values = new Map<string, string[]>();
    let current: string | null = null;
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j] ?? "";
      if (line === "" || line.startsWith("Note:")) continue;
      if (/^(Latest update|Knowledge cutoff|Model card)\b/.test(line) || line === "Property Description")
        break;
      const code = /^Model code (\S+)$/.exec(line);
      const key = property(line);
      if (code) {
        rows.set("model code", `\`${group(code, 1)}\``);
        current = null;
      } else if (key && (LABELLED_PROPERTIES.has(key) || key === "versions") && !values.has(key)) {
        current = key;
        values.set(key, []);
      } else if (current === "versions") {
        const id = /^•\s*(?:([A-Za-z]+):\s*)?([a-z0-9][a-z0-9.-]*)/.exec(line);
        if (id) values.get(current)?.push(`${id[1] ? `${id[1]}: ` : ""}\`${group(id, 2)}\``);
      } else if (current) values.get(current)?.push(line);
      else
        throw parseFailure(
          input.source,
          `line "${line}" of the model details under "${heading}" belongs to no property`,
        );
    }
    for (const [key, list] of values) {
      if (key === "versions") {
        rows.set(key, list.join(" "));
        continue;
      }
      if (list.length % 2 !== 0)
        throw parseFailure(
          input.source,
          `${heading}: "${key}" is not label / value pairs: ${list.join(" | ")}`,
        );
      const pairs: string[] = [];
      for (let k = 0; k < list.length; k += 2) pairs.push(`**${list[k]}** ${list[k + 1]}`);
      rows.set(key, pairs.join(" "));
    }
    tables.push({ heading, rows });
  }
  return tables;
}

export const parseGoogleModelFacts: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const markdown = markdownDetails(input.content);
  const tables = markdown.length > 0 ? markdown : textDetails(input);
  requireSome(input.source, tables, "model details table (Property | Description)");
  const facts = new Map<string, ModelFact>();
  for (const { heading, rows } of tables) {
    const code = /`([a-z0-9][a-z0-9.-]*)`/.exec(rows.get("model code") ?? "")?.[1];
    if (!code) throw parseFailure(input.source, `model details table under "${heading}" has no model code`);
    const limits = new Map(
      labelledValues(rows.get("token limits") ?? "").map(([k, v]) => [k.toLowerCase(), v]),
    );
    const dataTypes = labelledValues(rows.get("supported data types") ?? "");
    const outputs = dataTypes.find(([k]) => /^outputs?$/i.test(k))?.[1] ?? "";
    const embedding = /\bembeddings?$/i.test(outputs) && limits.has("output dimension size");
    const contextTokens = tokenCount(limits.get("input token limit") ?? "");
    const maxOutput = tokenCount(limits.get("output token limit") ?? "");
    if (contextTokens === null || (maxOutput === null && !embedding))
      throw parseFailure(
        input.source,
        `${code}: token limits "${rows.get("token limits")}" are not two token counts`,
      );

    const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
    // Newer pages move Batch API, Flex and Priority inference to a "Consumption options" row.
    const stated = labelledValues(
      `${rows.get("capabilities") ?? ""} ${rows.get("consumption options") ?? ""}`,
    );
    if (stated.length === 0 && !embedding)
      throw parseFailure(input.source, `${code}: no capabilities listed`);
    for (const [label, value] of stated) {
      const key = label.toLowerCase();
      const name = CAPABILITY_LABELS[key];
      if (name) capabilities[name] = status(input, label, value);
      else if (!IGNORED_LABELS.has(key))
        throw parseFailure(input.source, `${code}: unknown capability "${label}"`);
    }
    const inputs = dataTypes.find(([k]) => /^inputs?$/i.test(k))?.[1];
    if (!inputs) throw parseFailure(input.source, `${code}: no supported input data types`);
    for (const [re, name] of INPUT_TYPES)
      if (re.test(inputs)) capabilities[name] = declaredCapability("supported");

    // each version id with the status its label declares
    const labels = new Map<string, LifecycleStatus>();
    const versions = [...(rows.get("versions") ?? "").matchAll(VERSION)].map((m) => {
      const declared = VERSION_LABELS[(m[1] ?? "").toLowerCase()];
      if (declared !== undefined) labels.set(group(m, 2), declared);
      return group(m, 2);
    });
    const ids = [code, ...versions];
    for (const id of new Set(ids)) {
      if (facts.has(id)) throw parseFailure(input.source, `model ${id} has two model details tables`);
      facts.set(id, {
        provider_id: PROVIDER_ID,
        provider_model_id: id,
        context_tokens: contextTokens,
        ...(maxOutput !== null ? { max_output_tokens: maxOutput } : {}),
        ...(Object.keys(capabilities).length > 0 ? { capabilities: { ...capabilities } } : {}),
        ...(labels.has(id) ? { status: labels.get(id) } : {}),
        evidence,
      });
    }
  }
  return { deployments: [], lifecycle: [], model_facts: [...facts.values()], skipped: [] };
};

export const parsers: Record<string, Parser> = { "google-model-facts": parseGoogleModelFacts };
