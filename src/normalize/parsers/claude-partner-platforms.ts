/**
 * Anthropic's own tables of Claude model ids on partner platforms (Claude docs, Markdown form):
 *   - `google-vertex-claude-model-ids`: "Claude on Google Cloud" (build-with-claude/
 *     claude-on-vertex-ai.md), section "API model IDs", table `Model | Agent Platform API model ID`;
 *   - `amazon-bedrock-claude-model-ids`: "Claude on Amazon Bedrock (Opus 4.6 and earlier)"
 *     (build-with-claude/claude-on-amazon-bedrock-legacy.md), table `Model | Base Bedrock model ID
 *     | global | us | eu | jp | apac` (Yes / No per cross-Region inference profile prefix).
 *
 * A row's Model cell may end in a lifecycle marker ("Claude Sonnet 4  Deprecated.",
 * "Claude Sonnet 3.7  Retired."), the terms of Anthropic's model deprecations page. A marked row
 * gives a lifecycle assertion with that declared status for the id on the provider's surface;
 * the page states no dates ("Lifecycle dates on partner-operated platforms are set by the
 * partner"), so the assertion has no milestones. On Vertex an unmarked row is declared
 * `available`: the table is the list of ids Agent Platform serves, with the ones no longer
 * current marked (as a Mistral models table or an Azure region matrix lists current models). On
 * Bedrock an unmarked row gets no status: there Bedrock's own per-Region lifecycle pages say
 * which Regions a model is still Active in, and this table names none.
 *
 * Vertex rows are deployments on the surface, region and mode the catalog uses for Vertex
 * (`vertex-ai`, `global`, `standard`). On Bedrock the page says "the inference profile ID is the
 * base model ID with a prefix from a column marked "Yes"": each Yes cell is the deployment of the
 * base id through that cross-Region inference profile (`bedrock-runtime`, `standard`, region =
 * the prefix: `us`, `eu`, `jp`, `apac`, `global`, where the identity module places a community
 * key `us.anthropic.…`). The table is an availability list (`availability_list: "per_model"`): a No cell
 * excludes the profile, so a community record of Claude Sonnet 4.6 through `apac` is an unlisted
 * offering (src/release/listing-gate.ts); a prefix the table has no column for (`au`) is not
 * its to exclude. Lifecycle assertions target the base id on `bedrock-runtime` in every Region
 * and mode; Bedrock's own per-Region lifecycle assertions are more specific and win where both
 * speak.
 *
 * Each id comes from the provider's identity module; the row's display name must name the same
 * Claude model as its id (a shifted or misread row fails the parse).
 */
import { group } from "../../lib/regex.js";
import type {
  DeploymentFact,
  LifecycleAssertion,
  LifecycleStatus,
  SourceDefinition,
} from "../../schema/index.js";
import { evidenceFor, parseFailure, requireSome } from "../helpers.js";
import {
  anthropicIdentity,
  anthropicModelIdForName,
  BEDROCK,
  BEDROCK_GEOGRAPHIES,
  bedrockDeployment,
  bedrockIdentity,
  type ProviderIdentity,
  VERTEX,
  vertexDeployment,
  vertexIdentity,
} from "../identity/index.js";
import { type MarkdownTable, markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

/** The lifecycle terms of Anthropic's model deprecations page, as the tables mark rows. */
const MARKERS: Readonly<Record<string, LifecycleStatus>> = Object.freeze({
  Legacy: "legacy",
  Deprecated: "deprecated",
  Retired: "retired",
});

interface PlatformRow {
  name: string;
  status: LifecycleStatus | undefined;
  /** The provider model id as the table prints it. */
  id: string;
}

/** "Claude Sonnet 4  Deprecated." -> name "Claude Sonnet 4", status deprecated. */
export function markedModelName(
  source: Pick<SourceDefinition, "name" | "url">,
  cell: string,
): { name: string; status: LifecycleStatus | undefined } {
  const text = plainCell(cell);
  const marked = /^(Claude .*?)\s+([A-Z][a-z]+)\.$/.exec(text);
  if (!marked) {
    if (!/^Claude [A-Za-z0-9. ]+$/.test(text))
      throw parseFailure(source, `"${cell}" is not a Claude model name`);
    return { name: text, status: undefined };
  }
  const status = MARKERS[group(marked, 2)];
  if (!status) throw parseFailure(source, `"${cell}": unknown lifecycle marker "${group(marked, 2)}."`);
  return { name: group(marked, 1), status };
}

function findTable(input: ParserInput, idHeader: RegExp, what: string): MarkdownTable {
  const tables = markdownTables(input.content).filter(
    (t) =>
      t.headers.some((h) => /^model$/i.test(plainCell(h))) &&
      t.headers.some((h) => idHeader.test(plainCell(h))),
  );
  if (tables.length !== 1)
    throw parseFailure(input.source, `expected one ${what} table, found ${tables.length}`);
  return tables[0] as MarkdownTable;
}

/** The table's rows, each checked: a Claude name (with its marker), an id of the expected shape, matching each other. */
function readRows(
  input: ParserInput,
  table: MarkdownTable,
  idHeader: RegExp,
  idShape: RegExp,
  identity: ProviderIdentity,
): PlatformRow[] {
  const { source } = input;
  const modelCol = requireColumn(source, table.headers, /^model$/i);
  const idCol = requireColumn(source, table.headers, idHeader);
  const seen = new Set<string>();
  const rows = table.rows.map((cells): PlatformRow => {
    if (cells.length !== table.headers.length)
      throw parseFailure(
        source,
        `row "${cells.join(" | ")}" has ${cells.length} cells, expected ${table.headers.length}`,
      );
    const { name, status } = markedModelName(source, cells[modelCol] ?? "");
    const id = plainCell(cells[idCol] ?? "");
    if (!idShape.test(id)) throw parseFailure(source, `${name}: "${id}" is not a model id of this platform`);
    if (seen.has(id)) throw parseFailure(source, `${id} is listed twice`);
    seen.add(id);
    const named = anthropicModelIdForName(name);
    const canonical = identity.canonicalModelId(id);
    if (named !== null && canonical !== anthropicIdentity.canonicalModelId(named))
      throw parseFailure(
        source,
        `${name} is ${named} on the Claude API, but its id ${id} names ${canonical}`,
      );
    return { name, status, id };
  });
  return requireSome(source, rows, "model rows");
}

function assertion(
  identity: ProviderIdentity,
  row: PlatformRow & { status: LifecycleStatus },
  apiSurface: string,
  evidence: ReturnType<typeof evidenceFor>,
): LifecycleAssertion {
  const providerModelId = identity.providerModelId(row.id);
  return {
    scope: "deployment",
    provider_id: identity.providerId,
    model_id: identity.canonicalModelId(providerModelId),
    target: { provider_model_id: providerModelId, api_surface: apiSurface },
    status: row.status,
    evidence,
  };
}

/** `unmarked`: the status an unmarked row declares, or undefined for none. */
function lifecycleOf(
  identity: ProviderIdentity,
  rows: PlatformRow[],
  apiSurface: string,
  evidence: ReturnType<typeof evidenceFor>,
  unmarked: LifecycleStatus | undefined,
): LifecycleAssertion[] {
  return rows.flatMap((row) => {
    const status = row.status ?? unmarked;
    return status === undefined ? [] : [assertion(identity, { ...row, status }, apiSurface, evidence)];
  });
}

const VERTEX_ID_HEADER = /^agent platform api model id$|^vertex ai api model id$/i;
const VERTEX_SURFACE = VERTEX.surfaces.vertexAi;

export const parseVertexClaudeModelIds: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const table = findTable(input, VERTEX_ID_HEADER, "Model | Agent Platform API model ID");
  const rows = readRows(input, table, VERTEX_ID_HEADER, /^claude-[a-z0-9-]+(?:@\d{8})?$/, vertexIdentity);
  const deployments: DeploymentFact[] = rows.map((row) => ({
    ...vertexDeployment(vertexIdentity.providerModelId(row.id)),
    display_name: row.name,
    evidence,
  }));
  return {
    deployments,
    lifecycle: lifecycleOf(vertexIdentity, rows, VERTEX_SURFACE, evidence, "available"),
    skipped: [],
  };
};

const BEDROCK_ID_HEADER = /^base bedrock model id$/i;
/** The cross-Region inference profile prefixes the table has a column for. */
const PROFILE_PREFIX = new RegExp(`^(?:${BEDROCK_GEOGRAPHIES.join("|")})$`);

export const parseBedrockClaudeModelIds: Parser = (input) => {
  const { source } = input;
  const evidence = evidenceFor(source, input.observedAt);
  const table = findTable(input, BEDROCK_ID_HEADER, "Model | Base Bedrock model ID");
  const rows = readRows(
    input,
    table,
    BEDROCK_ID_HEADER,
    /^anthropic\.claude-[a-z0-9-]+(?:-v\d+(?::\d+)?)?$/,
    bedrockIdentity,
  );
  // The other columns are inference profile prefixes with Yes / No; a Yes is the deployment
  // of the row's base id through that profile (see the module comment).
  const modelCol = requireColumn(source, table.headers, /^model$/i);
  const idCol = requireColumn(source, table.headers, BEDROCK_ID_HEADER);
  const profileCols = table.headers.map((_, i) => i).filter((i) => i !== modelCol && i !== idCol);
  if (profileCols.length === 0)
    throw parseFailure(source, "the model ID table has no inference profile columns");
  const deployments: DeploymentFact[] = [];
  const covers: Array<{ api_surface: string; mode: string; region: string }> = [];
  for (const i of profileCols) {
    const prefix = plainCell(table.headers[i] ?? "");
    if (!PROFILE_PREFIX.test(prefix))
      throw parseFailure(source, `column "${table.headers[i]}" is not an inference profile prefix`);
    covers.push({ api_surface: BEDROCK.surfaces.runtime, mode: BEDROCK.modes.standard, region: prefix });
    table.rows.forEach((cells, r) => {
      const cell = plainCell(cells[i] ?? "");
      if (!/^(?:Yes|No)$/.test(cell))
        throw parseFailure(source, `${prefix} column: "${cells[i]}" is neither Yes nor No`);
      const row = rows[r];
      if (cell === "Yes" && row)
        deployments.push({
          ...bedrockDeployment(bedrockIdentity.providerModelId(row.id), prefix),
          display_name: row.name,
          evidence,
        });
    });
  }
  return {
    deployments,
    lifecycle: lifecycleOf(bedrockIdentity, rows, BEDROCK.surfaces.runtime, evidence, undefined),
    availability_list: "per_model",
    availability_covers: covers,
    skipped: [],
  };
};

export const parsers: Record<string, Parser> = {
  "google-vertex-claude-model-ids": parseVertexClaudeModelIds,
  "amazon-bedrock-claude-model-ids": parseBedrockClaudeModelIds,
};
