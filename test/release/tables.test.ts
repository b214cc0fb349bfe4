/**
 * The tables DuckDB flattens out of a catalog's records (tables.ts) hold what the records say:
 * every long-context tier and every capability of the committed release's deployments, as the
 * JS values give them. (deployments and lifecycle are held byte for byte by build.test.ts: the
 * committed release's Parquet files are exported from them.)
 */
import { describe, expect, it } from "vitest";
import { withDatabase } from "../../src/release/duckdb.js";
import { loadCatalog } from "../../src/release/tables.js";
import { committedRelease } from "../helpers/committed-release.js";

describe("tables flattened by SQL", () => {
  it("rate_tiers and capabilities hold every tier and capability of the deployments", async () => {
    const { catalog } = await committedRelease();
    const tiers = catalog.deployments.flatMap((d) =>
      (d.rate_card?.tiers ?? []).map((t, i) => ({
        deployment_id: d.id,
        tier_index: i,
        above_input_tokens: t.above_input_tokens,
        input_micro_usd: t.input_micro_usd,
        cached_input_micro_usd: t.cached_input_micro_usd,
        output_micro_usd: t.output_micro_usd,
        cache_write_micro_usd: t.cache_write_micro_usd ?? null,
      })),
    );
    const capabilities = catalog.deployments.flatMap((d) =>
      Object.entries(d.capabilities).map(([capability, entry]) => ({
        deployment_id: d.id,
        capability,
        status: entry?.status ?? null,
        verification_status: entry?.verification_status ?? null,
      })),
    );
    expect(tiers.length).toBeGreaterThan(0);
    expect(capabilities.length).toBeGreaterThan(1000);
    const loaded = await withDatabase(async (db) => {
      await loadCatalog(db, "", catalog);
      return {
        tiers: await db.all("SELECT * FROM rate_tiers ORDER BY deployment_id, tier_index"),
        capabilities: await db.all("SELECT * FROM capabilities ORDER BY deployment_id, capability"),
      };
    });
    const byKey = <T extends { deployment_id: string }>(rows: T[], key: (r: T) => string) =>
      [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    expect(loaded.tiers).toEqual(
      byKey(tiers, (r) => `${r.deployment_id}\u0000${String(r.tier_index).padStart(4, "0")}`),
    );
    expect(loaded.capabilities).toEqual(
      byKey(capabilities, (r) => `${r.deployment_id}\u0000${r.capability}`),
    );
  });
});
