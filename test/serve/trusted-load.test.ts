/**
 * The server loads a release without running its deployments through the schema again (the
 * build validated them; the hashes match). What it serves must not change: every record's
 * bytes equal those of the release loaded with the full schema pass.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { indexRelease } from "../../src/serve/catalog-index.js";
import { loadServedRelease } from "../../src/serve/server.js";
import { loadRelease } from "../../src/snapshot/index.js";

const SNAPSHOTS = join(import.meta.dirname, "..", "..", "snapshots");

describe("serving the committed release without the second schema pass", () => {
  test("every deployment, lifecycle record and event serializes to the same bytes as after the full schema pass", async () => {
    const served = await loadServedRelease(SNAPSHOTS);
    const checked = indexRelease(await loadRelease(SNAPSHOTS));
    expect(served.releaseId).toBe(checked.releaseId);
    expect(served.deployments.length).toBeGreaterThan(0);
    for (const [name, a, b] of [
      ["deployments", served.deploymentJson, checked.deploymentJson],
      ["lifecycle", served.lifecycleJson, checked.lifecycleJson],
      ["events", served.eventJson, checked.eventJson],
    ] as const) {
      expect(a.length, name).toBe(b.length);
      for (let i = 0; i < a.length; i++)
        expect(a.at(i)?.equals(b.at(i) as Buffer), `${name} ${i}`).toBe(true);
    }
    expect(served.deploymentSearch).toEqual(checked.deploymentSearch);
    expect([...served.byProvider]).toEqual([...checked.byProvider]);
    expect(served.priced).toEqual(checked.priced);
  });
});
