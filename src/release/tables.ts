/**
 * The relational shape of a catalog in DuckDB: flat tables the checks, the diff and the
 * Parquet export query. `loadCatalog(db, prefix, catalog)` creates
 *   <prefix>deployments   one row per deployment, rate card and lifecycle flattened
 *   <prefix>rate_tiers    long-context tiers of the rate cards
 *   <prefix>capabilities  one row per (deployment, capability)
 *   <prefix>lifecycle     one row per lifecycle record, lifecycle flattened
 *   <prefix>lifecycle_all view: deployments' embedded lifecycles + lifecycle records
 *   <prefix>events, <prefix>sources
 * A prefix lets two catalogs (previous and new) live in one database for the diff.
 */
import { canonicalJson } from "../lib/canonical-json.js";
import type {
  CatalogContent,
  Deployment,
  Lifecycle,
  LifecycleMilestone,
  LifecycleRecord,
  RateCard,
  SourceEvent,
  SourceState,
} from "../schema/index.js";
import { type ColumnSpec, type ReleaseDatabase, type StagedTable, sqlString } from "./duckdb.js";
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

export const DEPLOYMENT_COLUMNS: ColumnSpec = [
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
  ["has_rate_card", "BOOLEAN"],
  ["currency", "VARCHAR"],
  ["unit", "VARCHAR"],
  ["input_micro_usd", "BIGINT"],
  ["cached_input_micro_usd", "BIGINT"],
  ["output_micro_usd", "BIGINT"],
  ["cache_write_micro_usd", "BIGINT"],
  ["cache_write_1h_micro_usd", "BIGINT"],
  ["rate_card_source_url", "VARCHAR"],
  ["rate_card_observed_at", "VARCHAR"],
  ["evidence_urls", "VARCHAR[]"],
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
  ["input_micro_usd", "BIGINT"],
  ["cached_input_micro_usd", "BIGINT"],
  ["output_micro_usd", "BIGINT"],
  ["cache_write_micro_usd", "BIGINT"],
];

const CAPABILITY_COLUMNS: ColumnSpec = [
  ["deployment_id", "VARCHAR"],
  ["capability", "VARCHAR"],
  ["status", "VARCHAR"],
  ["verification_status", "VARCHAR"],
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

const FACT_COLUMNS: ColumnSpec = [
  ["source_id", "VARCHAR"],
  ["provider_id", "VARCHAR"],
  ["source_type", "VARCHAR"],
  ["carried_forward", "BOOLEAN"],
  ["kind", "VARCHAR"],
  ["record_key", "VARCHAR"],
  ["observed_at", "VARCHAR"],
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

function milestoneColumns(prefix: string, m: LifecycleMilestone | undefined): Record<string, unknown> {
  return {
    [`${prefix}_state`]: m?.state ?? null,
    [`${prefix}_date`]: m?.date ?? null,
    [`${prefix}_precision`]: m?.precision ?? null,
    [`${prefix}_date_type`]: m?.date_type ?? null,
    [`${prefix}_evidence_count`]: m?.evidence.length ?? 0,
  };
}

function lifecycleColumns(l: Lifecycle): Record<string, unknown> {
  return {
    lifecycle_status: l.status,
    announced_at: l.announced_at,
    ...milestoneColumns("deprecation", l.deprecation),
    ...milestoneColumns("end_of_life", l.end_of_life),
    replacement_ids: l.replacement_ids,
    coverage_status: l.coverage.status,
    coverage_source_count: l.coverage.source_count,
    coverage_source_ids: l.coverage.source_ids,
    last_checked_at: l.coverage.last_checked_at,
    last_changed_at: l.last_changed_at,
  };
}

function* tierRows(deployments: readonly Deployment[]): Generator<Record<string, unknown>> {
  for (const d of deployments) {
    const tiers = d.rate_card?.tiers ?? [];
    for (let index = 0; index < tiers.length; index++) {
      const t = tiers[index] as NonNullable<RateCard["tiers"]>[number];
      yield {
        deployment_id: d.id,
        tier_index: index,
        above_input_tokens: t.above_input_tokens,
        input_micro_usd: t.input_micro_usd,
        cached_input_micro_usd: t.cached_input_micro_usd,
        output_micro_usd: t.output_micro_usd,
        cache_write_micro_usd: t.cache_write_micro_usd ?? null,
      };
    }
  }
}

function* capabilityRows(deployments: readonly Deployment[]): Generator<Record<string, unknown>> {
  for (const d of deployments)
    for (const [capability, entry] of Object.entries(d.capabilities))
      yield {
        deployment_id: d.id,
        capability,
        status: entry?.status ?? null,
        verification_status: entry?.verification_status ?? null,
      };
}

function* deploymentRows(deployments: readonly Deployment[]): Generator<Record<string, unknown>> {
  for (const d of deployments) {
    const card = d.rate_card;
    yield {
      id: d.id,
      model_id: d.model_id,
      provider_id: d.provider_id,
      provider_model_id: d.provider_model_id,
      api_surface: d.api_surface,
      mode: d.mode,
      region: d.region,
      status: d.status,
      context_tokens: d.context_tokens,
      max_output_tokens: d.max_output_tokens,
      has_rate_card: card !== null,
      currency: card?.currency ?? null,
      unit: card?.unit ?? null,
      input_micro_usd: card?.input_micro_usd ?? null,
      cached_input_micro_usd: card?.cached_input_micro_usd ?? null,
      output_micro_usd: card?.output_micro_usd ?? null,
      cache_write_micro_usd: card?.cache_write_micro_usd ?? null,
      cache_write_1h_micro_usd: card?.cache_write_1h_micro_usd ?? null,
      rate_card_source_url: card?.source_url ?? null,
      rate_card_observed_at: card?.observed_at ?? null,
      evidence_urls: d.evidence_urls,
      // merge writes capability names in sorted order, so plain JSON is already canonical here
      capabilities: JSON.stringify(d.capabilities),
      ...lifecycleColumns(d.lifecycle),
    };
  }
}

function* lifecycleRows(records: readonly LifecycleRecord[]): Generator<Record<string, unknown>> {
  for (const r of records)
    yield {
      resource_type: r.resource_type,
      resource_id: r.resource_id,
      provider_id: r.provider_id ?? null,
      model_id: r.model_id ?? null,
      ...lifecycleColumns(r.lifecycle),
      summary: r.summary ? canonicalJson(r.summary) : null,
    };
}

/**
 * The rows of a catalog's tables written to staging files (no table is created yet): a build
 * stages its catalog, lets go of the values, and has DuckDB load them afterwards
 * (loadStagedCatalog), so the JS values and the DuckDB tables do not hold memory at once.
 */
export async function stageCatalog(
  db: ReleaseDatabase,
  prefix: string,
  catalog: CatalogContent,
): Promise<StagedTable[]> {
  // Rows are generated while they are written: no array of 100,000 row objects exists.
  return [
    await db.stageRows(`${prefix}deployments`, DEPLOYMENT_COLUMNS, deploymentRows(catalog.deployments)),
    await db.stageRows(`${prefix}rate_tiers`, TIER_COLUMNS, tierRows(catalog.deployments)),
    await db.stageRows(`${prefix}capabilities`, CAPABILITY_COLUMNS, capabilityRows(catalog.deployments)),
    await db.stageRows(`${prefix}lifecycle`, LIFECYCLE_RECORD_COLUMNS, lifecycleRows(catalog.lifecycle)),
    await db.stageRows(`${prefix}events`, EVENT_COLUMNS, catalog.events),
    await db.stageRows(`${prefix}sources`, SOURCE_COLUMNS, catalog.sources.map(sourceRow)),
  ];
}

/** Load the tables stageCatalog staged under `prefix`, and the lifecycle view over them. */
export async function loadStagedCatalog(
  db: ReleaseDatabase,
  prefix: string,
  staged: readonly StagedTable[],
): Promise<void> {
  for (const table of staged) await db.loadStaged(table);
  await createLifecycleView(db, prefix);
}

export async function loadCatalog(
  db: ReleaseDatabase,
  prefix: string,
  catalog: CatalogContent,
): Promise<void> {
  await loadStagedCatalog(db, prefix, await stageCatalog(db, prefix, catalog));
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

/** The facts of a build as a table (one row per fact), for the reference checks. */
function* factRows(facts: FactsFile | null): Generator<Record<string, unknown>> {
  for (const source of facts?.sources ?? []) {
    const base = {
      source_id: source.source_id,
      provider_id: source.provider_id,
      source_type: source.source_type,
      carried_forward: source.carried_forward,
    };
    for (const fact of source.output.deployments)
      yield { ...base, kind: "deployment", record_key: fact.id, observed_at: fact.evidence.observed_at };
    for (const assertion of source.output.lifecycle)
      yield {
        ...base,
        kind: `lifecycle_${assertion.scope}`,
        record_key:
          assertion.scope === "deployment"
            ? (assertion.target?.provider_model_id ?? null)
            : assertion.scope === "model"
              ? (assertion.model_id ?? null)
              : assertion.provider_id,
        observed_at: assertion.evidence.observed_at,
      };
    if (source.output.deployments.length === 0 && source.output.lifecycle.length === 0)
      yield { ...base, kind: "source", record_key: null, observed_at: source.observed_at };
  }
}

/** The facts table's rows, staged (see stageCatalog). */
export function stageFacts(db: ReleaseDatabase, facts: FactsFile | null): Promise<StagedTable> {
  return db.stageRows("facts", FACT_COLUMNS, factRows(facts));
}

export async function loadFacts(db: ReleaseDatabase, facts: FactsFile | null): Promise<void> {
  await db.loadStaged(await stageFacts(db, facts));
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

/** CSV has no lists: list columns become their items joined by one space (URLs, ids and UUIDs hold none). */
function csvQuery(columns: ColumnSpec, typedQuery: string): string {
  const lists = columns
    .filter(([, t]) => t.endsWith("[]"))
    .map(([n]) => `array_to_string(${n}, ' ') AS ${n}`);
  return `SELECT * REPLACE (${lists.join(", ")}) FROM (${typedQuery})`;
}

export function deploymentsCsvQuery(prefix = ""): string {
  return csvQuery(DEPLOYMENT_COLUMNS, deploymentsParquetQuery(prefix));
}

export function lifecycleCsvQuery(prefix = ""): string {
  return csvQuery(LIFECYCLE_RECORD_COLUMNS, lifecycleParquetQuery(prefix));
}

/**
 * The tables the diff reads (<prefix>deployments, capabilities, lifecycle, events) from a
 * published release's own files instead of its catalog: DuckDB reads the Parquet exports
 * directly (milestone days back to ISO text, as loadCatalog holds them; instants stay
 * TIMESTAMP, which the diff does not read) and only the events are rows from JS. No
 * deployment becomes a JS object. The capabilities tables come from `loadChangedCapabilities`.
 */
export async function loadReleaseFiles(
  db: ReleaseDatabase,
  prefix: string,
  files: { deploymentsParquet: string; lifecycleParquet: string; events: readonly SourceEvent[] },
): Promise<void> {
  const days = [...DATE_COLUMNS].map((n) => `CAST(${n} AS VARCHAR) AS ${n}`).join(", ");
  await db.run(
    `CREATE OR REPLACE TABLE ${prefix}deployments AS SELECT * REPLACE (${days}) FROM read_parquet(${sqlString(files.deploymentsParquet)})`,
  );
  await db.run(
    `CREATE OR REPLACE TABLE ${prefix}lifecycle AS SELECT * REPLACE (${days}) FROM read_parquet(${sqlString(files.lifecycleParquet)})`,
  );
  await db.loadTable(`${prefix}events`, EVENT_COLUMNS, files.events);
}

/**
 * A published release as the previous release of a build: the tables of loadCatalog (the
 * checks and the diff read them) from its Parquet files and the small parts of its catalog
 * (events, source states), so its deployments never become JS objects. The capabilities table
 * is made whole from the deployments' capabilities JSON. Not made: <prefix>rate_tiers (no
 * Parquet file holds the tiers; no check or diff reads the previous release's tiers) — a query
 * that needs it fails instead of reading an empty table. Instants stay TIMESTAMP (see
 * loadReleaseFiles); no check or diff reads them.
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
  await loadReleaseFiles(db, prefix, files);
  await db.run(
    `CREATE OR REPLACE TABLE ${prefix}capabilities AS
       SELECT d.id AS deployment_id, c.key AS capability,
              json_extract_string(c.value, '$.status') AS status,
              json_extract_string(c.value, '$.verification_status') AS verification_status
       FROM ${prefix}deployments d, json_each(d.capabilities) c`,
  );
  await db.loadTable(`${prefix}sources`, SOURCE_COLUMNS, files.sources.map(sourceRow));
  await createLifecycleView(db, prefix);
}

/**
 * <from>capabilities and <to>capabilities for the diff, out of the deployments' capabilities
 * JSON, holding only the deployments in both whose capabilities differ: the diff compares
 * capabilities of common deployments only, and equal JSON (merge writes it canonical) has no
 * differences, so the rows left out could never appear in it.
 */
export async function loadChangedCapabilities(db: ReleaseDatabase, from: string, to: string): Promise<void> {
  await db.run(
    `CREATE OR REPLACE TEMP TABLE ${from}${to}changed_capabilities AS
       SELECT o.id, o.capabilities AS old, n.capabilities AS new
       FROM ${from}deployments o JOIN ${to}deployments n ON n.id = o.id
       WHERE o.capabilities IS DISTINCT FROM n.capabilities`,
  );
  for (const [prefix, column] of [
    [from, "old"],
    [to, "new"],
  ] as const)
    await db.run(
      `CREATE OR REPLACE TABLE ${prefix}capabilities AS
         SELECT d.id AS deployment_id, c.key AS capability,
                json_extract_string(c.value, '$.status') AS status,
                json_extract_string(c.value, '$.verification_status') AS verification_status
         FROM ${from}${to}changed_capabilities d, json_each(d.${column}) c`,
    );
}
