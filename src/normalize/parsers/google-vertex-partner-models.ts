/**
 * Vertex AI (Gemini Enterprise Agent Platform) overviews of the models it offers as managed APIs
 * (MaaS), in their Markdown form: "Partner models"
 * (docs.cloud.google.com/gemini-enterprise-agent-platform/models/partner-models/use-partner-models)
 * and "Open models" (…/models/maas/use-open-models). Each has a table (Model name | Modality |
 * Description | Quickstart) under "## Partner models" or "## Open models", one row per model.
 *
 * Model facts, provider `google-vertex`, one per row, for the model its Quickstart "Model card"
 * link names (`…/publishers/<publisher>/model-garden/<model>`): `<publisher>/<model>`
 * (`xai/grok-4.20-reasoning`, `zai-org/glm-4.7-maas`), or the bare name for the publishers Vertex
 * addresses by name (`mistralai`, `ai21`: `codestral-2`, `jamba-1.5-large`), as the MaaS pages are
 * read.
 * - vision `supported` where the Modality cell names Vision; nothing else is stated (a "Language"
 *   cell does not say image input is unsupported: the Mistral Small 3.1 row's own description
 *   calls the model multimodal).
 * - A "(Preview)" launch-stage mark on the model name: a `vertex-ai` deployment assertion for the
 *   id with status `preview` (declared in words), no dates and no model_id.
 * Rows not read (counted in `skipped`):
 * - Anthropic's: Vertex's Claude ids carry a version date (`claude-opus-4-1@20250805`) that the
 *   links leave out (the Claude Opus 4.1 row's link names `claude-opus-4`); the
 *   `claude-on-vertex-ai` source lists Claude models.
 * - A row whose link names another model: a word of the row's model name (letters only, the
 *   "(Preview)" mark aside) missing from the linked id. The Open models page links its Llama 4
 *   Scout row to Maverick's card and both Qwen3-Next rows to Qwen3 Coder's; the row's own model
 *   is then not known, so it states nothing.
 * No table, a row without one Model card link, a Modality word other than Language / Vision /
 * Code, or a model named twice fail the parse. No deployments: the catalog's Vertex deployments
 * come from other sources.
 */
import { group } from "../../lib/regex.js";
import type { LifecycleAssertion, ModelFact } from "../../schema/index.js";
import { declaredCapability, evidenceFor, parseFailure, SkipLog } from "../helpers.js";
import { VERTEX } from "../identity/index.js";
import { markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser } from "../types.js";
import { vertexModelId } from "./google-vertex-maas.js";

const PROVIDER_ID = "google-vertex";
const API_SURFACE = VERTEX.surfaces.vertexAi;
const MODEL_CARD = /\/publishers\/([a-z0-9][a-z0-9-]*)\/model-garden\/([a-z0-9][a-z0-9.@-]*)\)/g;
const MODALITIES = new Set(["language", "vision", "code"]);
const PREVIEW = /\(\s*preview\s*\)/i;
/** Publishers whose rows are left to their own source (see above). */
const NOT_READ = new Set(["anthropic"]);

/** The words of a model name made of letters only ("Llama 4 Scout 17B-16E" -> llama, scout). */
function nameWords(name: string): string[] {
  return name
    .replace(PREVIEW, " ")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => /^[a-z]+$/.test(w));
}

export const parseVertexPartnerModels: Parser = (input) => {
  const { source, content } = input;
  const table = markdownTables(content).find(
    (t) =>
      /^(partner|open) models$/i.test(t.heading) && t.headers.some((h) => /^modality$/i.test(plainCell(h))),
  );
  if (!table) throw parseFailure(source, 'no Modality table under "## Partner models" or "## Open models"');
  const name = requireColumn(source, table.headers, /^model name$/i);
  const modality = requireColumn(source, table.headers, /^modality$/i);
  const quickstart = requireColumn(source, table.headers, /^quickstart$/i);
  const evidence = evidenceFor(source, input.observedAt);
  const facts: ModelFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  const skipped = new SkipLog();
  const seen = new Set<string>();
  for (const row of table.rows) {
    const modelName = plainCell(row[name] ?? "");
    const links = [...(row[quickstart] ?? "").matchAll(MODEL_CARD)];
    const [link] = links;
    if (links.length !== 1 || link === undefined)
      throw parseFailure(
        source,
        `"${modelName}": not one Model card link (…/publishers/<publisher>/model-garden/<model>)`,
      );
    const publisher = group(link, 1);
    const model = group(link, 2);
    if (NOT_READ.has(publisher)) {
      skipped.add(`${publisher} rows are left to their own source`, modelName);
      continue;
    }
    const linked = new Set(model.split(/[^a-z0-9]+/));
    if (nameWords(modelName).some((w) => !linked.has(w))) {
      skipped.add("the row's Model card link names another model", `${modelName} -> ${model}`);
      continue;
    }
    const id = vertexModelId(publisher, model);
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
    if (PREVIEW.test(modelName))
      lifecycle.push({
        scope: "deployment",
        provider_id: PROVIDER_ID,
        target: { provider_model_id: id, api_surface: API_SURFACE },
        status: "preview",
        evidence,
      });
  }
  if (facts.length === 0) throw parseFailure(source, "the models table names no model read here");
  return { deployments: [], lifecycle, model_facts: facts, skipped: skipped.toArray() };
};

export const parsers: Record<string, Parser> = {
  "google-vertex-partner-models": parseVertexPartnerModels,
};
