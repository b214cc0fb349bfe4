/**
 * The relational shape of a catalog in DuckDB: flat tables the checks, the diff and the
 * Parquet export query. `loadCatalog(db, prefix, catalog)` creates
 *   <prefix>deployments   one row per deployment, rate card and lifecycle flattened (and,
 *                         loaded from records, the rate card's tiers: rate_tiers is made from them)
 *   <prefix>rate_tiers    long-context tiers of the rate cards
 *   <prefix>lifecycle     one row per lifecycle record, lifecycle flattened
 *   <prefix>lifecycle_all view: deployments' embedded lifecycles + lifecycle records
 *   <prefix>events, <prefix>sources
 * Capabilities stay one JSON column of the deployments: the diff expands only those that
 * changed, of deployments in both catalogs.
 * A prefix lets two catalogs (previous and new) live in one database for the diff.
 */
import { canonicalJson } from "../lib/canonical-json.js";
import {
  CapabilityName,
  type CatalogContent,
  PRICE_FIELDS,
  type SourceEvent,
  type SourceState,
  TIER_PRICE_FIELDS,
} from "../schema/index.js";
import {
  type ColumnSpec,
  loadStagedStatements,
  type ReleaseDatabase,
  type StagedTable,
  sqlString,
} from "./duckdb.js";
import type { FactsFile } from "./facts.js";

const LIFECYCLE_COLUMNS: ColumnSpec = [
  ["lifecycle_status", "VARCHAR"],
  ["announced_at", "VARCHAR"],
  ["deprecation_state", "VARCHAR"],
  ["deprecation_date", "VARCHAR"],
  ["deprecation_precision", "VARCHAR"],
  ["deprecation_date_type", "VARCHAR"],
  ["deprecation_evidence_count", "INTEGER"],
  ["end_of_life_state", "VARCHAR"],
  ["end_of_life_date", "VARCHAR"],
  ["end_of_life_precision", "VARCHAR"],
  ["end_of_life_date_type", "VARCHAR"],
  ["end_of_life_evidence_count", "INTEGER"],
  ["replacement_ids", "VARCHAR[]"],
  ["coverage_status", "VARCHAR"],
  ["coverage_source_count", "INTEGER"],
  ["coverage_source_ids", "VARCHAR[]"],
  ["last_checked_at", "VARCHAR"],
  ["last_changed_at", "VARCHAR"],
];

/** A column per price field (integer micro-USD), in declaration order (src/schema/price-components.ts). */
function priceColumns(fields: readonly string[]): ColumnSpec {
  return fields.map((field) => [field, "BIGINT"] as const);
}

/** The members of a DuckDB STRUCT type, one BIGINT per price field. */
function structMembers(fields: readonly string[]): string {
  return fields.map((field) => `${field} BIGINT`).join(", ");
}

/** A SELECT expression per price field: the member of that name of `struct`. */
function membersOf(struct: string, fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [field, `${struct}.${field}`]));
}

/** A deployment's own scalar members: a column each in the table and in its JSON record. */
const DEPLOYMENT_SCALARS: ColumnSpec = [
  ["id", "VARCHAR"],
  ["model_id", "VARCHAR"],
  ["provider_id", "VARCHAR"],
  ["provider_model_id", "VARCHAR"],
  ["api_surface", "VARCHAR"],
  ["mode", "VARCHAR"],
  ["region", "VARCHAR"],
  ["status", "VARCHAR"],
  ["context_tokens", "BIGINT"],
  ["max_output_tokens", "BIGINT"],
];

export const DEPLOYMENT_COLUMNS: ColumnSpec = [
  ...DEPLOYMENT_SCALARS,
  ["has_rate_card", "BOOLEAN"],
  ["currency", "VARCHAR"],
  ["unit", "VARCHAR"],
  ...priceColumns(PRICE_FIELDS),
  ["rate_card_source_url", "VARCHAR"],
  ["rate_card_observed_at", "VARCHAR"],
  ["evidence_urls", "VARCHAR[]"],
  // provenance (docs/provenance.md): each fact's verification level, null where the fact is null
  ["listing_verification", "VARCHAR"],
  ["rate_card_verification", "VARCHAR"],
  ["context_verification", "VARCHAR"],
  ["max_output_verification", "VARCHAR"],
  ["capabilities", "VARCHAR"],
  ...LIFECYCLE_COLUMNS,
];

export const LIFECYCLE_RECORD_COLUMNS: ColumnSpec = [
  ["resource_type", "VARCHAR"],
  ["resource_id", "VARCHAR"],
  ["provider_id", "VARCHAR"],
  ["model_id", "VARCHAR"],
  ...LIFECYCLE_COLUMNS,
  ["summary", "VARCHAR"],
];

const TIER_COLUMNS: ColumnSpec = [
  ["deployment_id", "VARCHAR"],
  ["tier_index", "INTEGER"],
  ["above_input_tokens", "BIGINT"],
  ...priceColumns(TIER_PRICE_FIELDS),
];

const EVENT_COLUMNS: ColumnSpec = [
  ["id", "VARCHAR"],
  ["event_type", "VARCHAR"],
  ["provider_id", "VARCHAR"],
  ["source_id", "VARCHAR"],
  ["source_url", "VARCHAR"],
  ["detected_at", "VARCHAR"],
  ["previous_sha256", "VARCHAR"],
  ["current_sha256", "VARCHAR"],
  ["error", "VARCHAR"],
];

const SOURCE_COLUMNS: ColumnSpec = [
  ["source_id", "VARCHAR"],
  ["provider_id", "VARCHAR"],
  ["source_url", "VARCHAR"],
  ["status", "VARCHAR"],
  ["http_status", "INTEGER"],
  ["checked_at", "VARCHAR"],
  ["last_ok_at", "VARCHAR"],
];

/** The facts of a build: a row per source, with how many facts of each kind it gave. */
const FACT_COLUMNS: ColumnSpec = [
  ["source_id", "VARCHAR"],
  ["provider_id", "VARCHAR"],
  ["source_type", "VARCHAR"],
  ["carried_forward", "BOOLEAN"],
  ["observed_at", "VARCHAR"],
  ["deployment_facts", "INTEGER"],
  ["lifecycle_assertions", "INTEGER"],
];

function sourceRow(s: SourceState): Record<string, unknown> {
  return {
    source_id: s.source_id,
    provider_id: s.provider_id,
    source_url: s.source_url,
    status: s.status,
    http_status: s.http_status,
    checked_at: s.checked_at,
    last_ok_at: s.last_ok_at,
  };
}

// The records as read_json reads them from their JSON lines: only what the tables need (other
// members are skipped by DuckDB), milestone evidence as JSON (only its length is kept).
const MILESTONE_TYPE =
  "STRUCT(state VARCHAR, date VARCHAR, precision VARCHAR, date_type VARCHAR, evidence JSON)";
const LIFECYCLE_TYPE = `STRUCT(status VARCHAR, announced_at VARCHAR, deprecation ${MILESTONE_TYPE}, end_of_life ${MILESTONE_TYPE}, replacement_ids VARCHAR[], coverage STRUCT(status VARCHAR, last_checked_at VARCHAR, source_count INTEGER, source_ids VARCHAR[]), last_changed_at VARCHAR)`;
const TIER_TYPE = `STRUCT(above_input_tokens BIGINT, ${structMembers(TIER_PRICE_FIELDS)})`;
const RATE_CARD_TYPE = `STRUCT(currency VARCHAR, unit VARCHAR, ${structMembers(PRICE_FIELDS)}, tiers ${TIER_TYPE}[], source_url VARCHAR, observed_at VARCHAR)`;

const LEVEL_TYPE = "STRUCT(verification_status VARCHAR)";
const PROVENANCE_TYPE = `STRUCT(listing ${LEVEL_TYPE}, rate_card ${LEVEL_TYPE}, context_tokens ${LEVEL_TYPE}, max_output_tokens ${LEVEL_TYPE})`;

const DEPLOYMENT_RECORD: ColumnSpec = [
  ...DEPLOYMENT_SCALARS,
  ["rate_card", RATE_CARD_TYPE],
  ["evidence_urls", "VARCHAR[]"],
  ["provenance", PROVENANCE_TYPE],
  ["capabilities", "JSON"],
  ["lifecycle", LIFECYCLE_TYPE],
];

const LIFECYCLE_RECORD: ColumnSpec = [
  ["resource_type", "VARCHAR"],
  ["resource_id", "VARCHAR"],
  ["provider_id", "VARCHAR"],
  ["model_id", "VARCHAR"],
  ["lifecycle", LIFECYCLE_TYPE],
  ["summary", "JSON"],
];

function milestoneSelect(name: "deprecation" | "end_of_life"): Record<string, string> {
  const m = `r.lifecycle.${name}`;
  return {
    [`${name}_state`]: `${m}.state`,
    [`${name}_date`]: `${m}.date`,
    [`${name}_precision`]: `${m}.precision`,
    [`${name}_date_type`]: `${m}.date_type`,
    [`${name}_evidence_count`]: `coalesce(json_array_length(${m}.evidence), 0)`,
  };
}

/** The lifecycle columns out of a record's `lifecycle` member (the same for both tables). */
const LIFECYCLE_SELECT: Record<string, string> = {
  lifecycle_status: "r.lifecycle.status",
  announced_at: "r.lifecycle.announced_at",
  ...milestoneSelect("deprecation"),
  ...milestoneSelect("end_of_life"),
  replacement_ids: "r.lifecycle.replacement_ids",
  coverage_status: "r.lifecycle.coverage.status",
  coverage_source_count: "r.lifecycle.coverage.source_count",
  coverage_source_ids: "r.lifecycle.coverage.source_ids",
  last_checked_at: "r.lifecycle.coverage.last_checked_at",
  last_changed_at: "r.lifecycle.last_changed_at",
};

const DEPLOYMENT_SELECT: Record<string, string> = {
  id: "r.id",
  model_id: "r.model_id",
  provider_id: "r.provider_id",
  provider_model_id: "r.provider_model_id",
  api_surface: "r.api_surface",
  mode: "r.mode",
  region: "r.region",
  status: "r.status",
  context_tokens: "r.context_tokens",
  max_output_tokens: "r.max_output_tokens",
  has_rate_card: "r.rate_card IS NOT NULL",
  currency: "r.rate_card.currency",
  unit: "r.rate_card.unit",
  ...membersOf("r.rate_card", PRICE_FIELDS),
  rate_card_source_url: "r.rate_card.source_url",
  rate_card_observed_at: "r.rate_card.observed_at",
  evidence_urls: "r.evidence_urls",
  listing_verification: "r.provenance.listing.verification_status",
  rate_card_verification: "r.provenance.rate_card.verification_status",
  context_verification: "r.provenance.context_tokens.verification_status",
  max_output_verification: "r.provenance.max_output_tokens.verification_status",
  // the record's own text of the member: canonical JSON, keys in code-point order
  capabilities: "CAST(r.capabilities AS VARCHAR)",
  ...LIFECYCLE_SELECT,
};

const LIFECYCLE_RECORD_SELECT: Record<string, string> = {
  resource_type: "r.resource_type",
  resource_id: "r.resource_id",
  provider_id: "r.provider_id",
  model_id: "r.model_id",
  ...LIFECYCLE_SELECT,
  summary: "CAST(r.summary AS VARCHAR)",
};

/** One SELECT expression per column of `columns`, from `select` (a missing one is a bug here). */
function selectFor(columns: ColumnSpec, select: Record<string, string>): string[] {
  return columns.map(([name]) => {
    const expression = select[name];
    if (expression === undefined) throw new Error(`tables.ts: no expression for column ${name}`);
    return expression;
  });
}

const TIER_SELECT: Record<string, string> = {
  deployment_id: "id",
  tier_index: "i",
  above_input_tokens: "tiers[i + 1].above_input_tokens",
  ...membersOf("tiers[i + 1]", TIER_PRICE_FIELDS),
};

/** A catalog written out for DuckDB: its records' JSON lines and its small tables' rows. */
export interface StagedCatalog {
  prefix: string;
  deployments: string | null;
  lifecycle: string | null;
  tables: StagedTable[];
}

/**
 * A catalog written to staging files (no table is created yet): the deployments and lifecycle
 * records as JSON lines, which DuckDB flattens into the tables itself (no row object per
 * record is made here), and the events and source states as rows. A build stages its catalog,
 * lets go of the values, and has DuckDB load them afterwards (loadStagedCatalog), so the JS
 * values and the DuckDB tables do not hold memory at once.
 */
export async function stageCatalog(
  db: ReleaseDatabase,
  prefix: string,
  catalog: CatalogContent,
): Promise<StagedCatalog> {
  return {
    prefix,
    ...(await stageRecordLines(db, prefix, catalog)),
    tables: await stageCatalogRows(db, prefix, catalog),
  };
}

/** The deployments' and lifecycle records' JSON lines (see stageCatalog). */
async function stageRecordLines(
  db: ReleaseDatabase,
  prefix: string,
  catalog: CatalogContent,
): Promise<{ deployments: string | null; lifecycle: string | null }> {
  return {
    // canonical JSON, as the build's serializer writes them: the capabilities and summary
    // columns hold their members' canonical text whichever way a catalog is loaded
    deployments: await db.stageLines(
      `${prefix}deployment_records`,
      jsonLines(catalog.deployments, canonicalJson),
    ),
    lifecycle: await db.stageLines(`${prefix}lifecycle_records`, jsonLines(catalog.lifecycle, canonicalJson)),
  };
}

/**
 * The rows of a catalog's small tables (events, source states), staged; with the records'
 * lines from elsewhere (a build has its serializer write them: recordLineWriters), they make a
 * StagedCatalog.
 */
export async function stageCatalogRows(
  db: ReleaseDatabase,
  prefix: string,
  catalog: Pick<CatalogContent, "events" | "sources">,
): Promise<StagedTable[]> {
  return [
    await db.stageRows(`${prefix}events`, EVENT_COLUMNS, catalog.events),
    await db.stageRows(`${prefix}sources`, SOURCE_COLUMNS, catalog.sources.map(sourceRow)),
  ];
}

/** Line writers for the deployments' and lifecycle records' staging files, fed record by record. */
export function recordLineWriters(
  db: ReleaseDatabase,
  prefix: string,
): Record<"deployments" | "lifecycle", ReturnType<ReleaseDatabase["lineWriter"]>> {
  return {
    deployments: db.lineWriter(`${prefix}deployment_records`),
    lifecycle: db.lineWriter(`${prefix}lifecycle_records`),
  };
}

function* jsonLines<T>(records: readonly T[], json: (record: T) => string): Generator<string> {
  for (const record of records) yield json(record);
}

/**
 * Load a staged catalog: its records (loadStagedRecords), the events and sources, and the
 * lifecycle view over them. The staging files are removed.
 */
export async function loadStagedCatalog(db: ReleaseDatabase, staged: StagedCatalog): Promise<void> {
  await loadStagedRecords(db, staged);
  await loadStagedTables(db, staged);
}

/**
 * <prefix>deployments, rate_tiers and lifecycle flattened by SQL out of the records' lines, and
 * capabilities out of the deployments' capabilities JSON; their staging files are removed. The
 * statements are handed to DuckDB at once, on a connection of their own (ReleaseDatabase.begin),
 * before this function first waits: a build calls it while it still has facts.json to write.
 */
export async function loadStagedRecords(
  db: ReleaseDatabase,
  staged: Pick<StagedCatalog, "prefix" | "deployments" | "lifecycle"> & {
    /**
     * The lifecycle lines leave out the deployments' lifecycle records, which are their
     * deployments' own lifecycles (deploymentLifecyclesEmbedded): <prefix>lifecycle gets those
     * rows from <prefix>deployments, whose lifecycle columns are read alike (LIFECYCLE_SELECT).
     */
    deploymentLifecycles?: "from deployments";
  },
): Promise<void> {
  const { prefix } = staged;
  const statements = [
    ...loadStagedStatements({
      table: `${prefix}deployments`,
      columns: LOADED_DEPLOYMENT_COLUMNS,
      file: staged.deployments,
      read: {
        columns: DEPLOYMENT_RECORD,
        select: selectFor(LOADED_DEPLOYMENT_COLUMNS, {
          ...DEPLOYMENT_SELECT,
          rate_card_tiers: "r.rate_card.tiers",
        }),
      },
    }),
    `CREATE OR REPLACE TABLE ${prefix}rate_tiers (${columnList(TIER_COLUMNS)})`,
    // out of the loaded table, not a second read of the records' file (at 100,000 deployments
    // that parsed the 221 MB of JSON again: 185-234 ms on DuckDB's two threads)
    `INSERT INTO ${prefix}rate_tiers SELECT ${selectFor(TIER_COLUMNS, TIER_SELECT).join(", ")}
     FROM (SELECT id, rate_card_tiers AS tiers, unnest(range(len(rate_card_tiers))) AS i
           FROM ${prefix}deployments WHERE rate_card_tiers IS NOT NULL)`,
  ];
  statements.push(
    ...loadStagedStatements({
      table: `${prefix}lifecycle`,
      columns: LIFECYCLE_RECORD_COLUMNS,
      file: staged.lifecycle,
      read: {
        columns: LIFECYCLE_RECORD,
        select: selectFor(LIFECYCLE_RECORD_COLUMNS, LIFECYCLE_RECORD_SELECT),
      },
    }),
  );
  // at 100,000 deployments, 63 MB of the records' 221 MB that DuckDB does not parse a second time
  if (staged.deploymentLifecycles === "from deployments") {
    const lifecycleNames = LIFECYCLE_COLUMNS.map(([n]) => n).join(", ");
    statements.push(
      `INSERT INTO ${prefix}lifecycle (resource_type, resource_id, provider_id, model_id, ${lifecycleNames}, summary)
       SELECT 'deployment', id, provider_id, model_id, ${lifecycleNames}, NULL FROM ${prefix}deployments`,
    );
  }
  await db.begin(statements);
  for (const file of [staged.deployments, staged.lifecycle]) await db.unstage(file);
}

/**
 * The columns of a deployments table loaded from records: DEPLOYMENT_COLUMNS and the rate
 * card's tiers, which <prefix>rate_tiers is made from. No query reads the tiers from it (the
 * exports and checks name their columns); a table loaded from Parquet files has no such column.
 */
const LOADED_DEPLOYMENT_COLUMNS: ColumnSpec = [...DEPLOYMENT_COLUMNS, ["rate_card_tiers", `${TIER_TYPE}[]`]];

/** A staged catalog's small tables (events, sources, facts) and the lifecycle view; their staging files are removed. */
export async function loadStagedTables(
  db: ReleaseDatabase,
  staged: Pick<StagedCatalog, "prefix" | "tables">,
): Promise<void> {
  for (const table of staged.tables) await db.loadStaged(table);
  for (const table of staged.tables) await db.unstage(table.file);
  await createLifecycleView(db, staged.prefix);
}

function columnList(columns: ColumnSpec): string {
  return columns.map(([n, t]) => `${n} ${t}`).join(", ");
}

export async function loadCatalog(
  db: ReleaseDatabase,
  prefix: string,
  catalog: CatalogContent,
): Promise<void> {
  await loadStagedCatalog(db, await stageCatalog(db, prefix, catalog));
}

/** <prefix>lifecycle_all: the deployments' embedded lifecycles and the lifecycle records, as one view. */
async function createLifecycleView(db: ReleaseDatabase, prefix: string): Promise<void> {
  const lifecycleNames = LIFECYCLE_COLUMNS.map(([n]) => n).join(", ");
  await db.run(
    `CREATE OR REPLACE VIEW ${prefix}lifecycle_all AS
       SELECT 'deployments' AS collection, 'deployment' AS resource_type, id AS resource_id, provider_id, model_id, ${lifecycleNames} FROM ${prefix}deployments
       UNION ALL
       SELECT 'lifecycle' AS collection, resource_type, resource_id, provider_id, model_id, ${lifecycleNames} FROM ${prefix}lifecycle`,
  );
}

/**
 * The facts of a build as a table, as the JSON lines DuckDB loads: a row per source (the
 * reference checks ask which sources gave facts; a row per fact was 100,000 lines to write and
 * load at 100,000 deployments, for nothing more).
 */
function* factLines(facts: FactsFile | null): Generator<string> {
  for (const source of facts?.sources ?? [])
    yield JSON.stringify({
      source_id: source.source_id,
      provider_id: source.provider_id,
      source_type: source.source_type,
      carried_forward: source.carried_forward,
      observed_at: source.observed_at,
      deployment_facts: source.output.deployments.length,
      lifecycle_assertions: source.output.lifecycle.length,
    });
}

/** The facts table's rows, staged (see stageCatalog). */
export function stageFacts(db: ReleaseDatabase, facts: FactsFile | null): Promise<StagedTable> {
  return db.stageTable("facts", FACT_COLUMNS, factLines(facts));
}

export async function loadFacts(db: ReleaseDatabase, facts: FactsFile | null): Promise<void> {
  await db.loadLines("facts", FACT_COLUMNS, factLines(facts));
}

/**
 * Columns the tables hold as ISO text and the exports type: milestone days as DATE, instants
 * (always UTC, `...Z`) as TIMESTAMP, so Parquet readers get date and time types, not strings.
 */
const DATE_COLUMNS = new Set(["deprecation_date", "end_of_life_date"]);
const TIMESTAMP_COLUMNS = new Set([
  "announced_at",
  "last_checked_at",
  "last_changed_at",
  "rate_card_observed_at",
]);

function exportColumns(columns: ColumnSpec): string {
  return columns
    .map(([n]) =>
      DATE_COLUMNS.has(n)
        ? `CAST(${n} AS DATE) AS ${n}`
        : TIMESTAMP_COLUMNS.has(n)
          ? `CAST(${n} AS TIMESTAMP) AS ${n}`
          : n,
    )
    .join(", ");
}

/** Parquet exports: flat, typed, explicitly ordered, so the bytes depend on the content alone. */
export function deploymentsParquetQuery(prefix = ""): string {
  return `SELECT ${exportColumns(DEPLOYMENT_COLUMNS)} FROM ${prefix}deployments ORDER BY id`;
}

export function lifecycleParquetQuery(prefix = ""): string {
  return `SELECT ${exportColumns(LIFECYCLE_RECORD_COLUMNS)} FROM ${prefix}lifecycle ORDER BY resource_type, resource_id`;
}

/**
 * `catalog export`'s deployments (docs/finding-deployments.md): the columns of the release's own
 * deployments.parquet, except that `capabilities` is typed instead of a JSON text. In Parquet it
 * is a STRUCT with one field per capability name, each a STRUCT(status, verification_status)
 * that is NULL where the capability is unknown; in CSV, two columns per capability,
 * `cap_<name>` (the status) and `cap_<name>_verification`, empty where unknown. The release's
 * own Parquet files keep the JSON text, which the diff of a later build reads.
 */
const CAPABILITY_FIELDS = ["status", "verification_status"] as const;
const CAPABILITIES_STRUCT_SHAPE = JSON.stringify(
  Object.fromEntries(
    CapabilityName.options.map((name) => [
      name,
      Object.fromEntries(CAPABILITY_FIELDS.map((field) => [field, "VARCHAR"])),
    ]),
  ),
);

function exportDeploymentsSelect(prefix: string, capabilities: (column: string) => string): string {
  const columns = exportColumns(DEPLOYMENT_COLUMNS)
    .split(", ")
    .map((column) => (column === "capabilities" ? capabilities(column) : column));
  return `SELECT ${columns.join(", ")} FROM ${prefix}deployments ORDER BY id`;
}

export function deploymentsExportParquetQuery(prefix = ""): string {
  return exportDeploymentsSelect(
    prefix,
    (column) => `json_transform(${column}, ${sqlString(CAPABILITIES_STRUCT_SHAPE)}) AS ${column}`,
  );
}

/** The CSV columns `capabilities` becomes: `cap_<name>` and `cap_<name>_verification` per capability. */
export const CAPABILITY_CSV_COLUMNS: readonly string[] = CapabilityName.options.flatMap((name) => [
  `cap_${name}`,
  `cap_${name}_verification`,
]);

export function deploymentsExportCsvQuery(prefix = ""): string {
  const typed = exportDeploymentsSelect(prefix, (column) => {
    const struct = `json_transform(${column}, ${sqlString(CAPABILITIES_STRUCT_SHAPE)})`;
    return CapabilityName.options
      .flatMap((name) => [
        `${struct}.${name}.status AS cap_${name}`,
        `${struct}.${name}.verification_status AS cap_${name}_verification`,
      ])
      .join(", ");
  });
  return csvQuery(DEPLOYMENT_COLUMNS, typed);
}

/** CSV has no lists: list columns become their items joined by one space (URLs, ids and UUIDs hold none). */
function csvQuery(columns: ColumnSpec, typedQuery: string): string {
  const lists = columns
    .filter(([, t]) => t.endsWith("[]"))
    .map(([n]) => `array_to_string(${n}, ' ') AS ${n}`);
  return `SELECT * REPLACE (${lists.join(", ")}) FROM (${typedQuery})`;
}

export function lifecycleCsvQuery(prefix = ""): string {
  return csvQuery(LIFECYCLE_RECORD_COLUMNS, lifecycleParquetQuery(prefix));
}

/** A deployment's columns the diff compares between two releases (diff.ts), its keys aside. */
export const DIFF_DEPLOYMENT_COLUMNS: readonly string[] = [
  "model_id",
  "status",
  "context_tokens",
  "max_output_tokens",
  ...PRICE_FIELDS,
  "capabilities",
];
/** A lifecycle's columns the diff compares between two releases (diff.ts), its keys aside. */
export const DIFF_LIFECYCLE_COLUMNS: readonly string[] = [
  "deprecation_state",
  "deprecation_date",
  "end_of_life_state",
  "end_of_life_date",
  "replacement_ids",
];
/**
 * What a compared release's tables keep (loadReleaseFiles): the columns the diff and the
 * checks read of the release they compare with (price-moved: prices; lifecycle-date-moved and
 * the diff: milestones, replacements; the diff: status, model, limits, capabilities), and no
 * other. A query that reads another one fails (the column is missing) instead of reading
 * nothing. DuckDB reads only these columns of the Parquet files: at 100,000 deployments the
 * deployments table loads in about 0.13 s instead of 0.34-0.89 s (measured).
 */
const COMPARED_DEPLOYMENT_COLUMNS: readonly string[] = ["id", "provider_id", ...DIFF_DEPLOYMENT_COLUMNS];
const COMPARED_LIFECYCLE_COLUMNS: readonly string[] = [
  "resource_type",
  "resource_id",
  "provider_id",
  "model_id",
  ...DIFF_LIFECYCLE_COLUMNS,
];

/** A compared table's columns out of its Parquet file: milestone days back to ISO text. */
function comparedColumns(names: readonly string[]): string {
  return names.map((n) => (DATE_COLUMNS.has(n) ? `CAST(${n} AS VARCHAR) AS ${n}` : n)).join(", ");
}

/**
 * The tables the diff reads (<prefix>deployments, capabilities, lifecycle, events) from a
 * published release's own files instead of its catalog: DuckDB reads the compared columns of
 * the Parquet exports directly (milestone days back to ISO text, as loadCatalog holds them)
 * and only the events are rows from JS. No deployment becomes a JS object.
 */
export async function loadReleaseFiles(
  db: ReleaseDatabase,
  prefix: string,
  files: { deploymentsParquet: string; lifecycleParquet: string; events: readonly SourceEvent[] },
): Promise<void> {
  await db.begin(releaseFileStatements(prefix, files));
  await db.loadTable(`${prefix}events`, EVENT_COLUMNS, files.events);
}

/** The compared tables out of a release's Parquet files (see loadReleaseFiles). */
function releaseFileStatements(
  prefix: string,
  files: { deploymentsParquet: string; lifecycleParquet: string },
): string[] {
  return [
    `CREATE OR REPLACE TABLE ${prefix}deployments AS SELECT ${comparedColumns(COMPARED_DEPLOYMENT_COLUMNS)} FROM read_parquet(${sqlString(files.deploymentsParquet)})`,
    `CREATE OR REPLACE TABLE ${prefix}lifecycle AS SELECT ${comparedColumns(COMPARED_LIFECYCLE_COLUMNS)} FROM read_parquet(${sqlString(files.lifecycleParquet)})`,
  ];
}

/**
 * A published release as the previous release of a build: the tables of loadCatalog (the
 * checks and the diff read them) from its Parquet files and the small parts of its catalog
 * (events, source states), so its deployments never become JS objects. Only the compared columns are loaded
 * (see loadReleaseFiles), and not made are <prefix>rate_tiers (no Parquet file holds the
 * tiers) and <prefix>lifecycle_all (the checks read only the new catalog's): no check or diff
 * reads them, and a query that did would fail instead of reading nothing.
 */
export async function loadPublishedRelease(
  db: ReleaseDatabase,
  prefix: string,
  files: {
    deploymentsParquet: string;
    lifecycleParquet: string;
    events: readonly SourceEvent[];
    sources: readonly SourceState[];
  },
): Promise<void> {
  // handed to DuckDB before the first wait (a build starts this, then merges)
  await db.begin(releaseFileStatements(prefix, files));
  await db.loadTable(`${prefix}events`, EVENT_COLUMNS, files.events);
  await db.loadTable(`${prefix}sources`, SOURCE_COLUMNS, files.sources.map(sourceRow));
}
