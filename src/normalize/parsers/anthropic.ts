/**
 * Anthropic official sources (Claude docs, Markdown form): the pricing page and the model
 * deprecations page. The pricing page names models by display name ("Claude Opus 4.5"); the
 * deprecations page by API id. `anthropicModelIdForName` maps the first to the second so both
 * sources describe the same deployments.
 */
import { group } from "../../lib/regex.js";
import type {
  DeploymentFact,
  LifecycleAssertion,
  LifecycleMilestone,
  LifecycleStatus,
  RateCard,
} from "../../schema/index.js";
import {
  evidenceFor,
  parseFailure,
  parseMilestone,
  requireSome,
  SkipLog,
  sourceMilestone,
  usdToMicro,
} from "../helpers.js";
import {
  ANTHROPIC,
  anthropicDeployment,
  anthropicIdentity,
  anthropicModelIdForName,
} from "../identity/index.js";
import { markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "anthropic";

export { anthropicModelIdForName };

/** Anthropic is its own lab: the canonical model name is the Claude API id (../identity/anthropic.ts). */
export function anthropicModelId(providerModelId: string): string {
  return anthropicIdentity.canonicalModelId(providerModelId);
}

/** A Claude API deployment in a mode (../identity/anthropic.ts names them). */
function identity(providerModelId: string, mode: string) {
  return anthropicDeployment(providerModelId, mode);
}

/** "Claude Opus 4.1 ([retired, except on Bedrock and Google Cloud](model-deprecations.md))" -> name + note. */
export function anthropicModelLabel(cell: string): { name: string; note: string | null } {
  const m = /^(.*?)\s*\(\[([^\]]+)\]\([^)]*\)\)\s*$/.exec(cell.trim());
  if (m) return { name: plainCell(group(m, 1)), note: group(m, 2) };
  return { name: plainCell(cell), note: null };
}

function statusFromNote(note: string | null): LifecycleStatus | undefined {
  if (note === null) return undefined;
  if (/^retired\b/i.test(note)) return "retired";
  if (/^deprecated\b/i.test(note)) return "deprecated";
  return undefined;
}

function price(input: ParserInput, cell: string, what: string): number | null {
  try {
    return usdToMicro(plainCell(cell));
  } catch {
    throw parseFailure(input.source, `${what}: "${cell}" is not a price per MTok`);
  }
}

export const parseAnthropicPricing: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const deployments: DeploymentFact[] = [];
  const tables = markdownTables(input.content);
  const hasAll = (t: { headers: string[] }, res: RegExp[]) =>
    res.every((re) => t.headers.some((h) => re.test(plainCell(h))));
  const modelTable = tables.find((t) => hasAll(t, [/^model$/i, /base input/i, /5m cache write/i]));
  if (!modelTable)
    throw parseFailure(
      input.source,
      "no Model pricing table (Model | Base input tokens | 5m cache writes ...)",
    );
  const batchTable = tables.find((t) => hasAll(t, [/^model$/i, /batch input/i, /batch output/i]));
  if (!batchTable)
    throw parseFailure(input.source, "no Batch processing table (Model | Batch input | Batch output)");

  const cols = {
    model: requireColumn(input.source, modelTable.headers, /^model$/i),
    input: requireColumn(input.source, modelTable.headers, /^base input/i),
    write5m: requireColumn(input.source, modelTable.headers, /^5m cache writes?$/i),
    write1h: requireColumn(input.source, modelTable.headers, /^1h cache writes?$/i),
    hits: requireColumn(input.source, modelTable.headers, /^cache hits/i),
    output: requireColumn(input.source, modelTable.headers, /^output/i),
  };
  const card = (inputPrice: number, rest: Partial<RateCard>): RateCard => ({
    currency: "USD",
    unit: "million_tokens",
    input_micro_usd: inputPrice,
    cached_input_micro_usd: null,
    output_micro_usd: null,
    ...rest,
    source_url: input.source.url,
    observed_at: input.observedAt,
  });
  for (const row of modelTable.rows) {
    const { name, note } = anthropicModelLabel(row[cols.model] ?? "");
    const id = anthropicModelIdForName(name);
    if (!id) {
      skipped.add("display name without a known Claude API model id", name);
      continue;
    }
    const inputPrice = price(input, row[cols.input] ?? "", `${name} base input`);
    if (inputPrice === null) throw parseFailure(input.source, `${name}: no base input price`);
    const status = statusFromNote(note);
    deployments.push({
      ...identity(id, ANTHROPIC.modes.standard),
      display_name: name,
      rate_card: card(inputPrice, {
        cached_input_micro_usd: price(input, row[cols.hits] ?? "", `${name} cache hits`),
        output_micro_usd: price(input, row[cols.output] ?? "", `${name} output`),
        cache_write_micro_usd: price(input, row[cols.write5m] ?? "", `${name} 5m cache writes`),
        cache_write_1h_micro_usd: price(input, row[cols.write1h] ?? "", `${name} 1h cache writes`),
      }),
      ...(status ? { status } : {}),
      evidence,
    });
  }
  const batchCols = {
    model: requireColumn(input.source, batchTable.headers, /^model$/i),
    input: requireColumn(input.source, batchTable.headers, /^batch input$/i),
    output: requireColumn(input.source, batchTable.headers, /^batch output$/i),
  };
  for (const row of batchTable.rows) {
    const { name, note } = anthropicModelLabel(row[batchCols.model] ?? "");
    const id = anthropicModelIdForName(name);
    if (!id) {
      skipped.add("display name without a known Claude API model id", `${name} (batch)`);
      continue;
    }
    const inputPrice = price(input, row[batchCols.input] ?? "", `${name} batch input`);
    if (inputPrice === null) throw parseFailure(input.source, `${name}: no batch input price`);
    const status = statusFromNote(note);
    deployments.push({
      ...identity(id, ANTHROPIC.modes.batch),
      display_name: name,
      rate_card: card(inputPrice, {
        output_micro_usd: price(input, row[batchCols.output] ?? "", `${name} batch output`),
      }),
      ...(status ? { status } : {}),
      evidence,
    });
  }
  const ids = deployments.map((d) => d.id);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw parseFailure(input.source, `${duplicate} is priced twice`);
  return {
    deployments: requireSome(input.source, deployments, "priced models"),
    lifecycle: [],
    skipped: skipped.toArray(),
  };
};

const STATES: Record<string, LifecycleStatus> = {
  active: "available",
  legacy: "legacy",
  deprecated: "deprecated",
  retired: "retired",
};

function milestone(
  input: ParserInput,
  text: string,
  evidence: ReturnType<typeof evidenceFor>,
  what: string,
): LifecycleMilestone {
  return sourceMilestone(input.source, plainCell(text), [evidence], what);
}

export const parseAnthropicDeprecations: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const tables = markdownTables(input.content);
  const statusTable = tables.find(
    (t) =>
      t.headers.some((h) => /^api model name$/i.test(plainCell(h))) &&
      t.headers.some((h) => /^current state$/i.test(plainCell(h))),
  );
  if (!statusTable)
    throw parseFailure(input.source, "no Model status table (API model name | Current state ...)");
  const col = {
    id: requireColumn(input.source, statusTable.headers, /^api model name$/i),
    state: requireColumn(input.source, statusTable.headers, /^current state$/i),
    deprecated: requireColumn(input.source, statusTable.headers, /^deprecated$/i),
    retirement: requireColumn(input.source, statusTable.headers, /retire/i),
  };
  const byId = new Map<string, LifecycleAssertion>();
  const order: string[] = [];
  for (const row of statusTable.rows) {
    const id = plainCell(row[col.id] ?? "");
    const stateText = plainCell(row[col.state] ?? "");
    const status = STATES[stateText.toLowerCase()];
    if (!id) throw parseFailure(input.source, "a Model status row has no model name");
    if (!status) throw parseFailure(input.source, `${id}: unknown state "${stateText}"`);
    byId.set(id, {
      scope: "deployment",
      provider_id: PROVIDER_ID,
      target: { provider_model_id: id, api_surface: ANTHROPIC.surfaces.api },
      status,
      deprecation: milestone(input, row[col.deprecated] ?? "", evidence, `${id} deprecated date`),
      end_of_life: milestone(input, row[col.retirement] ?? "", evidence, `${id} retirement date`),
      evidence,
    });
    order.push(id);
  }
  requireSome(input.source, order, "rows in the Model status table");

  const historyTables = tables.filter(
    (t) =>
      t.headers.some((h) => /^deprecated model$/i.test(plainCell(h))) &&
      t.headers.some((h) => /^retirement date$/i.test(plainCell(h))),
  );
  requireSome(input.source, historyTables, "deprecation history table");
  for (const table of historyTables) {
    const section = table.headings[3] ?? "";
    const announced = /^(\d{4}-\d{2}-\d{2}):/.exec(section);
    if (!announced) throw parseFailure(input.source, `history table under "${section}" has no dated heading`);
    const announcedDate = group(announced, 1);
    const h = {
      retirement: requireColumn(input.source, table.headers, /^retirement date$/i),
      model: requireColumn(input.source, table.headers, /^deprecated model$/i),
      replacement: requireColumn(input.source, table.headers, /replacement/i),
    };
    for (const row of table.rows) {
      const id = plainCell(row[h.model] ?? "");
      if (!id) throw parseFailure(input.source, `a row under "${section}" has no model`);
      const replacements = [...(row[h.replacement] ?? "").matchAll(/`([^`]+)`/g)].map((m) => group(m, 1));
      if (replacements.length === 0) {
        const plain = plainCell(row[h.replacement] ?? "");
        if (plain && plain !== "N/A") replacements.push(plain);
      }
      const existing = byId.get(id);
      if (existing) {
        existing.announced_at ??= `${announcedDate}T00:00:00Z`;
        existing.replacements = existing.replacements ?? replacements;
        continue;
      }
      // Older models appear only in the history: the page declares no state for them, only
      // the announcement (deprecation) and retirement days; the release stage derives the status.
      const endOfLife = milestone(input, row[h.retirement] ?? "", evidence, `${id} retirement date`);
      byId.set(id, {
        scope: "deployment",
        provider_id: PROVIDER_ID,
        target: { provider_model_id: id, api_surface: ANTHROPIC.surfaces.api },
        announced_at: `${announcedDate}T00:00:00Z`,
        deprecation: parseMilestone(announcedDate, [evidence]),
        end_of_life: endOfLife,
        replacements,
        evidence,
      });
      order.push(id);
    }
  }
  const lifecycle = order.map((id) => byId.get(id) as LifecycleAssertion);
  const deployments: DeploymentFact[] = order.map((id) => ({
    ...identity(id, ANTHROPIC.modes.standard),
    display_name: id,
    evidence,
  }));
  return { deployments, lifecycle, skipped: [] };
};

export const parsers: Record<string, Parser> = {
  "anthropic-pricing": parseAnthropicPricing,
  "anthropic-deprecations": parseAnthropicDeprecations,
};
