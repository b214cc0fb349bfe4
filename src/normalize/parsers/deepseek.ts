/**
 * DeepSeek official source: the Models & Pricing page (api-docs.deepseek.com/quick_start/pricing)
 * as text. Its "Model Details" table has one column per API model and one row per fact; the text
 * rendering flattens it into "LABEL| value| value" lines, a cell spanning every model column
 * giving one value, and a cell with a line break continuing on the next line:
 *
 *     **MODEL|  deepseek-chat| deepseek-reasoner
 *     MODEL VERSION| DeepSeek-V3.2
 *     (Non-thinking Mode)| DeepSeek-V3.2
 *     (Thinking Mode)
 *     CONTEXT LENGTH| 128K
 *     MAX OUTPUT| DEFAULT: 4K
 *     MAXIMUM: 8K| DEFAULT: 32K
 *     MAXIMUM: 64K
 *     FEATURES| [Json Output](...)| ✓| ✓
 *     [Tool Calls](...)| ✓| ✓
 *     PRICING| 1M INPUT TOKENS (CACHE HIT)| $0.028
 *     1M INPUT TOKENS (CACHE MISS)| $0.28
 *     1M OUTPUT TOKENS| $0.42
 *
 * Read: context length, maximum output, tool calls, thinking mode (reasoning), and the cache-hit,
 * cache-miss (input) and output prices per 1M tokens.
 */

import { modelId } from "../../lib/ids.js";
import { group } from "../../lib/regex.js";
import type { Capabilities, DeploymentFact } from "../../schema/index.js";
import {
  apiDeploymentIdentity,
  evidenceFor,
  parseFailure,
  printedTokenCount,
  requireSome,
  tokenRateCard,
  usdToMicro,
} from "../helpers.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "deepseek";
const MODEL_ID = /^deepseek-[a-z0-9.-]+$/;

/** DeepSeek is its own lab: the canonical model name is the API model name ("deepseek-chat"). */
export function deepseekModelId(providerModelId: string): string {
  return modelId("deepseek", providerModelId);
}

/** A line that starts a row of the flattened table (any other line continues the previous row). */
const ROW_START =
  /^(?:\*\*)?(?:MODEL|BASE URL|MODEL VERSION|CONTEXT LENGTH|MAX OUTPUT|FEATURES|PRICING|CONCURRENCY LIMIT)\||^\[[^\]]+\]\([^)]*\)\||^1M [A-Z ()]+\|/;

/** The flattened Model Details table as rows of cells: [label, ...values]. */
export function deepseekRows(input: Pick<ParserInput, "source" | "content">): string[][] {
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

export const parseDeepseekPricing: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const rows = deepseekRows(input);
  const modelsRow = rows.find((r) => r[0] === "MODEL");
  const models = modelsRow?.slice(1) ?? [];
  if (models.length === 0 || !models.every((m) => MODEL_ID.test(m)))
    throw parseFailure(input.source, `the MODEL row names no API models (${models.join(", ")})`);
  /** The values of the row whose (sub)label matches, one per model (a spanning cell repeated). */
  const values = (label: RegExp, what: string): string[] => {
    // A row's label is its first cell, or its second under a spanning group label.
    const labelled = (r: string[]) => label.test(r[0] ?? "");
    const row = rows.find((r) => labelled(r) || (r.length > 2 && label.test(r[1] ?? "")));
    if (!row) throw parseFailure(input.source, `no ${what} row`);
    const cells = labelled(row) ? row.slice(1) : row.slice(2);
    const [spanning] = cells;
    if (cells.length === 1 && spanning !== undefined) return models.map(() => spanning);
    if (cells.length !== models.length)
      throw parseFailure(input.source, `${what}: ${cells.length} values for ${models.length} models`);
    return cells;
  };
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
  const context = values(/^CONTEXT LENGTH$/, "CONTEXT LENGTH");
  const maxOutput = values(/^MAX OUTPUT$/, "MAX OUTPUT");
  const version = values(/^MODEL VERSION$/, "MODEL VERSION");
  const tools = values(/^\[Tool Calls\]/, "Tool Calls");
  const hit = values(/^1M INPUT TOKENS \(CACHE HIT\)$/, "cache-hit input price");
  const miss = values(/^1M INPUT TOKENS \(CACHE MISS\)$/, "cache-miss input price");
  const output = values(/^1M OUTPUT TOKENS$/, "output price");
  const deployments: DeploymentFact[] = models.map((id, i) => {
    /** The model's value of a row `values` returned (one per model). */
    const of = (row: string[], what: string): string => {
      const value = row[i];
      if (value === undefined) throw parseFailure(input.source, `${id}: no ${what} value`);
      return value;
    };
    const maximum = /MAXIMUM:\s*([\d.]+\s*[KM]?)/i.exec(of(maxOutput, "MAX OUTPUT"));
    const mode = /\((non-thinking|thinking) mode\)/i.exec(of(version, "MODEL VERSION"));
    const tool = of(tools, "Tool Calls");
    if (tool !== "✓" && tool !== "✗") throw parseFailure(input.source, `${id} Tool Calls: "${tool}"`);
    const capabilities: Capabilities = {
      tool_calling: {
        status: tool === "✓" ? "supported" : "unsupported",
        verification_status: "official_declared",
      },
      ...(mode
        ? {
            reasoning: {
              status: /^thinking$/i.test(group(mode, 1)) ? ("supported" as const) : ("unsupported" as const),
              verification_status: "official_declared" as const,
            },
          }
        : {}),
    };
    return {
      ...apiDeploymentIdentity(PROVIDER_ID, id, deepseekModelId(id)),
      display_name: id,
      context_tokens: printedTokenCount(input.source, of(context, "CONTEXT LENGTH")),
      max_output_tokens: maximum ? printedTokenCount(input.source, group(maximum, 1)) : null,
      capabilities,
      rate_card: tokenRateCard(input.source, input.observedAt, {
        input: money(of(miss, "cache-miss input price"), `${id} cache-miss input`),
        cachedInput: money(of(hit, "cache-hit input price"), `${id} cache-hit input`),
        output: money(of(output, "output price"), `${id} output`),
      }),
      evidence,
    };
  });
  return { deployments: requireSome(input.source, deployments, "models"), lifecycle: [], skipped: [] };
};

export const parsers: Record<string, Parser> = { "deepseek-pricing": parseDeepseekPricing };
