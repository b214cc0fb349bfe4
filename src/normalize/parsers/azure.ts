/**
 * Azure OpenAI in Azure AI Foundry (provider `azure`). Every source is one Markdown file of
 * Microsoft's docs repository (MicrosoftDocs/azure-ai-docs, fetched raw from GitHub), read
 * with the shared pipe-table reader (../markdown.ts):
 * - "azure-model-retirements": lifecycle tables. Three kinds of table are read; a file may hold
 *   any of them, and at least one is required:
 *   - the retirement schedule (articles/foundry/openai/includes/
 *     concepts-model-retirement-schedule-content.md since the 2026 move to articles/foundry):
 *     tables "Model | Version | Lifecycle | Retirement date | Replacement", one per publisher
 *     (H3) under "## Foundry Models sold by Azure" or "## Foundry Models from partners and
 *     community". Read: every row of the "Azure OpenAI" table under "sold by Azure", and the
 *     rows of `model-router` (Microsoft's router, which the Azure OpenAI region tables list
 *     among the Azure OpenAI models) in the other "sold by Azure" tables. Every other row is
 *     another publisher's model (not this API surface): counted as skipped. No "Azure OpenAI"
 *     table under "sold by Azure" fails the source. Lifecycle `GA` -> available, `Preview`,
 *     `Legacy`, `Deprecated`, `Retired` -> the same status; any other value fails. The table has
 *     no deprecation date (it stays unknown). The retirement date is `on` that day, except for a
 *     `Preview` row: the lifecycle policy the page links to ("Preview models ... launch with a
 *     'not sooner than' retirement date ... sometimes extended") makes it `not_before`. "—" is
 *     not announced. A model version listed twice with the same row is read once; listed twice
 *     with different rows (gpt-realtime-mini 2025-10-06 and 2025-12-15 in the October 2026 file)
 *     it is skipped and counted, never guessed.
 *   - the former current-models table file (articles/ai-foundry/openai/includes/retirement/
 *     models.md, recorded as an archived source): "Model Name | Model Version | Lifecycle Status
 *     | Deprecation Date | Retirement Date | Replacement Model", with "No earlier than" phrases
 *     and a retirement date given for the Standard deployment type apart (a narrower assertion).
 *   - the retired-models table ("Model | Deprecation date | Retirement date | Suggested
 *     replacement", concepts-retired-models-content.md, formerly concepts/legacy-models.md): every
 *     row retired. Other publishers' retired tables there have no deprecation date column and are
 *     counted as skipped.
 *   Fine-tuned schedules (a "Training retirement date" column) are counted as skipped.
 * - "azure-models": a region-availability file of the models page (articles/foundry/
 *   foundry-models/includes/model-matrix/deployments-standard.md and deployments-batch.md). Each
 *   file has one "## <deployment type>" section per type, each with "#### Availability for Azure
 *   OpenAI in Foundry Models" and "#### Availability for other Foundry Models sold by Azure"
 *   parts, each part one table per geography tab ("# [Americas](#tab/az-americas)"; the tab
 *   markers are dropped before reading, the tab names carry nothing). A table is "Model | Version
 *   | <Azure region> ...", a cell ✅ (available) or - (not). The section heading decides the
 *   deployment type (SECTION_TYPES: Global Standard, Data Zone Standard, Standard/Regional, Global
 *   Batch, Data Zone Batch); an unknown section heading, a table under no known part, a column
 *   that is not an Azure region name or a cell that is neither mark fails the source. Tables of
 *   other Foundry Models are counted as skipped. A Data Zone cell whose region is in no data zone
 *   the catalog names (DATA_ZONE: the US and EU zones; the October 2026 tables also list
 *   Asia Pacific regions and norwayeast / switzerlandnorth under the Europe tab) is counted as
 *   skipped, never placed in a guessed zone.
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
  SourceDefinition,
} from "../../schema/index.js";
import { columnIndex, evidenceFor, parseFailure, requireSome, SkipLog, sourceMilestone } from "../helpers.js";
import {
  AZURE,
  AZURE_DATA_ZONES,
  azureCanonicalModelId,
  azureDataZone,
  azureDeployment,
  azureProviderModelId,
} from "../identity/index.js";
import { cleanCell, type MarkdownTable, markdownTables, withoutFrontMatter } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

export const API_SURFACE = AZURE.surfaces.azureOpenai;
/**
 * The retirement pages say when a model version retires, not where it is offered: they create
 * no deployment. Their assertions apply to every deployment of the version that a model-matrix
 * page places (any deployment type and region); a version no matrix lists keeps its lifecycle
 * on its model's record (the assertion carries `model_id`, see LifecycleAssertion).
 */

// ---------------------------------------------------------------------------------------
// Markdown pipe tables

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
  return {
    ...azureDeployment(name, version, mode, region),
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
  if (text === "" || /^(?:n\/?a|—|-)$/i.test(cleanCell(text))) return [];
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
const SCHEDULE_COLUMNS = [/^model$/i, /^version$/i, /^lifecycle$/i, /^retirement date$/i, /^replacement$/i];

/** The retirement schedule's Lifecycle column (the stages of Foundry's lifecycle policy). */
const SCHEDULE_STATUS: Readonly<Record<string, LifecycleStatus>> = {
  ga: "available",
  preview: "preview",
  legacy: "legacy",
  deprecated: "deprecated",
  retired: "retired",
};

/** Models of other "sold by Azure" schedule tables that are deployed as Azure OpenAI models. */
const ROUTER_MODELS: ReadonlySet<string> = new Set(["model-router"]);

const MODEL_NAME = /^[a-z0-9][a-z0-9.-]*$/i;
const MODEL_VERSION = /^[\w.-]+$/;

type ScheduleRow = Omit<LifecycleAssertion, "scope" | "provider_id" | "target" | "evidence">;

/**
 * The rows of one retirement-schedule table: each Azure OpenAI row (or, in another table sold
 * by Azure, each `model-router` row) as [name, version, assertion]; the other rows skipped.
 */
function scheduleRows(
  source: SourceDefinition,
  table: MarkdownTable,
  input: ParserInput,
  onlyRouter: boolean,
): { rows: [string, string, ScheduleRow][]; skipped: string[] } {
  const iModel = columnIndex(source, table.headers, /^model$/i);
  const iVersion = columnIndex(source, table.headers, /^version$/i);
  const iLifecycle = columnIndex(source, table.headers, /^lifecycle$/i);
  const iRetirement = columnIndex(source, table.headers, /^retirement date$/i);
  const iReplacement = columnIndex(source, table.headers, /^replacement$/i);
  const rows: [string, string, ScheduleRow][] = [];
  const skipped: string[] = [];
  for (const row of table.rows) {
    const name = cleanCell(cell(source, row, iModel, table));
    if (onlyRouter && !ROUTER_MODELS.has(name)) {
      skipped.push(`${name} (${table.heading})`);
      continue;
    }
    const version = cleanCell(cell(source, row, iVersion, table));
    if (!MODEL_NAME.test(name) || !MODEL_VERSION.test(version))
      throw parseFailure(source, `row "${row.join(" | ")}" has no model name and version`);
    const lifecycle = cleanCell(cell(source, row, iLifecycle, table));
    const status = Object.hasOwn(SCHEDULE_STATUS, lifecycle.toLowerCase())
      ? SCHEDULE_STATUS[lifecycle.toLowerCase()]
      : undefined;
    if (!status) throw parseFailure(source, `unknown lifecycle "${lifecycle}" for ${name} ${version}`);
    const retirement = cleanCell(cell(source, row, iRetirement, table));
    // A preview's retirement date is a "not sooner than" date (the lifecycle policy's words).
    const dated = /^\d{4}-\d{2}-\d{2}$/.test(retirement);
    const endOfLife = milestone(
      source,
      status === "preview" && dated ? `No earlier than ${retirement}` : retirement,
      input,
    );
    const replacements = parseReplacements(source, row[iReplacement] ?? "");
    rows.push([
      name,
      version,
      { status, end_of_life: endOfLife, ...(replacements.length ? { replacements } : {}) },
    ]);
  }
  return { rows, skipped };
}

/**
 * The lifecycle tables of one file: current-models tables, the retired-models table, or both
 * (at least one kind is required). Fine-tuned schedules are counted as skipped.
 */
function parseModelRetirements(input: ParserInput): ParseOutput {
  const { source } = input;
  const evidence = evidenceFor(source, input.observedAt);
  const lifecycle: LifecycleAssertion[] = [];
  const skipped = new SkipLog({ distinctExamples: false });
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
  // The retirement schedule: one table per publisher.
  const schedule = tablesWith(tables, SCHEDULE_COLUMNS);
  if (current.length === 0 && retired.length === 0 && schedule.length === 0)
    throw parseFailure(
      source,
      `no retirement-schedule table (columns ${describeColumns(SCHEDULE_COLUMNS)}), no current-models table (columns ${describeColumns(CURRENT_COLUMNS)}) and no retired-models table (columns ${describeColumns(RETIRED_COLUMNS)})`,
    );

  if (schedule.length) {
    const soldByAzure = (t: MarkdownTable): boolean =>
      /\bsold by Azure\b/i.test(cleanCell(t.headings[2] ?? ""));
    const azureOpenAI = schedule.filter(
      (t) => soldByAzure(t) && cleanCell(t.headings[3] ?? "") === "Azure OpenAI",
    );
    if (azureOpenAI.length === 0)
      throw parseFailure(
        source,
        'no "Azure OpenAI" retirement-schedule table under "Foundry Models sold by Azure"',
      );
    const byVersion = new Map<string, { name: string; version: string; rows: ScheduleRow[] }>();
    for (const table of schedule) {
      const read = azureOpenAI.includes(table)
        ? scheduleRows(source, table, input, false)
        : soldByAzure(table)
          ? scheduleRows(source, table, input, true)
          : { rows: [], skipped: table.rows.map((r) => `${cleanCell(r[0] ?? "")} (${table.heading})`) };
      for (const row of read.skipped)
        skipped.add("retirement-schedule rows of other publishers' models (not Azure OpenAI)", row);
      for (const [name, version, row] of read.rows) {
        const key = azureProviderModelId(name, version);
        const entry = byVersion.get(key) ?? { name, version, rows: [] };
        entry.rows.push(row);
        byVersion.set(key, entry);
      }
    }
    for (const [key, { name, version, rows }] of byVersion) {
      const distinct = new Set(rows.map((r) => JSON.stringify(r)));
      if (distinct.size > 1) {
        skipped.add("model version listed more than once with different lifecycle rows (none is read)", key);
        continue;
      }
      add(name, version, rows[0] as ScheduleRow);
    }
  }

  // Retirement tables of other publishers on the retired-models page: no deprecation date column.
  const otherRetired = tables.filter(
    (t) =>
      !retired.includes(t) &&
      !schedule.includes(t) &&
      !current.includes(t) &&
      t.headers.some((h) => /^model$/i.test(h)) &&
      t.headers.some((h) => /^retirement date$/i.test(h)),
  );
  for (const row of otherRetired.flatMap((t) => t.rows))
    skipped.add("retired models of other publishers (not Azure OpenAI)", cleanCell(row[0] ?? ""));
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
  for (const row of fineTuned.flatMap((t) => t.rows))
    skipped.add(
      "fine-tuned model retirement rows (dates relative to the base model)",
      row.slice(0, 2).map(cleanCell).join(" "),
    );

  requireSome(source, lifecycle, "model retirement rows");
  return { deployments: [], lifecycle, skipped: skipped.toArray() };
}

// ---------------------------------------------------------------------------------------
// Models page: region availability per deployment type, one "## <type>" section per type in
// each region-availability file. Global types get region "global", Data Zone types the zone
// ("us" / "eu") of the listed resource region, Standard (regional) deployments the Azure region
// itself.

/** Data Zone deployments keep data in the zone of the resource's region (../identity/azure.ts). */
export const DATA_ZONE = AZURE_DATA_ZONES;

export interface DeploymentType {
  mode: string;
  /**
   * The deployment's region for a resource region (global types ignore it); null when the
   * region is in no data zone the catalog names (the cell is skipped, never placed).
   */
  regionFor: (source: SourceDefinition, azureRegion: string) => string | null;
}

const AZURE_REGION = /^[a-z]+[0-9]*$/;

const GLOBAL_STANDARD: DeploymentType = {
  mode: AZURE.modes.globalStandard,
  regionFor: () => AZURE.regions.global,
};
const GLOBAL_BATCH: DeploymentType = { mode: AZURE.modes.globalBatch, regionFor: () => AZURE.regions.global };
const DATA_ZONE_STANDARD: DeploymentType = {
  mode: AZURE.modes.dataZoneStandard,
  regionFor: (_, r) => azureDataZone(r),
};
const DATA_ZONE_BATCH: DeploymentType = {
  mode: AZURE.modes.dataZoneBatch,
  regionFor: (_, r) => azureDataZone(r),
};
const STANDARD: DeploymentType = {
  mode: AZURE.modes.standard,
  regionFor: (source, azureRegion) => {
    if (!AZURE_REGION.test(azureRegion))
      throw parseFailure(source, `"${azureRegion}" is not an Azure region`);
    return azureRegion;
  },
};

/**
 * The deployment type of each "## " section of the region-availability files
 * (articles/foundry/foundry-models/includes/model-matrix/deployments-standard.md: "Global
 * Standard", "Data Zone Standard", "Standard/Regional"; deployments-batch.md: "Global Batch",
 * "Data Zone Batch"), as the section's own heading and its first sentence ("For **Data Zone**
 * deployments ...") name it.
 */
export const SECTION_TYPES: ReadonlyArray<readonly [RegExp, DeploymentType]> = [
  [/^global standard$/i, GLOBAL_STANDARD],
  [/^data zone standard$/i, DATA_ZONE_STANDARD],
  [/^standard\/regional$/i, STANDARD],
  [/^global batch$/i, GLOBAL_BATCH],
  [/^data zone batch$/i, DATA_ZONE_BATCH],
];

/** The deployment type a "## " section heading names; anything else fails the source. */
export function sectionDeploymentType(source: SourceDefinition, heading: string): DeploymentType {
  const text = cleanCell(heading);
  const found = SECTION_TYPES.find(([re]) => re.test(text));
  if (!found)
    throw parseFailure(
      source,
      `section "${text}" names no known deployment type (${SECTION_TYPES.map(([re]) => re.source).join(", ")})`,
    );
  return found[1];
}

/** A geography tab marker line: "# [Americas](#tab/az-americas)". */
const TAB_MARKER = /^#\s+\[[^\]]*\]\(#tab\/[^)]*\)\s*$/gm;
const AZURE_OPENAI_PART = /^availability for azure openai\b/i;
const OTHER_MODELS_PART = /^availability for other foundry models\b/i;

function parseModels(input: ParserInput): ParseOutput {
  const { source } = input;
  // Tab markers are level-1 headings: dropped, so each table keeps its section and part headings.
  const tables = azureTables(input.content.replace(TAB_MARKER, ""));
  if (tables.length === 0) throw parseFailure(source, "no region availability table");
  const deployments = new Map<string, DeploymentFact>();
  const skipped = new SkipLog({ distinctExamples: false });
  // every Azure region a table of the page names, and the deployment types of its tables
  const pageRegions = new Set<string>();
  const types = new Map<string, DeploymentType>();
  for (const table of tables) {
    const type = sectionDeploymentType(source, table.headings[2] ?? "");
    const part = cleanCell(table.headings[4] ?? "");
    if (OTHER_MODELS_PART.test(part)) {
      for (const r of table.rows)
        skipped.add(
          "other Foundry Models sold by Azure (not Azure OpenAI)",
          `${cleanCell(r[0] ?? "")} ${cleanCell(r[1] ?? "")} (${type.mode})`,
        );
      continue;
    }
    if (!AZURE_OPENAI_PART.test(part))
      throw parseFailure(
        source,
        `table under "${part}" is in no known part of section "${table.headings[2]}"`,
      );
    const [modelHeader, versionHeader, ...regions] = table.headers;
    if (
      !/^model$/i.test(modelHeader ?? "") ||
      !/^version$/i.test(versionHeader ?? "") ||
      regions.length === 0
    )
      throw parseFailure(
        source,
        `table "${table.headers.join(" | ")}" is not "Model | Version | <region> ..."`,
      );
    for (const region of regions)
      if (!AZURE_REGION.test(region)) throw parseFailure(source, `column "${region}" is not an Azure region`);
    for (const region of regions) pageRegions.add(region);
    types.set(type.mode, type);
    for (const row of table.rows) {
      const name = cleanCell(cell(source, row, 0, table));
      const version = cleanCell(cell(source, row, 1, table));
      if (!MODEL_NAME.test(name) || !MODEL_VERSION.test(version))
        throw parseFailure(source, `row "${row.join(" | ")}" has no model name and version`);
      regions.forEach((azureRegion, i) => {
        const mark = cleanCell(cell(source, row, i + 2, table));
        if (mark === "-" || mark === "") return;
        if (mark !== "✅") throw parseFailure(source, `availability cell "${mark}" is neither ✅ nor -`);
        const region = type.regionFor(source, azureRegion);
        if (region === null) {
          skipped.add(
            "Data Zone cell whose region is in no data zone the catalog names (US, EU)",
            `${name} ${version} @ ${azureRegion} (${type.mode})`,
          );
          return;
        }
        const deployment = fact(input, name, version, type.mode, region);
        // A ✅ is the page saying the version is available for this deployment type in this region.
        deployments.set(deployment.id, { ...deployment, status: "available" });
      });
    }
  }
  const list = requireSome(source, [...deployments.values()], "available model versions");
  list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // the deployment-type and region tables are Azure's catalog of where each model is offered
  // (docs/provenance.md). A type's tables speak for every region the page names: a region the
  // page knows (a column of any of its tables) that a type's tables leave out offers no
  // deployment of that type (the Standard/Regional tables have no northeurope column, the
  // Global Standard and Data Zone ones do).
  const covers = new Map<string, { api_surface: string; mode: string; region: string }>();
  for (const type of types.values())
    for (const azureRegion of [...pageRegions].sort()) {
      const region = type.regionFor(source, azureRegion);
      if (region === null) continue;
      const place = { api_surface: AZURE.surfaces.azureOpenai, mode: type.mode, region };
      covers.set(`${place.mode}|${place.region}`, place);
    }
  return {
    deployments: list,
    lifecycle: [],
    availability_list: "catalog",
    availability_covers: [...covers.values()],
    skipped: skipped.toArray(),
  };
}

export const parsers: Record<string, Parser> = {
  "azure-model-retirements": parseModelRetirements,
  "azure-models": parseModels,
};
