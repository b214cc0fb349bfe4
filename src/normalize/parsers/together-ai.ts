/**
 * Together AI official source: the Serverless Models page (docs.together.ai/docs/serverless-models,
 * Markdown form). Its "Chat models" table lists Organization | Model Name | API Model String |
 * Context length | Quantization, and in newer versions of the page also Input / Cached input /
 * Output pricing (per 1M tokens) and Function Calling / Structured Outputs columns, which are
 * read when present. A trailing `*` on the API model string marks a deprecated model (the
 * page's footnote "*Deprecated model, see Deprecations"); every other listed model is served,
 * so available. Other tables (image, vision, audio,
 * embedding, rerank, code, language, moderation models) are not read.
 */
import type { Capabilities, CapabilityName, DeploymentFact } from "../../schema/index.js";
import {
  evidenceFor,
  parseFailure,
  printedTokenCount,
  requireSome,
  SkipLog,
  tokenRateCard,
  usdToMicro,
} from "../helpers.js";
import { togetherModelId } from "../identity/hosted-models.js";
import { togetherDeployment } from "../identity/index.js";
import { cleanCell, markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "together-ai";
const API_STRING = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

export { togetherModelId } from "../identity/hosted-models.js";

function optionalColumn(headers: string[], re: RegExp): number {
  return headers.findIndex((h) => re.test(plainCell(h)));
}

function price(input: ParserInput, cell: string | undefined, what: string): number | null {
  if (cell === undefined) return null;
  try {
    return usdToMicro(cleanCell(cell).replace(/\\\$/g, "$"));
  } catch {
    throw parseFailure(input.source, `${what}: "${cell}" is not a price per 1M tokens`);
  }
}

/** "Yes" -> supported; "-" or empty -> not stated. */
function yes(input: ParserInput, cell: string | undefined, what: string): boolean | null {
  const text = plainCell(cell ?? "");
  if (/^yes$/i.test(text)) return true;
  if (text === "" || text === "-") return null;
  if (/^no$/i.test(text)) return false;
  throw parseFailure(input.source, `${what}: "${cell}" is neither Yes nor -`);
}

export const parseTogetherModels: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const table = markdownTables(input.content).find(
    (t) =>
      /^chat models$/i.test(plainCell(t.heading)) &&
      t.headers.some((h) => /^api model string$/i.test(plainCell(h))),
  );
  if (!table)
    throw parseFailure(
      input.source,
      "no Chat models table (Organization | Model Name | API Model String ...)",
    );
  const h = table.headers;
  const col = {
    name: requireColumn(input.source, h, /^model name$/i),
    api: requireColumn(input.source, h, /^api model string$/i),
    context: requireColumn(input.source, h, /^context length$/i),
    input: optionalColumn(h, /^input pricing/i),
    cached: optionalColumn(h, /^cached input pricing/i),
    output: optionalColumn(h, /^output pricing/i),
    tools: optionalColumn(h, /^function calling$/i),
    structured: optionalColumn(h, /^structured outputs?$/i),
  };
  const deployments: DeploymentFact[] = [];
  const seen = new Set<string>();
  for (const row of table.rows) {
    const raw = cleanCell(row[col.api] ?? "");
    const deprecated = /\*$/.test(raw);
    const api = raw.replace(/\*+$/, "");
    if (!API_STRING.test(api)) throw parseFailure(input.source, `"${raw}" is not an API model string`);
    const canonical = togetherModelId(api);
    if (!canonical) {
      skipped.add("API model string without a publisher", api);
      continue;
    }
    const identity = togetherDeployment(api);
    if (seen.has(identity.id)) throw parseFailure(input.source, `${api} is listed twice`);
    seen.add(identity.id);
    const capabilities: Capabilities = {};
    for (const [index, name] of [
      [col.tools, "tool_calling"],
      [col.structured, "structured_output"],
    ] as Array<[number, CapabilityName]>) {
      if (index < 0) continue;
      const value = yes(input, row[index], `${api} ${name}`);
      if (value !== null)
        capabilities[name] = {
          status: value ? "supported" : "unsupported",
          verification_status: "official_declared",
        };
    }
    const inputPrice = col.input < 0 ? null : price(input, row[col.input], `${api} input`);
    deployments.push({
      ...identity,
      display_name: plainCell(cleanCell(row[col.name] ?? "")).replace(/\*+$/, ""),
      context_tokens: printedTokenCount(input.source, plainCell(row[col.context] ?? "")),
      ...(Object.keys(capabilities).length > 0 ? { capabilities } : {}),
      ...(inputPrice !== null
        ? {
            rate_card: tokenRateCard(input.source, input.observedAt, {
              input: inputPrice,
              cachedInput: col.cached < 0 ? null : price(input, row[col.cached], `${api} cached input`),
              output: col.output < 0 ? null : price(input, row[col.output], `${api} output`),
            }),
          }
        : {}),
      // The page is the list of models served now: listed is available, starred is deprecated.
      status: deprecated ? "deprecated" : "available",
      evidence,
    });
  }
  return {
    deployments: requireSome(input.source, deployments, "chat models"),
    lifecycle: [],
    availability_list: "catalog",
    skipped: skipped.toArray(),
  };
};

/** The guide pages that list the models supporting one feature, by the page's title. */
const FEATURE_PAGES: Record<string, CapabilityName> = {
  "Function Calling": "tool_calling",
  "Structured Outputs": "structured_output",
  Vision: "vision",
};

/**
 * A Together AI guide page that lists the serverless models supporting its feature (Markdown
 * form): Function Calling ("## Supported models": "The following models currently support
 * function calling:" and a bullet list of API model strings), Structured Outputs (the same
 * section, JSON mode, two lists) and Vision (the bullets before the first "##" section, each a
 * playground link ending in the API model string). Each listed model gets the feature as
 * `supported`, `official_declared`, as a model fact (the page creates no deployments; a model the
 * page does not list stays unknown, never "unsupported").
 */
export const parseTogetherFeatureModels: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const lines = input.content.split("\n");
  const title = /^# (.+)$/.exec(lines.find((l) => l.startsWith("# ")) ?? "")?.[1]?.trim() ?? "";
  const capability = FEATURE_PAGES[title];
  if (!capability) throw parseFailure(input.source, `no feature page this parser knows ("# ${title}")`);
  const supported = lines.findIndex((l) => /^## Supported models\s*$/i.test(l));
  const from = supported >= 0 ? supported + 1 : lines.findIndex((l) => l.startsWith("# ")) + 1;
  const to = lines.findIndex((l, i) => i >= from && /^## /.test(l));
  const ids: string[] = [];
  for (const line of lines.slice(from, to < 0 ? undefined : to)) {
    const m = /^\* (?:`([^`]+)`|\[[^\]]*\]\(https:\/\/api\.together\.ai\/playground\/([^)]+)\))\s*$/.exec(
      line,
    );
    if (!m) {
      if (/^\* /.test(line)) throw parseFailure(input.source, `unreadable model bullet "${line}"`);
      continue;
    }
    const id = m[1] ?? m[2] ?? "";
    if (!API_STRING.test(id)) throw parseFailure(input.source, `"${id}" is not an API model string`);
    if (!ids.includes(id)) ids.push(id);
  }
  const facts = requireSome(
    input.source,
    ids.map((id) => ({
      provider_id: PROVIDER_ID,
      provider_model_id: id,
      capabilities: { [capability]: { status: "supported", verification_status: "official_declared" } },
      evidence,
    })),
    "listed models",
  );
  return { deployments: [], lifecycle: [], model_facts: facts, skipped: [] };
};

export const parsers: Record<string, Parser> = {
  "together-ai-models": parseTogetherModels,
  "together-ai-feature-models": parseTogetherFeatureModels,
};
