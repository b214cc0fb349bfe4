/**
 * Cohere official source: the models overview of Cohere's docs (fern/pages/models/models.mdx in
 * cohere-ai/cohere-developer-experience, rendered at docs.cohere.com/docs/models). The Command
 * and Aya tables give each Chat model's API name, status ("Live", "Deprecated Sept 15, 2025",
 * "Retired Apr 4, 2026"), modality, context length and maximum output tokens. Embed, Rerank and
 * Audio tables (no output tokens) are not text-generation deployments and are not read. The
 * page publishes no prices.
 */

import { modelId } from "../../lib/ids.js";
import { group } from "../../lib/regex.js";
import type {
  Capabilities,
  DeploymentFact,
  LifecycleAssertion,
  LifecycleStatus,
} from "../../schema/index.js";
import {
  apiDeploymentIdentity,
  evidenceFor,
  parseFailure,
  printedTokenCount,
  requireSome,
  SkipLog,
  sourceMilestone,
} from "../helpers.js";
import { markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser } from "../types.js";

const PROVIDER_ID = "cohere";
const API_SURFACE = "api";
const API_ID = /^[a-z0-9][a-z0-9.-]*$/;

/** Cohere is its own lab: the canonical model name is the API name ("command-a-03-2025"). */
export function cohereModelId(providerModelId: string): string {
  return modelId("cohere", providerModelId);
}

/** A Status cell: "Live", or "Deprecated" / "Retired" with the date it took effect. */
export function cohereStatus(cell: string): { status: LifecycleStatus; date: string | null } | null {
  const text = plainCell(cell);
  if (/^live$/i.test(text)) return { status: "available", date: null };
  const m = /^(deprecated|retired)\s+(.+)$/i.exec(text);
  if (!m) return null;
  return { status: group(m, 1).toLowerCase() as LifecycleStatus, date: group(m, 2) };
}

export const parseCohereModels: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const hasAll = (headers: string[], res: RegExp[]) =>
    res.every((re) => headers.some((h) => re.test(plainCell(h))));
  const tables = requireSome(
    input.source,
    markdownTables(input.content).filter((t) =>
      hasAll(t.headers, [/^model name$/i, /^status$/i, /^context length$/i, /^maximum output tokens$/i]),
    ),
    "Chat model table (Model Name | Status | ... | Context Length | Maximum Output Tokens)",
  );
  const deployments: DeploymentFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  const seen = new Set<string>();
  for (const table of tables) {
    const col = {
      model: requireColumn(input.source, table.headers, /^model name$/i),
      status: requireColumn(input.source, table.headers, /^status$/i),
      modality: requireColumn(input.source, table.headers, /^modality$/i),
      context: requireColumn(input.source, table.headers, /^context length$/i),
      output: requireColumn(input.source, table.headers, /^maximum output tokens$/i),
    };
    for (const row of table.rows) {
      const id = plainCell(row[col.model] ?? "");
      if (!API_ID.test(id)) {
        skipped.add("model name that is not an API id", id);
        continue;
      }
      if (seen.has(id)) throw parseFailure(input.source, `${id} is listed twice`);
      seen.add(id);
      const state = cohereStatus(row[col.status] ?? "");
      if (!state) throw parseFailure(input.source, `${id}: unknown status "${row[col.status] ?? ""}"`);
      const modality = plainCell(row[col.modality] ?? "");
      if (!/^text\b/i.test(modality))
        throw parseFailure(input.source, `${id}: unknown modality "${modality}"`);
      // The Modality column lists the inputs a model takes: images listed = vision.
      const capabilities: Capabilities = {
        vision: /\bimages?\b/i.test(modality)
          ? { status: "supported", verification_status: "official_declared" }
          : { status: "unsupported", verification_status: "official_inferred" },
      };
      deployments.push({
        ...apiDeploymentIdentity(PROVIDER_ID, id, cohereModelId(id)),
        display_name: id,
        context_tokens: printedTokenCount(input.source, plainCell(row[col.context] ?? "")),
        max_output_tokens: printedTokenCount(input.source, plainCell(row[col.output] ?? "")),
        capabilities,
        status: state.status,
        evidence,
      });
      if (state.date === null) continue;
      const milestone = sourceMilestone(input.source, state.date, [evidence], `${id} status date`);
      lifecycle.push({
        scope: "deployment",
        provider_id: PROVIDER_ID,
        target: { provider_model_id: id, api_surface: API_SURFACE },
        status: state.status,
        ...(state.status === "retired" ? { end_of_life: milestone } : { deprecation: milestone }),
        evidence,
      });
    }
  }
  return {
    deployments: requireSome(input.source, deployments, "Chat models"),
    lifecycle,
    skipped: skipped.toArray(),
  };
};

export const parsers: Record<string, Parser> = { "cohere-models": parseCohereModels };
