/**
 * The diff between two catalogs, computed in DuckDB SQL over their tables (so it scales to
 * 100,000 deployments), and its Markdown rendering for a pull request or a job summary:
 * counts first, then one section per provider with the most important changes first
 * (end of life moved earlier, new end-of-life schedules, price increases, removed
 * deployments, failed sources, then the rest).
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import { formatUsdCompact } from "../pricing/money.js";
import { type CatalogContent, PRICE_COMPONENTS, priceField, type ReleaseManifest } from "../schema/index.js";
import {
  CATALOG_FILE,
  DEPLOYMENTS_PARQUET,
  LIFECYCLE_PARQUET,
  objectPath,
  readManifest,
  readReleaseEvents,
  readReleaseFile,
  withDeploymentLifecycles,
} from "../snapshot/index.js";
import { type FetchedRows, type ReleaseDatabase, withDatabase } from "./duckdb.js";
import { DIFF_DEPLOYMENT_COLUMNS, DIFF_LIFECYCLE_COLUMNS, loadCatalog, loadReleaseFiles } from "./tables.js";
import type {
  CapabilityChange,
  DeploymentRef,
  LifecycleChange,
  LifecycleChangeKind,
  LimitChange,
  ModelChange,
  PriceChange,
  PriceComponent,
  ReleaseDiff,
  SourceEventChange,
  StatusChange,
} from "./types.js";

const PRICE_COLUMNS: ReadonlyArray<readonly [PriceComponent, string]> = PRICE_COMPONENTS.map((c) => [
  c,
  priceField(c),
]);

/** Percent change with two decimals, from integers; null when undefined. */
export function percentChange(oldValue: number | null, newValue: number | null): number | null {
  if (oldValue === null || newValue === null || oldValue === 0) return null;
  return Math.round(((newValue - oldValue) * 10000) / oldValue) / 100;
}

/**
 * One join of the two catalogs' deployments (and one of their lifecycles), kept as a table of
 * only the pairs that differ in a compared column: every change query of fetchDiff reads that
 * small table, not a join of both catalogs of its own (at 100,000 deployments, 10 joins took
 * about 0.45 s, against about 0.1 s for the two). Plain tables, not temporary ones: a build runs
 * these statements on a connection of its own (ReleaseDatabase.begin).
 */
export function diffPairsStatements(from: string, to: string): string[] {
  const both = (columns: readonly string[]) =>
    columns.map((c) => `o.${c} AS old_${c}, n.${c} AS new_${c}`).join(", ");
  const anyDiffers = (columns: readonly string[]) =>
    columns.map((c) => `o.${c} IS DISTINCT FROM n.${c}`).join(" OR ");
  return [
    `CREATE OR REPLACE TABLE diff_deployment_pairs AS
     SELECT n.id, n.provider_id, ${both(DIFF_DEPLOYMENT_COLUMNS)}
     FROM ${to}deployments n JOIN ${from}deployments o ON o.id = n.id
     WHERE ${anyDiffers(DIFF_DEPLOYMENT_COLUMNS)}`,
    `CREATE OR REPLACE TABLE diff_lifecycle_pairs AS
     SELECT n.resource_type, n.resource_id,
            coalesce(n.provider_id, CASE WHEN n.resource_type = 'provider' THEN n.resource_id END) AS provider_id,
            ${both(DIFF_LIFECYCLE_COLUMNS)}
     FROM ${to}lifecycle n
     JOIN ${from}lifecycle o ON o.resource_type = n.resource_type AND o.resource_id = n.resource_id
     WHERE ${anyDiffers(DIFF_LIFECYCLE_COLUMNS)}`,
  ];
}

/** A pairs table's rows whose `column` changed: `old` and `new`, with `select` before them. */
function changedColumn(table: string, select: string, column: string): string {
  return `SELECT ${select}, old_${column} AS old, new_${column} AS new FROM ${table}
        WHERE old_${column} IS DISTINCT FROM new_${column}`;
}

function milestoneChanges(milestone: "deprecation" | "end_of_life"): string {
  const s = `${milestone}_state`;
  const d = `${milestone}_date`;
  return `
    SELECT resource_type, resource_id, provider_id,
           CASE
             WHEN old_${s} = 'scheduled' AND new_${s} = 'scheduled' AND new_${d} < old_${d} THEN '${milestone}_earlier'
             WHEN old_${s} = 'scheduled' AND new_${s} = 'scheduled' AND new_${d} > old_${d} THEN '${milestone}_later'
             WHEN old_${s} <> 'scheduled' AND new_${s} = 'scheduled' THEN '${milestone}_scheduled'
             ELSE '${milestone}_unscheduled'
           END AS kind,
           old_${d} AS old, new_${d} AS new,
           date_diff('day', try_cast(old_${d} AS DATE), try_cast(new_${d} AS DATE)) AS days
    FROM diff_lifecycle_pairs
    WHERE (new_${s} = 'scheduled' OR old_${s} = 'scheduled')
      AND (new_${s} IS DISTINCT FROM old_${s} OR new_${d} IS DISTINCT FROM old_${d})`;
}

/** Diff the catalog loaded under `from` against the one under `to` (table prefixes). */
export async function computeDiff(
  db: ReleaseDatabase,
  from: string,
  to: string,
  ids: DiffIds,
): Promise<ReleaseDiff> {
  return readDiff(await queryDiff(db, from, to), ids);
}

/**
 * The diff's rows for a catalog's deployments, in its order (by provider, then id; both are
 * ASCII, so JS string order is DuckDB's byte order): what `queryDiff` lists as added against an
 * empty catalog. A first build takes them from the catalog it holds (`known.deploymentsAdded`)
 * instead of reading 100,000 rows of four strings back from DuckDB (0.6-0.9 s and about 160 MB
 * of fresh memory at 100,000 deployments, against about 30 ms); the strings are the catalog's own.
 */
export function deploymentRefs(
  deployments: ReadonlyArray<Pick<DeploymentRef, "id" | "model_id" | "provider_id" | "status">>,
): DeploymentRef[] {
  const byProvider = new Map<string, DeploymentRef[]>();
  for (const d of deployments) {
    // keys in name order, as canonical JSON writes them
    const ref: DeploymentRef = {
      id: d.id,
      model_id: d.model_id,
      provider_id: d.provider_id,
      status: d.status,
    };
    const list = byProvider.get(d.provider_id);
    if (list) list.push(ref);
    else byProvider.set(d.provider_id, [ref]);
  }
  const byId = (a: DeploymentRef, b: DeploymentRef) => compareCodePoints(a.id, b.id);
  const refs: DeploymentRef[] = [];
  for (const provider of [...byProvider.keys()].sort(compareCodePoints)) {
    const list = byProvider.get(provider) ?? [];
    // a catalog's deployments are in id order already: sorted only when they are not
    if (!list.every((r, i) => i === 0 || byId(list[i - 1] as DeploymentRef, r) < 0)) list.sort(byId);
    for (const r of list) refs.push(r);
  }
  return refs;
}

export interface DiffIds {
  fromReleaseId: string | null;
  toReleaseId: string | null;
}

/** The diff's query results, fetched from DuckDB but not yet JS rows (readDiff makes them). */
export interface DiffResults {
  deploymentsAdded: FetchedRows<DeploymentRef>;
  deploymentsRemoved: FetchedRows<DeploymentRef>;
  priceRows: FetchedRows<Omit<PriceChange, "percent">>;
  limitChanges: FetchedRows<LimitChange>;
  capabilityChanges: FetchedRows<CapabilityChange>;
  modelChanges: FetchedRows<ModelChange>;
  statusChanges: FetchedRows<StatusChange>;
  lifecycleChanges: FetchedRows<LifecycleChange>;
  sourceEvents: FetchedRows<SourceEventChange>;
}

/**
 * DuckDB's half of the diff: every query run and its result fetched, in milliseconds. Turning
 * the results into rows (readDiff) is the slow half at scale, and needs no DuckDB thread.
 * `known.deploymentsAdded`: the added deployments, when the caller has them (deploymentRefs of
 * a catalog diffed against none).
 */
export async function queryDiff(
  db: ReleaseDatabase,
  from: string,
  to: string,
  known: { deploymentsAdded?: readonly DeploymentRef[] } = {},
): Promise<DiffResults> {
  for (const statement of diffPairsStatements(from, to)) await db.run(statement);
  return fetchDiff(db, from, to, known);
}

/** queryDiff once diffPairsStatements have run (a build hands them to DuckDB beside its other work). */
export async function fetchDiff(
  db: ReleaseDatabase,
  from: string,
  to: string,
  known: { deploymentsAdded?: readonly DeploymentRef[] } = {},
): Promise<DiffResults> {
  // columns in the order of their names, as canonical JSON writes them: each row object is then
  // serialized as it is (a first build's diff lists every deployment as added)
  const refs = (a: string, b: string) => `
    SELECT a.id, a.model_id, a.provider_id, a.status FROM ${a}deployments a
    WHERE NOT EXISTS (SELECT 1 FROM ${b}deployments b WHERE b.id = a.id)
    ORDER BY a.provider_id, a.id`;
  const given = known.deploymentsAdded;
  const deploymentsAdded: FetchedRows<DeploymentRef> = given
    ? { rows: () => [...given] }
    : await db.fetch<DeploymentRef>(refs(to, from));
  const deploymentsRemoved = await db.fetch<DeploymentRef>(refs(from, to));

  const priceRows = await db.fetch<Omit<PriceChange, "percent">>(`
    SELECT * FROM (
      ${PRICE_COLUMNS.map(([component, column]) =>
        changedColumn(
          "diff_deployment_pairs",
          `id AS deployment_id, provider_id, '${component}' AS component`,
          column,
        ),
      ).join("\n      UNION ALL\n      ")}
    )
    ORDER BY provider_id, deployment_id, component`);

  const limitChanges = await db.fetch<LimitChange>(`
    SELECT * FROM (
      ${(["context_tokens", "max_output_tokens"] as const)
        .map((field) =>
          changedColumn(
            "diff_deployment_pairs",
            `id AS deployment_id, provider_id, '${field}' AS field`,
            field,
          ),
        )
        .join("\n      UNION ALL\n      ")}
    )
    ORDER BY provider_id, deployment_id, field`);

  // Only deployments in both releases whose capabilities JSON differs can have a capability
  // change (the merge writes that JSON canonical), so only theirs is expanded per capability.
  const capabilityChanges = await db.fetch<CapabilityChange>(`
    WITH changed AS (
      ${changedColumn("diff_deployment_pairs", "id, provider_id", "capabilities")}
    ),
    oc AS (
      SELECT changed.id, c.key AS capability, json_extract_string(c.value, '$.status') AS status
      FROM changed, json_each(changed.old) c
    ),
    nc AS (
      SELECT changed.id, c.key AS capability, json_extract_string(c.value, '$.status') AS status
      FROM changed, json_each(changed.new) c
    )
    SELECT changed.id AS deployment_id, changed.provider_id,
           coalesce(nc.capability, oc.capability) AS capability, oc.status AS old, nc.status AS new
    FROM nc
    FULL OUTER JOIN oc ON oc.id = nc.id AND oc.capability = nc.capability
    JOIN changed ON changed.id = coalesce(nc.id, oc.id)
    WHERE oc.status IS DISTINCT FROM nc.status
    ORDER BY changed.provider_id, deployment_id, capability`);

  const modelChanges = await db.fetch<ModelChange>(`
    ${changedColumn("diff_deployment_pairs", "id AS deployment_id, provider_id", "model_id")}
    ORDER BY provider_id, deployment_id`);

  const statusChanges = await db.fetch<StatusChange>(`
    ${changedColumn("diff_deployment_pairs", "id AS deployment_id, provider_id", "status")}
    ORDER BY provider_id, deployment_id`);

  const lifecycleChanges = await db.fetch<LifecycleChange>(`
    WITH replaced AS (
      SELECT resource_type, resource_id, provider_id, new_replacement_ids AS new_ids, old_replacement_ids AS old_ids
      FROM diff_lifecycle_pairs
      WHERE new_replacement_ids IS DISTINCT FROM old_replacement_ids
    ),
    added AS (
      SELECT resource_type, resource_id, provider_id, 'replacement_added' AS kind, NULL AS old, unnest(new_ids) AS new, NULL::BIGINT AS days, old_ids
      FROM replaced
    ),
    removed AS (
      SELECT resource_type, resource_id, provider_id, 'replacement_removed' AS kind, unnest(old_ids) AS old, NULL AS new, NULL::BIGINT AS days, new_ids
      FROM replaced
    )
    SELECT * FROM (
      ${milestoneChanges("end_of_life")}
      UNION ALL
      ${milestoneChanges("deprecation")}
      UNION ALL
      SELECT resource_type, resource_id, provider_id, kind, old, new, days FROM added WHERE NOT list_contains(old_ids, new)
      UNION ALL
      SELECT resource_type, resource_id, provider_id, kind, old, new, days FROM removed WHERE NOT list_contains(new_ids, old)
    )
    ORDER BY provider_id NULLS LAST, resource_type, resource_id, kind, old NULLS FIRST, new NULLS FIRST`);

  const sourceEvents = await db.fetch<SourceEventChange>(`
    SELECT n.id AS event_id, n.event_type, n.provider_id, n.source_id, n.source_url, n.detected_at,
           n.previous_sha256, n.current_sha256, n.error
    FROM ${to}events n
    WHERE NOT EXISTS (SELECT 1 FROM ${from}events o WHERE o.id = n.id)
    ORDER BY n.detected_at, n.id`);

  return {
    deploymentsAdded,
    deploymentsRemoved,
    priceRows,
    limitChanges,
    capabilityChanges,
    modelChanges,
    statusChanges,
    lifecycleChanges,
    sourceEvents,
  };
}

/** The diff's rows from its fetched results (queryDiff): the JS half. */
export function readDiff(results: DiffResults, ids: DiffIds): ReleaseDiff {
  const deploymentsAdded = results.deploymentsAdded.rows();
  const deploymentsRemoved = results.deploymentsRemoved.rows();
  const priceChanges: PriceChange[] = results.priceRows
    .rows()
    .map((r) => ({ ...r, percent: percentChange(r.old, r.new) }));
  const limitChanges = results.limitChanges.rows();
  const capabilityChanges = results.capabilityChanges.rows();
  const modelChanges = results.modelChanges.rows();
  const statusChanges = results.statusChanges.rows();
  const lifecycleChanges = results.lifecycleChanges.rows();
  const sourceEvents = results.sourceEvents.rows();
  return {
    from_release_id: ids.fromReleaseId,
    to_release_id: ids.toReleaseId,
    counts: {
      deployments_added: deploymentsAdded.length,
      deployments_removed: deploymentsRemoved.length,
      price_changes: priceChanges.length,
      price_increases: priceChanges.filter((p) => p.old !== null && p.new !== null && p.new > p.old).length,
      limit_changes: limitChanges.length,
      capability_changes: capabilityChanges.length,
      model_changes: modelChanges.length,
      status_changes: statusChanges.length,
      lifecycle_changes: lifecycleChanges.length,
      end_of_life_earlier: lifecycleChanges.filter((c) => c.kind === "end_of_life_earlier").length,
      source_events: sourceEvents.length,
    },
    deployments_added: deploymentsAdded,
    deployments_removed: deploymentsRemoved,
    price_changes: priceChanges,
    limit_changes: limitChanges,
    capability_changes: capabilityChanges,
    model_changes: modelChanges,
    status_changes: statusChanges,
    lifecycle_changes: lifecycleChanges,
    source_events: sourceEvents,
  };
}

/**
 * Loads one published release's diff tables under `prefix`, from its Parquet files when it
 * has them, else from its catalog.
 */
async function loadPublished(
  db: ReleaseDatabase,
  prefix: string,
  snapshotsDir: string,
  manifest: ReleaseManifest,
): Promise<void> {
  const deployments = manifest.files[DEPLOYMENTS_PARQUET];
  const lifecycle = manifest.files[LIFECYCLE_PARQUET];
  if (deployments && lifecycle) {
    // hash-checked like every file a release is read from
    await readReleaseFile(snapshotsDir, manifest, DEPLOYMENTS_PARQUET);
    await readReleaseFile(snapshotsDir, manifest, LIFECYCLE_PARQUET);
    await loadReleaseFiles(db, prefix, {
      deploymentsParquet: objectPath(snapshotsDir, deployments.sha256),
      lifecycleParquet: objectPath(snapshotsDir, lifecycle.sha256),
      events: await readReleaseEvents(snapshotsDir, manifest),
    });
    return;
  }
  const data = await readReleaseFile(snapshotsDir, manifest, CATALOG_FILE);
  await loadCatalog(
    db,
    prefix,
    withDeploymentLifecycles(JSON.parse(data.toString("utf8")) as CatalogContent),
  );
}

/**
 * Diff two published releases (both hash-verified on read and validated when they were
 * published). The tables come from each release's Parquet files, so a 100k diff never holds
 * a catalog in memory.
 */
export async function diffPublishedReleases(
  snapshotsDir: string,
  fromId: string,
  toId: string,
): Promise<{ diff: ReleaseDiff; markdown: string }> {
  const from = await readManifest(snapshotsDir, fromId);
  const to = await readManifest(snapshotsDir, toId);
  return withDatabase(async (db) => {
    await loadPublished(db, "a_", snapshotsDir, from);
    await loadPublished(db, "b_", snapshotsDir, to);
    const diff = await computeDiff(db, "a_", "b_", { fromReleaseId: fromId, toReleaseId: toId });
    return { diff, markdown: renderDiffMarkdown(diff) };
  });
}

// ---------------------------------------------------------------------------------------------
// Markdown

/** Integer micro-USD per million tokens as dollars, exact (no floating point). */
export function formatMicroUsd(value: number | null): string {
  return value === null ? "—" : formatUsdCompact(value);
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "—";
  const text = String(value);
  return /[|\n]/.test(text) ? text.replace(/\|/g, "\\|").replace(/\n/g, " ") : text;
}

/** Rows grouped by a key, each group in the rows' order (one pass, for rendering per provider). */
function groupedBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/**
 * The most rows a Markdown table lists; the rest are counted under it. The Markdown is for
 * people (and GitHub's job summary, which takes at most 1 MiB): diff.json lists every change.
 */
export const MAX_MARKDOWN_ROWS = 500;

/** A Markdown table of at most MAX_MARKDOWN_ROWS rows, each made into cells only when listed. */
function table<T>(headers: string[], rows: readonly T[], cells: (row: T) => unknown[]): string {
  const lines = [`| ${headers.join(" | ")} |`, `|${headers.map(() => "---").join("|")}|`];
  const listed = Math.min(rows.length, MAX_MARKDOWN_ROWS);
  for (let i = 0; i < listed; i++)
    lines.push(
      `| ${cells(rows[i] as T)
        .map(cell)
        .join(" | ")} |`,
    );
  const more = rows.length - listed;
  if (more > 0)
    lines.push(
      "",
      `_…and ${more.toLocaleString("en-US")} more ${more === 1 ? "row" : "rows"}: \`diff.json\` lists every change._`,
    );
  return lines.join("\n");
}

function signedPercent(p: number | null): string {
  if (p === null) return "—";
  return `${p > 0 ? "+" : ""}${p.toFixed(2)}%`;
}

function signedDays(d: number | null): string {
  if (d === null) return "—";
  return `${d > 0 ? "+" : ""}${d} days`;
}

function shortId(id: string | null): string {
  return id === null ? "(none)" : `\`${id.length > 20 ? `${id.slice(0, 16)}…` : id}\``;
}

interface Section {
  title: string;
  body: string;
}

function lifecycleSection(title: string, rows: LifecycleChange[], withDays: boolean): Section | null {
  if (rows.length === 0) return null;
  const headers = withDays ? ["Resource", "Old", "New", "Moved"] : ["Resource", "Old", "New"];
  return {
    title,
    body: table(headers, rows, (r) => {
      const base = [
        `${r.resource_type === "deployment" ? "" : `${r.resource_type} `}\`${r.resource_id}\``,
        r.old,
        r.new,
      ];
      return withDays ? [...base, signedDays(r.days)] : base;
    }),
  };
}

function priceSection(title: string, rows: PriceChange[]): Section | null {
  if (rows.length === 0) return null;
  return {
    title,
    body: table(
      ["Deployment", "Component", "Old (per 1M tokens)", "New (per 1M tokens)", "Change"],
      rows,
      (r) => [
        `\`${r.deployment_id}\``,
        r.component,
        formatMicroUsd(r.old),
        formatMicroUsd(r.new),
        signedPercent(r.percent),
      ],
    ),
  };
}

function deploymentSection(title: string, rows: DeploymentRef[]): Section | null {
  if (rows.length === 0) return null;
  return {
    title,
    body: table(["Deployment", "Model", "Status"], rows, (r) => [
      `\`${r.id}\``,
      `\`${r.model_id}\``,
      r.status,
    ]),
  };
}

function eventSection(title: string, rows: SourceEventChange[]): Section | null {
  if (rows.length === 0) return null;
  const hash = (sha: string | null) => (sha ? `\`${sha.slice(0, 12)}\`` : "–");
  const failed = rows.every((r) => r.event_type === "lifecycle.source_failed");
  return {
    title,
    body: failed
      ? table(["Source", "Detected", "Error", "Event"], rows, (r) => [
          r.source_url,
          r.detected_at,
          (r.error ?? "").replace(/[|\n]/g, " "),
          `\`${r.event_id}\``,
        ])
      : table(["Source", "Detected", "Hash before → after", "Event"], rows, (r) => [
          r.source_url,
          r.detected_at,
          `${hash(r.previous_sha256)} → ${hash(r.current_sha256)}`,
          `\`${r.event_id}\``,
        ]),
  };
}

export function renderDiffMarkdown(diff: ReleaseDiff): string {
  const c = diff.counts;
  const out: string[] = [];
  out.push(
    `# Catalog changes: ${shortId(diff.from_release_id)} → ${diff.to_release_id ? shortId(diff.to_release_id) : "this release"}`,
  );
  out.push("");
  out.push(
    table(
      ["Change", "Count"],
      [
        ["End of life moved earlier", c.end_of_life_earlier],
        ["Lifecycle changes", c.lifecycle_changes],
        ["Price changes", c.price_changes],
        ["Price increases", c.price_increases],
        ["Deployments removed", c.deployments_removed],
        ["Deployments added", c.deployments_added],
        ["Status changes", c.status_changes],
        ["Limit changes", c.limit_changes],
        ["Capability changes", c.capability_changes],
        ["Model changes", c.model_changes],
        ["Source events", c.source_events],
      ],
      (row) => row,
    ),
  );
  const providers = new Set<string>();
  const groupKey = (p: string | null) => p ?? "(models across providers)";
  for (const r of [...diff.deployments_added, ...diff.deployments_removed]) providers.add(r.provider_id);
  for (const r of [
    ...diff.price_changes,
    ...diff.limit_changes,
    ...diff.capability_changes,
    ...diff.model_changes,
    ...diff.status_changes,
    ...diff.source_events,
  ])
    providers.add(r.provider_id);
  for (const r of diff.lifecycle_changes) providers.add(groupKey(r.provider_id));
  if (providers.size === 0) {
    out.push("", "No changes.");
    return `${out.join("\n")}\n`;
  }
  // each list grouped by provider once (a first release lists every deployment as added)
  const ofProvider = (r: { provider_id: string }) => r.provider_id;
  const lifecycleBy = groupedBy(diff.lifecycle_changes, (r) => groupKey(r.provider_id));
  const pricesBy = groupedBy(diff.price_changes, ofProvider);
  const eventsBy = groupedBy(diff.source_events, ofProvider);
  const removedBy = groupedBy(diff.deployments_removed, ofProvider);
  const addedBy = groupedBy(diff.deployments_added, ofProvider);
  const statusBy = groupedBy(diff.status_changes, ofProvider);
  const limitsBy = groupedBy(diff.limit_changes, ofProvider);
  const capabilitiesBy = groupedBy(diff.capability_changes, ofProvider);
  const modelsBy = groupedBy(diff.model_changes, ofProvider);
  for (const provider of [...providers].sort(compareCodePoints)) {
    const lifecycle = lifecycleBy.get(provider) ?? [];
    const kind = (...kinds: LifecycleChangeKind[]) => lifecycle.filter((r) => kinds.includes(r.kind));
    const prices = pricesBy.get(provider) ?? [];
    const increases = prices.filter((p) => p.old !== null && p.new !== null && p.new > p.old);
    const increased = new Set(increases);
    const otherPrices = prices.filter((p) => !increased.has(p));
    const events = eventsBy.get(provider) ?? [];
    const statuses = statusBy.get(provider) ?? [];
    const limits = limitsBy.get(provider) ?? [];
    const capabilities = capabilitiesBy.get(provider) ?? [];
    const models = modelsBy.get(provider) ?? [];
    const sections = [
      lifecycleSection("End of life moved earlier", kind("end_of_life_earlier"), true),
      lifecycleSection("New end-of-life schedules", kind("end_of_life_scheduled"), false),
      priceSection("Price increases", increases),
      deploymentSection("Removed deployments", removedBy.get(provider) ?? []),
      eventSection(
        "Sources failed",
        events.filter((e) => e.event_type === "lifecycle.source_failed"),
      ),
      lifecycleSection(
        "Deprecation moved earlier or newly scheduled",
        kind("deprecation_earlier", "deprecation_scheduled"),
        true,
      ),
      lifecycleSection(
        "End of life moved later or unscheduled",
        kind("end_of_life_later", "end_of_life_unscheduled"),
        true,
      ),
      lifecycleSection(
        "Deprecation moved later or unscheduled",
        kind("deprecation_later", "deprecation_unscheduled"),
        true,
      ),
      priceSection("Other price changes", otherPrices),
      statuses.length > 0
        ? {
            title: "Status changes",
            body: table(["Deployment", "Old", "New"], statuses, (r) => [
              `\`${r.deployment_id}\``,
              r.old,
              r.new,
            ]),
          }
        : null,
      lifecycleSection("Replacements", kind("replacement_added", "replacement_removed"), false),
      limits.length > 0
        ? {
            title: "Limit changes",
            body: table(["Deployment", "Limit", "Old", "New"], limits, (r) => [
              `\`${r.deployment_id}\``,
              r.field,
              r.old,
              r.new,
            ]),
          }
        : null,
      capabilities.length > 0
        ? {
            title: "Capability changes",
            body: table(["Deployment", "Capability", "Old", "New"], capabilities, (r) => [
              `\`${r.deployment_id}\``,
              r.capability,
              r.old,
              r.new,
            ]),
          }
        : null,
      models.length > 0
        ? {
            title: "Model changes",
            body: table(["Deployment", "Old model", "New model"], models, (r) => [
              `\`${r.deployment_id}\``,
              `\`${r.old}\``,
              `\`${r.new}\``,
            ]),
          }
        : null,
      deploymentSection("Added deployments", addedBy.get(provider) ?? []),
      eventSection(
        "Sources recovered",
        events.filter((e) => e.event_type === "lifecycle.source_recovered"),
      ),
      eventSection(
        "Sources changed",
        events.filter((e) => e.event_type === "lifecycle.source_changed"),
      ),
    ].filter((s): s is Section => s !== null);
    if (sections.length === 0) continue;
    out.push("", `## ${provider}`);
    for (const section of sections) out.push("", `### ${section.title}`, "", section.body);
  }
  return `${out.join("\n")}\n`;
}
