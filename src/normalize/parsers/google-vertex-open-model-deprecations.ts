/**
 * Vertex AI (Gemini Enterprise Agent Platform) deprecation pages of the models it serves as MaaS.
 *
 * `google-vertex-open-model-deprecations`: "Open model deprecations"
 * (docs.cloud.google.com/gemini-enterprise-agent-platform/models/deprecations/open-models), as the
 * docs' Markdown dump stores it: the table under "## Deprecation and retirement details" (Model ID
 * | Deprecation date | Retirement date | Self-deploy alternative), one row per open model served as
 * MaaS.
 *
 * Lifecycle only: one `vertex-ai` deployment assertion per row, deprecation and end_of_life as
 * printed (day precision, `on`), no declared status (the release stage derives it from the dates)
 * and no model_id: the row retires Vertex's endpoint, not the lab's model, which other providers
 * may still serve (as the MaaS pages' banners are read). The table names the bare Model ID
 * (`deepseek-r1-0528-maas`); the catalog's Vertex id adds the Model Garden publisher of its
 * family (the Vertex identity module's `vertexPublisherOf`). A Model ID of another family, a row
 * without both dates, or no such table fail the parse (a new family or layout is noticed, not
 * guessed). No deployments and no model facts.
 *
 * `google-vertex-partner-model-deprecations`: "Partner model deprecations" (formerly "Model
 * deprecations (MaaS)", …/models/deprecations/partner-models), as the docs' Markdown dump stores
 * it: one "## <model>" section per deprecated partner model, whose notice says "<model> is
 * **deprecated as of August 27, 2025** and will be **shut down on February 27, 2026**", and whose
 * specifications give its Model ID (a "Model ID" label line then the id in code, or the HTML
 * table's `<th>Model ID</th>` row). One `vertex-ai` deployment assertion per section for the
 * Model ID as printed (Vertex addresses partner models, Claude and AI21's Jamba, by name:
 * `jamba-1.5-large`), deprecation and end_of_life as printed, no status and no model_id (as
 * above). A section without that notice or a Model ID, or no section, fails the parse.
 */
import type { LifecycleAssertion } from "../../schema/index.js";
import { evidenceFor, parseFailure, sourceMilestone } from "../helpers.js";
import { VERTEX, vertexPublisherOf } from "../identity/index.js";
import { markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser } from "../types.js";

const PROVIDER_ID = "google-vertex";
const API_SURFACE = VERTEX.surfaces.vertexAi;

export const parseVertexOpenModelDeprecations: Parser = (input) => {
  const { source, content } = input;
  const table = markdownTables(content).find(
    (t) =>
      t.headers.some((h) => /^model id$/i.test(plainCell(h))) &&
      t.headers.some((h) => /^retirement date$/i.test(plainCell(h))),
  );
  if (!table) throw parseFailure(source, "no table with Model ID and Retirement date columns");
  const idColumn = requireColumn(source, table.headers, /^model id$/i);
  const deprecationColumn = requireColumn(source, table.headers, /^deprecation date$/i);
  const retirementColumn = requireColumn(source, table.headers, /^retirement date$/i);
  const evidence = evidenceFor(source, input.observedAt);
  const lifecycle: LifecycleAssertion[] = [];
  const seen = new Set<string>();
  for (const row of table.rows) {
    const modelId = plainCell(row[idColumn] ?? "");
    if (!/^[a-z0-9][a-z0-9.-]*$/.test(modelId)) throw parseFailure(source, `"${modelId}" is not a model id`);
    const publisher = vertexPublisherOf(modelId);
    if (publisher === undefined)
      throw parseFailure(source, `${modelId}: no known Model Garden publisher for this model family`);
    const id = `${publisher}/${modelId}`;
    if (seen.has(id)) throw parseFailure(source, `${id} is listed twice`);
    seen.add(id);
    const deprecation = plainCell(row[deprecationColumn] ?? "");
    const retirement = plainCell(row[retirementColumn] ?? "");
    if (deprecation === "" || retirement === "")
      throw parseFailure(source, `${id}: no deprecation or retirement date`);
    lifecycle.push({
      scope: "deployment",
      provider_id: PROVIDER_ID,
      target: { provider_model_id: id, api_surface: API_SURFACE },
      deprecation: sourceMilestone(source, deprecation, [evidence], `${id} deprecation date`),
      end_of_life: sourceMilestone(source, retirement, [evidence], `${id} retirement date`),
      evidence,
    });
  }
  if (lifecycle.length === 0) throw parseFailure(source, "the deprecation table lists no model");
  return { deployments: [], lifecycle, skipped: [] };
};

const NOTICE =
  /\*\*deprecated as of ([A-Z][a-z]+ \d{1,2}, \d{4})\*\* and will be \*\*shut down on ([A-Z][a-z]+ \d{1,2}, \d{4})\*\*/;
const MODEL_ID_ROW =
  /(?:^Model ID\s*\n\s*`|<th>Model ID<\/th>\s*<td><code>)([a-z0-9][a-z0-9.@-]*)(?:`|<\/code>)/m;

export const parseVertexPartnerModelDeprecations: Parser = (input) => {
  const { source, content } = input;
  const sections = content.split(/^## /m).slice(1);
  if (sections.length === 0) throw parseFailure(source, 'no "## <model>" section');
  const evidence = evidenceFor(source, input.observedAt);
  const lifecycle: LifecycleAssertion[] = [];
  const seen = new Set<string>();
  for (const section of sections) {
    const heading = (section.split("\n")[0] ?? "").trim();
    const notice = NOTICE.exec(section);
    if (!notice) throw parseFailure(source, `"${heading}": no "deprecated as of … shut down on …" notice`);
    const idRow = MODEL_ID_ROW.exec(section);
    const id = idRow?.[1];
    if (id === undefined) throw parseFailure(source, `"${heading}": no Model ID`);
    if (seen.has(id)) throw parseFailure(source, `${id} is listed twice`);
    seen.add(id);
    lifecycle.push({
      scope: "deployment",
      provider_id: PROVIDER_ID,
      target: { provider_model_id: id, api_surface: API_SURFACE },
      deprecation: sourceMilestone(source, notice[1], [evidence], `${id} deprecation date`),
      end_of_life: sourceMilestone(source, notice[2], [evidence], `${id} shutdown date`),
      evidence,
    });
  }
  return { deployments: [], lifecycle, skipped: [] };
};

export const parsers: Record<string, Parser> = {
  "google-vertex-open-model-deprecations": parseVertexOpenModelDeprecations,
  "google-vertex-partner-model-deprecations": parseVertexPartnerModelDeprecations,
};
