/**
 * A GroqCloud per-model page in its Markdown form (console.groq.com/docs/model/<model id>.md):
 * under the "# <name>" title an optional status mark ("Preview", "Deprecated",
 * "PreviewEnterprise"), the model id in backticks ("`openai/gpt-oss-120b`"), then label lines
 * each followed by its value: INPUT ("Text", "Text, images"), OUTPUT, CAPABILITIES (a line of
 * links: "[Tool Use](…/docs/tool-use), [Browser Search](…), [JSON Schema Mode](…), …"), and the
 * "### LIMITS" section (CONTEXT WINDOW "131,072", MAX OUTPUT TOKENS "65,536"). Model facts only,
 * provider `groq`, for the page's model id; it creates no deployments (the models page lists them).
 *
 * - The backticked id must be the id the page's URL names (/docs/model/<id>.md): a page that
 *   describes another model than its URL says is a parse failure, as is a page without the id.
 * - The older page format ("Loading model information..." where the figures were rendered by a
 *   script, e.g. gemma2-9b-it, qwen-2.5-32b) states nothing to read and fails the parse; so does a
 *   page that states neither limits nor capabilities.
 * - context_tokens / max_output_tokens: the LIMITS values, printed as whole numbers of tokens with
 *   thousands commas. A label the page leaves out stays absent (speech models have only MAX FILE
 *   SIZE); a dash is null (stated as not applicable); anything else ("128K", which could be 128,000
 *   or 131,072) is left out and listed in `skipped`, never guessed.
 * - INPUT / OUTPUT name every modality the model takes or gives (the Maverick page's "Text,
 *   images", Whisper's "Audio" without Text), so they are read as complete, like OpenAI's and
 *   Bedrock's modality lines: images / audio / video in INPUT -> vision / audio_input /
 *   video_input supported, left out -> unsupported; audio (speech) / images in OUTPUT ->
 *   audio_output / image_output. A modality word the parser does not know fails the parse.
 * - CAPABILITIES is a list of links to Groq's feature guides, not a table of every feature, so
 *   a name it leaves out stays unknown (never "unsupported"). Read: Tool Use -> tool_calling,
 *   JSON Schema Mode -> structured_output (Groq's structured outputs: output constrained to a JSON
 *   schema), Reasoning -> reasoning, Vision -> vision, Browser Search and Web Search ->
 *   web_search (a web search Groq runs server-side for the model), Code Execution ->
 *   code_execution (Python run server-side in Groq's sandbox). Other names are listed in
 *   `skipped`: JSON Object Mode (JSON without a schema is not structured_output), Content
 *   Moderation, Visit Website, Browser Automation, Wolfram Alpha, Speech to Text, ….
 * - The status mark and the PRICING section are not read (the models and deprecations pages
 *   carry status, dates and prices). All values `official_declared`, with the capture's evidence.
 */
import { group } from "../../lib/regex.js";
import type { CapabilityEntry, CapabilityName, ModelFact, SourceDefinition } from "../../schema/index.js";
import { declaredCapability, evidenceFor, parseFailure, SkipLog } from "../helpers.js";
import type { Parser } from "../types.js";

const PROVIDER_ID = "groq";
const MODEL_ID = /^[a-z0-9][a-z0-9./-]*$/;
/** The model id a page's URL names: /docs/model/openai/gpt-oss-120b.md -> openai/gpt-oss-120b. */
const PAGE_PATH = /^\/docs\/model\/([a-z0-9][a-z0-9./-]*?)(?:\.md)?$/;

/** CAPABILITIES link text (lower case) -> capability. */
const LISTED: Readonly<Record<string, CapabilityName>> = {
  "tool use": "tool_calling",
  "json schema mode": "structured_output",
  reasoning: "reasoning",
  vision: "vision",
  "browser search": "web_search",
  "web search": "web_search",
  "code execution": "code_execution",
};

/** Modality words of the INPUT / OUTPUT lines -> capability (null: text, no capability). */
const INPUT_MODALITIES: Readonly<Record<string, CapabilityName | null>> = {
  text: null,
  image: "vision",
  images: "vision",
  audio: "audio_input",
  video: "video_input",
  videos: "video_input",
};
const OUTPUT_MODALITIES: Readonly<Record<string, CapabilityName | null>> = {
  text: null,
  audio: "audio_output",
  speech: "audio_output",
  image: "image_output",
  images: "image_output",
};

const LIMIT_LABELS = {
  "CONTEXT WINDOW": "context_tokens",
  "MAX OUTPUT TOKENS": "max_output_tokens",
} as const;

type Source = Pick<SourceDefinition, "name" | "url">;

/** The model id the source's URL names; a URL that is not a per-model page fails. */
function urlModelId(source: Source): string {
  const m = PAGE_PATH.exec(new URL(source.url).pathname);
  if (!m) throw parseFailure(source, `${source.url} is not a per-model page (/docs/model/<model id>.md)`);
  return group(m, 1);
}

/** The value after a label line: the next non-empty line of `lines`, or null. */
function valueAfter(lines: readonly string[], label: string): string | null {
  const at = lines.indexOf(label);
  if (at < 0) return null;
  return lines.slice(at + 1).find((l) => l !== "") ?? null;
}

/** The lines from the one after `start` up to (not including) the first that `end` matches. */
function linesUntil(lines: readonly string[], start: number, end: (line: string) => boolean): string[] {
  const rest = lines.slice(start + 1);
  const stop = rest.findIndex(end);
  return stop < 0 ? rest : rest.slice(0, stop);
}

/** Each capability of a modality line: supported when the line names it, else unsupported. */
function modalities(
  source: Source,
  id: string,
  label: string,
  value: string,
  known: Readonly<Record<string, CapabilityName | null>>,
): Map<CapabilityName, boolean> {
  const named = new Set<CapabilityName | null>();
  for (const word of value.split(/,|\band\b/)) {
    const key = word.trim().toLowerCase();
    if (key === "") continue;
    const name = known[key];
    if (name === undefined)
      throw parseFailure(
        source,
        `${id}: ${label} "${value}" names "${key}", not a modality the parser knows`,
      );
    named.add(name);
  }
  const out = new Map<CapabilityName, boolean>();
  for (const name of Object.values(known)) if (name !== null) out.set(name, named.has(name));
  return out;
}

/** A LIMITS value: "131,072" -> 131072, a dash -> null, anything else -> undefined (not read). */
function limitValue(value: string | null): number | null | undefined {
  if (value === null) return undefined;
  const text = value.replace(/^\\(?=[-—])/, "").trim();
  if (text === "-" || text === "—") return null;
  if (!/^(?:\d{1,3}(?:,\d{3})+|\d+)$/.test(text)) return undefined;
  const n = Number(text.replace(/,/g, ""));
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export const parseGroqModelPage: Parser = (input) => {
  const { source } = input;
  const lines = input.content.split("\n").map((l) => l.trim());
  if (lines.includes("Loading model information..."))
    throw parseFailure(
      source,
      'the older page format ("Loading model information..."): it states no limits or capabilities to read',
    );
  const title = lines.findIndex((l) => /^# \S/.test(l));
  if (title < 0) throw parseFailure(source, 'no "# <model>" title');
  // the header: from the title to the first "---" rule or "### " section (PRICING, LIMITS)
  const header = linesUntil(lines, title, (l) => l === "---" || l.startsWith("### "));
  const idLine = header.findIndex((l) => /^`[^`]+`$/.test(l));
  const id = idLine < 0 ? "" : (header[idLine]?.slice(1, -1) ?? "");
  if (!MODEL_ID.test(id)) throw parseFailure(source, 'no "`<model id>`" line under the title');
  const expected = urlModelId(source);
  if (id !== expected)
    throw parseFailure(source, `the page describes \`${id}\`, not ${expected}, the model its URL names`);
  const labels = header.slice(idLine + 1);

  const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  const skipped = new SkipLog();
  for (const [label, known] of [
    ["INPUT", INPUT_MODALITIES],
    ["OUTPUT", OUTPUT_MODALITIES],
  ] as const) {
    const value = valueAfter(labels, label);
    if (value === null) continue;
    for (const [name, listed] of modalities(source, id, label, value, known))
      capabilities[name] = declaredCapability(listed ? "supported" : "unsupported");
  }
  const listedLine = valueAfter(labels, "CAPABILITIES");
  if (listedLine !== null) {
    const names = [...listedLine.matchAll(/\[([^\]]+)\]\([^)]*\)/g)].map((m) => group(m, 1).trim());
    if (names.length === 0)
      throw parseFailure(source, `${id}: CAPABILITIES "${listedLine}" is not a list of links`);
    for (const text of names) {
      const name = LISTED[text.toLowerCase()];
      if (name === undefined)
        skipped.add("a listed capability without a catalog capability name (not read)", text);
      else if (name === "vision" && capabilities.vision?.status === "unsupported")
        throw parseFailure(source, `${id}: CAPABILITIES lists Vision, but INPUT names no images`);
      else capabilities[name] = declaredCapability("supported");
    }
  }

  const limits: Pick<ModelFact, "context_tokens" | "max_output_tokens"> = {};
  const limitsAt = lines.indexOf("### LIMITS");
  if (limitsAt >= 0) {
    const section = linesUntil(lines, limitsAt, (l) => /^#{1,3} /.test(l));
    for (const [label, field] of Object.entries(LIMIT_LABELS)) {
      const printed = valueAfter(section, label);
      const value = limitValue(printed);
      if (value !== undefined) limits[field] = value;
      else if (printed !== null)
        skipped.add("a limit not printed as a whole number of tokens (left unknown)", `${label}: ${printed}`);
    }
  }
  if (Object.keys(limits).length === 0 && Object.keys(capabilities).length === 0)
    throw parseFailure(source, `${id}: the page states neither limits nor capabilities`);

  const fact: ModelFact = {
    provider_id: PROVIDER_ID,
    provider_model_id: id,
    ...limits,
    capabilities,
    evidence: evidenceFor(source, input.observedAt),
  };
  return { deployments: [], lifecycle: [], model_facts: [fact], skipped: skipped.toArray() };
};

export const parsers: Record<string, Parser> = {
  "groq-model-page": parseGroqModelPage,
};
