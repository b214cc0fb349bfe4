/**
 * A first build's added deployments come from the catalog it holds (deploymentRefs), not from
 * DuckDB: the two must be the same rows in the same order, or the first release's diff.json
 * would change with the path taken.
 */
import { describe, expect, it } from "vitest";
import { deploymentRefs, queryDiff, readDiff } from "../../src/release/diff.js";
import { loadCatalog, withDatabase } from "../../src/release/index.js";
import type { CatalogContent } from "../../src/schema/index.js";
import { loadRelease } from "../../src/snapshot/index.js";
import { committedReleaseId, REPO_SNAPSHOTS } from "../helpers/committed-release.js";

const EMPTY: CatalogContent = { deployments: [], lifecycle: [], events: [], sources: [] };
const ids = { fromReleaseId: null, toReleaseId: null };

describe("a first build's added deployments", () => {
  it("are DuckDB's rows, in DuckDB's order, for the committed catalog and for one out of id order", async () => {
    const committed = (await loadRelease(REPO_SNAPSHOTS, await committedReleaseId())).catalog;
    // the committed catalog has google and google-vertex: id order (dep_google-vertex_ < dep_google_)
    // is not provider order, so the refs are regrouped
    expect(committed.deployments.some((d) => d.provider_id === "google-vertex")).toBe(true);
    const shuffled: CatalogContent = { ...committed, deployments: [...committed.deployments].reverse() };
    for (const catalog of [committed, shuffled]) {
      const [fromDuckDb, fromCatalog] = await withDatabase(async (db) => {
        await loadCatalog(db, "", catalog);
        await loadCatalog(db, "prev_", EMPTY);
        const queried = readDiff(await queryDiff(db, "prev_", ""), ids);
        const known = readDiff(
          await queryDiff(db, "prev_", "", { deploymentsAdded: deploymentRefs(catalog.deployments) }),
          ids,
        );
        return [queried, known];
      });
      expect(fromDuckDb.deployments_added).toHaveLength(committed.deployments.length);
      expect(fromCatalog).toEqual(fromDuckDb);
      // key order too: diff.json is canonical JSON written from these objects as they are
      expect(JSON.stringify(fromCatalog.deployments_added)).toBe(
        JSON.stringify(fromDuckDb.deployments_added),
      );
    }
  });
});
