/**
 * The server loads a release without running its deployments through the schema again (the
 * build validated them; the hashes match). What it serves must not change: every record's
 * bytes equal those of the release loaded with the full schema pass.
 */
import { describe, expect, test } from "vitest";
import { indexRelease } from "../../src/serve/catalog-index.js";
import { loadServedRelease } from "../../src/serve/server.js";
import { loadRelease } from "../../src/snapshot/index.js";
import { committedReleaseId, REPO_SNAPSHOTS } from "../helpers/committed-release.js";
import { expectSameServed } from "./support/same-served.js";

const SNAPSHOTS = REPO_SNAPSHOTS;

describe("serving the committed release without the second schema pass", () => {
  test("every deployment, lifecycle record and event serializes to the same bytes as after the full schema pass, with the same columns, indexes and orders", async () => {
    const served = await loadServedRelease(SNAPSHOTS, await committedReleaseId());
    const checked = indexRelease(await loadRelease(SNAPSHOTS, await committedReleaseId()));
    expect(served.releaseId).toBe(checked.releaseId);
    expect(served.deploymentCount).toBeGreaterThan(0);
    await expectSameServed(served, checked);
  });
});
