/**
 * Keys, plans and the monthly quota over real HTTP: exhaustion, the reset at the UTC month
 * boundary (injected clock), workspace sharing, the anonymous plan, the embedded store's
 * persistence across a restart, and the keys file life cycle.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createKey, listKeys, revokeKey, startServer } from "../../src/serve/index.js";
import { loadPlans } from "../../src/serve/plans.js";
import { persistsData, quotaPeriod } from "../../src/serve/quota.js";
import { dep } from "./support/fixture.js";
import {
  call,
  captureLogger,
  makeTempDir,
  settableClock,
  startTestServer,
  type TestServer,
} from "./support/harness.js";

const GPT4O = dep("gpt-4o").id;
const cleanup: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

async function plans(dir: string, quotas: Record<string, number>): Promise<string> {
  const file = join(dir, "plans.json");
  await writeFile(
    file,
    JSON.stringify({
      plans: Object.fromEntries(Object.entries(quotas).map(([n, q]) => [n, { monthly_quota: q }])),
    }),
  );
  return file;
}

async function server(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const t = await startTestServer(options);
  cleanup.push(() => t.stop());
  return t;
}

describe("quota periods", () => {
  it("is the UTC calendar month, resetting at the start of the next one", () => {
    expect(quotaPeriod(new Date("2026-11-30T23:59:50Z"))).toMatchObject({
      period: "2026-11",
      resetIso: "2026-12-01T00:00:00Z",
      secondsToReset: 10,
    });
    expect(quotaPeriod(new Date("2026-12-31T23:59:59.500Z"))).toMatchObject({
      period: "2026-12",
      resetIso: "2027-01-01T00:00:00Z",
      secondsToReset: 1,
    });
    // 2028-02-29 23:00 at +02:00 local is still February in UTC
    expect(quotaPeriod(new Date("2028-03-01T01:00:00+02:00")).period).toBe("2028-02");
  });
});

describe("whether a Redis persists its data", () => {
  it("is false only when AOF and RDB snapshots are both off, unknown when CONFIG is refused", () => {
    expect(persistsData({ appendonly: "no", save: "" })).toBe(false);
    expect(persistsData({ appendonly: "yes", save: "" })).toBe(true);
    expect(persistsData({ appendonly: "no", save: "3600 1 300 100" })).toBe(true);
    expect(persistsData({ appendonly: null, save: "" })).toBeNull();
    expect(persistsData({ appendonly: "no", save: null })).toBeNull();
  });
});

describe("monthly quota", () => {
  it("answers 429 with Retry-After when the anonymous quota is spent, and resets at the month boundary", async () => {
    const dir = await makeTempDir();
    const clock = settableClock("2026-11-30T23:59:50Z");
    const t = await server({ dir, clock, plansFile: await plans(dir, { anonymous: 3 }) });
    const first = await t.get("/v1/deployments?limit=1");
    expect(first.headers["x-ratelimit-limit"]).toBe("3");
    expect(first.headers["x-ratelimit-remaining"]).toBe("2");
    expect(first.headers["x-ratelimit-reset"]).toBe("2026-12-01T00:00:00Z");
    expect((await t.get("/v1/lifecycle")).headers["x-ratelimit-remaining"]).toBe("1");
    // errors are requests too: they count
    expect((await t.get("/v1/nowhere")).headers["x-ratelimit-remaining"]).toBe("0");

    const spent = await t.get("/v1/deployments?limit=1");
    expect(spent.status).toBe(429);
    expect(spent.headers["content-type"]).toBe("application/problem+json");
    expect(spent.json()).toMatchObject({ code: "quota_exhausted", status: 429 });
    expect(spent.headers["retry-after"]).toBe("10");
    expect(spent.headers["x-ratelimit-remaining"]).toBe("0");
    expect(spent.headers["x-ratelimit-limit"]).toBe("3");
    expect(spent.headers["x-ratelimit-reset"]).toBe("2026-12-01T00:00:00Z");
    expect(spent.headers["cache-control"]).toBe("no-store");
    expect(spent.headers["x-request-id"]).toBe(spent.json().request_id);
    expect((await t.head("/v1/lifecycle")).status).toBe(429);

    // a revalidation is still answered: a 304 consumes no quota
    const revalidated = await t.get("/v1/deployments?limit=1", {
      "if-none-match": first.headers.etag as string,
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers["x-ratelimit-remaining"]).toBe("0");

    clock.set("2026-12-01T00:00:00Z");
    const fresh = await t.get("/v1/deployments?limit=1");
    expect(fresh.status).toBe(200);
    expect(fresh.headers["x-ratelimit-remaining"]).toBe("2");
    expect(fresh.headers["x-ratelimit-reset"]).toBe("2027-01-01T00:00:00Z");
  });

  it("counts per workspace: every key of a workspace shares one quota; other callers have their own", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    const one = await createKey(keysFile, "acme", "free");
    const two = await createKey(keysFile, "acme", "free");
    const other = await createKey(keysFile, "globex", "free");
    const t = await server({ dir, keysFile, plansFile: await plans(dir, { free: 3, anonymous: 5 }) });
    const as = (key: string) => ({ authorization: `Bearer ${key}` });
    expect((await t.get("/v1/deployments", as(one.key))).headers["x-ratelimit-remaining"]).toBe("2");
    expect((await t.get("/v1/deployments", as(two.key))).headers["x-ratelimit-remaining"]).toBe("1");
    const compare = await t.post(
      "/v1/deployments/compare",
      { deployment_ids: [GPT4O], usage: {} },
      as(one.key),
    );
    expect(compare.status).toBe(200);
    expect(compare.headers["x-ratelimit-remaining"]).toBe("0");
    const spent = await t.post(
      "/v1/deployments/compare",
      { deployment_ids: [GPT4O], usage: {} },
      as(two.key),
    );
    expect(spent.status).toBe(429);
    expect(Number(spent.headers["retry-after"])).toBeGreaterThan(0);

    const globex = await t.get("/v1/deployments", as(other.key));
    expect(globex.status).toBe(200);
    expect(globex.headers["x-ratelimit-remaining"]).toBe("2");
    const anonymous = await t.get("/v1/deployments");
    expect(anonymous.headers["x-ratelimit-limit"]).toBe("5");
    expect(anonymous.headers["x-ratelimit-remaining"]).toBe("4");
  });

  it("ships default plans for a server of one's own: anonymous 10000, free 10000, pro 100000", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    const free = await createKey(keysFile, "small", "free");
    const pro = await createKey(keysFile, "large", "pro");
    const t = await server({ dir, keysFile });
    expect((await t.get("/v1/lifecycle")).headers["x-ratelimit-limit"]).toBe("10000");
    expect(
      (await t.get("/v1/lifecycle", { authorization: `Bearer ${free.key}` })).headers["x-ratelimit-limit"],
    ).toBe("10000");
    expect(
      (await t.get("/v1/lifecycle", { authorization: `Bearer ${pro.key}` })).headers["x-ratelimit-limit"],
    ).toBe("100000");
  });

  it("ships plans for a public server in config/plans.production.json: anonymous 100, free 1000, pro 100000", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    const free = await createKey(keysFile, "small", "free");
    const plansFile = join(import.meta.dirname, "..", "..", "config", "plans.production.json");
    const t = await server({ dir, keysFile, plansFile });
    expect((await t.get("/v1/lifecycle")).headers["x-ratelimit-limit"]).toBe("100");
    expect(
      (await t.get("/v1/lifecycle", { authorization: `Bearer ${free.key}` })).headers["x-ratelimit-limit"],
    ).toBe("1000");
    expect((await loadPlans(plansFile)).plans.pro?.monthly_quota).toBe(100_000);
  });

  it("rejects a key whose plan the plans file does not define", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    const { key } = await createKey(keysFile, "acme", "enterprise");
    const t = await server({ dir, keysFile });
    const answer = await t.get("/v1/deployments", { authorization: `Bearer ${key}` });
    expect(answer.status).toBe(401);
    expect(answer.json().code).toBe("unauthorized");
  });

  it("refuses to start with a plans file that lacks the anonymous plan", async () => {
    const dir = await makeTempDir();
    await expect(startTestServer({ dir, plansFile: await plans(dir, { free: 10 }) })).rejects.toThrow(
      /anonymous/,
    );
  });

  it("keeps the counters of the embedded store across a restart", async () => {
    const dir = await makeTempDir();
    const plansFile = await plans(dir, { anonymous: 10 });
    const clock = settableClock("2026-11-15T00:00:00Z");
    const quotaFile = join(dir, "state", "quota.json");
    const first = await startTestServer({ dir, plansFile, clock, quotaFile });
    await first.get("/v1/deployments");
    await first.get("/v1/lifecycle");
    expect((await first.get("/v1/lifecycle/events")).headers["x-ratelimit-remaining"]).toBe("7");
    await first.server.close();
    const stored = JSON.parse(await readFile(quotaFile, "utf8"));
    expect(stored).toEqual({ version: 1, counters: { "anon:127.0.0.1|2026-11": 3 } });

    const second = await server({ dir, plansFile, clock, quotaFile });
    expect((await second.get("/v1/deployments")).headers["x-ratelimit-remaining"]).toBe("6");
  });

  it("writes the store in the background without waiting for close", async () => {
    const dir = await makeTempDir();
    const quotaFile = join(dir, "quota.json");
    const t = await server({ dir, quotaFile, clock: settableClock("2026-11-15T00:00:00Z") });
    await t.get("/v1/deployments");
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(JSON.parse(await readFile(quotaFile, "utf8")).counters).toEqual({ "anon:127.0.0.1|2026-11": 1 });
  });
});

describe("keys", () => {
  it("creates keys with the cat_live_ prefix, stores only hashes, lists and revokes them", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    const created = await createKey(keysFile, "acme", "free");
    expect(created.key).toMatch(/^cat_live_[A-Za-z0-9_-]{43}$/);
    expect(created.keyId).toMatch(/^key_[0-9a-f]{16}$/);
    const text = await readFile(keysFile, "utf8");
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(created.key.slice(9));
    // a workspace has one plan: moving it takes an explicit changePlan
    await expect(createKey(keysFile, "acme", "pro")).rejects.toThrow(/--change-plan/);
    const second = await createKey(keysFile, "acme", "pro", { changePlan: true });
    expect(second.previousPlan).toBe("free");
    const listed = await listKeys(keysFile);
    // the newest key moved acme to pro
    expect(listed).toEqual([
      {
        key_id: created.keyId,
        workspace: "acme",
        plan: "pro",
        created_at: expect.any(String),
        revoked_at: null,
      },
      {
        key_id: second.keyId,
        workspace: "acme",
        plan: "pro",
        created_at: expect.any(String),
        revoked_at: null,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(await revokeKey(keysFile, created.keyId)).toBe(true);
    expect(await revokeKey(keysFile, created.keyId)).toBe(false);
    expect(await revokeKey(keysFile, "key_0000000000000000")).toBe(false);
    expect((await listKeys(keysFile))[0]?.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    await expect(createKey(keysFile, "bad workspace", "free")).rejects.toThrow(/workspace/);
    expect(await listKeys(join(dir, "absent.json"))).toEqual([]);
  });

  it("a running server accepts a new key at once and stops accepting a revoked key", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    await createKey(keysFile, "seed", "free");
    const t = await server({ dir, keysFile });
    const { key, keyId } = await createKey(keysFile, "late", "pro");
    const answer = await t.get("/v1/deployments", { authorization: `Bearer ${key}` });
    expect(answer.status).toBe(200);
    expect(answer.headers["x-ratelimit-limit"]).toBe("100000");
    await revokeKey(keysFile, keyId);
    const deadline = Date.now() + 5000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await t.get("/v1/deployments?limit=1", { authorization: `Bearer ${key}` })).status;
    }
    expect(status).toBe(401);
  });

  it("reload() re-reads the keys and plans files", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    const plansFile = await plans(dir, { anonymous: 5 });
    const t = await server({ dir, keysFile, plansFile });
    expect((await t.get("/v1/lifecycle")).headers["x-ratelimit-limit"]).toBe("5");
    await plans(dir, { anonymous: 50 });
    await t.server.reload();
    expect((await t.get("/v1/lifecycle")).headers["x-ratelimit-limit"]).toBe("50");
  });

  it("refuses to start on an invalid keys file", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    await writeFile(keysFile, "{not json");
    await expect(startTestServer({ dir, keysFile })).rejects.toThrow(/keys file/);
    await rm(keysFile);
  });
});

describe("the quota store file", () => {
  it("refuses to start on a corrupt quota file rather than resetting counters", async () => {
    const dir = await makeTempDir();
    const quotaFile = join(dir, "quota.json");
    await writeFile(quotaFile, '{"version":1,"counters":{"x|2026-11":-4}}');
    await expect(startTestServer({ dir, quotaFile })).rejects.toThrow(/quota file/);
  });

  it("logs the listening line once with url and release", async () => {
    const dir = await makeTempDir();
    const log = captureLogger();
    const t = await startTestServer({ dir });
    await t.stop();
    const { publishFixture } = await import("./support/fixture.js");
    const snapshotsDir = join(dir, "again");
    const releaseId = await publishFixture(snapshotsDir);
    const running = await startServer({
      snapshotsDir,
      host: "127.0.0.1",
      port: 0,
      watchLatest: false,
      logger: log.logger,
      quotaFile: join(dir, "q2.json"),
    });
    cleanup.push(() => running.close());
    const listening = log.lines().filter((l) => l.msg === "listening");
    expect(listening).toHaveLength(1);
    expect(listening[0]).toMatchObject({ url: running.url, release: releaseId });
    expect((await call(running.url, "GET", "/readyz")).status).toBe(200);
  });
});

describe("the anonymous quota behind a proxy", () => {
  const forwarded = (t: TestServer, from: string) =>
    t.get("/v1/deployments?limit=1", { "x-forwarded-for": from });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const dir = await makeTempDir();
    const t = await server({ dir, plansFile: await plans(dir, { anonymous: 10 }) });
    expect((await forwarded(t, "203.0.113.7")).headers["x-ratelimit-remaining"]).toBe("9");
    expect((await forwarded(t, "198.51.100.9")).headers["x-ratelimit-remaining"]).toBe("8");
  });

  it("counts each forwarded client on its own when the peer is a trusted proxy, trusting only the rightmost untrusted hop", async () => {
    const dir = await makeTempDir();
    const t = await server({
      dir,
      plansFile: await plans(dir, { anonymous: 10 }),
      trustedProxies: ["127.0.0.1", "10.0.0.2"],
    });
    expect((await forwarded(t, "203.0.113.7")).headers["x-ratelimit-remaining"]).toBe("9");
    expect((await forwarded(t, "203.0.113.7")).headers["x-ratelimit-remaining"]).toBe("8");
    expect((await forwarded(t, "198.51.100.9")).headers["x-ratelimit-remaining"]).toBe("9");
    // A client cannot pick its own identity: the hop the proxies saw is what counts.
    expect((await forwarded(t, "1.2.3.4, 203.0.113.7, 10.0.0.2")).headers["x-ratelimit-remaining"]).toBe("7");
    // No header: the proxy itself.
    expect((await t.get("/v1/deployments?limit=1")).headers["x-ratelimit-remaining"]).toBe("9");
  });

  it("refuses a trusted proxy that is not an IP address", async () => {
    const dir = await makeTempDir();
    await expect(server({ dir, trustedProxies: ["lb.internal"] })).rejects.toMatchObject({
      code: "invalid_argument",
    });
  });
});
