/**
 * One build at a time per snapshots directory, with real concurrent `catalog build`
 * processes: a second build refuses with exit code 12 (`locked`) in one line instead of
 * publishing a release that is orphaned from the chain or failing with a stack trace, and
 * leftovers of a killed build are removed by the next one.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isOneLine, REPO, runCli } from "./support/cli.js";

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "catalog-build-lock-"));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const SOURCES = join(REPO, "sources");
/** A pid no process has on this host (above the kernel's pid_max limit of 2^22). */
const DEAD_PID = 2 ** 22 + 4242;

function build(snapshots: string, now: string) {
  return runCli(["build", "--offline", "--sources", SOURCES, "--snapshots", snapshots, "--now", now], {
    timeoutMs: 120_000,
  });
}

/** Every release directory of `snapshots`, and the chain LATEST -> previous_release_id -> ... */
async function releasesAndChain(snapshots: string): Promise<{ all: string[]; chain: string[] }> {
  const all = (await readdir(join(snapshots, "releases"))).filter((n) => n.startsWith("rel_")).sort();
  const chain: string[] = [];
  let id: string | null = (await readFile(join(snapshots, "LATEST"), "utf8")).trim();
  while (id) {
    chain.push(id);
    const manifest = JSON.parse(await readFile(join(snapshots, "releases", id, "manifest.json"), "utf8")) as {
      previous_release_id: string | null;
    };
    id = manifest.previous_release_id;
  }
  return { all, chain: chain.sort() };
}

describe("concurrent catalog build on one snapshots directory", () => {
  it("publishes no orphaned release: a concurrent build exits 12 in one line naming the lock", async () => {
    const snapshots = join(work, "concurrent");
    const results = await Promise.all([
      build(snapshots, "2026-11-23T00:00:00Z"),
      build(snapshots, "2026-11-24T00:00:00Z"),
      build(snapshots, "2026-11-25T00:00:00Z"),
    ]);
    for (const r of results) {
      expect([0, 12], r.stderr.slice(-2000)).toContain(r.code);
      if (r.code === 12) {
        expect(isOneLine(r.stderr), r.stderr).toBe(true);
        expect(r.stderr).toMatch(/is locked by another process \(pid \d+/);
        expect(r.stdout).toBe("");
      }
    }
    expect(results.filter((r) => r.code === 0).length).toBeGreaterThanOrEqual(1);
    const { all, chain } = await releasesAndChain(snapshots);
    expect(all).toEqual(chain);
    expect(await readdir(snapshots)).not.toContain(".build.lock");
  }, 240_000);

  it("removes the leftovers of a killed build and breaks its lock", async () => {
    const snapshots = join(work, "leftovers");
    await mkdir(join(snapshots, "objects"), { recursive: true });
    await mkdir(join(snapshots, "releases", `.tmp-${DEAD_PID}-0123456789ab`), { recursive: true });
    await writeFile(join(snapshots, "releases", `.tmp-${DEAD_PID}-0123456789ab`, "manifest.json"), "{");
    await writeFile(join(snapshots, "objects", `.tmp-${DEAD_PID}-ba9876543210-${"0".repeat(64)}`), "partial");
    await writeFile(join(snapshots, `.tmp-${DEAD_PID}-aaaaaaaaaaaa-LATEST`), "rel_");
    await writeFile(
      join(snapshots, ".build.lock"),
      JSON.stringify({ pid: DEAD_PID, hostname: hostname(), acquired_at: "2026-11-22T00:00:00Z" }),
    );
    const result = await build(snapshots, "2026-11-23T00:00:00Z");
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    const everywhere = [
      ...(await readdir(snapshots)),
      ...(await readdir(join(snapshots, "objects"))),
      ...(await readdir(join(snapshots, "releases"))),
    ];
    expect(everywhere.filter((n) => n.startsWith(".tmp-") || n.endsWith(".lock"))).toEqual([]);
  }, 120_000);
});
