/**
 * xAI official source: the Models and Pricing page (docs.x.ai, Markdown form). Its Model Pricing
 * table has one row per model: Model | Modalities | Capabilities | Context | Rate limits |
 * Pricing. Two renderings of that table are read:
 * - the rendered page as text, whose Pricing cell runs the input and output prices per million
 *   tokens together ("$0.20$0.50") and whose Modalities / Capabilities cells are icons (empty),
 *   with section rows "Language models" / "Image generation models";
 * - the Markdown form "Pricing [in (cached in) / out]" ("$2.00 ($0.20) / $6.00"), with
 *   capabilities as words ("functions, structured, reasoning") and modalities
 *   ("text, image → text"), rows repeated once per cluster.
 * Rows priced per image or per second (image and video generation) are not token deployments.
 */

import { modelId } from "../../lib/ids.js";
import { group } from "../../lib/regex.js";
import type { Capabilities, CapabilityName, DeploymentFact, LifecycleAssertion } from "../../schema/index.js";
import {
  evidenceFor,
  parseFailure,
  printedTokenCount,
  requireSome,
  SkipLog,
  sourceMilestone,
  tokenRateCard,
  usdToMicro,
} from "../helpers.js";
import { XAI, xaiDeployment } from "../identity/index.js";
import { collapseSpace, markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "xai";
const MODEL_ID = /^grok-[a-z0-9.-]+$/;
const CLUSTER = /^[a-z]{2}-[a-z]+-\d$/;

/** xAI is its own lab: the canonical model name is the API model name ("grok-4-0709"). */
export function xaiModelId(providerModelId: string): string {
  return modelId("xai", providerModelId);
}

const CAPABILITY_WORDS: Record<string, CapabilityName> = {
  functions: "tool_calling",
  structured: "structured_output",
  reasoning: "reasoning",
};

export interface XaiPrices {
  input: number;
  cachedInput: number | null;
  output: number | null;
}

/**
 * A Pricing cell to token prices: "$0.20$0.50" (input, output), "$2.00 ($0.20) / $6.00"
 * (input, cached input, output). Null for prices that are not per token ("$0.07",
 * "$0.02/image", "$0.050/sec"); throws on anything else.
 */
export function xaiTokenPrices(input: Pick<ParserInput, "source">, cell: string): XaiPrices | null {
  const text = plainCell(cell);
  const money = (s: string) => {
    const value = usdToMicro(s);
    if (value === null) throw parseFailure(input.source, `"${cell}" has an empty price`);
    return value;
  };
  let m = /^(\$[\d.,]+)\s*\((\$[\d.,]+)\)\s*\/\s*(\$[\d.,]+)$/.exec(text);
  if (m)
    return {
      input: money(group(m, 1)),
      cachedInput: money(group(m, 2)),
      output: money(group(m, 3)),
    };
  m = /^(\$[\d.,]+)\s*\/\s*(\$[\d.,]+)$/.exec(text);
  if (m) return { input: money(group(m, 1)), cachedInput: null, output: money(group(m, 2)) };
  m = /^(\$[\d.,]+)(\$[\d.,]+)$/.exec(text);
  if (m) return { input: money(group(m, 1)), cachedInput: null, output: money(group(m, 2)) };
  if (/^\$[\d.,]+(?:\s*\/\s*(?:image|sec|second|video|minute))?$/i.test(text)) return null;
  throw parseFailure(input.source, `"${cell}" is not a price the parser knows`);
}

function capabilitiesOf(modalities: string, capabilities: string): Capabilities {
  const out: Capabilities = {};
  const words = capabilities
    .split(/,\s*/)
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w !== "" && w !== "-");
  for (const word of words) {
    const name = CAPABILITY_WORDS[word];
    if (name) out[name] = { status: "supported", verification_status: "official_declared" };
  }
  const inputs = modalities.split(/→|->/)[0] ?? "";
  if (inputs.trim() !== "")
    out.vision = /\bimage\b/i.test(inputs)
      ? { status: "supported", verification_status: "official_declared" }
      : { status: "unsupported", verification_status: "official_inferred" };
  return out;
}

export const parseXaiModels: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const table = markdownTables(input.content).find(
    (t) =>
      t.headers.some((h) => /^model$/i.test(plainCell(h))) &&
      t.headers.some((h) => /^pricing\b/i.test(plainCell(h))) &&
      t.headers.some((h) => /^context$/i.test(plainCell(h))),
  );
  if (!table)
    throw parseFailure(input.source, "no Model Pricing table (Model | ... | Context | ... | Pricing)");
  const col = {
    model: requireColumn(input.source, table.headers, /^model$/i),
    modalities: requireColumn(input.source, table.headers, /^modalities$/i),
    capabilities: requireColumn(input.source, table.headers, /^capabilities$/i),
    context: requireColumn(input.source, table.headers, /^context$/i),
    pricing: requireColumn(input.source, table.headers, /^pricing\b/i),
  };
  const byId = new Map<string, { row: string; fact: DeploymentFact }>();
  let section = "";
  for (const row of table.rows) {
    const cells = row.map((c) => plainCell(c));
    const nonEmpty = cells.filter((c) => c !== "");
    const first = cells[col.model] ?? "";
    if (/ models$/i.test(first) && !MODEL_ID.test(first)) {
      section = first;
      continue;
    }
    if (nonEmpty.length === 0) continue;
    const [id, cluster] = first.split(/\s+/) as [string, string | undefined];
    if (!MODEL_ID.test(id) || (cluster !== undefined && !CLUSTER.test(cluster)))
      throw parseFailure(input.source, `"${first}" is not an xAI model id`);
    const prices = /image|video/i.test(section) ? null : xaiTokenPrices(input, row[col.pricing] ?? "");
    if (!prices) {
      skipped.add("priced per image or per second, not per token", first);
      continue;
    }
    const fact: DeploymentFact = {
      ...xaiDeployment(id, cluster ?? XAI.regions.global),
      display_name: id,
      context_tokens: printedTokenCount(input.source, cells[col.context] ?? ""),
      capabilities: capabilitiesOf(cells[col.modalities] ?? "", cells[col.capabilities] ?? ""),
      rate_card: tokenRateCard(input.source, input.observedAt, prices),
      evidence,
    };
    const key = cells.join("|");
    const existing = byId.get(fact.id);
    if (existing) {
      if (existing.row !== key)
        throw parseFailure(input.source, `${first} is listed twice with different facts`);
      skipped.add("row repeated (the Markdown form lists each model once per cluster)", first);
      continue;
    }
    byId.set(fact.id, { row: key, fact });
  }
  return {
    deployments: requireSome(
      input.source,
      [...byId.values()].map((v) => v.fact),
      "token-priced models",
    ),
    lifecycle: [],
    availability_list: "catalog",
    skipped: skipped.toArray(),
  };
};

/** The retirement day a migration guide's prose states: "Effective May 15, 2026 at 12:00 PM PT" -> "May 15, 2026". */
export function xaiRetirementDay(content: string): string | null {
  const text = collapseSpace(content.replace(/[*`]/g, ""));
  const m = /\bEffective ([A-Z][a-z]+ \d{1,2}, \d{4})(?: at \d{1,2}:\d{2} [AP]M [A-Z]{2,4})?,/.exec(text);
  return m ? group(m, 1) : null;
}

/**
 * xAI official lifecycle source: a migration guide announcing retirements (docs.x.ai
 * /developers/migration/may-15-retirement, Markdown form). Its prose states when ("Effective May
 * 15, 2026 at 12:00 PM PT") and its Recommended Replacements table lists Model being retired |
 * Redirect target after May 15 ("`grok-4.3` with `low` reasoning effort"). Each retired language
 * model is asserted deprecated with that day as its end of life (on, day: the slugs keep
 * resolving, but to another model) and the redirect target's model id as its replacement. Image
 * generation models are not token deployments (the models parser skips them too).
 */
export const parseXaiRetirement: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const day = xaiRetirementDay(input.content);
  if (!day)
    throw parseFailure(input.source, 'no retirement date ("Effective <Month D, YYYY> ...,") in the prose');
  const table = markdownTables(input.content).find(
    (t) =>
      t.headers.some((h) => /^model being retired$/i.test(plainCell(h))) &&
      t.headers.some((h) => /^redirect target/i.test(plainCell(h))),
  );
  if (!table) throw parseFailure(input.source, "no table Model being retired | Redirect target");
  const col = {
    model: requireColumn(input.source, table.headers, /^model being retired$/i),
    target: requireColumn(input.source, table.headers, /^redirect target/i),
  };
  const deployments: DeploymentFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  for (const row of table.rows) {
    const id = plainCell(row[col.model] ?? "");
    const target = plainCell(row[col.target] ?? "").split(/\s+/)[0] ?? "";
    if (!MODEL_ID.test(id)) throw parseFailure(input.source, `"${id}" is not an xAI model id`);
    if (!MODEL_ID.test(target))
      throw parseFailure(input.source, `${id}: "${row[col.target] ?? ""}" names no xAI model id`);
    if (/^grok-imagine-/.test(id)) {
      skipped.add("image generation model, not a token deployment", id);
      continue;
    }
    deployments.push({
      ...xaiDeployment(id),
      display_name: id,
      evidence,
    });
    lifecycle.push({
      scope: "deployment",
      provider_id: PROVIDER_ID,
      target: { provider_model_id: id, api_surface: XAI.surfaces.api },
      status: "deprecated",
      end_of_life: sourceMilestone(input.source, day, [evidence], `${id} retirement`),
      replacements: [target],
      evidence,
    });
  }
  return {
    deployments: requireSome(input.source, deployments, "retired language models"),
    lifecycle,
    skipped: skipped.toArray(),
  };
};

export const parsers: Record<string, Parser> = {
  "xai-models": parseXaiModels,
  "xai-retirement": parseXaiRetirement,
};
