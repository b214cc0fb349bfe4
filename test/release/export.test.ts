/**
 * `exportRelease` writes the committed release as stable file names; read back through DuckDB,
 * the Parquet files have DATE and TIMESTAMP columns holding the release's own values, the CSV
 * files have one row per record, and catalog.json holds the API shapes.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportRelease, loadRelease, withDatabase } from "../../src/release/index.js";
import type { CatalogContent } from "../../src/schema/index.js";

const SNAPSHOTS = join(import.meta.dirname, "..", "..", "snapshots");

describe("catalog export", () => {
  let out: string;
  let catalog: CatalogContent;
  let releaseId: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "catalog-export-"));
    const loaded = await loadRelease(SNAPSHOTS);
    catalog = loaded.catalog;
    releaseId = loaded.manifest.release_id;
    const result = await exportRelease(SNAPSHOTS, undefined, out);
    expect(result.releaseId).toBe(releaseId);
  }, 60_000);
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it("writes exactly the five stable names and nothing else", async () => {
    expect((await readdir(out)).sort()).toEqual(
      ["catalog.json", "deployments.csv", "deployments.parquet", "lifecycle.csv", "lifecycle.parquet"].sort(),
    );
  });

  it("catalog.json holds the release's records in their API shapes with the release's identity", async () => {
    const doc = JSON.parse(await readFile(join(out, "catalog.json"), "utf8")) as CatalogContent & {
      release: { id: string; previous_release_id: string | null; counts: Record<string, number> };
    };
    expect(doc.release.id).toBe(releaseId);
    expect(doc.deployments).toEqual(catalog.deployments);
    expect(doc.lifecycle).toEqual(catalog.lifecycle);
    expect(doc.events).toEqual(catalog.events);
    expect(doc.release.counts.deployments).toBe(catalog.deployments.length);
  });

  it("the Parquet files have typed DATE and TIMESTAMP columns with the release's values", async () => {
    await withDatabase(async (db) => {
      const file = join(out, "deployments.parquet").replace(/'/g, "''");
      const types = Object.fromEntries(
        (
          await db.all<{ column_name: string; column_type: string }>(
            `DESCRIBE SELECT * FROM read_parquet('${file}')`,
          )
        ).map((r) => [r.column_name, r.column_type]),
      );
      expect(types).toMatchObject({
        id: "VARCHAR",
        end_of_life_date: "DATE",
        deprecation_date: "DATE",
        rate_card_observed_at: "TIMESTAMP",
        last_changed_at: "TIMESTAMP",
        announced_at: "TIMESTAMP",
        input_micro_usd: "BIGINT",
        evidence_urls: "VARCHAR[]",
      });
      const withDate = catalog.deployments.find((d) => d.lifecycle.end_of_life.date !== null && d.rate_card);
      if (!withDate?.rate_card)
        throw new Error("the release has no priced deployment with an end-of-life date");
      const [row] = await db.all<{ eol: string; observed: string; rows: number }>(
        `SELECT strftime(end_of_life_date, '%Y-%m-%d') AS eol, strftime(rate_card_observed_at, '%Y-%m-%dT%H:%M:%SZ') AS observed,
                (SELECT count(*) FROM read_parquet('${file}')) AS rows
           FROM read_parquet('${file}') WHERE id = '${withDate.id}'`,
      );
      expect(row).toEqual({
        eol: withDate.lifecycle.end_of_life.date,
        observed: withDate.rate_card.observed_at,
        rows: catalog.deployments.length,
      });
      const lifecycleFile = join(out, "lifecycle.parquet").replace(/'/g, "''");
      const lifecycleTypes = Object.fromEntries(
        (
          await db.all<{ column_name: string; column_type: string }>(
            `DESCRIBE SELECT * FROM read_parquet('${lifecycleFile}')`,
          )
        ).map((r) => [r.column_name, r.column_type]),
      );
      expect(lifecycleTypes).toMatchObject({ end_of_life_date: "DATE", last_checked_at: "TIMESTAMP" });
      const [count] = await db.all<{ n: number }>(
        `SELECT count(*) AS n FROM read_parquet('${lifecycleFile}')`,
      );
      expect(count?.n).toBe(catalog.lifecycle.length);
    });
  }, 60_000);

  it("the CSV files have a header and one row per record, lists joined by spaces", async () => {
    await withDatabase(async (db) => {
      const file = join(out, "deployments.csv").replace(/'/g, "''");
      const rows = await db.all<{ id: string; evidence_urls: string }>(
        `SELECT id, evidence_urls FROM read_csv('${file}', header = true, all_varchar = true) ORDER BY id`,
      );
      expect(rows.length).toBe(catalog.deployments.length);
      const first = catalog.deployments[0];
      expect(rows[0]).toEqual({ id: first?.id, evidence_urls: first?.evidence_urls.join(" ") });
      const lifecycle = await db.all(
        `SELECT * FROM read_csv('${join(out, "lifecycle.csv")}', header = true)`,
      );
      expect(lifecycle.length).toBe(catalog.lifecycle.length);
    });
  }, 60_000);

  it("the deployment rows carry each fact's verification level, empty where the fact is unknown", async () => {
    await withDatabase(async (db) => {
      const file = join(out, "deployments.csv").replace(/'/g, "''");
      const rows = await db.all<Record<string, string | null>>(
        `SELECT id, listing_verification, rate_card_verification, context_verification, max_output_verification
           FROM read_csv('${file}', header = true, all_varchar = true) ORDER BY id`,
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.size).toBe(catalog.deployments.length);
      const levels = new Set<string>();
      for (const d of catalog.deployments) {
        const p = d.provenance;
        expect(byId.get(d.id)).toEqual({
          id: d.id,
          listing_verification: p.listing.verification_status,
          rate_card_verification: p.rate_card?.verification_status ?? null,
          context_verification: p.context_tokens?.verification_status ?? null,
          max_output_verification: p.max_output_tokens?.verification_status ?? null,
        });
        levels.add(p.listing.verification_status);
      }
      // the committed release has official and community listings
      expect([...levels].sort()).toEqual(["community_reported", "official_declared"]);
    });
  }, 60_000);
});
