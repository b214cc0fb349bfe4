/**
 * `catalog export`: one release as files with stable names, for people who download the data
 * rather than call the API:
 *   catalog.json          the release's deployments, lifecycle records and events in their API
 *                         shapes, with the release's id, creation time, previous id and counts
 *   deployments.csv       one row per deployment (the columns of deployments.parquet, with
 *                         two columns per capability: cap_<name>, cap_<name>_verification)
 *   lifecycle.csv         one row per lifecycle record
 *   deployments.parquet   typed: dates DATE, instants TIMESTAMP (UTC), prices BIGINT micro-USD,
 *                         capabilities a STRUCT of one STRUCT(status, verification_status) per
 *                         capability (tables.ts, docs/finding-deployments.md)
 *   lifecycle.parquet
 *   prices.csv            one row per deployment price interval (prices.json; docs/price-history.md)
 *   prices.parquet        the same, typed: valid_from / valid_to DATE, prices BIGINT micro-USD
 * Always computed from the release's verified catalog.json (not copied from the release's own
 * Parquet files), so an export of an older release has the same columns and types.
 */
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempName } from "../lib/atomic-write.js";
import { PRICE_FIELDS, type PricesFile } from "../schema/index.js";
import { CATALOG_FILE, loadRelease, PRICES_FILE, readReleaseFile } from "./artifact.js";
import { PARQUET_COPY_OPTIONS, withDatabase } from "./duckdb.js";
import {
  deploymentsExportCsvQuery,
  deploymentsExportParquetQuery,
  lifecycleCsvQuery,
  lifecycleParquetQuery,
  loadCatalog,
} from "./tables.js";

export const EXPORT_FILES = [
  CATALOG_FILE,
  "deployments.csv",
  "lifecycle.csv",
  "deployments.parquet",
  "lifecycle.parquet",
  "prices.csv",
  "prices.parquet",
] as const;

/** The columns of prices.csv / prices.parquet, in order, with their DuckDB types. */
const PRICE_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ["deployment_id", "VARCHAR"],
  ["valid_from", "DATE"],
  ["valid_to", "DATE"],
  ["verification_status", "VARCHAR"],
  ["source_url", "VARCHAR"],
  ["currency", "VARCHAR"],
  ...PRICE_FIELDS.map((field) => [field, "BIGINT"] as const),
  /** Long-context tiers as JSON text (null: none). */
  ["tiers", "VARCHAR"],
  ["observed_at", "TIMESTAMP"],
];

/** One row per interval, as NDJSON for DuckDB: newest first within a deployment, deployments by id. */
export function priceRows(file: PricesFile): string {
  return file.deployments
    .flatMap(({ deployment_id, intervals }) =>
      intervals.map((i) =>
        JSON.stringify({
          deployment_id,
          valid_from: i.valid_from,
          valid_to: i.valid_to,
          verification_status: i.verification_status,
          source_url: i.source_url,
          currency: i.rate_card.currency,
          ...Object.fromEntries(PRICE_FIELDS.map((field) => [field, i.rate_card[field] ?? null])),
          tiers: i.rate_card.tiers ? JSON.stringify(i.rate_card.tiers) : null,
          observed_at: i.rate_card.observed_at,
        }),
      ),
    )
    .join("\n");
}

export interface ExportResult {
  releaseId: string;
  /** File name -> size in bytes, in EXPORT_FILES order. */
  files: Record<string, number>;
}

function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * Writes the export of `releaseId` (default LATEST) into `outDir`. Every file is first staged under
 * one temporary name of the project's atomic-write scheme (`tempName()`, so a cleanup tells a live
 * export's files from debris) and renamed into place only once all five are written: a failed
 * export leaves no new file behind. (`writeFileAtomic` replaces one file; five files written by
 * DuckDB need this stage-then-rename instead.)
 */
export async function exportRelease(
  snapshotsDir: string,
  releaseId: string | undefined,
  outDir: string,
): Promise<ExportResult> {
  const { manifest, catalog } = await loadRelease(snapshotsDir, releaseId);
  await mkdir(outDir, { recursive: true });
  const stage = tempName();
  const temp = (name: string) => join(outDir, `${stage}-${name}`);
  const written: string[] = [];
  try {
    const document = {
      release: {
        id: manifest.release_id,
        created_at: manifest.created_at,
        previous_release_id: manifest.previous_release_id,
        counts: manifest.counts,
      },
      deployments: catalog.deployments,
      lifecycle: catalog.lifecycle,
      events: catalog.events,
    };
    written.push(CATALOG_FILE);
    await writeFile(temp(CATALOG_FILE), `${JSON.stringify(document)}\n`);
    // a release from before prices.json has no intervals: the files have the columns and no row
    const prices: PricesFile = manifest.files[PRICES_FILE]
      ? (JSON.parse(
          (await readReleaseFile(snapshotsDir, manifest, PRICES_FILE)).toString("utf8"),
        ) as PricesFile)
      : { format: 1, deployments: [] };
    const rows = priceRows(prices);
    const pricesInput = temp("prices.ndjson");
    written.push("prices.ndjson");
    await writeFile(pricesInput, rows);
    await withDatabase(async (db) => {
      await loadCatalog(db, "", catalog);
      await db.run(`CREATE TABLE prices (${PRICE_COLUMNS.map(([n, t]) => `${n} ${t}`).join(", ")})`);
      if (rows.length > 0)
        await db.run(
          `INSERT INTO prices SELECT * FROM read_json(${sqlString(pricesInput)}, format = 'newline_delimited', columns = {${PRICE_COLUMNS.map(([n, t]) => `${n}: '${t}'`).join(", ")}})`,
        );
      const pricesQuery = "SELECT * FROM prices ORDER BY deployment_id, valid_from DESC";
      const copies: Array<[string, string, string]> = [
        ["deployments.csv", deploymentsExportCsvQuery(), "FORMAT csv, HEADER true"],
        ["lifecycle.csv", lifecycleCsvQuery(), "FORMAT csv, HEADER true"],
        ["deployments.parquet", deploymentsExportParquetQuery(), PARQUET_COPY_OPTIONS],
        ["lifecycle.parquet", lifecycleParquetQuery(), PARQUET_COPY_OPTIONS],
        ["prices.csv", pricesQuery, "FORMAT csv, HEADER true"],
        ["prices.parquet", pricesQuery, PARQUET_COPY_OPTIONS],
      ];
      for (const [name, query, options] of copies) {
        written.push(name);
        await db.run(`COPY (${query}) TO ${sqlString(temp(name))} (${options})`);
      }
    });
    const files: Record<string, number> = {};
    for (const name of EXPORT_FILES) {
      await rename(temp(name), join(outDir, name));
      files[name] = (await stat(join(outDir, name))).size;
    }
    return { releaseId: manifest.release_id, files };
  } finally {
    for (const name of written) await rm(temp(name), { force: true });
  }
}
