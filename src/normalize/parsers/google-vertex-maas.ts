/**
 * A Vertex AI (Gemini Enterprise Agent Platform) partner / open model page served as MaaS
 * (docs.cloud.google.com/gemini-enterprise-agent-platform/models/maas/<lab>/<model> and
 * .../models/partner-models/<lab>/<model>), as the docs' Markdown dump stores it: its
 * "Managed API (MaaS) specifications" table, either as an HTML <table> of `<th>label</th><td>…`
 * rows (one table per model: the Grok page has one under "## Reasoning" and one under
 * "## Non-Reasoning") or, where the dump renders the table as text, as the lines of the section
 * "## Managed API (MaaS) specifications", each row a label line ("Model ID", "Capabilities", …)
 * followed by its value lines and "  - " items. Two layouts are read, in either form:
 *   - current: rows Model ID, Modalities ("Text Input and output", "Image Not supported", …),
 *     Capabilities (items "Function calling Supported"), Consumption options (items "Batch
 *     inference Supported"), Quotas (items "`global` : 65,536 maximum output, 262,144 context
 *     length");
 *   - older: rows Model ID, Supported inputs & outputs ("Inputs: Text , Code , Images",
 *     "Outputs: Text"), Capabilities and Usage types (a "Supported" and a "Not supported" list of
 *     names, "Preview feature" marks), Quota limits / Limits (a "us-east5:" line, then items "Max
 *     output: 8,192", "Context length: 524,288"; other items such as QPM / TPM are not read).
 *
 * Model facts, provider `google-vertex`, for `<publisher>/<Model ID>` (the id the catalog's Vertex
 * deployments use, e.g. `qwen/qwen3-coder-480b-a35b-instruct-maas`): the publisher is the one
 * every Model Garden link of the page names (`…/publishers/<publisher>/model-garden/…`; the URL's
 * path names the lab differently, e.g. `maas/kimi` for `moonshotai`); no link, or links naming two
 * publishers, fail the parse. Mistral's and AI21's models (publishers `mistralai`, `ai21`) are
 * addressed by name, so their id is the bare Model ID (`codestral-2`), as the Vertex identity
 * reads them.
 * - context_tokens / max_output_tokens from the limits row of one region: `global` (or "global
 *   endpoint") when listed, else the only region listed; where several other regions are listed,
 *   the smallest value of each (what every region allows). A region without "Max output" (the
 *   Grok pages give only rates and a context length) gives no max_output_tokens. No limits row,
 *   an unreadable current-layout quota item or no context length fails the parse.
 * - Modalities: Image input -> vision, Audio input -> audio_input, Video input -> video_input,
 *   Image / Audio output -> image_output / audio_output; "Not supported", or a type the older
 *   layout's Inputs / Outputs lists leave out -> unsupported. A page with neither row fails.
 * - Capabilities: Function calling -> tool_calling, Structured output -> structured_output,
 *   Thinking or Reasoning -> reasoning (a "Thinking Not supported" is not read: Thinking is
 *   Vertex's thinking feature, and gpt-oss or DeepSeek-V3.1 reason without it; "Reasoning Not
 *   supported", the Grok non-reasoning model's, is), Batch predictions -> batch; Consumption options / Usage
 *   types: Batch inference / Batch predictions -> batch. An item's own "Supported" / "Not
 *   supported", else the list it is under; "Preview feature" / "(Preview)" on a supported item ->
 *   conditional; an item with no status fails the parse. Other names (Llama Guard, Provisioned
 *   Throughput, Fixed quota, …) are not read; a capability the page does not name stays unknown.
 *   The Llama 4 pages' table lists Batch predictions as supported while their Considerations say
 *   "Batch predictions aren't supported": where the page says so, batch is not read (unknown).
 * - released_at: the Versions row's "Release date: August 28, 2025", where the row states exactly
 *   one (a whole day); otherwise none.
 * - All values `official_declared`, with the capture's evidence.
 *
 * Lifecycle (scope deployment, target `<publisher>/<Model ID>` on `vertex-ai`), from the page's
 * banners; the dates as printed, day precision, `on`. No model_id: the banner retires Vertex's
 * endpoint, not the lab's model, so where no Vertex deployment of the build matches (Llama 3.3
 * 70B) the assertion must not become the lifecycle of a model other providers still serve.
 * - "As of July 21, 2026, the `<Model ID>` endpoint is deprecated and will be retired on October
 *   21, 2026": deprecation July 21, 2026 and end_of_life October 21, 2026; no declared status
 *   (the release stage derives it from the dates).
 * - "**Deprecated:** The … family (including `xai/<Model ID>` and …) is deprecated … and will be
 *   shut down on August 20, 2026": status `deprecated` (declared in words) and end_of_life August
 *   20, 2026 for each id named; the banner gives no deprecation date, so there is none.
 * A banner id that is not one of the page's Model IDs, or a Caution / Deprecated banner that
 * speaks of deprecation or retirement in other words, fails the parse (a reworded banner is
 * noticed, not dropped). No deployments: the catalog's Vertex deployments come from other sources.
 */
import * as cheerio from "cheerio";
import { group } from "../../lib/regex.js";
import type {
  CapabilityEntry,
  CapabilityName,
  CapabilityStatus,
  LifecycleAssertion,
  ModelFact,
  SourceDefinition,
} from "../../schema/index.js";
import { parseCalendarDate } from "../dates.js";
import {
  cellText,
  declaredCapability,
  evidenceFor,
  MODALITY_CAPABILITIES,
  modalityPairs,
  parseFailure,
  setModality,
  sourceMilestone,
  tokenCount,
} from "../helpers.js";
import { VERTEX } from "../identity/index.js";
import type { Parser } from "../types.js";

const PROVIDER_ID = "google-vertex";
const API_SURFACE = VERTEX.surfaces.vertexAi;

type Source = Pick<SourceDefinition, "name" | "url">;

/** One list item of a row: its text, the names of its links, and the line it is listed under. */
interface Item {
  text: string;
  names: string[];
  under: string | null;
}

/** One row of the specifications table. */
interface Row {
  label: string;
  /** The whole value as one line of text. */
  text: string;
  items: Item[];
}

/** The row labels of the text rendering (a line that is exactly one of these starts a row). */
const LABELS = new Set([
  "Model ID",
  "Launch stage",
  "Modalities",
  "Supported inputs & outputs",
  "Capabilities",
  "Consumption options",
  "Usage types",
  "Supported regions",
  "Quotas",
  "Quota limits",
  "Limits",
  "Versions",
  "Knowledge cutoff date",
  "Pricing",
]);

const LISTED: Readonly<Record<string, CapabilityName>> = {
  "function calling": "tool_calling",
  "structured output": "structured_output",
  thinking: "reasoning",
  reasoning: "reasoning",
  "batch predictions": "batch",
  "batch inference": "batch",
};

const CONSUMPTION: Readonly<Record<string, CapabilityName>> = {
  "batch predictions": "batch",
  "batch inference": "batch",
};

const flat = (text: string): string =>
  text
    .replace(/\u00a0/g, " ")
    .replace(/\s+/g, " ")
    .trim();

// ---------------------------------------------------------------- the two forms of the table

/** The HTML tables whose first row is "Model ID", as rows. */
function htmlBlocks(content: string): Row[][] {
  const $ = cheerio.load(content);
  const blocks: Row[][] = [];
  $("table").each((_, table) => {
    const rows: Row[] = $(table)
      .find("tr")
      .toArray()
      .map((tr) => {
        const label = cellText($, $(tr).children("th").first().get(0) ?? []);
        const cells = $(tr).children("td").toArray();
        return {
          label,
          text: flat(cells.map((td) => cellText($, td)).join(" ")),
          items: cells.flatMap((td) => htmlItems($, td)),
        };
      });
    if (rows[0]?.label === "Model ID") blocks.push(rows);
  });
  return blocks;
}

/** A cell's list items (of its top-level lists), each under the last text before its list. */
function htmlItems($: cheerio.CheerioAPI, td: Parameters<cheerio.CheerioAPI>[0]): Item[] {
  const items: Item[] = [];
  let under: string | null = null;
  for (const node of $(td).contents().toArray()) {
    if ($(node).is("ul,ol")) {
      for (const li of $(node).children("li").toArray()) {
        const clone = $(li).clone();
        clone.find("ul,ol").remove();
        items.push({
          text: cellText($, clone.get(0) ?? []),
          names: clone
            .find("a")
            .toArray()
            .map((a) => cellText($, a)),
          under,
        });
      }
    } else {
      const text = flat($(node).text());
      if (text !== "") under = text;
    }
  }
  return items;
}

const LINK = /\[([^\]]+)\]\([^)]*\)/g;
const plain = (text: string): string => flat(text.replace(LINK, "$1").replace(/[*`]/g, ""));

/** The text rendering: the rows of the section "## Managed API (MaaS) specifications". */
function textBlock(content: string): Row[] | null {
  const lines = content.split(/\r?\n/);
  const start = lines.findIndex((l) => /^##\s+Managed API \(MaaS\) specifications\s*$/.test(l));
  if (start < 0) return null;
  const rows: Row[] = [];
  let lastItem: Item | null = null;
  let under: string | null = null;
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,2}\s/.test(line)) break;
    if (line.trim() === "") continue;
    const row = rows.at(-1);
    if (LABELS.has(line.trim()) && !/^\s/.test(line)) {
      rows.push({ label: line.trim(), text: "", items: [] });
      lastItem = null;
      under = null;
      continue;
    }
    if (!row) continue;
    row.text = flat(`${row.text} ${plain(line)}`);
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item) {
      const raw = group(item, 1);
      lastItem = { text: plain(raw), names: [...raw.matchAll(LINK)].map((m) => plain(group(m, 1))), under };
      row.items.push(lastItem);
    } else if (/^\s{2,}\S/.test(line) && lastItem) {
      lastItem.text = flat(`${lastItem.text} ${plain(line)}`);
      lastItem.names.push(...[...line.matchAll(LINK)].map((m) => plain(group(m, 1))));
    } else {
      under = plain(line);
      lastItem = null;
    }
  }
  return rows[0]?.label === "Model ID" ? rows : null;
}

// ---------------------------------------------------------------- reading a block

/** The page's publisher, from its Model Garden links. */
function publisherOf(source: Source, content: string): string {
  const found = new Set(
    [...content.matchAll(/\/publishers\/([a-z0-9][a-z0-9-]*)\/model-garden\//g)].map((m) => group(m, 1)),
  );
  const [publisher] = found;
  if (found.size !== 1 || publisher === undefined)
    throw parseFailure(
      source,
      found.size === 0
        ? "no Model Garden link (…/publishers/<publisher>/model-garden/…) names the publisher"
        : `the Model Garden links name several publishers: ${[...found].join(", ")}`,
    );
  return publisher;
}

interface Limits {
  context?: number;
  output?: number;
}

function count(source: Source, id: string, text: string): number {
  const value = tokenCount(text);
  if (value === null) throw parseFailure(source, `${id}: "${text}" is not a token count`);
  return value;
}

/** The limits of each region the limits row lists. */
function regionLimits(source: Source, id: string, row: Row): Map<string, Limits> {
  const regions = new Map<string, Limits>();
  const limitsOf = (region: string): Limits => {
    const key = region.replace(/\s+endpoint$/i, "").trim();
    const existing = regions.get(key);
    if (existing) return existing;
    const created: Limits = {};
    regions.set(key, created);
    return created;
  };
  for (const item of row.items) {
    const current = /^(.+?)\s*:\s*([\d,]+) maximum output, ([\d,]+) context length$/.exec(item.text);
    if (current) {
      const limits = limitsOf(group(current, 1));
      limits.output = count(source, id, group(current, 2));
      limits.context = count(source, id, group(current, 3));
      continue;
    }
    if (row.label === "Quotas") throw parseFailure(source, `${id}: quota "${item.text}" is not read`);
    const region = /^(.+?):$/.exec(item.under ?? "");
    const older = /^(Max output|Context length):\s*(.+)$/.exec(item.text);
    if (!region || !older) continue;
    const limits = limitsOf(group(region, 1));
    if (group(older, 1) === "Max output") limits.output = count(source, id, group(older, 2));
    else limits.context = count(source, id, group(older, 2));
  }
  return regions;
}

/** `global` when listed, else the only region, else the smallest value of each limit. */
function chosenLimits(regions: Map<string, Limits>): Limits {
  const global = regions.get(VERTEX.regions.global);
  if (global) return global;
  const all = [...regions.values()];
  const min = (values: Array<number | undefined>): number | undefined => {
    const known = values.filter((v): v is number => v !== undefined);
    return known.length === 0 ? undefined : Math.min(...known);
  };
  return { context: min(all.map((l) => l.context)), output: min(all.map((l) => l.output)) };
}

/** An item's status: its own "Supported" / "Not supported", else the list it is under. */
function itemStatus(source: Source, id: string, item: Item): CapabilityStatus {
  const own = item.names.reduce((text, name) => text.replace(name, ""), item.text);
  const preview = /Preview feature|\(Preview\)/.test(own);
  if (/\bNot supported\b/.test(own)) return "unsupported";
  if (/\bSupported\b/.test(own)) return preview ? "conditional" : "supported";
  if (item.under === "Not supported") return "unsupported";
  if (item.under === "Supported") return preview ? "conditional" : "supported";
  throw parseFailure(source, `${id}: "${item.text}" has no Supported / Not supported status`);
}

/** Publishers whose Vertex ids are the bare model name (identity/google-vertex.ts: Mistral, AI21's Jamba). */
const BARE_PUBLISHERS: ReadonlySet<string> = new Set(["mistralai", "ai21"]);

/** The catalog's Vertex id of a model its publisher's Model Garden path names. */
export function vertexModelId(publisher: string, name: string): string {
  return BARE_PUBLISHERS.has(publisher) ? name : `${publisher}/${name}`;
}

function readBlock(source: Source, content: string, publisher: string, rows: Row[]) {
  const idCell = rows[0]?.text.replace(/`/g, "").trim() ?? "";
  if (!/^[a-z0-9][a-z0-9.@-]*$/.test(idCell))
    throw parseFailure(source, `"${rows[0]?.text ?? ""}" is not a model id`);
  const id = vertexModelId(publisher, idCell);
  const row = (...labels: string[]) => rows.find((r) => labels.includes(r.label));

  const limitsRow = row("Quotas", "Quota limits", "Limits");
  if (!limitsRow) throw parseFailure(source, `${id}: no Quotas / Quota limits / Limits row`);
  const limits = chosenLimits(regionLimits(source, id, limitsRow));
  if (limits.context === undefined) throw parseFailure(source, `${id}: no context length`);

  const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  const set = (name: CapabilityName, status: CapabilityStatus) => {
    capabilities[name] = declaredCapability(status);
  };
  const modalities = row("Modalities");
  const inputsOutputs = row("Supported inputs & outputs");
  if (modalities) {
    const found = modalityPairs(modalities.text);
    if (found.length === 0) throw parseFailure(source, `${id}: Modalities "${modalities.text}" is not read`);
    for (const { kind, use } of found) setModality(set, kind, use);
  } else if (inputsOutputs) {
    const listOf = (label: string): Set<string> | null => {
      const item = inputsOutputs.items.find((i) => i.text.startsWith(`${label}:`));
      if (!item) return null;
      return new Set(
        item.text
          .slice(label.length + 1)
          .split(",")
          .map((t) => t.trim().toLowerCase().replace(/s$/, ""))
          .filter((t) => t !== ""),
      );
    };
    const inputs = listOf("Inputs");
    const outputs = listOf("Outputs");
    if (!inputs || !outputs)
      throw parseFailure(source, `${id}: Supported inputs & outputs "${inputsOutputs.text}" is not read`);
    for (const [type, [asInput, asOutput]] of Object.entries(MODALITY_CAPABILITIES)) {
      if (asInput) set(asInput, inputs.has(type) ? "supported" : "unsupported");
      if (asOutput) set(asOutput, outputs.has(type) ? "supported" : "unsupported");
    }
  } else throw parseFailure(source, `${id}: no Modalities or Supported inputs & outputs row`);

  for (const [label, names] of [
    ["Capabilities", LISTED],
    ["Consumption options", CONSUMPTION],
    ["Usage types", CONSUMPTION],
  ] as const)
    for (const item of row(label)?.items ?? []) {
      const label = (item.names[0] ?? "").toLowerCase();
      const name = names[label];
      if (!name) continue;
      const status = itemStatus(source, id, item);
      // "Thinking" is Vertex's thinking feature (maas/capabilities/thinking): a model without it
      // may still reason (gpt-oss, DeepSeek-V3.1), so only its "Supported" is read
      if (label === "thinking" && status === "unsupported") continue;
      set(name, status);
    }
  if (capabilities.batch?.status === "supported" && /Batch predictions aren't supported/i.test(content))
    delete capabilities.batch;

  const released = releaseDay(row("Versions"));
  const fact: Omit<ModelFact, "evidence"> = {
    provider_id: PROVIDER_ID,
    provider_model_id: id,
    context_tokens: limits.context,
    ...(limits.output === undefined ? {} : { max_output_tokens: limits.output }),
    capabilities,
    ...(released === null ? {} : { released_at: released }),
  };
  return fact;
}

/**
 * The Versions row's "Release date: August 28, 2025" as a day, when the row states exactly one
 * (a block describes one Model ID); none, or several, state no release day.
 */
function releaseDay(versions: Row | undefined): string | null {
  const days = [...(versions?.text ?? "").matchAll(/Release date:\W*([A-Z][a-z]+\.? \d{1,2}, \d{4})/g)];
  if (days.length !== 1) return null;
  const parsed = parseCalendarDate(group(days[0] as RegExpMatchArray, 1));
  return parsed?.precision === "day" ? parsed.date : null;
}

// ---------------------------------------------------------------- lifecycle banners

const DATE = "([A-Z][a-z]+\\.? \\d{1,2}, \\d{4})";
const RETIRING = new RegExp(
  `As of ${DATE}, the \`([^\`]+)\` endpoint is deprecated and will be retired on ${DATE}`,
  "g",
);
const SHUT_DOWN = new RegExp(
  `^> \\*\\*Deprecated:\\*\\*(.*?) is deprecated on the Gemini Enterprise Agent Platform and will be shut down on ${DATE}`,
  "gm",
);

function lifecycleOf(
  source: Source,
  content: string,
  publisher: string,
  ids: ReadonlySet<string>,
  evidence: ReturnType<typeof evidenceFor>,
): LifecycleAssertion[] {
  const known = (raw: string): string => {
    const id = raw.includes("/") ? raw : vertexModelId(publisher, raw);
    if (!ids.has(id)) throw parseFailure(source, `the banner names \`${raw}\`, not a Model ID of the page`);
    return id;
  };
  const assertion = (id: string): LifecycleAssertion => ({
    scope: "deployment",
    provider_id: PROVIDER_ID,
    target: { provider_model_id: id, api_surface: API_SURFACE },
    evidence,
  });
  const out: LifecycleAssertion[] = [];
  let read = 0;
  for (const m of content.matchAll(RETIRING)) {
    read++;
    out.push({
      ...assertion(known(group(m, 2))),
      deprecation: sourceMilestone(source, group(m, 1), [evidence], "deprecation date"),
      end_of_life: sourceMilestone(source, group(m, 3), [evidence], "retirement date"),
    });
  }
  for (const m of content.matchAll(SHUT_DOWN)) {
    read++;
    const named = [...group(m, 1).matchAll(/`([^`]+)`/g)].map((n) => known(group(n, 1)));
    if (named.length === 0) throw parseFailure(source, "the Deprecated banner names no model id");
    const endOfLife = sourceMilestone(source, group(m, 2), [evidence], "shutdown date");
    for (const id of named) out.push({ ...assertion(id), status: "deprecated", end_of_life: endOfLife });
  }
  const banners = content
    .split(/\r?\n/)
    .filter((l) => /^> \*\*(Caution|Deprecated|Warning|Important|Note):\*\*/.test(l))
    .filter((l) => /deprecat|retire|shut down|discontinu/i.test(l));
  if (banners.length > read)
    throw parseFailure(source, `a deprecation banner is not read: "${flat(banners[read] ?? "")}"`);
  return out;
}

export const parseVertexMaasPage: Parser = (input) => {
  const { source, content } = input;
  const blocks = htmlBlocks(content);
  if (blocks.length === 0) {
    const text = textBlock(content);
    if (text) blocks.push(text);
  }
  if (blocks.length === 0)
    throw parseFailure(
      source,
      'no specifications table (an HTML table or a "## Managed API (MaaS) specifications" section starting with "Model ID")',
    );
  const publisher = publisherOf(source, content);
  const evidence = evidenceFor(source, input.observedAt);
  const facts: ModelFact[] = blocks.map((rows) => ({
    ...readBlock(source, content, publisher, rows),
    evidence,
  }));
  const ids = new Set(facts.map((f) => f.provider_model_id));
  if (ids.size !== facts.length) throw parseFailure(source, "a Model ID is described twice");
  return {
    deployments: [],
    lifecycle: lifecycleOf(source, content, publisher, ids, evidence),
    model_facts: facts,
    skipped: [],
  };
};

export const parsers: Record<string, Parser> = {
  "google-vertex-maas-page": parseVertexMaasPage,
};
