/**
 * How a build reads the previous release: only the end of its catalog.json (events, lifecycle,
 * sources), with the file's hash verified on another thread, and nothing published when that
 * hash does not match.
 */

import * as fs from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256File, sha256Hex } from "../../src/lib/hash.js";
import { withDatabase } from "../../src/release/duckdb.js";
import { CATALOG_FILE, objectPath, readLatest, readManifest, runRelease } from "../../src/release/index.js";
import { previousCoresOf } from "../../src/release/merge-lifecycle.js";
import {
  locatePreviousParts,
  previousCoresFromParquet,
  readLifecycleCores,
  readPreviousParts,
} from "../../src/release/previous-release.js";
import { checkContext } from "../../src/release/validate.js";
import { catalogBoundaries, catalogParts, readCatalogTailSync } from "../../src/snapshot/catalog-parts.js";
import { REPO_SNAPSHOTS as COMMITTED_SNAPSHOTS, committedReleaseId } from "../helpers/committed-release.js";
import { LATER, releaseInput, standardWorld, tempSnapshots } from "./fixtures.js";

const NAMES = ["events", "lifecycle", "sources"] as const;
let work: string;
let catalogPath: string;
let whole: Buffer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "previous-release-"));
  const latest = await committedReleaseId();
  const manifest = await readManifest(COMMITTED_SNAPSHOTS, latest);
  catalogPath = objectPath(COMMITTED_SNAPSHOTS, manifest.files[CATALOG_FILE]?.sha256 ?? "");
  whole = await readFile(catalogPath);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("the end of catalog.json", () => {
  it("holds the parts a build reads, and less than the whole file", async () => {
    const expected = catalogParts(whole, NAMES);
    const events = whole.lastIndexOf('],"events":[');
    expect(events).toBeGreaterThan(0);
    // steps of every kind: smaller than the parts, one whose seam cuts the events marker, the whole file
    for (const step of [4096, whole.length - events - 5, whole.length - events + 3, whole.length * 2]) {
      const tail = readCatalogTailSync(fs, catalogPath, step, catalogBoundaries);
      expect(tail.length, `step ${step}`).toBeLessThanOrEqual(whole.length);
      if (step < whole.length) expect(tail.length).toBeLessThan(whole.length);
      expect(whole.subarray(whole.length - tail.length).equals(tail)).toBe(true);
      expect(catalogParts(tail, NAMES)).toEqual(expected);
    }
  });

  it("is the whole file for a catalog not in the canonical shape", async () => {
    const path = join(work, "pretty.json");
    const pretty = Buffer.from(JSON.stringify(JSON.parse(whole.toString("utf8")), null, 2));
    await writeFile(path, pretty);
    const tail = readCatalogTailSync(fs, path, 4096, catalogBoundaries);
    expect(tail.equals(pretty)).toBe(true);
    const parts = catalogParts(tail, NAMES);
    const expected = catalogParts(whole, NAMES);
    for (const name of NAMES) expect(parts[name]).toEqual(expected[name]);
  });

  it("is read on another thread: events, sources and every lifecycle record's core, as parsed here", async () => {
    const expected = catalogParts(whole, NAMES);
    const cores = previousCoresOf(expected.lifecycle);
    expect(expected.lifecycle.length).toBeGreaterThan(1000);
    for (const step of [4096, whole.length - whole.lastIndexOf('],"events":[') + 3, whole.length * 2]) {
      const parts = await readPreviousParts(catalogPath, { step });
      expect(parts.events).toEqual(expected.events);
      expect(parts.sources).toEqual(expected.sources);
      expect(await parts.lifecycle).toEqual(cores);
    }
    // a catalog not in the canonical shape: read whole, the same parts
    const pretty = join(work, "pretty-parts.json");
    await writeFile(pretty, JSON.stringify(JSON.parse(whole.toString("utf8")), null, 1));
    const fromPretty = await readPreviousParts(pretty, { step: 4096 });
    expect(fromPretty.events).toEqual(expected.events);
    expect(await fromPretty.lifecycle).toEqual(cores);
  });

  it("reads the parts where serve-index.json's members say, and the end of catalog.json when they do not hold", async () => {
    const expected = catalogParts(whole, NAMES);
    const cores = previousCoresOf(expected.lifecycle);
    const latest = await committedReleaseId();
    const manifest = await readManifest(COMMITTED_SNAPSHOTS, latest);
    const serveIndexPath = objectPath(COMMITTED_SNAPSHOTS, manifest.files["serve-index.json"]?.sha256 ?? "");
    const serveIndex = await readFile(serveIndexPath, "utf8");
    const members = (JSON.parse(serveIndex) as { members: Record<string, [number, number]> }).members;
    expect(Object.keys(members)).toEqual(["deployments", "events", "lifecycle", "sources"]);
    // the members' spans (read with steps of 1 byte, the tail would take millions of reads)
    const read = await readPreviousParts(catalogPath, { serveIndexPath, step: 1 });
    expect(read.events).toEqual(expected.events);
    expect(read.sources).toEqual(expected.sources);
    expect(await read.lifecycle).toEqual(cores);
    // spans one byte off, or naming the wrong member, or no serve-index: the tail is read instead
    const lifecycleSpan = members.lifecycle as [number, number];
    const sourcesSpan = members.sources as [number, number];
    for (const wrong of [
      { ...members, lifecycle: [lifecycleSpan[0] + 1, lifecycleSpan[1]] },
      { ...members, lifecycle: sourcesSpan, sources: lifecycleSpan },
    ]) {
      const path = join(work, "serve-index-wrong.json");
      const text = serveIndex.slice(0, serveIndex.lastIndexOf(',"members":{'));
      await writeFile(path, `${text},"members":${JSON.stringify(wrong)}}`);
      const parts = await readPreviousParts(catalogPath, { serveIndexPath: path, step: 1 << 20 });
      expect(parts.sources).toEqual(expected.sources);
      expect(await parts.lifecycle).toEqual(cores);
    }
    const absent = await readPreviousParts(catalogPath, {
      serveIndexPath: join(work, "none"),
      step: 1 << 20,
    });
    expect(await absent.lifecycle).toEqual(cores);
  });

  it("reports a file it cannot read, and lifecycle records it cannot parse", async () => {
    await expect(readPreviousParts(join(work, "absent"))).rejects.toThrow(/ENOENT/);
    // the part markers intact, a lifecycle record cut short: events and sources read, the cores fail
    const lifecycleAt = whole.lastIndexOf('],"lifecycle":[');
    const cut = Buffer.concat([
      whole.subarray(0, lifecycleAt + 200),
      whole.subarray(whole.lastIndexOf('],"sources":[')),
    ]);
    const path = join(work, "cut.json");
    await writeFile(path, cut);
    const parts = await readPreviousParts(path, { step: 1 << 20 });
    expect(parts.sources).toEqual(catalogParts(whole, ["sources"]).sources);
    await expect(parts.lifecycle).rejects.toThrow(/JSON/);
  });

  it("the lifecycle cores come from lifecycle.parquet in one query, the same as parsed from catalog.json", async () => {
    const expected = catalogParts(whole, NAMES);
    const cores = previousCoresOf(expected.lifecycle);
    // the committed release exercises every member of a core: announcements, both milestones' days, replacements
    expect(expected.lifecycle.some((r) => r.lifecycle.announced_at !== null)).toBe(true);
    expect(expected.lifecycle.some((r) => r.lifecycle.replacement_ids.length > 1)).toBe(true);
    expect(expected.lifecycle.some((r) => r.lifecycle.end_of_life.date !== null)).toBe(true);
    expect(expected.lifecycle.some((r) => r.lifecycle.last_changed_at === null)).toBe(true);
    const latest = await committedReleaseId();
    const manifest = await readManifest(COMMITTED_SNAPSHOTS, latest);
    const parquet = objectPath(COMMITTED_SNAPSHOTS, manifest.files["lifecycle.parquet"]?.sha256 ?? "");
    const serveIndexPath = objectPath(COMMITTED_SNAPSHOTS, manifest.files["serve-index.json"]?.sha256 ?? "");
    const unsafe = join(work, "unsafe.parquet");
    const [fromParquet, withControl] = await withDatabase(async (db) => {
      const read = await previousCoresFromParquet(db, parquet);
      // a replacement id holding a control character: DuckDB would escape it otherwise than
      // JSON.stringify, so the cores are not read from the file
      await db.run(
        `COPY (SELECT * REPLACE (CASE WHEN resource_id = (SELECT min(resource_id) FROM read_parquet('${parquet}')) THEN list_append(replacement_ids, 'x' || chr(31)) ELSE replacement_ids END AS replacement_ids) FROM read_parquet('${parquet}')) TO '${unsafe}' (FORMAT parquet)`,
      );
      return [read, await previousCoresFromParquet(db, unsafe)];
    });
    expect(fromParquet).toEqual(cores);
    expect(withControl).toBeNull();
    // then read from catalog.json's lifecycle span, on another thread
    const located = locatePreviousParts(catalogPath, serveIndexPath);
    expect(located?.events).toEqual(expected.events);
    expect(await readLifecycleCores(catalogPath, located?.lifecycleSpan ?? [0, 0])).toEqual(cores);
    await expect(readLifecycleCores(catalogPath, [1, 10])).rejects.toThrow(/not where serve-index.json says/);
  });

  it("a build's clock is an instant to the second, as last_changed_at is read back from Parquet", () => {
    expect(checkContext("2026-11-23T00:00:00Z").now).toBe("2026-11-23T00:00:00Z");
    for (const now of ["2026-11-23T00:00:00.000Z", "2026-11-23T00:00Z", "2026-11-23"])
      expect(() => checkContext(now)).toThrow(/to the second/);
  });

  it("its file's hash comes from another thread, the same as here", async () => {
    expect(await sha256File(catalogPath)).toBe(sha256Hex(whole));
    await expect(sha256File(join(work, "absent"))).rejects.toThrow(/cannot hash/);
  });
});

describe("a build on a previous release whose catalog.json is damaged", () => {
  it("fails with release_damaged and publishes nothing", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      const first = await runRelease(releaseInput(dir));
      const firstId = first.releaseId as string;
      const manifest = await readManifest(dir, firstId);
      const path = objectPath(dir, manifest.files[CATALOG_FILE]?.sha256 ?? "");
      // one byte of a deployment's text changed: still JSON, and the tail still parses
      const bytes = await readFile(path);
      const at = bytes.indexOf('"provider_id":"openai"') + '"provider_id":"open'.length;
      bytes[at] = "A".charCodeAt(0);
      await writeFile(path, bytes);

      const world = standardWorld();
      const card = world.pricing[0]?.rate_card;
      if (card) card.output_micro_usd = 12_000_000;
      await expect(runRelease(releaseInput(dir, { world, now: LATER }))).rejects.toMatchObject({
        code: "release_damaged",
        message: expect.stringMatching(/catalog\.json does not match its sha256/),
      });
      expect(await readLatest(dir)).toBe(firstId);
      expect((await readdir(join(dir, "releases"))).filter((n) => !n.startsWith("."))).toEqual([firstId]);
    } finally {
      await cleanup();
    }
  });
});
