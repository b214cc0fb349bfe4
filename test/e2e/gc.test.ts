/**
 * `catalog gc` through the real CLI: a build killed after renaming its release into place but
 * before moving LATEST, then a build of other content, leaves a release (and objects) no chain
 * reaches; gc lists them with --dry-run and removes them, never a release or object of the
 * chain; it refuses while a build holds the lock (exit 12) and on a damaged chain (exit 4).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { CatalogContent } from "../../src/schema/index.js";
import { readManifest, releaseDir, writeLatest } from "../../src/snapshot/index.js";
import { DEPLOYMENTS, fixtureCatalog, publishFixture } from "../serve/support/fixture.js";
import { isOneLine, runCli } from "./support/cli.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function catalogWith(inputMicroUsd: number): CatalogContent {
  return fixtureCatalog({
    deployments: DEPLOYMENTS.map((d) =>
      d.rate_card ? { ...d, rate_card: { ...d.rate_card, input_micro_usd: inputMicroUsd } } : d,
    ),
  });
}

interface Layout {
  snapshots: string;
  first: string;
  second: string;
  orphan: string;
  /** Objects only the orphan names. */
  orphanObjects: string[];
}

/** first <- second (LATEST), and an orphan on first that LATEST never reached. */
async function layout(): Promise<Layout> {
  const dir = await mkdtemp(join(tmpdir(), "catalog-gc-"));
  dirs.push(dir);
  const snapshots = join(dir, "snapshots");
  const first = await publishFixture(snapshots, catalogWith(1_000_000));
  // the killed build: its release renamed into place, LATEST still on first
  const orphan = await publishFixture(snapshots, catalogWith(3_000_000), first);
  await writeLatest(snapshots, first);
  const second = await publishFixture(snapshots, catalogWith(2_000_000), first);
  const kept = new Set<string>();
  for (const id of [first, second])
    for (const f of Object.values((await readManifest(snapshots, id)).files)) kept.add(f.sha256);
  const orphanObjects = Object.values((await readManifest(snapshots, orphan)).files)
    .map((f) => f.sha256)
    .filter((sha) => !kept.has(sha));
  expect(orphanObjects.length).toBeGreaterThan(0);
  return { snapshots, first, second, orphan, orphanObjects };
}

const gc = (snapshots: string, ...extra: string[]) => runCli(["gc", "--snapshots", snapshots, ...extra]);

describe("catalog gc", () => {
  let l: Layout;
  beforeEach(async () => {
    l = await layout();
  });

  it("--dry-run lists the unreachable release and its objects and removes nothing", async () => {
    const result = await gc(l.snapshots, "--dry-run");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`would remove release ${l.orphan}`);
    for (const sha of l.orphanObjects) expect(result.stdout).toContain(`would remove object ${sha}`);
    expect(result.stdout).toMatch(/gc: kept 2 release\(s\).* would remove 1 release\(s\)/);
    expect(existsSync(releaseDir(l.snapshots, l.orphan))).toBe(true);
    for (const sha of l.orphanObjects) expect(existsSync(join(l.snapshots, "objects", sha))).toBe(true);
  });

  it("removes the unreachable release, the objects only it names and a stray object; the chain stays intact", async () => {
    const stray = "0".repeat(64);
    await writeFile(join(l.snapshots, "objects", stray), "left by a killed build");
    const result = await gc(l.snapshots);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(releaseDir(l.snapshots, l.orphan))).toBe(false);
    for (const sha of [...l.orphanObjects, stray])
      expect(existsSync(join(l.snapshots, "objects", sha))).toBe(false);
    for (const id of [l.first, l.second]) {
      const verify = await runCli(["verify", id, "--snapshots", l.snapshots]);
      expect(verify.code, verify.stderr).toBe(0);
    }
    expect((await readFile(join(l.snapshots, "LATEST"), "utf8")).trim()).toBe(l.second);
    // nothing left to remove
    expect((await gc(l.snapshots)).stdout).toMatch(/removed 0 release\(s\) and 0 object\(s\)/);
  });

  it("refuses with exit 12 while a build holds the lock, removing nothing", async () => {
    await writeFile(
      join(l.snapshots, ".build.lock"),
      `${JSON.stringify({ pid: process.pid, hostname: hostname(), acquired_at: new Date().toISOString() })}\n`,
    );
    const result = await gc(l.snapshots);
    expect(result.code).toBe(12);
    expect(isOneLine(result.stderr), result.stderr).toBe(true);
    expect(existsSync(releaseDir(l.snapshots, l.orphan))).toBe(true);
    for (const sha of l.orphanObjects) expect(existsSync(join(l.snapshots, "objects", sha))).toBe(true);
  });

  it("refuses with exit 4 when a manifest of the chain is damaged, removing nothing", async () => {
    const path = join(releaseDir(l.snapshots, l.first), "manifest.json");
    const manifest = JSON.parse(await readFile(path, "utf8"));
    manifest.created_at = "2020-01-01T00:00:00Z";
    await writeFile(path, JSON.stringify(manifest));
    const result = await gc(l.snapshots);
    expect(result.code).toBe(4);
    expect(existsSync(releaseDir(l.snapshots, l.orphan))).toBe(true);
  });
});
