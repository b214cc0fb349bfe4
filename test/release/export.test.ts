/**
 * `exportRelease` writes the committed release as stable file names; read back through DuckDB,
 * the Parquet files have DATE and TIMESTAMP columns holding the release's own values, the CSV
 * files have one row per record, and catalog.json holds the API shapes.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  exportRelease,
  loadRelease,
  PRICES_FILE,
  readReleaseFile,
  withDatabase,
} from "../../src/release/index.js";
import { CapabilityName, type CatalogContent, type PricesFile } from "../../src/schema/index.js";
import { committedReleaseId, REPO_SNAPSHOTS } from "../helpers/committed-release.js";

const SNAPSHOTS = REPO_SNAPSHOTS;

describe("catalog export", () => {
  let out: string;
  let catalog: CatalogContent;
  let releaseId: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "catalog-export-"));
    const loaded = await loadRelease(SNAPSHOTS, await committedReleaseId());
    catalog = loaded.catalog;
    releaseId = loaded.manifest.release_id;
    const result = await exportRelease(SNAPSHOTS, loaded.manifest.release_id, out);
    expect(result.releaseId).toBe(releaseId);
  }, 60_000);
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it("writes exactly the seven stable names and nothing else", async () => {
    expect((await readdir(out)).sort()).toEqual(
      [
        "catalog.json",
        "deployments.csv",
        "deployments.parquet",
        "lifecycle.csv",
        "lifecycle.parquet",
        "prices.csv",
        "prices.parquet",
      ].sort(),
    );
  });

  it("prices.parquet and prices.csv hold one typed row per interval of the release's prices.json", async () => {
    const { manifest } = await loadRelease(SNAPSHOTS);
    const prices = JSON.parse(
      (await readReleaseFile(SNAPSHOTS, manifest, PRICES_FILE)).toString("utf8"),
    ) as PricesFile;
    const intervals = prices.deployments.flatMap((d) =>
      d.intervals.map((i) => ({ id: d.deployment_id, ...i })),
    );
    expect(intervals.length).toBeGreaterThan(1000);
    const changed = intervals.find((i) => i.valid_to !== null);
    if (!changed) throw new Error("no closed interval in the release");
    await withDatabase(async (db) => {
      const file = join(out, "prices.parquet").replace(/'/g, "''");
      const types = Object.fromEntries(
        (
          await db.all<{ column_name: string; column_type: string }>(
            `DESCRIBE SELECT * FROM read_parquet('${file}')`,
          )
        ).map((r) => [r.column_name, r.column_type]),
      );
      expect(types).toMatchObject({
        deployment_id: "VARCHAR",
        valid_from: "DATE",
        valid_to: "DATE",
        input_micro_usd: "BIGINT",
        observed_at: "TIMESTAMP",
      });
      const [row] = await db.all<{ to: string; input: number; rows: number }>(
        `SELECT strftime(valid_to, '%Y-%m-%d') AS to, input_micro_usd AS input,
                (SELECT count(*) FROM read_parquet('${file}')) AS rows
           FROM read_parquet('${file}') WHERE deployment_id = '${changed.id}' AND valid_from = DATE '${changed.valid_from}'`,
      );
      expect(row).toEqual({
        to: changed.valid_to,
        input: changed.rate_card.input_micro_usd,
        rows: intervals.length,
      });
      const csv = await db.all(`SELECT * FROM read_csv('${join(out, "prices.csv")}', header = true)`);
      expect(csv.length).toBe(intervals.length);
    });
  }, 60_000);

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

  it("deployments.parquet types capabilities as a STRUCT of one STRUCT(status, verification_status) per capability", async () => {
    await withDatabase(async (db) => {
      const file = join(out, "deployments.parquet").replace(/'/g, "''");
      const [described] = await db.all<{ column_type: string }>(
        `SELECT column_type FROM (DESCRIBE SELECT capabilities FROM read_parquet('${file}'))`,
      );
      const entry = "STRUCT(status VARCHAR, verification_status VARCHAR)";
      expect(described?.column_type).toBe(
        `STRUCT(${CapabilityName.options.map((name) => `${name} ${entry}`).join(", ")})`,
      );
      // every deployment's capabilities read back field by field, without any JSON function
      for (const name of CapabilityName.options) {
        const values = await db.all<{ id: string; status: string | null; verification: string | null }>(
          `SELECT id, capabilities.${name}.status AS status, capabilities.${name}.verification_status AS verification
             FROM read_parquet('${file}') ORDER BY id`,
        );
        expect(values).toEqual(
          [...catalog.deployments]
            .sort((a, b) => (a.id < b.id ? -1 : 1))
            .map((d) => ({
              id: d.id,
              status: d.capabilities[name]?.status ?? null,
              verification: d.capabilities[name]?.verification_status ?? null,
            })),
        );
      }
    });
  }, 60_000);

  it("deployments.csv has two columns per capability, cap_<name> and cap_<name>_verification, in place of the JSON", async () => {
    await withDatabase(async (db) => {
      const file = join(out, "deployments.csv").replace(/'/g, "''");
      const header =
        (await readFile(join(out, "deployments.csv"), "utf8")).split("\n", 1)[0]?.split(",") ?? [];
      expect(header).not.toContain("capabilities");
      const capColumns = header.filter((c) => c.startsWith("cap_"));
      expect(capColumns).toEqual(
        CapabilityName.options.flatMap((name) => [`cap_${name}`, `cap_${name}_verification`]),
      );
      const rows = await db.all<Record<string, string | null>>(
        `SELECT id, ${capColumns.join(", ")} FROM read_csv('${file}', header = true, all_varchar = true) ORDER BY id`,
      );
      const expected = [...catalog.deployments]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((d) => ({
          id: d.id,
          ...Object.fromEntries(
            CapabilityName.options.flatMap((name) => [
              [`cap_${name}`, d.capabilities[name]?.status ?? null],
              [`cap_${name}_verification`, d.capabilities[name]?.verification_status ?? null],
            ]),
          ),
        }));
      expect(rows).toEqual(expected);
      expect(rows.some((r) => r.cap_tool_calling === "supported")).toBe(true);
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
