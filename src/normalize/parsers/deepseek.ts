/**
 * DeepSeek official source: the Models & Pricing page (api-docs.deepseek.com/quick_start/pricing)
 * as text. Its "Model Details" table has one column per API model and one row per fact. Two text
 * renderings of it are read:
 *
 * - "pipe": cells separated by "|" ("LABEL| value| value"), a cell spanning every model column
 *   giving one value, a cell with a line break continuing on the next line:
 *
 *       **MODEL|  deepseek-chat| deepseek-reasoner
 *       MODEL VERSION| DeepSeek-V3.2
 *       (Non-thinking Mode)| DeepSeek-V3.2
 *       (Thinking Mode)
 *       CONTEXT LENGTH| 128K
 *       MAX OUTPUT| DEFAULT: 4K
 *       MAXIMUM: 8K| DEFAULT: 32K
 *       MAXIMUM: 64K
 *       FEATURES| [Json Output](...)| ✓| ✓
 *       [Tool Calls](...)| ✓| ✓
 *       PRICING| 1M INPUT TOKENS (CACHE HIT)| $0.028
 *
 * - "reader" (a reader service's Markdown of the page: "Title: / URL Source: / Published Time: /
 *   Markdown Content:"): the cells of a row run together, a footnote mark glued to a model name:
 *
 *       **MODEL deepseek-v4-flash(1)deepseek-v4-pro
 *       MODEL VERSION DeepSeek-V4-Flash DeepSeek-V4-Pro
 *       THINKING MODE Supports both non-thinking and thinking (default) modes
 *       CONTEXT LENGTH 1M
 *       MAX OUTPUT MAXIMUM: 384K
 *       FEATURES[Json Output](...)✓✓
 *       [Tool Calls](...)✓✓
 *       [Vision](...)✓Not supported
 *       PRICING 1M INPUT TOKENS (CACHE HIT)$0.0028$0.003625
 *       1M INPUT TOKENS (CACHE MISS)$0.14$0.435
 *       1M OUTPUT TOKENS$0.28$0.87
 *       Concurrency Limit(2)2500 500**
 *
 * Read: context length, maximum output, tool calls, vision, thinking mode (reasoning), the
 * cache-hit, cache-miss (input) and output prices per 1M tokens, and the footnotes' lifecycle
 * statements (model names to be deprecated on a date; legacy names whose models were retired).
 *
 * Since September 2026 the page prices every item by the hour (an OFF-PEAK and a PEAK price, peak
 * hours on weekdays). A rate card has no time-of-day dimension, so those models are published
 * with `rate_card: null` (unknown: the price depends on when the request is made) and the
 * peak / off-peak prices are counted in the parse report, never averaged or picked.
 */

import { modelId } from "../../lib/ids.js";
import { group } from "../../lib/regex.js";
import type {
  Capabilities,
  CapabilityEntry,
  DeploymentFact,
  Evidence,
  LifecycleAssertion,
} from "../../schema/index.js";
import { sourceMilestone } from "../dates.js";
import {
  evidenceFor,
  parseFailure,
  printedTokenCount,
  requireSome,
  SkipLog,
  tokenRateCard,
  usdToMicro,
} from "../helpers.js";
import { DEEPSEEK, deepseekDeployment } from "../identity/index.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "deepseek";
const MODEL_ID = /^deepseek-[a-z0-9.-]+$/;

/** DeepSeek is its own lab: the canonical model name is the API model name ("deepseek-chat"). */
export function deepseekModelId(providerModelId: string): string {
  return modelId("deepseek", providerModelId);
}

type Source = Pick<ParserInput, "source" | "content">;

/** The Model Details table, read from either rendering: one value per model for each row read. */
interface ModelTable {
  models: string[];
  context: string[];
  maxOutput: string[];
  /** MODEL VERSION cells (the 2025 page names the thinking mode there). */
  version: string[];
  /** THINKING MODE cells, where the page has that row. */
  thinking: string[] | null;
  /** Feature rows by their link text ("Tool Calls", "Vision"): one cell per model. */
  features: Map<string, string[]>;
  /** Printed prices per model, or the time-of-day prices where the page prices by the hour. */
  prices:
    | { hit: string[]; miss: string[]; output: string[] }
    | { timeOfDay: { offPeak: string[]; peak: string[] }[] };
}

/** A line that starts a row of the pipe rendering (any other line continues the previous row). */
const ROW_START =
  /^(?:\*\*)?(?:MODEL|BASE URL[^|]*|MODEL VERSION|THINKING MODE|CONTEXT LENGTH|MAX OUTPUT|FEATURES|PRICING(?:\(\d+\))?|CONCURRENCY LIMIT(?:\(\d+\))?)\||^\[[^\]]+\]\([^)]*\)(?:\(\d+\))?\||^1M [A-Z ()]+\|/i;

/** The pipe rendering's Model Details table as rows of cells: [label, ...values]. */
export function deepseekRows(input: Source): string[][] {
  const lines = input.content.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\*\*MODEL\|/.test(l.trim()));
  if (start < 0) throw parseFailure(input.source, 'no Model Details table (a "**MODEL| ..." line)');
  const rows: string[] = [];
  for (const raw of lines.slice(start)) {
    const line = raw.trim();
    if (line === "**") break;
    if (/^-{3}(?:\|-{3})+$/.test(line) || line === "") continue;
    if (ROW_START.test(line) || rows.length === 0) rows.push(line);
    else rows[rows.length - 1] += ` ${line}`;
  }
  return rows.map((row) =>
    row
      .replace(/^\*\*/, "")
      .split("|")
      .map((c) => c.trim()),
  );
}

function pipeTable(input: Source): ModelTable {
  const rows = deepseekRows(input);
  const models = rows.find((r) => r[0] === "MODEL")?.slice(1) ?? [];
  /** The values of the row whose (sub)label matches, one per model (a spanning cell repeated). */
  const values = (label: RegExp, what: string, optional = false): string[] | null => {
    // A row's label is its first cell, or its second under a spanning group label.
    const labelled = (r: string[]) => label.test(r[0] ?? "");
    const row = rows.find((r) => labelled(r) || (r.length > 2 && label.test(r[1] ?? "")));
    if (!row) {
      if (optional) return null;
      throw parseFailure(input.source, `no ${what} row`);
    }
    const cells = labelled(row) ? row.slice(1) : row.slice(2);
    return perModel(input, models, cells, what);
  };
  const must = (label: RegExp, what: string): string[] => values(label, what) ?? [];
  const features = new Map<string, string[]>();
  for (const name of ["Tool Calls", "Vision"]) {
    const cells = values(new RegExp(`^\\[${name}\\]`), name, name !== "Tool Calls");
    if (cells) features.set(name, cells);
  }
  return {
    models,
    context: must(/^CONTEXT LENGTH$/, "CONTEXT LENGTH"),
    maxOutput: must(/^MAX OUTPUT$/, "MAX OUTPUT"),
    version: must(/^MODEL VERSION$/, "MODEL VERSION"),
    thinking: values(/^THINKING MODE$/, "THINKING MODE", true),
    features,
    prices: {
      hit: must(/^1M INPUT TOKENS \(CACHE HIT\)$/, "cache-hit input price"),
      miss: must(/^1M INPUT TOKENS \(CACHE MISS\)$/, "cache-miss input price"),
      output: must(/^1M OUTPUT TOKENS$/, "output price"),
    },
  };
}

/** `cells` as one value per model: a single (spanning) cell repeated, else exactly one each. */
function perModel(input: Source, models: string[], cells: string[], what: string): string[] {
  const [spanning] = cells;
  if (cells.length === 1 && spanning !== undefined) return models.map(() => spanning);
  if (cells.length !== models.length)
    throw parseFailure(input.source, `${what}: ${cells.length} values for ${models.length} models`);
  return cells;
}

/** A cell of a run-together feature row: a mark or one of the phrases the page prints. */
const FEATURE_CELL = /✓|✗|Not supported|Non-thinking mode only|Thinking mode only/g;

function readerTable(input: Source): ModelTable {
  const lines = input.content.split(/\r?\n/).map((l) => l.trim());
  const start = lines.findIndex((l) => /^\*\*MODEL /.test(l));
  if (start < 0) throw parseFailure(input.source, 'no Model Details table (a "**MODEL ..." line)');
  const end = lines.findIndex((l, i) => i >= start && l.endsWith("**"));
  if (end < 0) throw parseFailure(input.source, "the Model Details table does not end");
  const table = lines.slice(start, end + 1);
  // "deepseek-v4-flash(1)deepseek-v4-pro": names run together, a footnote mark after one.
  const modelCells = (table[0] ?? "").replace(/^\*\*MODEL /, "");
  const models = [
    ...modelCells.matchAll(/(deepseek-[a-z0-9.]+(?:-[a-z0-9.]+)*?)(?:\(\d+\))?(?=deepseek-|$)/g),
  ].map((m) => group(m, 1));
  const line = (label: RegExp, what: string): string => {
    const found = table.find((l) => label.test(l));
    if (found === undefined) throw parseFailure(input.source, `no ${what} row`);
    return found.replace(label, "").trim();
  };
  const spaced = (label: RegExp, what: string): string[] =>
    perModel(input, models, line(label, what).split(/\s+/), what);
  const features = new Map<string, string[]>();
  for (const row of table) {
    const m = /^(?:FEATURES)?\[([^\]]+)\]\([^)]*\)(?:\(\d+\))?(.*)$/.exec(row);
    if (!m) continue;
    const name = group(m, 1);
    const cells = group(m, 2).match(FEATURE_CELL) ?? [];
    const rest = group(m, 2).replace(FEATURE_CELL, "").trim();
    if (rest !== "") throw parseFailure(input.source, `${name}: unreadable cells "${group(m, 2)}"`);
    features.set(name, perModel(input, models, cells, name));
  }
  // The pricing rows as one text (a label may break across lines: "1M INPUT TOKENS\n(CACHE HIT)").
  const pricingStart = table.findIndex((l) => /^PRICING\b/.test(l));
  const pricingEnd = table.findIndex((l) => /^Concurrency Limit\b/i.test(l));
  if (pricingStart < 0) throw parseFailure(input.source, "no PRICING row");
  const pricing = table
    .slice(pricingStart, pricingEnd < 0 ? undefined : pricingEnd)
    .join(" ")
    .replace(/^PRICING(?:\(\d+\))?\s*/, "")
    .replace(/\s+/g, " ");
  const dollars = (label: string, what: string): string[] => {
    const m = new RegExp(`${label.replace(/[()]/g, "\\$&")}\\s*((?:\\$[0-9.]+\\s*)+)`).exec(pricing);
    if (!m) throw parseFailure(input.source, `no ${what} price`);
    return perModel(input, models, group(m, 1).match(/\$[0-9.]+/g) ?? [], what);
  };
  /** A price row priced by the hour: "LABEL OFF-PEAK$a$b PEAK$c$d", one price per model each. */
  const byHour = (label: string, what: string): { offPeak: string[]; peak: string[] } => {
    const m = new RegExp(
      `${label.replace(/[()]/g, "\\$&")}\\s*OFF-PEAK\\s*((?:\\$[0-9.]+\\s*)+)PEAK\\s*((?:\\$[0-9.]+\\s*)+)`,
    ).exec(pricing);
    if (!m) throw parseFailure(input.source, `no ${what} off-peak / peak prices`);
    const cells = (text: string) => perModel(input, models, text.match(/\$[0-9.]+/g) ?? [], what);
    return { offPeak: cells(group(m, 1)), peak: cells(group(m, 2)) };
  };
  const timeOfDay = /\b(?:OFF-)?PEAK\b/.test(pricing);
  return {
    models,
    context: perModel(input, models, [line(/^CONTEXT LENGTH\s*/, "CONTEXT LENGTH")], "CONTEXT LENGTH"),
    maxOutput: perModel(input, models, [line(/^MAX OUTPUT\s*/, "MAX OUTPUT")], "MAX OUTPUT"),
    version: spaced(/^MODEL VERSION\s*/, "MODEL VERSION"),
    thinking: perModel(input, models, [line(/^THINKING MODE\s*/, "THINKING MODE")], "THINKING MODE"),
    features,
    prices: timeOfDay
      ? {
          timeOfDay: [
            byHour("1M INPUT TOKENS (CACHE HIT)", "cache-hit input"),
            byHour("1M INPUT TOKENS (CACHE MISS)", "cache-miss input"),
            byHour("1M OUTPUT TOKENS", "output"),
          ],
        }
      : {
          hit: dollars("1M INPUT TOKENS (CACHE HIT)", "cache-hit input"),
          miss: dollars("1M INPUT TOKENS (CACHE MISS)", "cache-miss input"),
          output: dollars("1M OUTPUT TOKENS", "output"),
        },
  };
}

const declared = (supported: boolean): CapabilityEntry => ({
  status: supported ? "supported" : "unsupported",
  verification_status: "official_declared",
});

/** A feature cell as supported / unsupported ("Non-thinking mode only" is conditional). */
function featureEntry(input: Source, id: string, name: string, cell: string): CapabilityEntry {
  if (cell === "✓") return declared(true);
  if (cell === "✗" || cell === "Not supported") return declared(false);
  if (/mode only$/.test(cell)) return { status: "conditional", verification_status: "official_declared" };
  throw parseFailure(input.source, `${id} ${name}: "${cell}"`);
}

/**
 * The footnotes' lifecycle statements:
 * - "The model names `a` and `b` will be deprecated on 2026/07/24 15:59 UTC. For compatibility,
 *   they correspond to ... of `c`": a deprecation on that day, replaced by `c`;
 * - "Use `c` as the model name. The legacy names `a` and `b` are still accepted, but the
 *   corresponding models have been retired": the names are legacy (still served, by `c`'s
 *   model), the models they named are retired; replaced by `c`.
 */
/** "Use `c` as the model name. The legacy names `a` and `b` are still accepted, ..." */
const LEGACY_NAMES =
  /Use `([^`]+)` as the model name\. The legacy names ((?:`[^`]+`(?:,? and |, )?)+) are still accepted, but the corresponding models have been retired/;

const tickedNames = (list: string) => [...list.matchAll(/`([^`]+)`/g)].map((m) => group(m, 1));

/** The legacy names the footnotes list, with the model name that replaces them. */
function legacyNames(input: ParserInput): { names: string[]; replacement: string } | null {
  const legacy = LEGACY_NAMES.exec(input.content.replace(/\s+/g, " "));
  return legacy ? { names: tickedNames(group(legacy, 2)), replacement: group(legacy, 1) } : null;
}

function footnoteLifecycle(input: ParserInput, evidence: Evidence): LifecycleAssertion[] {
  const text = input.content.replace(/\s+/g, " ");
  const target = (id: string) => ({ provider_model_id: id, api_surface: DEEPSEEK.surfaces.api });
  const out: LifecycleAssertion[] = [];
  const deprecated =
    /The model names ((?:`[^`]+`(?:,? and |, )?)+) will be deprecated on (\d{4})\/(\d{1,2})\/(\d{1,2})[^.]*\. For compatibility, they correspond to [^`]*`([^`]+)`/.exec(
      text,
    );
  if (deprecated) {
    const day = `${group(deprecated, 2)}-${group(deprecated, 3).padStart(2, "0")}-${group(deprecated, 4).padStart(2, "0")}`;
    for (const id of tickedNames(group(deprecated, 1)))
      out.push({
        scope: "deployment",
        provider_id: PROVIDER_ID,
        target: target(id),
        deprecation: sourceMilestone(input.source, day, [evidence], `${id} deprecation date`),
        replacements: [group(deprecated, 5)],
        evidence,
      });
  }
  const legacy = legacyNames(input);
  if (legacy) {
    const { replacement } = legacy;
    for (const id of legacy.names) {
      out.push({
        scope: "deployment",
        provider_id: PROVIDER_ID,
        target: target(id),
        status: "legacy",
        replacements: [replacement],
        evidence,
      });
      out.push({
        scope: "model",
        provider_id: PROVIDER_ID,
        model_id: deepseekModelId(id),
        status: "retired",
        replacements: [replacement],
        evidence,
      });
    }
  }
  return out;
}

export const parseDeepseekPricing: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const table = /^\*\*MODEL\|/m.test(input.content) ? pipeTable(input) : readerTable(input);
  const { models } = table;
  if (models.length === 0 || !models.every((m) => MODEL_ID.test(m)))
    throw parseFailure(input.source, `the MODEL row names no API models (${models.join(", ")})`);
  const money = (text: string, what: string): number => {
    let value: number | null;
    try {
      value = usdToMicro(text);
    } catch {
      throw parseFailure(input.source, `${what}: "${text}" is not a price per 1M tokens`);
    }
    if (value === null) throw parseFailure(input.source, `${what}: no price`);
    return value;
  };
  const { prices } = table;
  if ("timeOfDay" in prices)
    models.forEach((id, i) => {
      // Read (so a changed format is noticed), then reported: cache hit, cache miss, output.
      const printed = prices.timeOfDay.map(({ offPeak, peak }) => {
        const [low, high] = [offPeak[i] ?? "", peak[i] ?? ""];
        money(low, `${id} off-peak price`);
        money(high, `${id} peak price`);
        return `${low} / ${high}`;
      });
      skipped.add(
        "priced by the hour, off-peak / peak (a rate card has no time of day: rate_card null)",
        `${id}: cache hit ${printed[0]}, cache miss ${printed[1]}, output ${printed[2]}`,
      );
    });
  const deployments: DeploymentFact[] = models.map((id, i) => {
    /** The model's value of a row (one per model). */
    const of = (row: string[], what: string): string => {
      const value = row[i];
      if (value === undefined) throw parseFailure(input.source, `${id}: no ${what} value`);
      return value;
    };
    const maximum = /MAXIMUM:\s*([\d.]+\s*[KM]?)/i.exec(of(table.maxOutput, "MAX OUTPUT"));
    const mode = /\((non-thinking|thinking) mode\)/i.exec(of(table.version, "MODEL VERSION"));
    const thinking = table.thinking ? of(table.thinking, "THINKING MODE") : null;
    const capabilities: Capabilities = {};
    for (const [name, capability] of [
      ["Tool Calls", "tool_calling"],
      ["Vision", "vision"],
    ] as const) {
      const row = table.features.get(name);
      if (row) capabilities[capability] = featureEntry(input, id, name, of(row, name));
    }
    if (!capabilities.tool_calling) throw parseFailure(input.source, "no Tool Calls row");
    if (thinking !== null) {
      if (!/\bthinking\b/i.test(thinking))
        throw parseFailure(input.source, `${id} THINKING MODE: "${thinking}"`);
      // "Supports both non-thinking and thinking (default) modes".
      capabilities.reasoning = declared(true);
    } else if (mode) capabilities.reasoning = declared(/^thinking$/i.test(group(mode, 1)));
    return {
      ...deepseekDeployment(id),
      display_name: id,
      context_tokens: printedTokenCount(input.source, of(table.context, "CONTEXT LENGTH")),
      max_output_tokens: maximum ? printedTokenCount(input.source, group(maximum, 1)) : null,
      capabilities,
      rate_card:
        "timeOfDay" in prices
          ? null
          : tokenRateCard(input.source, input.observedAt, {
              input: money(of(prices.miss, "cache-miss input price"), `${id} cache-miss input`),
              cachedInput: money(of(prices.hit, "cache-hit input price"), `${id} cache-hit input`),
              output: money(of(prices.output, "output price"), `${id} output`),
            }),
      evidence,
    };
  });
  // A legacy name is still served, "billed at the Flash price": the replacement's rate card
  // (null where that is priced by the hour). Its limits are not stated: left to other sources.
  const legacy = legacyNames(input);
  if (legacy) {
    const replacement = deployments.find((d) => d.provider_model_id === legacy.replacement);
    if (!replacement)
      throw parseFailure(
        input.source,
        `legacy names replaced by ${legacy.replacement}, which the table lacks`,
      );
    for (const id of legacy.names)
      deployments.push({
        ...deepseekDeployment(id),
        display_name: id,
        rate_card: replacement.rate_card ?? null,
        evidence,
      });
  }
  return {
    deployments: requireSome(input.source, deployments, "models"),
    lifecycle: footnoteLifecycle(input, evidence),
    availability_list: "catalog",
    skipped: skipped.toArray(),
  };
};

export const parsers: Record<string, Parser> = { "deepseek-pricing": parseDeepseekPricing };
