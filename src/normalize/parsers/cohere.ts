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
  evidenceFor,
  parseFailure,
  printedTokenCount,
  requireSome,
  SkipLog,
  sourceMilestone,
} from "../helpers.js";
import { COHERE, cohereDeployment } from "../identity/index.js";
import { markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser } from "../types.js";

const PROVIDER_ID = "cohere";
const API_SURFACE = COHERE.surfaces.api;
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
        ...cohereDeployment(id),
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

/**
 * Cohere's Deprecations page (fern/pages/going-to-production/deprecations.mdx, rendered at
 * docs.cohere.com/docs/deprecations): a "### YYYY-MM-DD: title" section per announcement. Read:
 * - "Effective <date>, the following models will be retired:" and its bullet list: end of life on
 *   that day; replaced by the section's "Embedding tasks alternatives" (embed models) or "Chat
 *   tasks alternatives" (the others);
 * - "Effective <date>, the following deprecations will roll out." with its "Deprecated Models:"
 *   list (a bullet may add "(and the alias `x`)", deprecated too): deprecation on that day;
 *   "For command model replacements, we recommend you use `a`, `b`, or `c`" replaces the
 *   command models;
 * - a table with Shutdown Date, Deprecated Model and Recommended Replacement columns: end of life
 *   on the shutdown date, replaced by the recommended model.
 * Sections about fine-tuned models, endpoints or features name no model list and are counted as
 * skipped. Every milestone is a day the page states ("on").
 */
export const parseCohereDeprecations: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const lifecycle: LifecycleAssertion[] = [];
  const ticks = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => group(m, 1));
  const assert = (
    id: string,
    kind: "deprecation" | "end_of_life",
    day: string,
    replacements: string[],
    what: string,
  ) => {
    if (!API_ID.test(id)) throw parseFailure(input.source, `${what}: "${id}" is not an API model name`);
    lifecycle.push({
      scope: "deployment",
      provider_id: PROVIDER_ID,
      target: { provider_model_id: id, api_surface: API_SURFACE },
      [kind]: sourceMilestone(input.source, day, [evidence], `${id} ${what}`),
      ...(replacements.length > 0 ? { replacements } : {}),
      evidence,
    });
  };
  /** The ids of the bullet list right after line `at` (blank lines before it allowed). */
  const bulletIds = (lines: string[], at: number): string[] => {
    const ids: string[] = [];
    for (const line of lines.slice(at + 1)) {
      if (/^- /.test(line)) ids.push(...ticks(line));
      else if (line.trim() !== "" || ids.length > 0) break;
    }
    return ids;
  };
  /** The nested list under a "- <label>:" bullet. */
  const nested = (lines: string[], label: RegExp): string[] => {
    const at = lines.findIndex((l) => label.test(l));
    if (at < 0) return [];
    const ids: string[] = [];
    for (const line of lines.slice(at + 1)) {
      if (/^\s+- /.test(line)) ids.push(...ticks(line));
      else break;
    }
    return ids;
  };
  const sections = input.content.split(/^### /m).slice(1);
  if (sections.length === 0) throw parseFailure(input.source, 'no "### <date>: <title>" sections');
  for (const section of sections) {
    const lines = section.split("\n");
    const title = lines[0]?.trim() ?? "";
    if (!/^\d{4}-\d{2}-\d{2}: /.test(title))
      throw parseFailure(input.source, `section "${title}" has no date`);
    const retired = lines.findIndex((l) => /the following models will be retired:\s*$/i.test(l));
    const rollOut = lines.findIndex((l) => /the following deprecations will roll out/i.test(l));
    const table = markdownTables(section).find((t) =>
      [/^shutdown date$/i, /^deprecated model$/i, /^recommended replacement$/i].every((re) =>
        t.headers.some((h) => re.test(plainCell(h))),
      ),
    );
    if (retired >= 0) {
      const day = /^Effective (.+?), the following/i.exec(lines[retired] ?? "");
      if (!day) throw parseFailure(input.source, `${title}: no effective date`);
      const embed = nested(lines, /^- Embedding tasks alternatives:/i);
      const chat = nested(lines, /^- Chat tasks alternatives:/i);
      for (const id of requireSome(input.source, bulletIds(lines, retired), `${title} retired models`))
        assert(id, "end_of_life", group(day, 1), id.startsWith("embed-") ? embed : chat, "retirement");
    } else if (rollOut >= 0) {
      const day = /^Effective (.+?), the following/i.exec(lines[rollOut] ?? "");
      if (!day) throw parseFailure(input.source, `${title}: no effective date`);
      const list = lines.findIndex((l) => /^Deprecated Models:\s*$/i.test(l));
      if (list < 0) throw parseFailure(input.source, `${title}: no "Deprecated Models:" list`);
      const advice =
        lines.find((l) => /^For command model replacements, we recommend you use /i.test(l)) ?? "";
      const command = ticks(advice.replace(/\(.*$/, ""));
      for (const id of requireSome(input.source, bulletIds(lines, list), `${title} deprecated models`))
        assert(id, "deprecation", group(day, 1), id.startsWith("command") ? command : [], "deprecation");
    } else if (table) {
      const col = {
        date: requireColumn(input.source, table.headers, /^shutdown date$/i),
        model: requireColumn(input.source, table.headers, /^deprecated model$/i),
        replacement: requireColumn(input.source, table.headers, /^recommended replacement$/i),
      };
      for (const row of table.rows)
        assert(
          plainCell(row[col.model] ?? ""),
          "end_of_life",
          plainCell(row[col.date] ?? ""),
          [plainCell(row[col.replacement] ?? "")].filter((r) => r !== ""),
          "shutdown",
        );
    } else skipped.add("section with no model list (fine-tuned models, endpoints, features)", title);
  }
  return {
    deployments: [],
    lifecycle: requireSome(input.source, lifecycle, "deprecated models"),
    skipped: skipped.toArray(),
  };
};

export const parsers: Record<string, Parser> = {
  "cohere-models": parseCohereModels,
  "cohere-deprecations": parseCohereDeprecations,
};
