/**
 * Parsers for the Gemini API (Google AI for Developers) official sources:
 *   - `google-pricing`: https://ai.google.dev/gemini-api/docs/pricing (HTML). One `h2` per model
 *     family, the API ids in an `<em><code>` line under it, then a "Standard" and a "Batch" table
 *     (or a single table) whose "Paid Tier" column holds the prices per 1M tokens.
 *   - `google-deprecations`: https://ai.google.dev/gemini-api/docs/deprecations.md.txt (the page's
 *     official Markdown). Tables of Model | Release date | Shutdown date | Recommended replacement,
 *     with "Preview models" separator rows.
 * Pure functions of the capture; a page that no longer has this structure throws `parse_failed`.
 */

import * as cheerio from "cheerio";
import { group } from "../../lib/regex.js";
import type {
  Capabilities,
  DeploymentFact,
  Evidence,
  LifecycleAssertion,
  LifecycleMilestone,
  LifecycleStatus,
  ParseOutput,
  RateCard,
  RateTier,
  SourceDefinition,
} from "../../schema/index.js";
import {
  evidenceFor,
  googleModelId,
  parseFailure,
  parseMilestone,
  requireSome,
  SkipLog,
  usdToMicro,
} from "../helpers.js";
import { GOOGLE, googleDeployment } from "../identity/index.js";
import { type MarkdownTable, markdownTables } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

export const GOOGLE_PROVIDER = "google";

export { googleModelId };

/** A Gemini API deployment in a mode (../identity/google.ts names them). */
function identity(providerModelId: string, mode: string) {
  return googleDeployment(providerModelId, mode);
}

// ---------------------------------------------------------------------------------------------
// Price cells

/** One dollar amount of a "Paid Tier" cell with what the page says about it. */
export interface PriceToken {
  micro: number;
  /** The parenthesised qualifier after the amount, e.g. "text / image / video", "audio". */
  qualifier: string | null;
  /** "<=" / ">" prompt-size tier marker and its threshold in tokens. */
  tier: { op: "<=" | ">"; tokens: number } | null;
  /** Not a token price: storage per hour, per image, per minute, per song. */
  nonToken: boolean;
}

const AMOUNT = /\$\s*([0-9][0-9,]*(?:\.[0-9]+)?)/g;

/** Split a paid-tier cell into its dollar amounts ("$1.25, prompts <= 200k tokens $2.50, prompts > 200k"). */
export function priceTokens(source: Pick<SourceDefinition, "name" | "url">, text: string): PriceToken[] {
  const matches = [...text.matchAll(AMOUNT)];
  return matches.map((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = i + 1 < matches.length ? (matches[i + 1]?.index ?? text.length) : text.length;
    const rest = text.slice(start, end);
    if (/^[.,]?[0-9]/.test(rest)) throw parseFailure(source, `malformed amount in "${text}"`);
    const micro = usdToMicro(`$${group(m, 1)}`);
    if (micro === null) throw parseFailure(source, `"${m[0]}" is not a price`);
    const tierMatch = /prompts?\s*(<=|>|≤)\s*([0-9]+)\s*k\b/i.exec(rest);
    const qualifier = /\(([^)]*)\)/.exec(rest)?.[1]?.trim() ?? null;
    const nonToken =
      /per\s+hour|storage|\bper\s+(?:[0-9.]+k\s+|1k\/2k\s+)?image|\/\s*min\b|per\s+(?:song|second|frame|request)/i.test(
        rest.replace(/\(([^)]*)\)/, ""),
      ) || /^\s*\/\s*min/i.test(rest);
    return {
      micro,
      qualifier,
      tier: tierMatch
        ? {
            op: tierMatch[1] === ">" ? ">" : "<=",
            tokens: Number.parseInt(group(tierMatch, 2), 10) * 1000,
          }
        : null,
      nonToken,
    };
  });
}

export interface TextPrice {
  base: number;
  /** Long-context price for prompts above `above` tokens. */
  long: { above: number; micro: number } | null;
}

/**
 * The text-token price of a paid-tier cell: amounts qualified "(text ...)" when the cell
 * distinguishes modalities, otherwise the unqualified amounts; storage / per-image / per-minute
 * amounts are never token prices. Null when the cell has no such price ("Not available",
 * "$0.039 per image").
 */
export function textPrice(source: Pick<SourceDefinition, "name" | "url">, cell: string): TextPrice | null {
  const tokens = priceTokens(source, cell).filter((t) => !t.nonToken);
  const texty = tokens.filter((t) => t.qualifier !== null && /\btext\b/i.test(t.qualifier));
  const chosen = texty.length > 0 ? texty : tokens.filter((t) => t.qualifier === null);
  if (chosen.length === 0) return null;
  const base = chosen.find((t) => t.tier === null || t.tier.op === "<=");
  if (!base) throw parseFailure(source, `no base price in "${cell}"`);
  const long = chosen.find((t) => t.tier?.op === ">");
  if (base.tier && !long) throw parseFailure(source, `"${cell}" has a <= tier without a > tier`);
  if (long?.tier && base.tier && base.tier.tokens !== long.tier.tokens)
    throw parseFailure(source, `"${cell}" has mismatched tier thresholds`);
  return { base: base.micro, long: long?.tier ? { above: long.tier.tokens, micro: long.micro } : null };
}

// ---------------------------------------------------------------------------------------------
// Pricing page

interface PriceTable {
  mode: string;
  /** Paid-tier unit from the header ("1M tokens", "Image", "second"). */
  unit: string;
  rows: Map<string, string>;
}

interface ModelSection {
  title: string;
  ids: string[];
  tables: PriceTable[];
}

type Node = Parameters<cheerio.CheerioAPI>[0];

function cellWithBreaks($: cheerio.CheerioAPI, el: Node): string {
  const clone = $(el).clone();
  clone.find("br").replaceWith("\n");
  return clone
    .text()
    .replace(/\u00a0/g, " ")
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter((l) => l !== "")
    .join("\n");
}

function readTable(
  source: Pick<SourceDefinition, "name" | "url">,
  $: cheerio.CheerioAPI,
  table: Node,
  mode: string,
): PriceTable {
  const header = $(table)
    .find("thead tr")
    .first()
    .find("th,td")
    .toArray()
    .map((c) => $(c).text().replace(/\s+/g, " ").trim());
  const paidIndex = header.findIndex((h) => /^paid tier/i.test(h));
  const paidHeader = header[paidIndex];
  if (paidHeader === undefined)
    throw parseFailure(source, `pricing table without a "Paid Tier" column (${header.join(" | ")})`);
  const unit = /per\s+(.+?)\s+in\s+USD/i.exec(paidHeader)?.[1] ?? "";
  const rows = new Map<string, string>();
  $(table)
    .find("tbody tr")
    .each((_, tr) => {
      const cells = $(tr).find("td,th").toArray();
      const label = cells[0] ? $(cells[0]).text().replace(/\s+/g, " ").trim() : "";
      const paid = cells[paidIndex];
      if (label && paid) rows.set(label, cellWithBreaks($, paid));
    });
  return { mode, unit, rows };
}

function readSections(source: Pick<SourceDefinition, "name" | "url">, html: string): ModelSection[] {
  const $ = cheerio.load(html);
  const sections: ModelSection[] = [];
  $("h2").each((_, h2) => {
    const title = $(h2)
      .text()
      .replace(/[^\p{L}\p{N}\s().,:/+-]/gu, "")
      .replace(/\s+/g, " ")
      .trim();
    const section: ModelSection = { title, ids: [], tables: [] };
    for (let node = $(h2).next(); node.length > 0 && !node.is("h2"); node = node.next()) {
      if (node.is("em"))
        section.ids.push(
          ...node
            .find("code")
            .toArray()
            .map((c) => $(c).text().trim()),
        );
      const tables = (node.is("table") ? node : node.find("table")).toArray();
      for (const table of tables) {
        const h3 = $(table).prevAll("h3").first().text().trim() || node.find("h3").first().text().trim();
        const mode = /^batch$/i.test(h3)
          ? GOOGLE.modes.batch
          : /^standard$/i.test(h3) || h3 === ""
            ? GOOGLE.modes.standard
            : null;
        if (mode === null) throw parseFailure(source, `unknown pricing tier "${h3}" under "${title}"`);
        section.tables.push(readTable(source, $, table, mode));
      }
    }
    if (section.tables.length > 0) sections.push(section);
  });
  return sections;
}

function rowMatching(table: PriceTable, re: RegExp): string | undefined {
  for (const [label, value] of table.rows) if (re.test(label)) return value;
  return undefined;
}

const INPUT_ROW = /^(?:text )?input price/i;
const OUTPUT_ROW = /^output price/i;
const CACHE_ROW = /^context caching price/i;
const SEARCH_ROW = /^grounding with google (?:web and image )?search/i;

function rateCard(
  source: Pick<SourceDefinition, "name" | "url">,
  table: PriceTable,
  input: ParserInput,
): RateCard | null {
  const inputCell = rowMatching(table, INPUT_ROW);
  if (inputCell === undefined) throw parseFailure(source, "pricing table without an input price row");
  const inputPrice = textPrice(source, inputCell);
  if (!inputPrice) return null;
  const outputCell = rowMatching(table, OUTPUT_ROW);
  const outputPrice = outputCell === undefined ? null : textPrice(source, outputCell);
  const cacheCell = rowMatching(table, CACHE_ROW);
  const cachePrice = cacheCell === undefined ? null : textPrice(source, cacheCell);
  const tiers: RateTier[] = [];
  const above = inputPrice.long?.above;
  if (above !== undefined && inputPrice.long) {
    for (const other of [outputPrice, cachePrice])
      if (other?.long && other.long.above !== above)
        throw parseFailure(source, "input, output and caching tiers disagree on the threshold");
    tiers.push({
      above_input_tokens: above,
      input_micro_usd: inputPrice.long.micro,
      cached_input_micro_usd: cachePrice ? (cachePrice.long?.micro ?? cachePrice.base) : null,
      output_micro_usd: outputPrice ? (outputPrice.long?.micro ?? outputPrice.base) : null,
    });
  }
  return {
    currency: "USD",
    unit: "million_tokens",
    input_micro_usd: inputPrice.base,
    cached_input_micro_usd: cachePrice?.base ?? null,
    output_micro_usd: outputPrice?.base ?? null,
    ...(tiers.length > 0 ? { tiers } : {}),
    source_url: input.source.url,
    observed_at: input.observedAt,
  };
}

function capabilities(table: PriceTable, card: RateCard): Capabilities {
  const caps: Capabilities = {};
  if (card.cached_input_micro_usd !== null)
    caps.prompt_caching = { status: "supported", verification_status: "official_declared" };
  const search = rowMatching(table, SEARCH_ROW);
  if (search !== undefined && !/^not available$/i.test(search.trim()))
    caps.web_search = { status: "supported", verification_status: "official_declared" };
  return caps;
}

/** Preview / experimental API ids; the "Preview models may change" sentence also appears under GA models. */
const PREVIEW_ID = /-(?:preview|exp)(?:-|$)/;

export const parseGeminiPricing: Parser = (input) => {
  const { source } = input;
  const evidence = evidenceFor(source, input.observedAt);
  const sections = requireSome(source, readSections(source, input.content), "model pricing sections");
  const deployments: DeploymentFact[] = [];
  const skips = new SkipLog({ distinctExamples: false });
  for (const section of sections) {
    if (section.ids.length === 0) {
      skips.add("section names no API model id", section.title);
      continue;
    }
    for (const table of section.tables) {
      if (!/^1M tokens$/i.test(table.unit)) {
        for (const id of section.ids) skips.add(`priced per ${table.unit || "unit"}, not per token`, id);
        continue;
      }
      const card = rateCard(source, table, input);
      if (!card) {
        for (const id of section.ids) skips.add(`no paid-tier token price (${table.mode})`, id);
        continue;
      }
      for (const id of section.ids) {
        const caps = capabilities(table, card);
        deployments.push({
          ...identity(id, table.mode),
          display_name: section.title,
          ...(Object.keys(caps).length > 0 ? { capabilities: caps } : {}),
          rate_card: card,
          ...(PREVIEW_ID.test(id) ? { status: "preview" as const } : {}),
          evidence,
        });
      }
    }
  }
  requireSome(source, deployments, "priced deployments");
  return { deployments, lifecycle: [], skipped: skips.toArray() };
};

// ---------------------------------------------------------------------------------------------
// Deprecations page (Markdown)

/**
 * The page's pipe tables with non-breaking spaces in cells read as spaces and bold markers
 * dropped from header cells.
 */
export function deprecationTables(markdown: string): MarkdownTable[] {
  const spaced = (cell: string) => cell.replace(/\u00a0/g, " ").trim();
  return markdownTables(markdown).map((t) => ({
    ...t,
    headers: t.headers.map((c) => spaced(c).replace(/\*\*/g, "").trim()),
    rows: t.rows.map((r) => r.map(spaced)),
  }));
}

const NO_DATE_ANNOUNCED = /^no (?:shutdown|retirement) date (?:announced|yet)$/i;
const MODEL_ID_TOKEN = /^[a-z0-9][a-z0-9.@_-]*$/;

/** Provider model ids named in a replacement cell: backticked ids, else a bare id-shaped text. */
export function replacementIds(cell: string): string[] {
  const ticked = [...cell.matchAll(/`([^`]+)`/g)].map((m) => group(m, 1).trim());
  if (ticked.length > 0) return ticked;
  return cell
    .split(/\s+or\s+|,\s*/)
    .map((s) => s.trim())
    .filter((s) => MODEL_ID_TOKEN.test(s));
}

/**
 * Milestone of a shutdown-date cell. The page states that its shutdown dates "indicate the
 * earliest possible dates on which a model might be retired", so on such a page every plain
 * date is `not_before`, whether it is past or ahead: a passed earliest date does not say the
 * model was shut down (the page marks shut-down rows only by a gray background, which its
 * Markdown form does not carry).
 */
export function shutdownMilestone(
  cell: string,
  evidence: Evidence[],
  earliestPossible: boolean,
): LifecycleMilestone {
  const text = cell.trim();
  if (NO_DATE_ANNOUNCED.test(text)) return parseMilestone("TBD", evidence);
  const milestone = parseMilestone(text, evidence);
  if (earliestPossible && milestone.state === "scheduled" && milestone.date_type === "on")
    return { ...milestone, date_type: "not_before" };
  return milestone;
}

/** The status the page declares for a row: its "Preview models" rows are preview, the rest stable (GA). */
export function declaredStatus(preview: boolean): LifecycleStatus {
  return preview ? "preview" : "available";
}

export const parseGeminiDeprecations: Parser = (input) => {
  const { source } = input;
  const evidence = evidenceFor(source, input.observedAt);
  const earliestPossible = /earliest possible[\s>*]*dates?/i.test(input.content);
  const tables = deprecationTables(input.content).filter((t) =>
    t.headers.some((h) => /shutdown date/i.test(h)),
  );
  requireSome(source, tables, "deprecation tables (a Shutdown date column)");
  const deployments: DeploymentFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  const skips = new SkipLog({ distinctExamples: false });
  const seen = new Set<string>();
  for (const table of tables) {
    const idCol = table.headers.findIndex((h) => /^(model|agent)$/i.test(h));
    const idHeader = table.headers[idCol];
    const shutdownCol = table.headers.findIndex((h) => /^shutdown date$/i.test(h));
    const replCol = table.headers.findIndex((h) => /replacement/i.test(h));
    if (idHeader === undefined || shutdownCol < 0 || replCol < 0)
      throw parseFailure(
        source,
        `deprecation table "${table.heading}" lacks Model / Shutdown date / Recommended replacement`,
      );
    const agents = /^agent$/i.test(idHeader);
    let preview = false;
    for (const row of table.rows) {
      const first = row[idCol] ?? "";
      if (/^preview (models|agents)$/i.test(first) && row.slice(1).every((c) => c === "")) {
        preview = true;
        continue;
      }
      const id = first.replace(/`/g, "").trim();
      if (!MODEL_ID_TOKEN.test(id)) throw parseFailure(source, `"${first}" is not a model id`);
      if (agents) {
        skips.add("managed agent, not a model", id);
        continue;
      }
      const endOfLife = shutdownMilestone(row[shutdownCol] ?? "", [evidence], earliestPossible);
      const status = declaredStatus(preview);
      const replacements = replacementIds(row[replCol] ?? "");
      const key = `${id}`;
      if (seen.has(key)) continue; // the page lists some Live models under two headings
      seen.add(key);
      deployments.push({ ...identity(id, GOOGLE.modes.standard), display_name: id, evidence });
      lifecycle.push({
        scope: "deployment",
        provider_id: GOOGLE_PROVIDER,
        target: { provider_model_id: id, api_surface: GOOGLE.surfaces.geminiApi },
        status,
        end_of_life: endOfLife,
        ...(replacements.length > 0 ? { replacements } : {}),
        evidence,
      });
    }
  }
  requireSome(source, lifecycle, "deprecation rows");
  return { deployments, lifecycle, skipped: skips.toArray() } satisfies ParseOutput;
};

export const parsers: Record<string, Parser> = {
  "google-pricing": parseGeminiPricing,
  "google-deprecations": parseGeminiDeprecations,
};
