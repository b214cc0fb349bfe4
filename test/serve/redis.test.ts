/**
 * The Redis quota store against a real redis-server on a random port: two server processes
 * share one workspace quota; an unreachable Redis stops start-up; a Redis that goes away
 * answers 503 `unavailable` instead of letting requests through uncounted; a frozen Redis
 * (SIGSTOP) answers 503 within about a second and /readyz is not ready until it answers again;
 * a Redis that persists nothing is warned about at start-up.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/serve/index.js";
import { quotaPeriod } from "../../src/serve/quota.js";
import { publishFixture } from "./support/fixture.js";
import { call, makeTempDir, startTestServer } from "./support/harness.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const REGISTER = pathToFileURL(join(HERE, "..", "release", "support", "register.mjs")).href;
const CHILD = join(HERE, "support", "serve-child.ts");

const redisBinary = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim();
if (!redisBinary)
  console.warn("redis.test.ts: SKIPPED - redis-server is not installed (.ci/run installs it with apt-get)");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startRedis(fixedPort?: number): Promise<{ url: string; proc: ChildProcess; client: Redis }> {
  const port = fixedPort ?? (await freePort());
  // its own directory: a test that turns AOF on must not write into the working tree
  const dataDir = await makeTempDir("redis-test-");
  const proc = spawn(
    redisBinary,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dataDir],
    {
      stdio: "ignore",
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on("error", () => {}); // connection attempts before the server listens are expected to fail
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      await client.connect();
      await client.ping();
      return { url, proc, client };
    } catch (error) {
      client.disconnect();
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function spawnServer(args: string[]): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ["--import", REGISTER, CHILD, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    proc.stdout?.on("data", (chunk) => {
      out += chunk;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve({ url: (JSON.parse(line) as { url: string }).url, proc });
    });
    proc.stderr?.on("data", (chunk) => (err += chunk));
    proc.once("exit", (code) => reject(new Error(`server child exited with ${code}: ${err}`)));
  });
}

async function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill("SIGTERM");
  await exited;
}

describe.skipIf(!redisBinary)("Redis quota store", () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let dir: string;
  let snapshotsDir: string;
  let keysFile: string;
  let plansFile: string;

  beforeAll(async () => {
    redis = await startRedis();
    dir = await makeTempDir();
    snapshotsDir = join(dir, "snapshots");
    await publishFixture(snapshotsDir);
    keysFile = join(dir, "keys.json");
    plansFile = join(dir, "plans.json");
    await writeFile(
      plansFile,
      JSON.stringify({ plans: { team: { monthly_quota: 10 }, anonymous: { monthly_quota: 4 } } }),
    );
  });

  afterAll(async () => {
    redis?.client.disconnect();
    if (redis?.proc.exitCode === null) {
      const exited = new Promise((resolve) => redis.proc.once("exit", resolve));
      redis.proc.kill("SIGTERM");
      await exited;
    }
  });

  it("two server processes share one workspace quota and the anonymous quota of an address", async () => {
    const { key } = await createKey(keysFile, "pooled", "team");
    const [one, two] = await Promise.all([
      spawnServer([snapshotsDir, keysFile, plansFile, redis.url]),
      spawnServer([snapshotsDir, keysFile, plansFile, redis.url]),
    ]);
    try {
      const auth = { authorization: `Bearer ${key}` };
      const remaining: string[] = [];
      for (let i = 0; i < 10; i++) {
        const target = i % 2 === 0 ? one : two;
        const answer = await call(target.url, "GET", "/v1/deployments?limit=1", { headers: auth });
        expect(answer.status).toBe(200);
        remaining.push(answer.headers["x-ratelimit-remaining"] as string);
      }
      expect(remaining).toEqual(["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]);
      for (const target of [one, two]) {
        const spent = await call(target.url, "GET", "/v1/lifecycle", { headers: auth });
        expect(spent.status).toBe(429);
        expect(spent.json().code).toBe("quota_exhausted");
        expect(Number(spent.headers["retry-after"])).toBeGreaterThan(0);
      }
      const period = quotaPeriod(new Date()).period;
      // the two 429 answers were not counted
      expect(await redis.client.get(`quota:pooled:${period}`)).toBe("10");
      const ttl = await redis.client.ttl(`quota:pooled:${period}`);
      expect(ttl).toBeGreaterThan(86_400);
      expect(ttl).toBeLessThanOrEqual(32 * 86_400);

      // anonymous callers of one address share the anonymous plan across processes
      const anonymous = [];
      for (const target of [one, two, one, two, one])
        anonymous.push((await call(target.url, "GET", "/v1/lifecycle")).status);
      expect(anonymous).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await Promise.all([stopChild(one.proc), stopChild(two.proc)]);
    }
  });

  it("refuses to start when Redis cannot be reached", async () => {
    const port = await freePort();
    const t = startTestServer({ dir: await makeTempDir(), redisUrl: `redis://127.0.0.1:${port}` });
    await expect(t).rejects.toThrow(/cannot reach Redis/);
  });

  it("warns once at start-up when the Redis persists nothing (no AOF, no RDB snapshots)", async () => {
    const t = await startTestServer({ dir: await makeTempDir(), redisUrl: redis.url });
    try {
      const warnings = t.log.lines().filter((l) => /persists nothing/.test(String(l.msg)));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.level).toBe(40);
      // with AOF on, the same Redis persists: no warning
      await redis.client.config("SET", "appendonly", "yes");
      const persisted = await startTestServer({ dir: await makeTempDir(), redisUrl: redis.url });
      try {
        expect(persisted.log.lines().filter((l) => /persists nothing/.test(String(l.msg)))).toEqual([]);
      } finally {
        await persisted.stop();
      }
    } finally {
      await redis.client.config("SET", "appendonly", "no");
      await t.stop();
    }
  });

  it("answers 503 within about a second while Redis is frozen (SIGSTOP), /readyz not ready until it answers again", async () => {
    const own = await startRedis();
    const t = await startTestServer({ dir: await makeTempDir(), redisUrl: own.url });
    try {
      expect((await t.get("/v1/deployments?limit=1")).status).toBe(200);
      expect((await t.get("/readyz")).status).toBe(200);
      own.proc.kill("SIGSTOP");
      const frozenUntil = Date.now() + 4000;
      const took: number[] = [];
      const statuses: number[] = [];
      while (Date.now() < frozenUntil - 1500) {
        const started = Date.now();
        const answer = await t.get("/v1/deployments?limit=1");
        took.push(Date.now() - started);
        statuses.push(answer.status);
        expect(answer.json().code).toBe("unavailable");
        expect(answer.headers["retry-after"]).toBe("1");
      }
      expect(new Set(statuses)).toEqual(new Set([503]));
      expect(Math.max(...took)).toBeLessThan(1500);
      const ready = await t.get("/readyz");
      expect(ready.status).toBe(503);
      expect(ready.json().code).toBe("unavailable");
      expect(ready.json().detail).toMatch(/Redis/);
      await new Promise((r) => setTimeout(r, Math.max(0, frozenUntil - Date.now())));
      own.proc.kill("SIGCONT");
      const deadline = Date.now() + 5000;
      let readyStatus = 503;
      while (readyStatus !== 200 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        readyStatus = (await t.get("/readyz")).status;
      }
      expect(readyStatus).toBe(200);
      expect((await t.get("/v1/deployments?limit=1")).status).toBe(200);
      expect(t.log.lines().filter((l) => l.msg === "the Redis quota store is not answering")).toHaveLength(1);
    } finally {
      own.proc.kill("SIGCONT");
      await t.stop();
      own.client.disconnect();
      const exited = new Promise((resolve) => own.proc.once("exit", resolve));
      own.proc.kill("SIGTERM");
      await exited;
    }
  });

  it("answers 503 unavailable when Redis goes away, and recovers when it returns", async () => {
    const own = await startRedis();
    const t = await startTestServer({ dir: await makeTempDir(), redisUrl: own.url });
    try {
      expect((await t.get("/v1/deployments?limit=1")).status).toBe(200);
      own.client.disconnect();
      const exited = new Promise((resolve) => own.proc.once("exit", resolve));
      own.proc.kill("SIGTERM");
      await exited;
      const answer = await t.get("/v1/deployments?limit=1");
      expect(answer.status).toBe(503);
      expect(answer.json().code).toBe("unavailable");
      expect(answer.headers["retry-after"]).toBe("1");
      expect(answer.text).not.toMatch(/ECONNREFUSED|stack/);

      const again = await startRedis(Number(new URL(own.url).port));
      try {
        const deadline = Date.now() + 5000;
        let status = 503;
        while (status !== 200 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          status = (await t.get("/v1/deployments?limit=1")).status;
        }
        expect(status).toBe(200);
      } finally {
        again.client.disconnect();
        const stopped = new Promise((resolve) => again.proc.once("exit", resolve));
        again.proc.kill("SIGTERM");
        await stopped;
      }
    } finally {
      await t.stop();
    }
  });
});
