/**
 * A Vertex AI (Gemini Enterprise Agent Platform) Gemini model page in its Markdown form
 * (docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/<model>.md.txt): per
 * model a block of rows "| Model ID | `gemini-2.5-pro` ||", "| Modalities | ... ||",
 * "| Token limits | Context window | 1,048,576 |", "| Capabilities | - Supported - ... - Not
 * supported - ... ||" and "| Consumption options | ... ||". A page can hold several blocks (a
 * GA model and its preview). Model facts only (provider `google-vertex`); it creates no
 * deployments.
 *
 * - context_tokens = "Context window", or "Maximum input tokens" where the page gives only that;
 *   max_output_tokens = "Maximum output tokens" ("65,535 (default)" -> 65,535; "N/A" = not read).
 * - Modalities: Image input -> vision, Audio input -> audio_input, Video input -> video_input,
 *   Image output -> image_output, Audio output -> audio_output; "Not supported" or a missing
 *   direction -> unsupported.
 * - Capabilities list: Function calling -> tool_calling, Structured output -> structured_output,
 *   Thinking -> reasoning, Implicit / Explicit context caching -> prompt_caching (supported when
 *   either is), Grounding with Google Search -> web_search, Code execution -> code_execution,
 *   Computer Use -> computer_use. Under "Supported" with "Preview feature" -> conditional;
 *   under "Not supported" -> unsupported; a name the lists leave out stays unknown.
 * - Consumption options: "Batch inference Supported / Not supported" -> batch.
 * - Facts apply to the block's Model ID only (the 3.1 Pro page's extra custom-tools endpoint is
 *   another model id and is not read).
 *
 * A caution note that dates a model id's end ("> **Caution:** `gemini-2.5-flash-preview-09-2025`
 * will be discontinued on July 9, 2026. Update your application to use `gemini-2.5-flash` or
 * other supported model."; "... will be deprecated and removed on March 19, 2026. Migrate any
 * workflows to `...`") is a lifecycle assertion about that id on Vertex AI: its end of life on
 * that day and the replacement it names (cautionLifecycle). In both forms of the page.
 *
 * The same page rendered in Markdown from its HTML (the layout of mid-2026: one value
 * per line, "Model ID" then "`gemini-3.6-flash`", the capabilities as "- [Name](url)" items each
 * followed by "Supported" / "Not supported", a separate "Tools" list) is read too, where no copy
 * of the .md.txt form was found: see parseRenderedBlocks. So is the rendering of the older layout
 * ("Supported inputs & outputs", limits as "- Maximum input tokens: N" bullets, items listed under
 * "Supported" / "Not supported" headings).
 */
import { group } from "../../lib/regex.js";
import type {
  CapabilityEntry,
  CapabilityName,
  CapabilityStatus,
  LifecycleAssertion,
  ModelFact,
} from "../../schema/index.js";
import {
  declaredCapability,
  evidenceFor,
  MODALITY_CAPABILITIES,
  modalityPairs,
  modalityUse,
  parseFailure,
  parseMilestone,
  setModality,
  tokenCount,
} from "../helpers.js";
import { VERTEX } from "../identity/index.js";
import { renderedLines, splitTableRow } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "google-vertex";

const LISTED: Readonly<Record<string, CapabilityName>> = {
  "function calling": "tool_calling",
  "structured output": "structured_output",
  thinking: "reasoning",
  "implicit context caching": "prompt_caching",
  "explicit context caching": "prompt_caching",
  "grounding with google search": "web_search",
  "code execution": "code_execution",
  "computer use": "computer_use",
};

const RANK: Readonly<Record<CapabilityStatus, number>> = { supported: 2, conditional: 1, unsupported: 0 };

/**
 * A model block's capabilities and how they are stated: a statement replaces an earlier one only
 * when it ranks higher (supported over conditional over unsupported: implicit or explicit
 * caching is enough for prompt_caching).
 */
function rankedCapabilities(): {
  capabilities: Partial<Record<CapabilityName, CapabilityEntry>>;
  set: (name: CapabilityName, status: CapabilityStatus) => void;
} {
  const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  const set = (name: CapabilityName, status: CapabilityStatus) => {
    const current = capabilities[name];
    if (!current || RANK[status] > RANK[current.status]) capabilities[name] = declaredCapability(status);
  };
  return { capabilities, set };
}

/** The blocks of rows, each starting at a "| Model ID |" row, as split cells. */
function modelBlocks(content: string): string[][][] {
  const blocks: string[][][] = [];
  for (const line of content.split(/\r?\n/)) {
    if (!line.startsWith("|")) continue;
    const cells = splitTableRow(line);
    if (cells[0] === "Model ID") blocks.push([cells]);
    else blocks.at(-1)?.push(cells);
  }
  return blocks;
}

/** "- Supported - [A](u) - [B](u) Preview feature - Not supported - [C](u)" -> name -> status. */
function listedCapabilities(cell: string): Map<string, CapabilityStatus> {
  const out = new Map<string, CapabilityStatus>();
  const cut = cell.indexOf("- Not supported");
  const parts: Array<[string, boolean]> = [
    [cut < 0 ? cell : cell.slice(0, cut), true],
    [cut < 0 ? "" : cell.slice(cut), false],
  ];
  for (const [part, supported] of parts)
    for (const m of part.matchAll(/\[([^\]]+)\]\([^)]*\)(\s*Preview feature)?/g)) {
      const status: CapabilityStatus = !supported ? "unsupported" : m[2] ? "conditional" : "supported";
      out.set(group(m, 1).trim().toLowerCase(), status);
    }
  return out;
}

/**
 * A rendered item's name -> capability ("Grounding" is web search where it names Google Search,
 * or unsupported where the item says only "Not supported").
 */
const RENDERED_LISTED: Readonly<Record<string, CapabilityName>> = {
  ...LISTED,
  "context caching": "prompt_caching",
  "batch inference": "batch",
};

/**
 * The rendered page's model blocks, each from a "Model ID" line followed by "`<model>`": per block
 * the model id, its context window ("Context window", or "Maximum input tokens"), maximum output
 * ("N/A" = not read), the Modalities pairs ("Image" / "Input only", ...) and the "- [Name](url)"
 * items of Capabilities, Tools and Consumption options with the status line that ends each item
 * ("Supported" / "Not supported"; a "Preview feature" item that is Supported is conditional).
 */
function parseRenderedBlocks(input: ParserInput): ModelFact[] | null {
  const lines = renderedLines(input.content);
  const starts: number[] = [];
  lines.forEach((l, i) => {
    if (l === "Model ID" && /^`[^`]+`$/.test(lines[i + 1] ?? "")) starts.push(i);
  });
  if (starts.length === 0) return null;
  const evidence = evidenceFor(input.source, input.observedAt);
  return starts.map((start, k) => {
    const block = lines.slice(start, starts[k + 1]);
    const id = /^`([a-z0-9][a-z0-9.@-]*)`$/.exec(block[1] ?? "")?.[1];
    if (!id) throw parseFailure(input.source, `"${block[1] ?? ""}" is not a model id`);
    const after = (label: string): string | undefined => {
      const i = block.indexOf(label);
      return i < 0 ? undefined : block[i + 1];
    };
    // the older layout: "- Maximum input tokens: 65,536" / "- Maximum output tokens: 32,768"
    const bullet = (label: string): string | undefined =>
      block.map((l) => new RegExp(`^- ${label}: (.+)$`).exec(l)?.[1]).find((v) => v !== undefined);
    const contextText =
      after("Context window") ?? after("Maximum input tokens") ?? bullet("Maximum input tokens");
    const outputText = after("Maximum output tokens") ?? bullet("Maximum output tokens");
    const contextTokens =
      contextText === undefined ? null : tokenCount(contextText.replace(/\s*\(default\)$/, ""));
    const outputTokens =
      outputText === "N/A"
        ? undefined
        : outputText === undefined
          ? null
          : tokenCount(outputText.replace(/\s*\(default\)$/, ""));
    if (contextTokens === null || outputTokens === null)
      throw parseFailure(
        input.source,
        `${id}: no context window / maximum input and maximum output token counts`,
      );

    const { capabilities, set } = rankedCapabilities();
    const from = block.indexOf("Modalities");
    const to = block.indexOf("Token limits");
    const io = block.indexOf("Supported inputs & outputs");
    if (from >= 0 && to > from) {
      const modalities = block.slice(from + 1, to);
      modalities.forEach((kind, i) => {
        const use = modalityUse(modalities[i + 1] ?? "");
        if (use) setModality(set, kind, use);
      });
    } else if (io >= 0 && block[io + 1] === "- Inputs:" && block[io + 3] === "- Outputs:") {
      // the older layout: "- Inputs:" / "Text , Image", "- Outputs:" / "Text and image"
      const named = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
      const inputs = named(block[io + 2] ?? "");
      const outputs = named(block[io + 4] ?? "");
      for (const [kind, [asInput, asOutput]] of Object.entries(MODALITY_CAPABILITIES)) {
        const plural = `${kind}s`;
        if (asInput) set(asInput, inputs.has(kind) || inputs.has(plural) ? "supported" : "unsupported");
        if (asOutput) set(asOutput, outputs.has(kind) || outputs.has(plural) ? "supported" : "unsupported");
      }
    } else throw parseFailure(input.source, `${id}: no Modalities list`);

    // the older layout lists items under "Supported" / "Not supported" headings instead
    const headed = ["Supported", "Not supported"].includes(block[block.indexOf("Capabilities") + 1] ?? "");
    let heading: string | undefined;
    block.forEach((line, i) => {
      if (headed && (line === "Supported" || line === "Not supported")) heading = line;
      const item = /^- \[([^\]]+)\]\([^)]*\)(\s+preview Preview feature)?$/.exec(line);
      if (!item) return;
      const rest: string[] = [];
      for (const next of block.slice(i + 1)) {
        if (
          next.startsWith("- ") ||
          !/^[A-Z]/.test(next) ||
          /^(Tools|Consumption options|Technical specifications)$/.test(next)
        )
          break;
        rest.push(next);
      }
      const statusText = headed ? heading : rest.at(-1);
      if (statusText !== "Supported" && statusText !== "Not supported") return;
      const label = group(item, 1).trim().toLowerCase();
      const name =
        label === "grounding"
          ? // web search where the item names Google Search, or where grounding as a whole is not supported
            rest.slice(0, -1).some((d) => /\bGoogle Search\b/.test(d)) ||
            (rest.length === 1 && statusText === "Not supported")
            ? "web_search"
            : undefined
          : RENDERED_LISTED[label];
      if (!name) return;
      set(name, statusText === "Not supported" ? "unsupported" : item[2] ? "conditional" : "supported");
    });
    return blockFact(id, contextTokens, outputTokens, capabilities, evidence);
  });
}

/** A block's model fact, in both forms of the page: a maximum output of "N/A" is not read. */
function blockFact(
  id: string,
  contextTokens: number,
  outputTokens: number | undefined,
  capabilities: ModelFact["capabilities"],
  evidence: ModelFact["evidence"],
): ModelFact {
  return {
    provider_id: PROVIDER_ID,
    provider_model_id: id,
    context_tokens: contextTokens,
    ...(outputTokens === undefined ? {} : { max_output_tokens: outputTokens }),
    capabilities,
    evidence,
  };
}

/**
 * "`<id>` will be discontinued on <date>. Update your application to use `<id>`" and "`<id>` will
 * be deprecated and removed on <date>. Migrate any workflows to `<id>`": the first id's end of
 * life on that day (`on`), the second its replacement.
 */
const CAUTION =
  /`([a-z0-9][a-z0-9.@-]*)` will be (?:discontinued|deprecated and removed) on ([A-Z][a-z]+ \d{1,2}, \d{4})\.\s+(?:Update your application to use|Migrate any workflows to) `([a-z0-9][a-z0-9.@-]*)`/g;

export function cautionLifecycle(input: ParserInput): LifecycleAssertion[] {
  const evidence = evidenceFor(input.source, input.observedAt);
  const out: LifecycleAssertion[] = [];
  for (const m of input.content.matchAll(CAUTION)) {
    const id = group(m, 1);
    if (out.some((a) => a.target?.provider_model_id === id)) continue;
    const endOfLife = parseMilestone(group(m, 2), [evidence]);
    if (endOfLife.state !== "scheduled")
      throw parseFailure(input.source, `${id}: "${group(m, 2)}" is not a date`);
    out.push({
      scope: "deployment",
      provider_id: PROVIDER_ID,
      target: { provider_model_id: id, api_surface: VERTEX.surfaces.vertexAi },
      end_of_life: endOfLife,
      replacements: [group(m, 3)],
      evidence,
    });
  }
  return out;
}

export const parseVertexModelPage: Parser = (input) => {
  const blocks = modelBlocks(input.content);
  const lifecycle = cautionLifecycle(input);
  if (blocks.length === 0) {
    const rendered = parseRenderedBlocks(input);
    if (rendered) return { deployments: [], lifecycle, model_facts: rendered, skipped: [] };
    throw parseFailure(input.source, 'no "| Model ID | `<model>` ||" row');
  }
  const evidence = evidenceFor(input.source, input.observedAt);
  const facts: ModelFact[] = blocks.map((rows) => {
    const id = /^`([a-z0-9][a-z0-9.@-]*)`$/.exec(rows[0]?.[1] ?? "")?.[1];
    if (!id) throw parseFailure(input.source, `"${rows[0]?.[1] ?? ""}" is not a model id`);
    const row = (label: string, sub?: string) =>
      rows.find((r) => r[0] === label && (sub === undefined || r[1] === sub));
    const count = (r: string[] | undefined): number | null =>
      r ? tokenCount((r[2] ?? "").replace(/\s*\(default\)\s*$/, "")) : null;
    const contextTokens = count(
      row("Token limits", "Context window") ?? row("Token limits", "Maximum input tokens"),
    );
    const outputRow = row("Token limits", "Maximum output tokens");
    const outputTokens = outputRow?.[2] === "N/A" ? undefined : count(outputRow);
    if (contextTokens === null || outputTokens === null)
      throw parseFailure(
        input.source,
        `${id}: no context window / maximum input and maximum output token counts`,
      );

    const { capabilities, set } = rankedCapabilities();
    const modalities = row("Modalities")?.[1];
    if (!modalities) throw parseFailure(input.source, `${id}: no Modalities row`);
    for (const { kind, use } of modalityPairs(modalities)) setModality(set, kind, use);
    for (const [label, status] of listedCapabilities(row("Capabilities")?.[1] ?? "")) {
      const name = LISTED[label];
      if (name) set(name, status);
    }
    const batch = /\[Batch inference\]\([^)]*\)\s*(Supported|Not supported)/.exec(
      row("Consumption options")?.[1] ?? "",
    );
    if (batch) set("batch", group(batch, 1) === "Supported" ? "supported" : "unsupported");

    return blockFact(id, contextTokens, outputTokens, capabilities, evidence);
  });
  return { deployments: [], lifecycle, model_facts: facts, skipped: [] };
};

/** The cells after a comparison row's label, from the Markdown table row or the text line. */
function comparisonCells(content: string, label: string): string[] | null {
  for (const line of content.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed.startsWith("|")) {
      const cells = splitTableRow(trimmed);
      if (cells[0]?.replace(/\*\*/g, "").trim() === label)
        return cells.slice(1).map((c) => c.replace(/`/g, "").trim());
    } else if (trimmed.startsWith(`${label} `))
      return trimmed
        .slice(label.length + 1)
        .trim()
        .split(/\s+/);
  }
  return null;
}

/**
 * A Vertex AI developer's guide to a Gemini model (docs.cloud.google.com/gemini-enterprise-agent-
 * platform/models/guides/<model>.md.txt): its "Model specifications and comparisons" table, one
 * column per model, read from the Markdown table or from the page's text rendering (one line per
 * row, the cells separated by spaces). Rows read: "Model ID", "Context window" and "Maximum output
 * token length", each with exactly one cell per model id (token counts: "1,048,576"), or the
 * parse fails. Limits only (the other rows' cells hold spaces, so the text rendering cannot split
 * them); model facts only, no deployments.
 */
export const parseVertexModelGuide: Parser = (input) => {
  const ids = comparisonCells(input.content, "Model ID");
  if (!ids || ids.length === 0 || ids.some((id) => !/^gemini-[a-z0-9.-]+$/.test(id)))
    throw parseFailure(input.source, `no comparison row "Model ID" of gemini-… ids: ${ids?.join(" | ")}`);
  const counts = (label: string): number[] => {
    const cells = comparisonCells(input.content, label);
    const values: number[] = [];
    for (const cell of cells ?? []) {
      const value = tokenCount(cell);
      if (value !== null) values.push(value);
    }
    if (!cells || cells.length !== ids.length || values.length !== ids.length)
      throw parseFailure(
        input.source,
        `comparison row "${label}" does not give one token count per model: ${cells?.join(" | ")}`,
      );
    return values;
  };
  const context = counts("Context window");
  const output = counts("Maximum output token length");
  const evidence = evidenceFor(input.source, input.observedAt);
  const facts: ModelFact[] = [];
  ids.forEach((id, i) => {
    const contextTokens = context[i];
    const outputTokens = output[i];
    if (contextTokens !== undefined && outputTokens !== undefined)
      facts.push({
        provider_id: PROVIDER_ID,
        provider_model_id: id,
        context_tokens: contextTokens,
        max_output_tokens: outputTokens,
        evidence,
      });
  });
  return { deployments: [], lifecycle: [], model_facts: facts, skipped: [] };
};

export const parsers: Record<string, Parser> = {
  "google-vertex-model-page": parseVertexModelPage,
  "google-vertex-model-guide": parseVertexModelGuide,
};
