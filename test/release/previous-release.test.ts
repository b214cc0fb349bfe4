/**
 * How a build reads the previous release, one way: its catalog.json's events, lifecycle and
 * sources (hash-verified), its Parquet tables for DuckDB, facts.json on demand; and nothing
 * published when one of its files does not match its hash.
 */

import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogReleaseFiles, publishRelease } from "../../src/release/artifact.js";
import { withDatabase } from "../../src/release/duckdb.js";
import {
  CATALOG_FILE,
  DEPLOYMENTS_PARQUET,
  loadRelease,
  objectPath,
  REPORT_FILE,
  readFacts,
  readLatest,
  readManifest,
  readReleaseFile,
  runRelease,
} from "../../src/release/index.js";
import { previousCoresOf } from "../../src/release/lifecycle-cores.js";
import { readPreviousRelease, readRelease } from "../../src/release/previous-release.js";
import { checkContext } from "../../src/release/validate.js";
import { CatalogContent } from "../../src/schema/index.js";
import { committedSnapshotsCopy } from "../helpers/committed-release.js";
import { LATER, releaseInput, standardWorld, tempSnapshots } from "./fixtures.js";

// A copy holding the committed release alone: what a user's build left in snapshots/ is never read.
let COMMITTED_SNAPSHOTS: string;
let committedCopy: string;
beforeAll(async () => {
  const copy = await committedSnapshotsCopy();
  committedCopy = copy.dir;
  COMMITTED_SNAPSHOTS = copy.snapshots;
});
afterAll(async () => {
  await rm(committedCopy, { recursive: true, force: true });
});

async function committedLatest(): Promise<string> {
  const latest = await readLatest(COMMITTED_SNAPSHOTS);
  if (!latest) throw new Error("the committed snapshots have a release");
  return latest;
}

describe("the previous release", () => {
  it("is the latest release's events, lifecycle records and sources as catalog.json holds them, its fingerprint and, on demand, its facts", async () => {
    const latest = await committedLatest();
    const manifest = await readManifest(COMMITTED_SNAPSHOTS, latest);
    const whole = CatalogContent.parse(
      JSON.parse((await readReleaseFile(COMMITTED_SNAPSHOTS, manifest, CATALOG_FILE)).toString("utf8")),
    );
    const previous = await readPreviousRelease(COMMITTED_SNAPSHOTS);
    if (!previous) throw new Error("read");
    expect(previous.releaseId).toBe(latest);
    expect(previous.catalog).toEqual({ events: whole.events, sources: whole.sources });
    // every record's core, the deployments' own (not in catalog.json: their columns in
    // serve-index.json) the same as read from their records
    expect(whole.lifecycle.filter((r) => r.resource_type === "deployment")).toEqual([]);
    const { catalog } = await loadRelease(COMMITTED_SNAPSHOTS, latest);
    expect(catalog.lifecycle.length).toBeGreaterThan(whole.lifecycle.length + 1000);
    expect(previous.cores).toEqual(previousCoresOf(catalog.lifecycle));
    // deployments alike hold one shared core: one value per distinct core and last_changed_at
    const own = [...(previous.cores.get("deployment")?.values() ?? [])];
    const distinct = new Set(own.map((c) => `${c.last_changed_at}\n${c.core}`)).size;
    expect(new Set(own).size).toBe(distinct);
    expect(distinct).toBeLessThan(own.length / 4);
    const report = JSON.parse(
      (await readReleaseFile(COMMITTED_SNAPSHOTS, manifest, REPORT_FILE)).toString("utf8"),
    ) as { content_fingerprint: string };
    expect(previous.fingerprint).toBe(report.content_fingerprint);
    expect(await previous.facts()).toEqual(await readFacts(COMMITTED_SNAPSHOTS, manifest));
  });

  it("loads its tables into DuckDB from its Parquet files: every deployment, lifecycle record, event and source", async () => {
    const latest = await committedLatest();
    const previous = await readRelease(COMMITTED_SNAPSHOTS, latest);
    const manifest = await readManifest(COMMITTED_SNAPSHOTS, latest);
    const counts = await withDatabase(async (db) => {
      await previous.load(db, "prev_");
      const count = async (table: string) =>
        Number((await db.all<{ n: bigint }>(`SELECT count(*) AS n FROM prev_${table}`))[0]?.n);
      return {
        deployments: await count("deployments"),
        lifecycle: await count("lifecycle"),
        events: await count("events"),
        sources: await count("sources"),
      };
    });
    expect(counts).toEqual({
      deployments: manifest.counts.deployments,
      lifecycle: manifest.counts.lifecycle_records,
      events: manifest.counts.events,
      sources: manifest.counts.sources,
    });
    expect(counts.deployments).toBeGreaterThan(1500);
  });

  it("reads a release published before format 2 (every lifecycle record in catalog.json) to the same cores, events and sources", async () => {
    const latest = await committedLatest();
    const manifest = await readManifest(COMMITTED_SNAPSHOTS, latest);
    // its twin as published before format 2: the same catalog with every lifecycle record its
    // own object (a JSON round trip), so catalog.json stores them all; the other files as they are
    const { catalog } = await loadRelease(COMMITTED_SNAPSHOTS, latest);
    const whole = catalogReleaseFiles(JSON.parse(JSON.stringify(catalog)) as CatalogContent);
    const files: Record<string, Uint8Array> = { ...whole };
    for (const name of Object.keys(manifest.files))
      files[name] ??= await readReleaseFile(COMMITTED_SNAPSHOTS, manifest, name);
    const dir = join(committedCopy, "format-1");
    const twin = await publishRelease(dir, {
      files,
      createdAt: manifest.created_at,
      previousReleaseId: null,
      counts: manifest.counts,
    });
    const stored = CatalogContent.parse(
      JSON.parse(
        (await readReleaseFile(dir, await readManifest(dir, twin.releaseId), CATALOG_FILE)).toString(),
      ),
    );
    expect(stored.lifecycle.filter((r) => r.resource_type === "deployment")).toHaveLength(
      catalog.deployments.length,
    );
    const [before, after] = [
      await readRelease(dir, twin.releaseId),
      await readRelease(COMMITTED_SNAPSHOTS, latest),
    ];
    expect(before.cores.get("deployment")?.size).toBe(catalog.deployments.length);
    expect(before.cores).toEqual(after.cores);
    expect(before.catalog).toEqual(after.catalog);
  });

  it("a build's clock is an instant to the second, as last_changed_at is written to Parquet", () => {
    expect(checkContext("2026-11-23T00:00:00Z").now).toBe("2026-11-23T00:00:00Z");
    for (const now of ["2026-11-23T00:00:00.000Z", "2026-11-23T00:00Z", "2026-11-23"])
      expect(() => checkContext(now)).toThrow(/to the second/);
  });
});

describe("a build on a damaged previous release", () => {
  for (const [name, damage] of [
    [
      CATALOG_FILE,
      // one byte of a deployment's text changed: still JSON, and its parts still parse
      (bytes: Buffer) => {
        bytes[bytes.indexOf('"provider_id":"openai"') + '"provider_id":"open'.length] = "A".charCodeAt(0);
      },
    ],
    [
      DEPLOYMENTS_PARQUET,
      (bytes: Buffer) => {
        const at = Math.floor(bytes.length / 2);
        bytes[at] = (bytes[at] ?? 0) ^ 0xff;
      },
    ],
  ] as const)
    it(`fails with release_damaged when its ${name} does not match its hash, and publishes nothing`, async () => {
      const { dir, cleanup } = await tempSnapshots();
      try {
        const first = await runRelease(releaseInput(dir));
        const firstId = first.releaseId as string;
        const manifest = await readManifest(dir, firstId);
        const path = objectPath(dir, manifest.files[name]?.sha256 ?? "");
        const bytes = await readFile(path);
        damage(bytes);
        await writeFile(path, bytes);

        const world = standardWorld();
        const card = world.pricing[0]?.rate_card;
        if (card) card.output_micro_usd = 12_000_000;
        await expect(runRelease(releaseInput(dir, { world, now: LATER }))).rejects.toMatchObject({
          code: "release_damaged",
          message: expect.stringContaining(`${name} does not match its sha256`),
        });
        expect(await readLatest(dir)).toBe(firstId);
        expect((await readdir(join(dir, "releases"))).filter((n) => !n.startsWith("."))).toEqual([firstId]);
      } finally {
        await cleanup();
      }
    });
});
