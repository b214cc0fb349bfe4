/**
 * Mistral official source: the Models Overview page (Markdown source of
 * docs.mistral.ai/getting-started/models/models_overview). Premier and open model tables give
 * API ids and context sizes; the Legacy models table gives deprecation and retirement dates and
 * the alternative model.
 */
import type {
  DeploymentFact,
  LifecycleAssertion,
  LifecycleMilestone,
  LifecycleStatus,
} from "../../schema/index.js";
import {
  deploymentIdentity,
  evidenceFor,
  parseFailure,
  requireSome,
  SkipLog,
  sourceMilestone,
  unknownMilestone,
} from "../helpers.js";
import { mistralAliasList, mistralIdentity, mistralIdentityWith } from "../identity/index.js";
import { type MarkdownTable, markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "mistral";
const API_SURFACE = "api";
const REGION = "global";

/** Mistral is its own lab: the canonical model name is the API id (e.g. "mistral-medium-2508"). */
export function mistralModelId(providerModelId: string): string {
  return mistralIdentity.canonicalModelId(providerModelId);
}

function identity(providerModelId: string) {
  return deploymentIdentity(
    {
      provider_id: PROVIDER_ID,
      provider_model_id: providerModelId,
      api_surface: API_SURFACE,
      mode: "standard",
      region: REGION,
    },
    mistralModelId(providerModelId),
  );
}

/**
 * "128k" -> 128000, "8k" -> 8000, "" -> null. The page prints thousands with a "k" and no
 * exact count, so the value is the printed one (128k, not 131072).
 */
export function mistralTokens(input: ParserInput, cell: string): number | null {
  const text = plainCell(cell).toLowerCase();
  if (text === "") return null;
  const m = /^(\d+(?:\.\d+)?)\s*(k|m)?$/.exec(text);
  if (!m) throw parseFailure(input.source, `"${cell}" is not a token count`);
  const scale = m[2] === "m" ? 1_000_000 : m[2] === "k" ? 1000 : 1;
  return Math.round(Number(m[1]) * scale);
}

/** The first backticked id of an "API Endpoints" cell ("`voxtral-mini-2507` via `audio/transcriptions`"). */
function endpointId(cell: string): string | null {
  const m = /`([a-z0-9][a-z0-9.-]*)`/i.exec(cell);
  return m ? (m[1] as string) : null;
}

/** "2024/11/30" (the page's format) -> a milestone; an implausible year (the page's "2525") is reported, not believed. */
function legacyDate(
  input: ParserInput,
  cell: string,
  evidence: ReturnType<typeof evidenceFor>,
): LifecycleMilestone | "implausible" {
  const text = plainCell(cell).replace(
    /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/,
    (_, y, mo, d) => `${y}-${mo.padStart(2, "0")}-${d.padStart(2, "0")}`,
  );
  const parsed = sourceMilestone(input.source, text, [evidence]);
  if (parsed.date !== null && Number(parsed.date.slice(0, 4)) > 2100) return "implausible";
  return parsed;
}

function legacyStatus(
  deprecation: LifecycleMilestone,
  endOfLife: LifecycleMilestone,
  observedAt: string,
): LifecycleStatus {
  const today = observedAt.slice(0, 10);
  if (endOfLife.date !== null && endOfLife.date <= today) return "retired";
  if (deprecation.date !== null && deprecation.date <= today) return "deprecated";
  return "legacy";
}

function isModelTable(t: MarkdownTable): boolean {
  const plain = t.headers.map(plainCell);
  return plain.includes("Model") && plain.includes("API Endpoints");
}

export const parseMistralModels: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const facts = new Map<string, DeploymentFact>();
  const lifecycle: LifecycleAssertion[] = [];
  const pageIdentity = mistralIdentityWith(mistralAliasList(input.content));
  const tables = markdownTables(input.content).filter(isModelTable);
  const legacy = tables.filter((t) => t.headers.some((h) => /retirement date/i.test(plainCell(h))));
  const current = tables.filter((t) => !legacy.includes(t));
  requireSome(input.source, current, "model table (Model | ... | Max Tokens | API Endpoints)");
  requireSome(input.source, legacy, "legacy models table with a Retirement date column");

  for (const table of current) {
    const col = {
      model: requireColumn(input.source, table.headers, /^model$/i),
      tokens: requireColumn(input.source, table.headers, /^max tokens$/i),
      endpoint: requireColumn(input.source, table.headers, /^api endpoints$/i),
    };
    for (const row of table.rows) {
      const name = plainCell(row[col.model] ?? "");
      const id = endpointId(row[col.endpoint] ?? "");
      if (!id) {
        skipped.add("no API model id (not served by the API)", name);
        continue;
      }
      const context = mistralTokens(input, row[col.tokens] ?? "");
      const existing = facts.get(id);
      if (existing) {
        // "Voxtral Mini Transcribe" and "Voxtral Mini" share voxtral-mini-2507; keep the first row, fill a missing size.
        if (existing.context_tokens === undefined && context !== null) existing.context_tokens = context;
        skipped.add("API id listed in more than one row (first kept)", `${name} (${id})`);
        continue;
      }
      facts.set(id, {
        ...identity(id),
        display_name: name,
        ...(context !== null ? { context_tokens: context } : {}),
        evidence,
      });
    }
  }
  requireSome(input.source, [...facts.keys()], "models with an API id");

  for (const table of legacy) {
    const col = {
      model: requireColumn(input.source, table.headers, /^model$/i),
      endpoint: requireColumn(input.source, table.headers, /^api endpoints$/i),
      deprecation: requireColumn(input.source, table.headers, /^deprecation( on)? date$/i),
      retirement: requireColumn(input.source, table.headers, /^retirement date$/i),
      alternative: requireColumn(input.source, table.headers, /^alternative model$/i),
    };
    for (const row of table.rows) {
      const name = plainCell(row[col.model] ?? "");
      const id = endpointId(row[col.endpoint] ?? "");
      if (!id) {
        skipped.add("legacy model without an API model id", name);
        continue;
      }
      const deprecation = legacyDate(input, row[col.deprecation] ?? "", evidence);
      const endOfLife = legacyDate(input, row[col.retirement] ?? "", evidence);
      if (deprecation === "implausible" || endOfLife === "implausible")
        skipped.add(
          "implausible lifecycle date on the page (year after 2100), dates ignored",
          `${id}: ${plainCell(row[col.retirement] ?? "")}`,
        );
      const dep = deprecation === "implausible" ? unknownMilestone() : deprecation;
      const eol = endOfLife === "implausible" ? unknownMilestone() : endOfLife;
      // "`mistral-small-latest`" resolves through the page's own alias list to the model it points to.
      const replacements = [...(row[col.alternative] ?? "").matchAll(/`([^`]+)`/g)].map((m) =>
        pageIdentity.providerModelId(m[1] as string),
      );
      if (!facts.has(id)) facts.set(id, { ...identity(id), display_name: name, evidence });
      lifecycle.push({
        scope: "deployment",
        provider_id: PROVIDER_ID,
        target: { provider_model_id: id, api_surface: API_SURFACE },
        status: legacyStatus(dep, eol, input.observedAt),
        deprecation: dep,
        end_of_life: eol,
        replacements,
        evidence,
      });
    }
  }
  requireSome(input.source, lifecycle, "legacy models with an API id");
  return { deployments: [...facts.values()], lifecycle, skipped: skipped.toArray() };
};

export const parsers: Record<string, Parser> = {
  "mistral-models": parseMistralModels,
};
