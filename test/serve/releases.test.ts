/**
 * Release handling of the server: refusing a missing or damaged release, a pinned release,
 * switching releases (reload and a changed LATEST) under concurrent load without a mixed or
 * failed answer, graceful shutdown that finishes in-flight requests, and start-up time.
 */
import { readdir, rename, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { CatalogError } from "../../src/lib/errors.js";
import { readManifest } from "../../src/release/artifact.js";
import type { Deployment, LifecycleRecord } from "../../src/schema/index.js";
import { startServer } from "../../src/serve/index.js";
import { DEPLOYMENTS, dep, fixtureCatalog, publishFixture } from "./support/fixture.js";
import {
  call,
  captureLogger,
  makeTempDir,
  serverOptions,
  startTestServer,
  type TestServer,
} from "./support/harness.js";

const GPT4O = dep("gpt-4o").id;
const cleanup: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

async function server(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const t = await startTestServer(options);
  cleanup.push(() => t.stop());
  return t;
}

/** The fixture with gpt-4o's input price changed: a second, different release. */
function repricedCatalog(inputMicroUsd: number) {
  const deployments = DEPLOYMENTS.map((d) =>
    d.id === GPT4O && d.rate_card
      ? { ...d, rate_card: { ...d.rate_card, input_micro_usd: inputMicroUsd } }
      : d,
  );
  return fixtureCatalog({ deployments });
}

async function setLatest(snapshotsDir: string, releaseId: string): Promise<void> {
  const tmp = join(snapshotsDir, `.tmp-latest-${Math.random().toString(16).slice(2)}`);
  await writeFile(tmp, `${releaseId}\n`);
  await rename(tmp, join(snapshotsDir, "LATEST"));
}

const options = serverOptions;

describe("start-up", () => {
  it("refuses to start without a published release", async () => {
    const dir = await makeTempDir();
    const error = await startServer(options(join(dir, "empty"), dir)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).code).toBe("release_not_found");
    expect((error as CatalogError).message).toMatch(/no release published/);
  });

  it("refuses an unknown pinned release id", async () => {
    const dir = await makeTempDir();
    const snapshotsDir = join(dir, "snapshots");
    await publishFixture(snapshotsDir);
    const error = await startServer({
      ...options(snapshotsDir, dir),
      releaseId: `rel_${"0".repeat(64)}`,
    }).catch((e: unknown) => e);
    expect((error as CatalogError).code).toBe("release_not_found");
  });

  it("refuses a release whose files do not match their hashes", async () => {
    const dir = await makeTempDir();
    const snapshotsDir = join(dir, "snapshots");
    const releaseId = await publishFixture(snapshotsDir);
    const manifest = await readManifest(snapshotsDir, releaseId);
    const object = join(snapshotsDir, "objects", manifest.files["catalog.json"]?.sha256 as string);
    await writeFile(object, '{"deployments":[],"lifecycle":[],"events":[],"sources":[]}');
    const error = await startServer(options(snapshotsDir, dir)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).code).toBe("release_damaged");
    expect((error as CatalogError).message).toContain(releaseId);
  });

  it("refuses a release with a missing object", async () => {
    const dir = await makeTempDir();
    const snapshotsDir = join(dir, "snapshots");
    await publishFixture(snapshotsDir);
    for (const name of await readdir(join(snapshotsDir, "objects")))
      await rm(join(snapshotsDir, "objects", name));
    const error = await startServer(options(snapshotsDir, dir)).catch((e: unknown) => e);
    expect((error as CatalogError).code).toBe("release_damaged");
  });

  it("loads, verifies and indexes 1,000 deployments well under a second", async () => {
    const dir = await makeTempDir();
    const snapshotsDir = join(dir, "snapshots");
    const base = dep("gpt-4o");
    const deployments: Deployment[] = [];
    const lifecycle: LifecycleRecord[] = [];
    for (let i = 0; i < 1000; i++) {
      const name = `m-${String(i).padStart(4, "0")}`;
      const d = {
        ...base,
        id: `dep_openai_${name}_api_global`,
        model_id: `openai/${name}`,
        provider_model_id: name,
      };
      deployments.push(d);
      lifecycle.push({
        resource_type: "deployment",
        resource_id: d.id,
        provider_id: "openai",
        model_id: d.model_id,
        lifecycle: d.lifecycle,
      });
    }
    await publishFixture(snapshotsDir, fixtureCatalog({ deployments, lifecycle }));
    const started = performance.now();
    const running = await startServer(options(snapshotsDir, dir));
    const elapsed = performance.now() - started;
    cleanup.push(() => running.close());
    expect(elapsed).toBeLessThan(1000);
    const page = await call(running.url, "GET", "/v1/deployments?limit=500&offset=900");
    expect(page.json().meta).toEqual({ total: 1000, limit: 500, offset: 900, has_more: false });
  });
});

describe("release switching", () => {
  it("serves a pinned release even when LATEST moves, and reload() keeps it", async () => {
    const dir = await makeTempDir();
    const snapshotsDir = join(dir, "snapshots");
    const first = await publishFixture(snapshotsDir);
    const t = await server({ dir, snapshotsDir, releaseId: first });
    await publishFixture(snapshotsDir, repricedCatalog(1), first);
    expect(await t.server.reload()).toBe(first);
    expect((await t.get("/v1/deployments")).headers["x-svc-catalog-release"]).toBe(first);
  });

  it("reload() switches to the new LATEST; the ETag changes with the release", async () => {
    const dir = await makeTempDir();
    const t = await server({ dir });
    const before = await t.get(`/v1/deployments/${GPT4O}`);
    const next = await publishFixture(t.snapshotsDir, repricedCatalog(2_000_000), t.releaseId);
    expect(next).not.toBe(t.releaseId);
    expect(await t.server.reload()).toBe(next);
    expect(t.server.releaseId()).toBe(next);
    const after = await t.get(`/v1/deployments/${GPT4O}`, { "if-none-match": before.headers.etag as string });
    expect(after.status).toBe(200);
    expect(after.headers["x-svc-catalog-release"]).toBe(next);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().rate_card.input_micro_usd).toBe(2_000_000);
  });

  it("a failed reload keeps serving the previous release", async () => {
    const dir = await makeTempDir();
    const t = await server({ dir });
    await setLatest(t.snapshotsDir, `rel_${"f".repeat(64)}`);
    await expect(t.server.reload()).rejects.toMatchObject({ code: "release_not_found" });
    const answer = await t.get("/v1/deployments?limit=1");
    expect(answer.status).toBe(200);
    expect(answer.headers["x-svc-catalog-release"]).toBe(t.releaseId);
  });

  it("a reload (SIGHUP) refuses a damaged new release and keeps serving the previous one", async () => {
    const dir = await makeTempDir();
    const t = await server({ dir });
    const next = await publishFixture(t.snapshotsDir, repricedCatalog(4_000_000), t.releaseId);
    const sha = (await readManifest(t.snapshotsDir, next)).files["catalog.json"]?.sha256 as string;
    await writeFile(join(t.snapshotsDir, "objects", sha), "{}");
    await expect(t.server.reload()).rejects.toMatchObject({ code: "release_damaged" });
    const answer = await t.get("/v1/deployments?limit=1");
    expect(answer.status).toBe(200);
    expect(answer.headers["x-svc-catalog-release"]).toBe(t.releaseId);
  });

  it("a reload (SIGHUP) of the same release hashes its files again: a file damaged since start-up is reported", async () => {
    const dir = await makeTempDir();
    const t = await server({ dir });
    expect(await t.server.reload()).toBe(t.releaseId);
    const manifest = await readManifest(t.snapshotsDir, t.releaseId);
    const sha = manifest.files["serve-index.json"]?.sha256 as string;
    await writeFile(join(t.snapshotsDir, "objects", sha), "{}");
    await expect(t.server.reload()).rejects.toMatchObject({ code: "release_damaged" });
  });

  it("follows a changed LATEST when watching, and ignores a damaged one", async () => {
    const dir = await makeTempDir();
    const t = await server({ dir, watchLatest: true, watchIntervalMs: 50 });
    const next = await publishFixture(t.snapshotsDir, repricedCatalog(3_000_000), t.releaseId);
    const deadline = Date.now() + 3000;
    while (t.server.releaseId() !== next && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(t.server.releaseId()).toBe(next);
    expect((await t.get("/readyz")).json().release).toBe(next);

    await setLatest(t.snapshotsDir, `rel_${"e".repeat(64)}`);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.server.releaseId()).toBe(next);
    expect(
      t.log
        .lines()
        .some((l) =>
          String(l.msg).startsWith("cannot switch to the new LATEST yet; still serving the previous release"),
        ),
    ).toBe(true);
  });

  it("never mixes two releases in one answer, and no request fails, while switching under load", async () => {
    const dir = await makeTempDir();
    const plansFile = join(dir, "plans.json");
    await writeFile(plansFile, JSON.stringify({ plans: { anonymous: { monthly_quota: 1_000_000 } } }));
    const t = await server({ dir, plansFile });
    const a = t.releaseId;
    const b = await publishFixture(t.snapshotsDir, repricedCatalog(9_999_999), a);
    await setLatest(t.snapshotsDir, a);

    // the expected bytes of each answer in each release
    const paths = ["/v1/deployments", `/v1/deployments/${GPT4O}`, "/v1/lifecycle?limit=5"];
    const expected = new Map<string, { body: Buffer; etag: string }>();
    for (const release of [a, b]) {
      await setLatest(t.snapshotsDir, release);
      expect(await t.server.reload()).toBe(release);
      for (const path of paths) {
        const answer = await t.get(path);
        expected.set(`${release} ${path}`, { body: answer.body, etag: answer.headers.etag as string });
      }
    }
    expect(
      expected.get(`${a} /v1/deployments`)?.body.equals(expected.get(`${b} /v1/deployments`)?.body as Buffer),
    ).toBe(false);

    let stop = false;
    let answered = 0;
    const seen = new Set<string>();
    const worker = async (n: number) => {
      while (!stop) {
        const path = paths[(answered + n) % paths.length] as string;
        const answer = await t.get(path);
        answered++;
        expect(answer.status).toBe(200);
        const release = answer.headers["x-svc-catalog-release"] as string;
        seen.add(release);
        const want = expected.get(`${release} ${path}`);
        expect(want, release).toBeDefined();
        expect(answer.headers.etag).toBe(want?.etag);
        expect(answer.body.equals(want?.body as Buffer)).toBe(true);
      }
    };
    const workers = Array.from({ length: 16 }, (_, n) => worker(n));
    for (let i = 0; i < 12; i++) {
      const release = i % 2 === 0 ? a : b;
      await setLatest(t.snapshotsDir, release);
      expect(await t.server.reload()).toBe(release);
      await new Promise((r) => setTimeout(r, 40));
    }
    stop = true;
    await Promise.all(workers);
    expect(seen).toEqual(new Set([a, b]));
    expect(answered).toBeGreaterThan(100);
  });
});

describe("graceful shutdown", () => {
  it("finishes an in-flight request, then stops accepting connections", async () => {
    const dir = await makeTempDir();
    const { createKey } = await import("../../src/serve/index.js");
    const keysFile = join(dir, "keys.json");
    const { key } = await createKey(keysFile, "acme", "pro");
    const snapshotsDir = join(dir, "snapshots");
    await publishFixture(snapshotsDir);
    const log = captureLogger();
    const running = await startServer({ ...options(snapshotsDir, dir), keysFile, logger: log.logger });
    const url = new URL(running.url);

    // a compare whose body arrives in two parts, with close() called in between
    const body = JSON.stringify({ deployment_ids: [GPT4O], usage: { input_tokens: 1000 } });
    let requestStarted!: () => void;
    const started = new Promise<void>((resolve) => (requestStarted = resolve));
    const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: "POST",
          path: "/v1/deployments/compare",
          agent: false,
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            "content-length": body.length,
          },
        },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10), () => requestStarted());
      setTimeout(() => req.end(body.slice(10)), 300);
    });
    await started;
    await new Promise((r) => setTimeout(r, 50));
    const closed = running.close();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).data[0].pricing.total_usd).toBe("0.002500");
    await closed;
    await expect(call(running.url, "GET", "/healthz", { agent: false })).rejects.toThrow(/ECONNREFUSED/);
    expect(log.lines().some((l) => l.msg === "server closed")).toBe(true);
  });
});
