/**
 * Vertex AI (Gemini Enterprise Agent Platform) "Partner models" overview
 * (docs.cloud.google.com/gemini-enterprise-agent-platform/models/partner-models/use-partner-models,
 * its Markdown form): the table under "## Partner models" (Model name | Modality | Description |
 * Quickstart), one row per partner model Vertex offers as a managed API (MaaS).
 *
 * Model facts, provider `google-vertex`, one per row, for the model its Quickstart "Model card"
 * link names (`…/publishers/<publisher>/model-garden/<model>`): `<publisher>/<model>`
 * (`xai/grok-4.20-reasoning`), or the bare name for the publishers Vertex addresses by name
 * (`mistralai`, `ai21`: `codestral-2`, `jamba-1.5-large`), as the MaaS pages are read.
 * - vision `supported` where the Modality cell names Vision; nothing else is stated (a
 *   "Language" cell does not say image input is unsupported: the Mistral Small 3.1 row's own
 *   description calls the model multimodal).
 * - A "(Preview)" launch-stage mark on the model name: a `vertex-ai` deployment assertion for the
 *   id with status `preview` (declared in words), no dates and no model_id.
 * Anthropic's rows are not read: Vertex's Claude ids carry a version date
 * (`claude-opus-4-1@20250805`) that the links leave out (the Claude Opus 4.1 row's link names
 * `claude-opus-4`); the `claude-on-vertex-ai` source lists Claude models. No table, a row without
 * one Model card link, a Modality word other than Language / Vision / Code, or a model named
 * twice fail the parse. No deployments: the catalog's Vertex deployments come from other sources.
 */
import { group } from "../../lib/regex.js";
import type { LifecycleAssertion, ModelFact } from "../../schema/index.js";
import { declaredCapability, evidenceFor, parseFailure } from "../helpers.js";
import { VERTEX } from "../identity/index.js";
import { markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser } from "../types.js";
import { vertexModelId } from "./google-vertex-maas.js";

const PROVIDER_ID = "google-vertex";
const API_SURFACE = VERTEX.surfaces.vertexAi;
const MODEL_CARD = /\/publishers\/([a-z0-9][a-z0-9-]*)\/model-garden\/([a-z0-9][a-z0-9.@-]*)\)/g;
const MODALITIES = new Set(["language", "vision", "code"]);
/** Publishers whose rows are left to their own source (see above). */
const NOT_READ = new Set(["anthropic"]);

export const parseVertexPartnerModels: Parser = (input) => {
  const { source, content } = input;
  const table = markdownTables(content).find((t) => /^partner models$/i.test(t.heading));
  if (!table) throw parseFailure(source, 'no table under "## Partner models"');
  const name = requireColumn(source, table.headers, /^model name$/i);
  const modality = requireColumn(source, table.headers, /^modality$/i);
  const quickstart = requireColumn(source, table.headers, /^quickstart$/i);
  const evidence = evidenceFor(source, input.observedAt);
  const facts: ModelFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  const seen = new Set<string>();
  for (const row of table.rows) {
    const nameCell = row[name] ?? "";
    const links = [...(row[quickstart] ?? "").matchAll(MODEL_CARD)];
    const [link] = links;
    if (links.length !== 1 || link === undefined)
      throw parseFailure(
        source,
        `"${plainCell(nameCell)}": not one Model card link (…/publishers/<publisher>/model-garden/<model>)`,
      );
    const publisher = group(link, 1);
    if (NOT_READ.has(publisher)) continue;
    const id = vertexModelId(publisher, group(link, 2));
    if (seen.has(id)) throw parseFailure(source, `${id} is named twice`);
    seen.add(id);
    const words = plainCell(row[modality] ?? "")
      .split(",")
      .map((w) => w.trim().toLowerCase());
    const unknown = words.filter((w) => !MODALITIES.has(w));
    if (unknown.length > 0) throw parseFailure(source, `${id}: unknown modality "${unknown.join(", ")}"`);
    facts.push({
      provider_id: PROVIDER_ID,
      provider_model_id: id,
      ...(words.includes("vision") ? { capabilities: { vision: declaredCapability("supported") } } : {}),
      evidence,
    });
    if (/\(\s*preview\s*\)/i.test(plainCell(nameCell)))
      lifecycle.push({
        scope: "deployment",
        provider_id: PROVIDER_ID,
        target: { provider_model_id: id, api_surface: API_SURFACE },
        status: "preview",
        evidence,
      });
  }
  if (facts.length === 0)
    throw parseFailure(source, 'the "## Partner models" table names no model read here');
  return { deployments: [], lifecycle, model_facts: facts, skipped: [] };
};

export const parsers: Record<string, Parser> = {
  "google-vertex-partner-models": parseVertexPartnerModels,
};
