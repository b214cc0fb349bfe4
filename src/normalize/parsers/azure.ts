/**
 * Azure OpenAI in Azure AI Foundry (provider `azure`). Every source is one Markdown file of
 * Microsoft's docs repository (MicrosoftDocs/azure-ai-docs, fetched raw from GitHub), read
 * with the shared pipe-table reader (../markdown.ts):
 * - "azure-model-retirements": the lifecycle tables of the model retirements page, i.e. its
 *   included table file (includes/retirement/models.md: current model versions with lifecycle
 *   status, deprecation and retirement dates and replacements) and the retired-models page
 *   (concepts/legacy-models.md). A file may hold either kind of table or both.
 * - "azure-models": one region-availability matrix file of the models page
 *   (includes/model-matrix/<file>.md); its deployment type comes from the file name
 *   (MATRIX_FILES), since the file itself carries no heading naming it.
 * A raw file starts with YAML front matter and may hold tab markers ("# [Audio](#tab/audio)",
 * "---"), [!INCLUDE] lines, notes and prose: all of that is ignored, only the tables are read.
 *
 * A model version is a deployment of its own: provider_model_id = "<model>-<version>"
 * (`gpt-4o` version `2024-08-06` -> `gpt-4o-2024-08-06`), model_id = the OpenAI API id
 * (`openai/gpt-4o-2024-08-06`, `gpt-35-turbo` -> `gpt-3.5-turbo`).
 */
import { group } from "../../lib/regex.js";
import type {
  DeploymentFact,
  LifecycleAssertion,
  LifecycleMilestone,
  LifecycleStatus,
  ParseOutput,
  SkipCount,
  SourceDefinition,
} from "../../schema/index.js";
import {
  columnIndex,
  deploymentIdentity,
  evidenceFor,
  parseFailure,
  requireSome,
  sourceMilestone,
} from "../helpers.js";
import { azureCanonicalModelId, azureProviderModelId } from "../identity/index.js";
import { cleanCell, type MarkdownTable, markdownTables } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

export const API_SURFACE = "azure-openai";
/**
 * The retirement pages say when a model version retires, not where it is offered: they create
 * no deployment. Their assertions apply to every deployment of the version that a model-matrix
 * page places (any deployment type and region); a version no matrix lists keeps its lifecycle
 * on its model's record (the assertion carries `model_id`, see LifecycleAssertion).
 */

// ---------------------------------------------------------------------------------------
// Markdown pipe tables

/** A leading YAML front matter block ("---" ... "---"), as Microsoft's docs files start with. */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

/** The document without its leading front matter (unchanged when there is none). */
export function withoutFrontMatter(content: string): string {
  return content.replace(FRONT_MATTER, "");
}

/**
 * Every pipe table of an Azure docs file (front matter skipped) with its header cells and
 * heading cleaned (no backticks, bold markers or <sup> footnotes); body cells stay raw
 * (backticks and <br> kept, so callers can split lists).
 */
export function azureTables(content: string): MarkdownTable[] {
  return markdownTables(withoutFrontMatter(content)).map((t) => ({
    ...t,
    headers: t.headers.map(cleanCell),
    heading: cleanCell(t.heading),
  }));
}

function tablesWith(tables: MarkdownTable[], required: RegExp[]): MarkdownTable[] {
  return tables.filter((t) => required.every((re) => t.headers.some((h) => re.test(h))));
}

function describeColumns(required: RegExp[]): string {
  return required.map((r) => r.source).join(", ");
}

function cell(source: SourceDefinition, row: string[], index: number, table: MarkdownTable): string {
  const value = row[index];
  if (value === undefined)
    throw parseFailure(source, `row "${row.join(" | ")}" has no cell for "${table.headers[index]}"`);
  return value;
}

// ---------------------------------------------------------------------------------------
// Identity

export { azureCanonicalModelId, azureProviderModelId };

function fact(
  input: ParserInput,
  name: string,
  version: string | null,
  mode: string,
  region: string,
): DeploymentFact {
  const providerModelId = azureProviderModelId(name, version);
  return {
    ...deploymentIdentity(
      { provider_id: "azure", provider_model_id: providerModelId, api_surface: API_SURFACE, mode, region },
      azureCanonicalModelId(name, version),
    ),
    display_name: version ? `${name} ${version}` : name,
    evidence: evidenceFor(input.source, input.observedAt),
  };
}

// ---------------------------------------------------------------------------------------
// Model retirements

/** "No retirement scheduled. Will not retire before April 15, 2027" (embeddings) = not before that date. */
const NO_RETIREMENT_BEFORE = /^no retirement scheduled\.?\s*will not retire before\s+/i;

function milestone(source: SourceDefinition, text: string, input: ParserInput): LifecycleMilestone {
  const cleaned = cleanCell(text).replace(NO_RETIREMENT_BEFORE, "No earlier than ");
  return sourceMilestone(source, cleaned, [evidenceFor(input.source, input.observedAt)]);
}

/**
 * A retirement cell that dates the Standard deployment type apart from the others: "Standard
 * deployment type retires on **2026-03-31**, with auto-upgrades scheduled to start on
 * **2026-03-09**. For other deployment types, including ALL Provisioned, Global Standard, and
 * Data Zone Standard, the retirement date has been moved to **2026-10-01**." -> the Standard
 * date and the date of every other type (the auto-upgrade start is not a lifecycle milestone).
 */
const SPLIT_RETIREMENT =
  /^Standard deployment type retires on (\S+?),?(?: [^.]*)?\. For other deployment types\b[^.]*? (?:moved to|retire on|retires on|is) (\S+?)\.?$/i;

export function splitRetirement(text: string): { standard: string; others: string } | null {
  const m = SPLIT_RETIREMENT.exec(cleanCell(text));
  return m ? { standard: group(m, 1), others: group(m, 2) } : null;
}

/**
 * Replacement cells name one or more models, optionally with a version:
 * "`gpt-4.1` version: `2025-04-14`", "`gpt-35-turbo` (0125) <br><br> `gpt-4o-mini`",
 * "`a` (version 2024-12-17) or `b` (version 2024-12-17)", "gpt-35-turbo-instruct", "n/a".
 */
export function parseReplacements(source: SourceDefinition, raw: string): string[] {
  const text = raw.trim();
  if (text === "" || /^n\/?a$/i.test(cleanCell(text))) return [];
  const parts = text
    .split(/<br\s*\/?>|\s+or\s+/i)
    .map((p) => p.replace(/`/g, "").replace(/\s+/g, " ").trim())
    .filter((p) => p !== "");
  return parts.map((part) => {
    const m = /^([a-z0-9][a-z0-9.-]*)(?:\s+version:?\s*([\w.-]+)|\s*\((?:version\s+)?([\w.-]+)\))?$/i.exec(
      part,
    );
    if (!m) throw parseFailure(source, `replacement "${part}" is not a model name`);
    return azureProviderModelId(group(m, 1), m[2] ?? m[3] ?? null);
  });
}

function baseStatus(source: SourceDefinition, text: string): LifecycleStatus {
  const t = cleanCell(text);
  if (/^preview$/i.test(t)) return "preview";
  if (/^generally available$/i.test(t)) return "available";
  throw parseFailure(source, `unknown lifecycle status "${t}"`);
}

const CURRENT_COLUMNS = [
  /^model name$/i,
  /^model version/i,
  /lifecycle status/i,
  /deprecation date/i,
  /retirement date/i,
  /replacement/i,
];
const RETIRED_COLUMNS = [/^model$/i, /deprecation date/i, /retirement date/i, /suggested replacement/i];

/**
 * The lifecycle tables of one file: current-models tables, the retired-models table, or both
 * (at least one kind is required). Fine-tuned schedules are counted as skipped.
 */
function parseModelRetirements(input: ParserInput): ParseOutput {
  const { source } = input;
  const evidence = evidenceFor(source, input.observedAt);
  const lifecycle: LifecycleAssertion[] = [];
  const skipped: SkipCount[] = [];
  const seen = new Set<string>();

  const add = (
    name: string,
    version: string | null,
    assertion: Omit<LifecycleAssertion, "scope" | "provider_id" | "target" | "evidence">,
  ): void => {
    const providerModelId = azureProviderModelId(name, version);
    if (seen.has(providerModelId))
      throw parseFailure(source, `model version ${providerModelId} is listed twice`);
    seen.add(providerModelId);
    lifecycle.push({
      scope: "deployment",
      provider_id: "azure",
      model_id: azureCanonicalModelId(name, version),
      target: { provider_model_id: providerModelId, api_surface: API_SURFACE },
      ...assertion,
      evidence,
    });
  };

  const tables = azureTables(input.content);
  // Current models: one table per tab (text generation, audio, image and video, embedding).
  const current = tablesWith(tables, CURRENT_COLUMNS);
  // Retired models: "`gpt-35-turbo` - 0301", "`gpt-4`<br>`gpt-4-32k` - 0314", "`ada`".
  const retired = tablesWith(tables, RETIRED_COLUMNS);
  if (current.length === 0 && retired.length === 0)
    throw parseFailure(
      source,
      `no current-models table (columns ${describeColumns(CURRENT_COLUMNS)}) and no retired-models table (columns ${describeColumns(RETIRED_COLUMNS)})`,
    );
  for (const table of current) {
    const iName = columnIndex(source, table.headers, /^model name$/i);
    const iVersion = columnIndex(source, table.headers, /^model version/i);
    const iStatus = columnIndex(source, table.headers, /lifecycle status/i);
    const iDeprecation = columnIndex(source, table.headers, /deprecation date/i);
    const iRetirement = columnIndex(source, table.headers, /retirement date/i);
    const iReplacement = columnIndex(source, table.headers, /replacement/i);
    for (const row of table.rows) {
      const name = cleanCell(cell(source, row, iName, table));
      const version = cleanCell(cell(source, row, iVersion, table));
      if (name === "" || version === "")
        throw parseFailure(source, `row "${row.join(" | ")}" has no model/version`);
      const deprecation = milestone(source, cell(source, row, iDeprecation, table), input);
      const retirementCell = cell(source, row, iRetirement, table);
      const split = splitRetirement(retirementCell);
      const endOfLife = milestone(source, split ? split.others : retirementCell, input);
      // The lifecycle status column as declared; the dates decide the rest in the release stage.
      const status = baseStatus(source, cell(source, row, iStatus, table));
      const replacements = parseReplacements(source, row[iReplacement] ?? "");
      add(name, version, {
        status,
        deprecation,
        end_of_life: endOfLife,
        ...(replacements.length ? { replacements } : {}),
      });
      if (split) {
        // The Standard deployment type's own retirement date: a narrower assertion (the merge
        // prefers it for Standard deployments). It states no status of its own.
        const row = lifecycle[lifecycle.length - 1] as LifecycleAssertion;
        const target = row.target as NonNullable<LifecycleAssertion["target"]>;
        lifecycle.push({
          scope: "deployment",
          provider_id: "azure",
          ...(row.model_id ? { model_id: row.model_id } : {}),
          target: { ...target, mode: STANDARD.mode },
          deprecation,
          end_of_life: milestone(source, split.standard, input),
          ...(replacements.length ? { replacements } : {}),
          evidence,
        });
      }
    }
  }

  for (const table of retired) {
    const iModel = columnIndex(source, table.headers, /^model$/i);
    const iDeprecation = columnIndex(source, table.headers, /deprecation date/i);
    const iRetirement = columnIndex(source, table.headers, /retirement date/i);
    const iReplacement = columnIndex(source, table.headers, /suggested replacement/i);
    for (const row of table.rows) {
      const rawModel = cell(source, row, iModel, table);
      const [namesPart, versionPart] = rawModel.split(/\s+-\s+/, 2) as [string, string | undefined];
      const version = versionPart === undefined ? null : cleanCell(versionPart);
      const names = namesPart
        .split(/<br\s*\/?>/i)
        .map(cleanCell)
        .filter((n) => n !== "");
      if (names.length === 0 || names.some((n) => !/^[a-z0-9][a-z0-9.-]*$/i.test(n)))
        throw parseFailure(source, `retired model cell "${rawModel}" is not a model list`);
      const deprecation = milestone(source, cell(source, row, iDeprecation, table), input);
      const endOfLife = milestone(source, cell(source, row, iRetirement, table), input);
      if (endOfLife.state !== "scheduled")
        throw parseFailure(source, `retired model "${rawModel}" has no retirement date`);
      const replacements = parseReplacements(source, row[iReplacement] ?? "");
      for (const name of names)
        add(name, version, {
          status: "retired",
          deprecation,
          end_of_life: endOfLife,
          ...(replacements.length ? { replacements } : {}),
        });
    }
  }

  // Fine-tuned model schedules are relative to the base model ("At base model retirement").
  const fineTuned = tables.filter((t) => t.headers.some((h) => /training retirement/i.test(h)));
  const fineTunedRows = fineTuned.flatMap((t) => t.rows);
  if (fineTunedRows.length)
    skipped.push({
      reason: "fine-tuned model retirement rows (dates relative to the base model)",
      count: fineTunedRows.length,
      examples: fineTunedRows.slice(0, 5).map((r) => r.slice(0, 2).map(cleanCell).join(" ")),
    });

  requireSome(source, lifecycle, "model retirement rows");
  return { deployments: [], lifecycle, skipped };
}

// ---------------------------------------------------------------------------------------
// Models page: region availability per deployment type, one matrix file per type. Global
// types get region "global", Data Zone Standard the zone ("us" / "eu") of the listed resource
// region, Standard (regional) deployments the Azure region itself.

/** Data Zone deployments keep data in the zone of the resource's region. */
export const DATA_ZONE: Record<string, "us" | "eu"> = {
  eastus: "us",
  eastus2: "us",
  centralus: "us",
  northcentralus: "us",
  southcentralus: "us",
  westcentralus: "us",
  westus: "us",
  westus2: "us",
  westus3: "us",
  francecentral: "eu",
  germanywestcentral: "eu",
  italynorth: "eu",
  northeurope: "eu",
  polandcentral: "eu",
  spaincentral: "eu",
  swedencentral: "eu",
  westeurope: "eu",
};

export interface DeploymentType {
  mode: string;
  /** The deployment's region for a resource region (global types ignore it). */
  regionFor: (source: SourceDefinition, azureRegion: string) => string;
}

const GLOBAL_STANDARD: DeploymentType = { mode: "global-standard", regionFor: () => "global" };
const GLOBAL_BATCH: DeploymentType = { mode: "global-batch", regionFor: () => "global" };
const DATA_ZONE_STANDARD: DeploymentType = {
  mode: "data-zone-standard",
  regionFor: (source, azureRegion) => {
    const zone = DATA_ZONE[azureRegion];
    if (!zone) throw parseFailure(source, `region "${azureRegion}" is in no known data zone`);
    return zone;
  },
};
const STANDARD: DeploymentType = {
  mode: "standard",
  regionFor: (source, azureRegion) => {
    if (!/^[a-z]+[0-9]*$/.test(azureRegion))
      throw parseFailure(source, `"${azureRegion}" is not an Azure region`);
    return azureRegion;
  },
};

/**
 * The deployment type of each model-matrix file (articles/ai-foundry/openai/includes/
 * model-matrix/<file>) of MicrosoftDocs/azure-ai-docs, as the models page includes it: under
 * "Global standard model availability" (standard-global.md), "Data zone standard model
 * availability" (datazone-standard.md), "Global batch model availability" (global-batch.md)
 * and "Standard deployment model availability" (standard-models.md). The files themselves
 * have no heading, so the type is the source's: the file name its URL ends with.
 */
export const MATRIX_FILES: Readonly<Record<string, DeploymentType>> = {
  "standard-global.md": GLOBAL_STANDARD,
  "datazone-standard.md": DATA_ZONE_STANDARD,
  "global-batch.md": GLOBAL_BATCH,
  "standard-models.md": STANDARD,
};

/** The deployment type of an "azure-models" source, from the matrix file its URL names. */
export function matrixDeploymentType(source: SourceDefinition): DeploymentType {
  let file: string;
  try {
    file = new URL(source.url).pathname.split("/").pop() ?? "";
  } catch {
    throw parseFailure(source, `source URL "${source.url}" is not a URL`);
  }
  const type = Object.hasOwn(MATRIX_FILES, file) ? MATRIX_FILES[file] : undefined;
  if (!type)
    throw parseFailure(
      source,
      `"${file}" is not a known model-matrix file (${Object.keys(MATRIX_FILES).join(", ")})`,
    );
  return type;
}

function parseModels(input: ParserInput): ParseOutput {
  const { source } = input;
  const type = matrixDeploymentType(source);
  const tables = tablesWith(azureTables(input.content), [/^region$/i]);
  if (tables.length === 0) throw parseFailure(source, "no region availability table (column Region)");
  const deployments = new Map<string, DeploymentFact>();
  for (const table of tables) {
    const iRegion = columnIndex(source, table.headers, /^region$/i);
    const models = table.headers.map((h, i) => {
      if (i === iRegion) return null;
      const m = /^([a-z0-9][a-z0-9.-]*),\s*([\w.-]+)$/i.exec(h);
      if (!m) throw parseFailure(source, `column "${h}" is not "<model>, <version>"`);
      return { name: group(m, 1), version: group(m, 2) };
    });
    for (const row of table.rows) {
      const azureRegion = cleanCell(cell(source, row, iRegion, table));
      models.forEach((model, i) => {
        if (!model) return;
        const mark = cleanCell(cell(source, row, i, table));
        if (mark === "-" || mark === "") return;
        if (mark !== "✅") throw parseFailure(source, `availability cell "${mark}" is neither ✅ nor -`);
        const deployment = fact(
          input,
          model.name,
          model.version,
          type.mode,
          type.regionFor(source, azureRegion),
        );
        // A ✅ is the page saying the version is available for this deployment type in this region.
        deployments.set(deployment.id, { ...deployment, status: "available" });
      });
    }
  }
  const list = requireSome(source, [...deployments.values()], "available model versions");
  list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { deployments: list, lifecycle: [], skipped: [] };
}

export const parsers: Record<string, Parser> = {
  "azure-model-retirements": parseModelRetirements,
  "azure-models": parseModels,
};
