/**
 * Vertex AI (Gemini Enterprise Agent Platform) "Open model deprecations"
 * (docs.cloud.google.com/gemini-enterprise-agent-platform/models/deprecations/open-models), as the
 * docs' Markdown dump stores it: the table under "## Deprecation and retirement details" (Model ID
 * | Deprecation date | Retirement date | Self-deploy alternative), one row per open model served as
 * MaaS.
 *
 * Lifecycle only: one `vertex-ai` deployment assertion per row, deprecation and end_of_life as
 * printed (day precision, `on`), no declared status (the release stage derives it from the dates)
 * and no model_id: the row retires Vertex's endpoint, not the lab's model, which other providers
 * may still serve (as the MaaS pages' banners are read). The table names the bare Model ID
 * (`deepseek-r1-0528-maas`); the catalog's Vertex id adds the Model Garden publisher, which the
 * Open models and MaaS pages' model card links name for each family: deepseek-* -> `deepseek-ai`,
 * glm-* -> `zai-org`, gpt-oss-* -> `openai`, kimi-* -> `moonshotai`, llama-* -> `meta`, minimax-*
 * -> `minimaxai`, multilingual-e5-* -> `intfloat`, qwen* -> `qwen`, gemma-* -> `google`. A Model ID
 * of another family, a row without both dates, or no such table fail the parse (a new family or
 * layout is noticed, not guessed). No deployments and no model facts.
 */
import type { LifecycleAssertion } from "../../schema/index.js";
import { evidenceFor, parseFailure, sourceMilestone } from "../helpers.js";
import { VERTEX } from "../identity/index.js";
import { markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser } from "../types.js";

const PROVIDER_ID = "google-vertex";
const API_SURFACE = VERTEX.surfaces.vertexAi;

/** Model ID family -> Model Garden publisher (see above). */
const PUBLISHERS: ReadonlyArray<[RegExp, string]> = [
  [/^deepseek-/, "deepseek-ai"],
  [/^glm-/, "zai-org"],
  [/^gpt-oss-/, "openai"],
  [/^kimi-/, "moonshotai"],
  [/^llama-/, "meta"],
  [/^minimax-/, "minimaxai"],
  [/^multilingual-e5-/, "intfloat"],
  [/^qwen\d/, "qwen"],
  [/^gemma-/, "google"],
];

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
    const publisher = PUBLISHERS.find(([re]) => re.test(modelId))?.[1];
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

export const parsers: Record<string, Parser> = {
  "google-vertex-open-model-deprecations": parseVertexOpenModelDeprecations,
};
