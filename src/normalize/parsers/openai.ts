/**
 * OpenAI official sources: the API pricing page and the deprecations page, both in their
 * Markdown form (developers.openai.com/api/docs/*.md, which platform.openai.com/docs/* redirects
 * to). Pure functions of one capture; a page whose structure changed throws `parse_failed`.
 */
import { group } from "../../lib/regex.js";
import type { DeploymentFact, LifecycleAssertion, ParseOutput, RateCard } from "../../schema/index.js";
import {
  evidenceFor,
  parseFailure,
  parseMilestone,
  requireSome,
  SkipLog,
  sourceMilestone,
  usdToMicro,
} from "../helpers.js";
import { OPENAI, openaiDeployment, openaiIdentity } from "../identity/index.js";
import { markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "openai";

// ---------------------------------------------------------------------------------------------
// Identity

/** OpenAI is its own lab; the canonical model name is the API model id (../identity/openai.ts). */
export function openaiModelId(providerModelId: string): string {
  return openaiIdentity.canonicalModelId(providerModelId);
}

/** An OpenAI API deployment in a processing tier (../identity/openai.ts names them). */
function identity(providerModelId: string, mode: string) {
  return openaiDeployment(providerModelId, mode);
}

// ---------------------------------------------------------------------------------------------
// Pricing: the <TextTokenPricingTables tier="..." rows={[...]} /> blocks of the flagship section

/** The page's tier names (`tier="batch"`) are OpenAI's mode names (../identity/openai.ts). */
const TIER_MODES: Record<string, string> = {
  standard: OPENAI.modes.standard,
  batch: OPENAI.modes.batch,
  flex: OPENAI.modes.flex,
  priority: OPENAI.modes.priority,
};

/** A price literal of the rows array: a number, a string ("", "-", "Free") or null. */
function priceLiteral(input: ParserInput, literal: string, what: string): number | null {
  const text = literal.trim();
  if (text === "null") return null;
  const quoted = /^"(.*)"$/.exec(text);
  const value = quoted ? group(quoted, 1) : text;
  try {
    return usdToMicro(value);
  } catch {
    throw parseFailure(input.source, `${what}: "${literal}" is not a price`);
  }
}

/** "gpt-5.5 (<272K context length)" -> model id "gpt-5.5"; the annotation is only display text. */
export function openaiPricingModelName(label: string): string | null {
  const m = /^([a-z0-9][a-z0-9.-]*)(?:\s+\(([^)]*)\))?$/i.exec(label.trim());
  return m ? group(m, 1) : null;
}

/**
 * A row: the label and three price literals (input, cached input, output) or four (input, cached
 * input, cache writes, output: the layout since the GPT-5.6 family, whose cache writes are billed,
 * "1.25x the uncached input token rate" in the prompt caching guide; older models' rows in the same
 * table keep three values, or "-" in the cache-write place).
 */
const ROW =
  /\[\s*"((?:[^"\\]|\\.)*)"\s*,\s*([^,\]]+?)\s*,\s*([^,\]]+?)\s*,\s*([^,\]]+?)\s*(?:,\s*([^,\]]+?)\s*)?\]/g;

/** One token-priced row of any table of the page, before it becomes a deployment. */
interface TokenRow {
  label: string;
  tier: string;
  /** Literals as written: a number, a quoted string or null. */
  input: string;
  cached: string | null;
  /** Only in rows of the four-price layout. */
  cacheWrite: string | null;
  output: string;
  table: string;
}

/** The rows of a `rows={[...]}` / `rows: [...]` array of 4- or 5-element rows; every row must have one of those shapes. */
function jsxRows(input: ParserInput, body: string, tier: string, table: string): TokenRow[] {
  const rowCount = (body.match(/\[\s*"/g) ?? []).length;
  const rows = [...body.matchAll(ROW)];
  if (rows.length !== rowCount)
    throw parseFailure(
      input.source,
      `${table} (${tier}): ${rowCount} rows but only ${rows.length} have the shape [name, input, cached, output] or [name, input, cached, cache write, output]`,
    );
  if (rows.length === 0) throw parseFailure(input.source, `${table} (${tier}): empty rows`);
  return rows.map((r) => {
    const fourPrices = r[5] !== undefined;
    return {
      label: group(r, 1),
      tier,
      input: group(r, 2),
      cached: group(r, 3),
      cacheWrite: fourPrices ? group(r, 4) : null,
      output: fourPrices ? group(r, 5) : group(r, 4),
      table,
    };
  });
}

/** A Markdown price cell ("\\$2.50", "-") as a row literal. */
function markdownPrice(cell: string): string {
  const text = plainCell(cell).replace(/\\\$/g, "$");
  return text === "-" || text === "" ? "null" : JSON.stringify(text);
}

/** The processing tier of a component: the content-switcher pane it sits in (standard outside one). */
function paneTier(content: string, at: number): string {
  const panes = [...content.slice(0, at).matchAll(/data-content-switcher-pane data-value="([a-z-]+)"/g)];
  const last = panes.at(-1);
  return last ? group(last, 1) : OPENAI.modes.standard;
}

const TOKEN_HEADINGS = ["model", "input", "cached input", "output"];

/**
 * Every token-priced table of the page:
 * - `<TextTokenPricingTables tier="..." rows={[...]} />` (the flagship text tokens, per tier);
 * - `<PricingTable headings={["Model", "Input", "Cached input", "Output"]} rows={[...]} />` and
 *   `<GroupedPricingTable groups={[{ model: "Embedding", rows: [...] }, ...]} />` (specialized,
 *   realtime, audio and image-token models), their tier taken from the pane they sit in; a
 *   grouped table with other headings (tools: "Tool | Details | Pricing") is not token-priced;
 * - Markdown tables "Model | Input | Output | ..." under a "Text tokens" heading (transcription
 *   and speech models; their "Audio tokens" tables price audio, not the text rate card).
 * Tables of other units (per image, per second, per minute, per call) are counted as skipped.
 */
function tokenRows(input: ParserInput, skipped: SkipLog): TokenRow[] {
  const content = input.content;
  const rows: TokenRow[] = [];
  const text = [
    ...content.matchAll(/<TextTokenPricingTables\b[\s\S]*?tier="([a-z-]+)"[\s\S]*?rows=\{\[([\s\S]*?)\]\}/g),
  ];
  for (const block of text) rows.push(...jsxRows(input, group(block, 2), group(block, 1), "text tokens"));
  for (const block of content.matchAll(/<PricingTable\b([\s\S]*?)\/>/g)) {
    const attrs = group(block, 1);
    const headings = /headings=\{\[([^\]]*)\]\}/.exec(attrs);
    const names = headings
      ? [...group(headings, 1).matchAll(/"([^"]*)"/g)].map((m) => group(m, 1).toLowerCase())
      : [];
    const body = /rows=\{\[([\s\S]*)\]\}/.exec(attrs);
    if (names.join("|") !== TOKEN_HEADINGS.join("|") || !body) {
      skipped.add(
        "table not priced per token (headings are not Model | Input | Cached input | Output)",
        names.join(" | ") || "no headings",
      );
      continue;
    }
    rows.push(...jsxRows(input, group(body, 1), paneTier(content, block.index ?? 0), "pricing table"));
  }
  for (const block of content.matchAll(/<GroupedPricingTable\b([\s\S]*?)\n\s*\/>/g)) {
    const attrs = group(block, 1);
    const headings = /headings=\{\[([^\]]*)\]\}/.exec(attrs);
    if (headings) {
      skipped.add(
        "table not priced per token (headings are not Model | Input | Cached input | Output)",
        group(headings, 1),
      );
      continue;
    }
    const tier = paneTier(content, block.index ?? 0);
    for (const grouped of attrs.matchAll(/model:\s*"([^"]*)",\s*rows:\s*(\[[\s\S]*?\]\s*,?\s*\]),?\s*\}/g))
      rows.push(...jsxRows(input, group(grouped, 2), tier, `${group(grouped, 1)} group`));
  }
  for (const table of markdownTables(content)) {
    const headers = table.headers.map((h) => plainCell(h).toLowerCase());
    const tokenTable = headers[0] === "model" && headers[1] === "input" && headers[2] === "output";
    if (!tokenTable) {
      skipped.add("Markdown table not priced per token", `${table.heading}: ${headers.join(" | ")}`);
      continue;
    }
    if (!/text tokens/i.test(table.heading)) {
      skipped.add(
        `"${table.heading}" prices (the rate card is text tokens)`,
        table.rows.map((r) => plainCell(r[0] ?? "")).join(", "),
      );
      continue;
    }
    for (const row of table.rows)
      rows.push({
        label: plainCell(row[0] ?? ""),
        tier: OPENAI.modes.standard,
        input: markdownPrice(row[1] ?? ""),
        cached: null,
        cacheWrite: null,
        output: markdownPrice(row[2] ?? ""),
        table: table.heading,
      });
  }
  return rows;
}

export const parseOpenaiPricing: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const deployments = new Map<string, DeploymentFact>();
  const rows = tokenRows(input, skipped);
  if (rows.length === 0)
    throw parseFailure(input.source, "no TextTokenPricingTables block with tier and rows");
  if (!rows.some((r) => r.tier === OPENAI.modes.standard))
    throw parseFailure(input.source, "no standard tier table");
  for (const row of rows) {
    const { label, tier } = row;
    const mode = TIER_MODES[tier];
    if (!mode) {
      skipped.add(`unknown processing tier "${tier}"`, tier);
      continue;
    }
    const name = openaiPricingModelName(label);
    if (!name) throw parseFailure(input.source, `${tier}: "${label}" is not a model id`);
    if (/\(\s*>/.test(label)) {
      // "gpt-5.4 (>272K context length)": the long-context price, not modelled (see Known gaps).
      skipped.add("long-context price (prompts above the model's threshold)", `${label} (${tier})`);
      continue;
    }
    const inputPrice = priceLiteral(input, row.input, `${label} input`);
    const cached = row.cached === null ? null : priceLiteral(input, row.cached, `${label} cached input`);
    const output = priceLiteral(input, row.output, `${label} output`);
    const cacheWrite =
      row.cacheWrite === null ? null : priceLiteral(input, row.cacheWrite, `${label} cache write`);
    if (inputPrice === null) {
      skipped.add("no input token price (free or not listed)", `${label} (${tier})`);
      continue;
    }
    const rateCard: RateCard = {
      currency: "USD",
      unit: "million_tokens",
      input_micro_usd: inputPrice,
      cached_input_micro_usd: cached,
      output_micro_usd: output,
      ...(cacheWrite === null ? {} : { cache_write_micro_usd: cacheWrite }),
      source_url: input.source.url,
      observed_at: input.observedAt,
    };
    const key = `${name}|${mode}`;
    const existing = deployments.get(key);
    if (existing) {
      const same = JSON.stringify(existing.rate_card) === JSON.stringify(rateCard);
      if (!same)
        throw parseFailure(
          input.source,
          `${name} is listed twice in the ${tier} tables with different prices`,
        );
      skipped.add("listed again with the same prices in another table", `${label} (${row.table})`);
      continue;
    }
    deployments.set(key, { ...identity(name, mode), display_name: label, rate_card: rateCard, evidence });
  }
  return {
    deployments: requireSome(input.source, [...deployments.values()], "priced models"),
    lifecycle: [],
    skipped: skipped.toArray(),
  };
};

// ---------------------------------------------------------------------------------------------
// Deprecations

const MODEL_ID = /^[a-z0-9][a-z0-9.:-]*$/i;

/** The shutdown-date cell to a milestone: "Dec 11, 2026", "2026‑03‑26" (non-breaking hyphens), "at earliest 2024-06-13". */
export function openaiShutdownText(cell: string): string {
  return plainCell(cell)
    .replace(/[\u2010\u2011\u2012\u2013]/g, "-")
    .replace(/^at earliest\s+/i, "Earliest ");
}

export type ModelCell = { kind: "models"; ids: string[] } | { kind: "skip"; reason: string };

/**
 * The model / system cell to model ids: "`o1-2024-12-17` \| `o1`" (snapshot and aliases),
 * "`gpt-4-0125-preview` (including `gpt-4-turbo-preview` ...)", or a bare id. Endpoints,
 * beta headers, products and fine-tuning rows are not models.
 */
export function openaiModelCell(cell: string): ModelCell {
  const plain = plainCell(cell);
  if (/^new fine-tuning training/i.test(plain))
    return { kind: "skip", reason: "fine-tuning training availability, not a model" };
  if (plain.startsWith("/")) return { kind: "skip", reason: "API endpoint, not a model" };
  if (/^OpenAI-Beta:/i.test(plain)) return { kind: "skip", reason: "API beta header, not a model" };
  const ticked = [...cell.matchAll(/`([^`]+)`/g)].map((m) => group(m, 1).trim());
  const ids = ticked.length > 0 ? ticked : MODEL_ID.test(plain) ? [plain] : [];
  if (ids.length === 0) return { kind: "skip", reason: "API product or system, not a model" };
  if (ids.some((id) => id.startsWith("/"))) return { kind: "skip", reason: "API endpoint, not a model" };
  if (ids.every((id) => id.startsWith("ft-")))
    return { kind: "skip", reason: "fine-tuned model family, not a base model" };
  return { kind: "models", ids: ids.filter((id) => MODEL_ID.test(id)) };
}

/** "`gpt-5` or `gpt-4.1*`" -> ["gpt-5", "gpt-4.1"]; "---" -> []; "gpt-realtime-1.5" -> itself. */
export function openaiReplacements(cell: string): string[] {
  const ticked = [...cell.matchAll(/`([^`]+)`/g)].map((m) => group(m, 1).replace(/\*+$/, "").trim());
  if (ticked.length > 0) return ticked;
  const plain = plainCell(cell).replace(/\*+$/, "");
  if (/^-+$/.test(plain) || plain === "") return [];
  return plain
    .split(/\s*(?:,|\bor\b|\band\b)\s*/)
    .map((p) => p.trim())
    .filter((p) => MODEL_ID.test(p));
}

export const parseOpenaiDeprecations: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const lifecycle: LifecycleAssertion[] = [];
  const deployments: DeploymentFact[] = [];
  const seen = new Set<string>();
  const tables = markdownTables(input.content);
  const shutdownTables = tables.filter((t) => t.headers.some((h) => /^shutdown date$/i.test(plainCell(h))));
  requireSome(input.source, shutdownTables, "table with a Shutdown date column");
  for (const table of tables) {
    if (!shutdownTables.includes(table) && table.headers.some((h) => /^date$/i.test(plainCell(h))))
      skipped.add("product or platform timeline without model rows", table.headings[3] ?? "");
  }
  for (const table of shutdownTables) {
    const section = table.headings[3] ?? "";
    const announced = /^(\d{4}-\d{2}-\d{2}):\s*(.+)$/.exec(section);
    if (!announced)
      throw parseFailure(input.source, `shutdown table under "${section}" has no dated heading`);
    const announcedDate = group(announced, 1);
    const dateCol = requireColumn(input.source, table.headers, /^shutdown date$/i);
    const modelCol = requireColumn(
      input.source,
      table.headers,
      /^(model \/ system|deprecated model|legacy model|model snapshot|system)$/i,
    );
    const replacementCol = requireColumn(input.source, table.headers, /replacement|substitute/i);
    const deprecation = parseMilestone(announcedDate, [evidence]);
    for (const row of table.rows) {
      const modelCell = openaiModelCell(row[modelCol] ?? "");
      const label = plainCell(row[modelCol] ?? "");
      if (modelCell.kind === "skip") {
        skipped.add(modelCell.reason, label);
        continue;
      }
      const endOfLife = sourceMilestone(
        input.source,
        openaiShutdownText(row[dateCol] ?? ""),
        [evidence],
        label,
      );
      if (endOfLife.state === "unknown") throw parseFailure(input.source, `${label}: empty shutdown date`);
      const replacements = openaiReplacements(row[replacementCol] ?? "");
      for (const id of modelCell.ids) {
        if (id.startsWith("ft-")) {
          skipped.add("fine-tuned model family, not a base model", id);
          continue;
        }
        if (seen.has(id)) {
          // The page lists newest announcements first; a later row is an older announcement.
          skipped.add("listed again under an older announcement (newest kept)", `${id} (${announcedDate})`);
          continue;
        }
        seen.add(id);
        const ident = identity(id, OPENAI.modes.standard);
        deployments.push({ ...ident, display_name: id, evidence });
        lifecycle.push({
          scope: "deployment",
          provider_id: PROVIDER_ID,
          target: { provider_model_id: id, api_surface: OPENAI.surfaces.api },
          announced_at: `${announcedDate}T00:00:00Z`,
          deprecation,
          end_of_life: endOfLife,
          replacements,
          evidence,
        });
      }
    }
  }
  requireSome(input.source, lifecycle, "deprecated models");
  return { deployments, lifecycle, skipped: skipped.toArray() } satisfies ParseOutput;
};

export const parsers: Record<string, Parser> = {
  "openai-pricing": parseOpenaiPricing,
  "openai-deprecations": parseOpenaiDeprecations,
};
