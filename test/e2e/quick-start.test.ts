/**
 * The README's quick start as a new user runs it, on a copy of the committed snapshots (the
 * test never writes the repository's): `catalog build --offline` at today's clock says where
 * its release went, and `catalog serve` with the shipped default plans answers 150 anonymous
 * requests without a 429.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_BIN, runCatalog } from "../helpers/cli.js";
import { committedSnapshotsCopy } from "../helpers/committed-release.js";

/** `catalog serve ARGS` from `cwd` (its keys.json and quota.json live there); resolves once listening. */
function serve(args: string[], cwd: string): Promise<{ url: string; proc: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "info" };
    delete env.CATALOG_QUOTA_FILE;
    delete env.XDG_STATE_HOME;
    const proc = spawn(process.execPath, [CATALOG_BIN, "serve", "--port", "0", ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === "listening" && entry.url) resolve({ url: entry.url, proc });
      }
    });
    proc.once("exit", (code) => reject(new Error(`catalog serve exited with ${code}`)));
  });
}

describe("the README's quick start", () => {
  let dir: string;
  let snapshots: string;
  let committed: string;
  beforeAll(async () => {
    ({ dir, snapshots, releaseId: committed } = await committedSnapshotsCopy());
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("`catalog build --offline` at today's clock names the release it published and where, next to the committed one", async () => {
    const built = await runCatalog(["build", "--offline", "--snapshots", snapshots]);
    expect(built.code).toBe(0);
    const published = /^published (rel_[0-9a-f]{64}) in (.+) \(LATEST names it/m.exec(built.stderr);
    if (published) {
      expect(published[2]).toBe(snapshots);
      expect(built.stdout.trim()).toBe(published[1]);
      const listed = await runCatalog(["releases", "--json", "--snapshots", snapshots]);
      const ids = (JSON.parse(listed.stdout) as { data: Array<{ id: string }> }).data.map((r) => r.id);
      expect(ids).toEqual([published[1], committed]);
    } else {
      // built on the committed snapshot's own day: nothing to publish
      expect(built.stderr).toContain(`no change since ${committed}: nothing published`);
    }
  }, 120_000);

  it("`catalog serve` with the shipped plans answers 150 anonymous requests without a 429", async () => {
    const { url, proc } = await serve(["--snapshots", snapshots], dir);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 150; i++) {
        const answer = await fetch(`${url}/v1/deployments?provider=anthropic&limit=1`);
        await answer.arrayBuffer();
        statuses.push(answer.status);
      }
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      const last = await fetch(`${url}/v1/providers`);
      expect(Number(last.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(1_000);
    } finally {
      // the server writes its quota file into `dir` as it drains: wait for it before removing `dir`
      const exited = new Promise((resolve) => proc.once("exit", resolve));
      proc.kill("SIGTERM");
      await exited;
    }
  }, 60_000);
});
