/**
 * `catalog keys` under concurrency and with plan checks, through the real CLI in parallel
 * child processes: every read-modify-write of keys.json holds its lock, a plan must exist,
 * and moving a workspace to another plan needs --change-plan.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, isOneLine, runCli } from "./support/cli.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "catalog-keys-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Listed {
  key_id: string;
  workspace: string;
  plan: string;
  revoked_at: string | null;
}

async function list(keysFile: string): Promise<Listed[]> {
  const result = await runCli(["keys", "list", "--json", "--keys", keysFile]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Listed[];
}

async function create(keysFile: string, workspace: string, plan = "free", extra: string[] = []) {
  return runCli(["keys", "create", "--workspace", workspace, "--plan", plan, "--keys", keysFile, ...extra]);
}

/** Runs a shell command line; its exit code and stderr. */
function runShell(line: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn("sh", ["-c", line], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    proc.stdout.resume();
    proc.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    proc.on("error", reject);
    proc.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("keys.json under concurrent catalog keys commands", () => {
  it("20 parallel `keys create` record 20 keys", async () => {
    const keysFile = join(dir, "parallel.json");
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => create(keysFile, `ws${i}`)));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const keys = await list(keysFile);
    expect(keys).toHaveLength(20);
    expect(new Set(keys.map((k) => k.workspace)).size).toBe(20);
    // every printed key id is in the file
    const printed = results.map((r) => /created key (key_[0-9a-f]{16})/.exec(r.stderr)?.[1]);
    expect(new Set(keys.map((k) => k.key_id))).toEqual(new Set(printed));
  }, 120_000);

  it("a revoke racing creates is never lost: the key stays revoked and every created key is kept", async () => {
    const keysFile = join(dir, "race.json");
    for (let trial = 0; trial < 6; trial++) {
      const victim = await create(keysFile, "acme");
      const victimId = /created key (key_[0-9a-f]{16})/.exec(victim.stderr)?.[1] as string;
      const [revoked, ...created] = await Promise.all([
        runCli(["keys", "revoke", victimId, "--keys", keysFile]),
        create(keysFile, "acme"),
        create(keysFile, "acme"),
      ]);
      expect(revoked?.stdout).toBe(`revoked ${victimId}\n`);
      for (const c of created) expect(c.code, c.stderr).toBe(0);
      const keys = await list(keysFile);
      expect(keys.find((k) => k.key_id === victimId)?.revoked_at, `trial ${trial}`).not.toBeNull();
      for (const c of created) {
        const id = /created key (key_[0-9a-f]{16})/.exec(c.stderr)?.[1];
        expect(
          keys.some((k) => k.key_id === id && k.revoked_at === null),
          `trial ${trial}`,
        ).toBe(true);
      }
    }
    expect(await list(keysFile)).toHaveLength(18);
  }, 180_000);

  it("a lock left by a killed keys command (its pid is gone) is broken, not waited on forever", async () => {
    const keysFile = join(dir, "stale.json");
    // a pid that cannot be alive on this host
    await writeFile(
      `${keysFile}.lock`,
      `${JSON.stringify({ pid: 2 ** 22 + 12345, hostname: (await import("node:os")).hostname(), acquired_at: "2026-01-01T00:00:00Z" })}\n`,
    );
    const result = await create(keysFile, "acme");
    expect(result.code, result.stderr).toBe(0);
    expect(await list(keysFile)).toHaveLength(1);
  }, 60_000);
});

describe("a keys command that cannot write (a full disk)", () => {
  it("leaves no lock behind: the next keys command does not wait on it", async () => {
    const keysFile = join(dir, "full-disk.json");
    // RLIMIT_FSIZE 0: every write to a file fails with EFBIG, as on a full disk
    const failed = await runShell(
      `ulimit -f 0; exec "${process.execPath}" "${CLI}" keys create --workspace acme --plan free --keys "${keysFile}"`,
    );
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/EFBIG|file too large/i);
    expect(existsSync(`${keysFile}.lock`)).toBe(false);
    const started = Date.now();
    const next = await create(keysFile, "acme");
    expect(next.code, next.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(4_000);
  }, 60_000);
});

describe("plans of catalog keys create", () => {
  it("refuses a plan the shipped plans do not define, in one line with exit code 2, and writes nothing", async () => {
    const keysFile = join(dir, "plans-default.json");
    const result = await create(keysFile, "acme", "enterprise");
    expect(result.code).toBe(2);
    expect(isOneLine(result.stderr), result.stderr).toBe(true);
    expect(result.stderr).toMatch(/plan "enterprise" is not defined/);
    expect(result.stdout).toBe("");
    await expect(readFile(keysFile, "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("accepts a plan that the --plans file defines and refuses one it does not", async () => {
    const keysFile = join(dir, "plans-file.json");
    const plansFile = join(dir, "plans.json");
    await writeFile(
      plansFile,
      JSON.stringify({ plans: { enterprise: { monthly_quota: 5 }, anonymous: { monthly_quota: 1 } } }),
    );
    const ok = await create(keysFile, "acme", "enterprise", ["--plans", plansFile]);
    expect(ok.code, ok.stderr).toBe(0);
    const refused = await create(keysFile, "globex", "free", ["--plans", plansFile]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/plan "free" is not defined/);
    expect((await list(keysFile)).map((k) => k.plan)).toEqual(["enterprise"]);
  });

  it("moves an existing workspace to another plan only with --change-plan", async () => {
    const keysFile = join(dir, "change-plan.json");
    expect((await create(keysFile, "acme", "free")).code).toBe(0);
    const silent = await create(keysFile, "acme", "pro");
    expect(silent.code).toBe(2);
    expect(isOneLine(silent.stderr), silent.stderr).toBe(true);
    expect(silent.stderr).toMatch(/--change-plan/);
    expect((await list(keysFile)).map((k) => k.plan)).toEqual(["free"]);
    const moved = await create(keysFile, "acme", "pro", ["--change-plan"]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(/moved from plan free to pro/);
    expect((await list(keysFile)).map((k) => k.plan)).toEqual(["pro", "pro"]);
  });
});
