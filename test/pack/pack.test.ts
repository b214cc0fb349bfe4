/**
 * `npm pack` gives a package whose `catalog` command works where it is installed: the tarball
 * is installed into an empty directory elsewhere (production dependencies only, from the npm
 * cache when it has them), and its `catalog` runs `--help`, `verify` and `export` against the
 * repository's snapshots. The tarball holds the compiled CLI, not the sources, tests or snapshots.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyCommittedSnapshots } from "../helpers/committed-release.js";

const run = promisify(execFile);
const REPO = join(import.meta.dirname, "..", "..");
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

describe("the packed package", () => {
  let work: string;
  let tarball: string;
  let files: string[];
  let catalogBin: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "catalog-pack-"));
    const { stdout } = await run(NPM, ["pack", "--json", "--pack-destination", work], { cwd: REPO });
    const [packed] = JSON.parse(stdout) as Array<{
      filename: string;
      files: Array<{ path: string }>;
      size: number;
      unpackedSize: number;
    }>;
    if (!packed) throw new Error("npm pack printed nothing");
    tarball = join(work, packed.filename);
    files = packed.files.map((f) => f.path);
    process.stderr.write(
      `npm pack: ${packed.filename} ${packed.size} bytes (${packed.unpackedSize} unpacked, ${files.length} files)\n`,
    );
    const app = join(work, "app");
    await mkdir(app);
    await run(NPM, ["init", "--yes"], { cwd: app });
    await run(NPM, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--omit=dev", tarball], {
      cwd: app,
      maxBuffer: 1 << 24,
    });
    catalogBin = join(app, "node_modules", ".bin", "catalog");
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("holds the compiled CLI and its bin, not sources, tests or snapshots", () => {
    expect(files).toContain("dist/src/cli/main.js");
    expect(files).toContain("src/cli/bin.mjs");
    expect(files).toContain("package.json");
    expect(
      files.filter((f) => /^(test|snapshots|sources|bench|dist\/bench)\//.test(f) || f.endsWith(".ts")),
    ).toEqual([]);
  });

  it("installed elsewhere, its catalog prints help, verifies and exports the repository's release", async () => {
    expect((await stat(catalogBin)).isFile()).toBe(true);
    const help = await run(catalogBin, ["--help"], { cwd: work });
    for (const command of ["build", "diff", "verify", "serve", "releases", "export", "capture", "backfill"])
      expect(help.stdout).toContain(command);
    const snapshots = join(work, "snapshots");
    await copyCommittedSnapshots(snapshots);
    const verify = await run(catalogBin, ["verify", "--snapshots", snapshots], { cwd: work });
    expect(verify.stdout).toMatch(/^rel_[0-9a-f]{64} ok\n$/);
    const out = join(work, "export");
    await run(catalogBin, ["export", "--snapshots", snapshots, "--out", out], { cwd: work });
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
});
