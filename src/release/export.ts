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
 * Always computed from the release's verified catalog.json (not copied from the release's own
 * Parquet files), so an export of an older release has the same columns and types.
 */
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tempName } from "../lib/atomic-write.js";
import { CATALOG_FILE, loadRelease } from "./artifact.js";
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
] as const;

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
    await withDatabase(async (db) => {
      await loadCatalog(db, "", catalog);
      const copies: Array<[string, string, string]> = [
        ["deployments.csv", deploymentsExportCsvQuery(), "FORMAT csv, HEADER true"],
        ["lifecycle.csv", lifecycleCsvQuery(), "FORMAT csv, HEADER true"],
        ["deployments.parquet", deploymentsExportParquetQuery(), PARQUET_COPY_OPTIONS],
        ["lifecycle.parquet", lifecycleParquetQuery(), PARQUET_COPY_OPTIONS],
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
