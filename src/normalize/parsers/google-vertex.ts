/**
 * Parsers for Google Vertex AI (Gemini Enterprise Agent Platform) official sources:
 *   - `google-vertex-model-versions`: "Model versions and lifecycle"
 *     (https://cloud.google.com/vertex-ai/generative-ai/docs/learn/model-versions). Tables of
 *     Model ID | Release date | Retirement date | Replacement model ID (or Recommended upgrade)
 *     under the headings "Gemini models", "Gemini image models", "Veo models", "Embeddings
 *     models", "Models available for shorter availability periods" and "Retired models".
 * Vertex model ids of Anthropic's Claude ("claude-3-5-sonnet-v2@20241022") map to the Anthropic
 * first-party id with `vertexClaudeModelId`.
 * Pure functions of the capture; a page that no longer has this structure throws `parse_failed`.
 */

import * as cheerio from "cheerio";
import { group } from "../../lib/regex.js";
import type {
  DeploymentFact,
  LifecycleAssertion,
  LifecycleMilestone,
  LifecycleStatus,
  SkipCount,
  SourceDefinition,
} from "../../schema/index.js";
import { cellText, evidenceFor, parseFailure, parseMilestone, requireSome } from "../helpers.js";
import {
  VERTEX,
  vertexClaudeModelId,
  vertexDeployment,
  vertexIdentity as vertexModelIdentity,
} from "../identity/index.js";
import type { Parser } from "../types.js";

export const VERTEX_PROVIDER = "google-vertex";

export { vertexClaudeModelId };

/** Canonical model id of any Vertex model id (../identity/google-vertex.ts). */
export function vertexModelId(vertexId: string): string {
  return vertexModelIdentity.canonicalModelId(vertexId);
}

/** A Vertex deployment (../identity/google-vertex.ts names its surface, modes and regions). */
export const vertexIdentity = vertexDeployment;

const MODEL_ID_TOKEN = /^[a-z0-9][a-z0-9.@_-]*$/;
const LATER = /^(.+?)\s+or later$/i;
const NO_DATE = /^no retirement date announced$/i;

/**
 * A retirement-date cell: "July 21, 2027 or later" and "No sooner than May 20, 2028" (not
 * before), "No retirement date announced" (not announced), empty (unknown), and a plain date
 * such as "October 20, 2026": `not_before` in the available-models tables (`earliest`), whose
 * introduction says "While retirement timelines may be extended, they won't be moved to an
 * earlier date than what is listed" (the Gemini API's "earliest possible dates" in other
 * words), and `on` in the Retired models table, where it is the day the model was retired.
 */
export function retirementMilestone(
  source: Pick<SourceDefinition, "name" | "url">,
  cell: string,
  evidence: Parameters<typeof parseMilestone>[1],
  earliest = true,
): LifecycleMilestone {
  const text = cell.replace(/\s+/g, " ").trim();
  const later = LATER.exec(text);
  try {
    if (later) return parseMilestone(`Not before ${group(later, 1)}`, evidence);
    if (NO_DATE.test(text)) return parseMilestone("TBD", evidence);
    const milestone = parseMilestone(text, evidence);
    if (earliest && milestone.state === "scheduled" && milestone.date_type === "on")
      return { ...milestone, date_type: "not_before" };
    return milestone;
  } catch {
    throw parseFailure(source, `"${cell}" is not a retirement date`);
  }
}

/** Replacement ids named in a cell: "gemini-3.1-flash-lite or Gemma 4" -> ["gemini-3.1-flash-lite"]. */
export function vertexReplacements(cell: string): string[] {
  return cell
    .split(/\s+or\s+|,\s*/)
    .map((s) => s.replace(/`/g, "").trim())
    .filter((s) => MODEL_ID_TOKEN.test(s));
}

/** What the page declares in words: rows of "Retired models" are retired, rows of "Latest available models" available. */
function declaredStatus(retiredSection: boolean): LifecycleStatus {
  return retiredSection ? "retired" : "available";
}

export const parseVertexModelVersions: Parser = (input) => {
  const { source } = input;
  const evidence = evidenceFor(source, input.observedAt);
  const $ = cheerio.load(input.content);
  const deployments: DeploymentFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  const skipped: SkipCount[] = [];
  const seen = new Set<string>();
  let tableCount = 0;
  $("table").each((_, table) => {
    const headers = $(table)
      .find("thead tr")
      .first()
      .find("th,td")
      .toArray()
      .map((c) => cellText($, c));
    const idCol = headers.findIndex((h) => /^model id$/i.test(h));
    const retireCol = headers.findIndex((h) => /^retirement date$/i.test(h));
    if (idCol < 0 && retireCol < 0) return;
    if (idCol < 0 || retireCol < 0)
      throw parseFailure(source, `lifecycle table lacks Model ID / Retirement date (${headers.join(" | ")})`);
    const replCol = headers.findIndex((h) => /replacement|recommended upgrade/i.test(h));
    tableCount++;
    const heading = cellText($, $(table).prevAll("h2,h3").first().get(0) ?? []);
    const retiredSection = /^retired models$/i.test(heading);
    $(table)
      .find("tbody tr")
      .each((__, tr) => {
        const cells = $(tr)
          .find("td,th")
          .toArray()
          .map((c) => cellText($, c));
        const id = (cells[idCol] ?? "").replace(/`/g, "").replace(/\*+$/, "").trim();
        if (id === "") return;
        if (!MODEL_ID_TOKEN.test(id)) throw parseFailure(source, `"${cells[idCol]}" is not a model id`);
        const endOfLife = retirementMilestone(source, cells[retireCol] ?? "", [evidence], !retiredSection);
        const replacements = replCol >= 0 ? vertexReplacements(cells[replCol] ?? "") : [];
        if (seen.has(id)) return;
        seen.add(id);
        deployments.push({ ...vertexIdentity(id), display_name: id, evidence });
        lifecycle.push({
          scope: "deployment",
          provider_id: VERTEX_PROVIDER,
          target: { provider_model_id: id, api_surface: VERTEX.surfaces.vertexAi },
          status: declaredStatus(retiredSection),
          end_of_life: endOfLife,
          ...(replacements.length > 0 ? { replacements } : {}),
          evidence,
        });
      });
  });
  if (tableCount === 0) throw parseFailure(source, "no table with Model ID and Retirement date columns");
  requireSome(source, lifecycle, "model version rows");
  return { deployments, lifecycle, skipped };
};

export const parsers: Record<string, Parser> = {
  "google-vertex-model-versions": parseVertexModelVersions,
};
