/**
 * The tables DuckDB flattens out of a catalog's records (tables.ts) hold what the records say:
 * every long-context tier of the committed release's deployments, as the JS values give them,
 * and the diff expands capabilities out of their JSON exactly as the records differ.
 * (deployments and lifecycle are held byte for byte by build.test.ts: the committed release's
 * Parquet files are exported from them.)
 */
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/lib/canonical-json.js";
import { computeDiff } from "../../src/release/diff.js";
import { withDatabase } from "../../src/release/duckdb.js";
import { loadCatalog, loadStagedRecords } from "../../src/release/tables.js";
import type { CatalogContent, Deployment } from "../../src/schema/index.js";
import { deploymentLifecyclesEmbedded } from "../../src/snapshot/index.js";
import { committedRelease } from "../helpers/committed-release.js";

describe("tables flattened by SQL", () => {
  it("rate_tiers holds every tier of the deployments", async () => {
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
    expect(tiers.length).toBeGreaterThan(0);
    const loaded = await withDatabase(async (db) => {
      await loadCatalog(db, "", catalog);
      return {
        tiers: await db.all("SELECT * FROM rate_tiers ORDER BY deployment_id, tier_index"),
      };
    });
    const byKey = <T extends { deployment_id: string }>(rows: T[], key: (r: T) => string) =>
      [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    expect(loaded.tiers).toEqual(
      byKey(tiers, (r) => `${r.deployment_id}\u0000${String(r.tier_index).padStart(4, "0")}`),
    );
  });

  it("a build's deployment lifecycle rows come from the deployments table, the same as parsed from their records", async () => {
    // a record whose lifecycle is its own object (edited by hand, or parsed from a release before
    // format 2) is staged as it is
    const catalog = JSON.parse(JSON.stringify((await committedRelease()).catalog)) as CatalogContent;
    expect(deploymentLifecyclesEmbedded(catalog)).toBe(false);
    const byId = new Map(catalog.deployments.map((d) => [d.id, d]));
    const own = {
      ...catalog,
      lifecycle: catalog.lifecycle.map((r) => {
        const d = r.resource_type === "deployment" ? byId.get(r.resource_id) : undefined;
        return d ? { ...r, lifecycle: d.lifecycle } : r;
      }),
    };
    // as the merge makes them: the deployments' own lifecycles
    expect(deploymentLifecyclesEmbedded(own)).toBe(true);
    const [first, ...rest] = own.lifecycle.filter((r) => r.resource_type === "deployment");
    const summary = own.lifecycle.find((r) => r.summary !== undefined)?.summary;
    if (!first || !summary)
      throw new Error("the committed catalog has deployment and summarized lifecycle records");
    expect(deploymentLifecyclesEmbedded({ ...own, lifecycle: [...own.lifecycle, first] })).toBe(false);
    expect(
      deploymentLifecyclesEmbedded({ ...own, lifecycle: own.lifecycle.filter((r) => r !== first) }),
    ).toBe(false);
    expect(
      deploymentLifecyclesEmbedded({
        ...own,
        lifecycle: own.lifecycle.map((r) => (r === first ? { ...r, summary } : r)),
      }),
    ).toBe(false);
    expect(
      deploymentLifecyclesEmbedded({
        ...own,
        lifecycle: own.lifecycle.map((r) => (r === first ? { ...r, lifecycle: { ...r.lifecycle } } : r)),
      }),
    ).toBe(false);
    expect(rest.length).toBeGreaterThan(100);
    const query = "SELECT * FROM lifecycle ORDER BY resource_type, resource_id";
    const [parsed, derived] = await withDatabase(async (db) => {
      await loadCatalog(db, "", own);
      const all = await db.all(query);
      await loadStagedRecords(db, {
        prefix: "",
        deployments: await db.stageLines(
          "d",
          own.deployments.map((d) => canonicalJson(d)),
        ),
        lifecycle: await db.stageLines(
          "l",
          own.lifecycle.filter((r) => r.resource_type !== "deployment").map((r) => canonicalJson(r)),
        ),
        deploymentLifecycles: "from deployments",
      });
      return [all, await db.all(query)];
    });
    expect(derived.length).toBe(own.lifecycle.length);
    expect(derived).toEqual(parsed);
  });

  it("the diff's capability changes are exactly those of deployments in both catalogs whose capabilities differ", async () => {
    const { catalog } = await committedRelease();
    const withCapabilities = catalog.deployments.filter((d) => Object.keys(d.capabilities).length >= 2);
    expect(withCapabilities.length).toBeGreaterThan(10);
    const next = structuredClone(catalog);
    const byId = new Map(next.deployments.map((d) => [d.id, d]));
    const pick = (i: number) => byId.get((withCapabilities[i] as Deployment).id) as Deployment;
    const caps = (d: Deployment) => d.capabilities as Record<string, { status: string } | undefined>;
    // one status flipped, one capability gone, one added, one only re-verified (no status change)
    const [flipped, dropped, added, reverified] = [pick(0), pick(3), pick(6), pick(9)];
    const flippedName = Object.keys(flipped.capabilities)[0] as string;
    const flippedEntry = caps(flipped)[flippedName] as { status: string };
    const oldStatus = flippedEntry.status;
    flippedEntry.status = oldStatus === "supported" ? "not_supported" : "supported";
    const droppedName = Object.keys(dropped.capabilities)[0] as string;
    const droppedStatus = caps(dropped)[droppedName]?.status;
    delete caps(dropped)[droppedName];
    const addedName = ["audio_output", "batch", "web_search", "vision"].find(
      (n) => !(n in added.capabilities),
    );
    if (!addedName) throw new Error("fixture: the deployment has every capability tried");
    caps(added)[addedName] = { status: "supported", verification_status: "community_reported" } as never;
    const reName = Object.keys(reverified.capabilities)[0] as string;
    const reEntry = caps(reverified)[reName] as { verification_status?: string };
    reEntry.verification_status =
      reEntry.verification_status === "official_declared" ? "community_reported" : "official_declared";
    // a deployment only in the new catalog: its capabilities are "added deployments", not changes
    const fresh = structuredClone(flipped);
    fresh.id = `${fresh.id}-new`;
    next.deployments.push(fresh);

    const diff = await withDatabase(async (db) => {
      await loadCatalog(db, "prev_", catalog);
      await loadCatalog(db, "", next);
      return computeDiff(db, "prev_", "", { fromReleaseId: null, toReleaseId: null });
    });
    const expected = [
      {
        deployment_id: flipped.id,
        provider_id: flipped.provider_id,
        capability: flippedName,
        old: oldStatus,
        new: flippedEntry.status,
      },
      {
        deployment_id: dropped.id,
        provider_id: dropped.provider_id,
        capability: droppedName,
        old: droppedStatus,
        new: null,
      },
      {
        deployment_id: added.id,
        provider_id: added.provider_id,
        capability: addedName,
        old: null,
        new: "supported",
      },
    ].sort(
      (a, b) =>
        a.provider_id.localeCompare(b.provider_id) ||
        (a.deployment_id < b.deployment_id
          ? -1
          : a.deployment_id > b.deployment_id
            ? 1
            : a.capability < b.capability
              ? -1
              : 1),
    );
    expect(diff.capability_changes).toEqual(expected);
  });
});
