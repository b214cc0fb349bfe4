/**
 * Abuse and fault cases of the server's shared mechanisms: a LATEST whose objects arrive
 * late, 429s that do not count, reserved names, overflowing dates and malformed
 * percent-encoding, slow and vanishing clients, a request without Host, and the bounds of
 * the response cache and of the anonymous counters.
 */
import { cp, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/serve/index.js";
import { FileQuotaStore, quotaPeriod } from "../../src/serve/quota.js";
import { DEPLOYMENTS, dep, fixtureCatalog, publishFixture } from "./support/fixture.js";
import { captureLogger, makeTempDir, startTestServer, type TestServer } from "./support/harness.js";

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of cleanup) await stop();
});

async function server(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const t = await startTestServer(options);
  cleanup.push(() => t.stop());
  return t;
}

/** Sends raw bytes, resolves with everything the server sent until it closed (or `waitMs`). */
function raw(url: string, chunks: string[], waitMs = 5_000): Promise<{ text: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    let text = "";
    socket.on("data", (c: Buffer) => (text += c.toString()));
    socket.on("error", reject);
    socket.on("close", () => resolve({ text, ms: Date.now() - started }));
    setTimeout(() => socket.destroy(), waitMs).unref();
  });
}

/** A problem written by the HTTP layer (before any route), with its code like every other. */
function problemOf(
  text: string,
  code: string,
): { type: string; title: string; status: number; detail: string; code: string } {
  expect(text).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/i);
  const problem = JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4));
  expect(problem.code).toBe(code);
  expect(problem.type).toBe(`urn:catalog:problem:${code}`);
  expect(problem.request_id).toMatch(/^req_/);
  return problem;
}

describe("the LATEST watcher", () => {
  it("switches to a LATEST whose release arrives after LATEST was written", async () => {
    const dir = await makeTempDir();
    const t = await server({ dir, watchLatest: true, watchIntervalMs: 50 });
    // the next release, published elsewhere and synced in the wrong order: LATEST first
    const staging = join(dir, "staging");
    await cp(t.snapshotsDir, staging, { recursive: true });
    const next = await publishFixture(
      staging,
      fixtureCatalog({ deployments: DEPLOYMENTS.slice(1) }),
      t.releaseId,
    );
    await writeFile(join(t.snapshotsDir, ".tmp-latest"), `${next}\n`);
    await rename(join(t.snapshotsDir, ".tmp-latest"), join(t.snapshotsDir, "LATEST"));
    await new Promise((r) => setTimeout(r, 400));
    expect(t.server.releaseId()).toBe(t.releaseId);
    // then the objects and the release directory arrive
    for (const name of await readdir(join(staging, "objects")))
      await cp(join(staging, "objects", name), join(t.snapshotsDir, "objects", name));
    await cp(join(staging, "releases", next), join(t.snapshotsDir, "releases", next), { recursive: true });
    const deadline = Date.now() + 5_000;
    while (t.server.releaseId() !== next && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25));
    expect(t.server.releaseId()).toBe(next);
    // the failure was logged once, not on every retry
    const failures = t.log.lines().filter((l) => String(l.msg).startsWith("cannot switch to the new LATEST"));
    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(failures.length).toBeLessThanOrEqual(2);
  });
});

describe("a malformed LATEST", () => {
  it("is logged once per distinct content, not on every check", async () => {
    const t = await server({ watchLatest: true, watchIntervalMs: 20 });
    const logged = () => t.log.lines().filter((l) => String(l.msg).startsWith("cannot read LATEST")).length;
    // replaced in one rename, as a sync or a build does (a watcher never reads half a file)
    const setLatest = async (text: string) => {
      await writeFile(join(t.snapshotsDir, "LATEST.tmp"), text);
      await rename(join(t.snapshotsDir, "LATEST.tmp"), join(t.snapshotsDir, "LATEST"));
    };
    await setLatest("not a release id\n");
    await new Promise((r) => setTimeout(r, 300));
    expect(logged()).toBe(1);
    await setLatest("still not one\n");
    await new Promise((r) => setTimeout(r, 300));
    expect(logged()).toBe(2);
    // repaired, then broken the same way again: a new episode is logged again
    await setLatest(`${t.releaseId}\n`);
    await new Promise((r) => setTimeout(r, 100));
    await setLatest("still not one\n");
    await new Promise((r) => setTimeout(r, 300));
    expect(logged()).toBe(3);
    expect((await t.get("/v1/deployments?limit=1")).headers["x-svc-catalog-release"]).toBe(t.releaseId);
  });
});

describe("quota", () => {
  it("does not count 429 answers", async () => {
    const dir = await makeTempDir();
    const plansFile = join(dir, "plans.json");
    await writeFile(plansFile, JSON.stringify({ plans: { anonymous: { monthly_quota: 2 } } }));
    const t = await startTestServer({ dir, plansFile });
    for (let i = 0; i < 2; i++) expect((await t.get("/v1/lifecycle?limit=1")).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await t.get("/v1/lifecycle?limit=1")).status).toBe(429);
    await t.server.close(); // flushes the quota file
    const counters = JSON.parse(await readFile(join(dir, "quota.json"), "utf8")).counters;
    expect(counters[`anon:127.0.0.1|${quotaPeriod(new Date()).period}`]).toBe(2);
  });

  it("keeps at most maxAnonymous per-address counters, dropping the least recently seen, and counts active addresses exactly", async () => {
    const dir = await makeTempDir();
    const store = await FileQuotaStore.open(join(dir, "quota.json"), captureLogger().logger, 10, 3);
    const period = quotaPeriod(new Date("2026-11-23T00:00:00Z"));
    await store.consume("acme", period, 100);
    for (let i = 0; i < 3; i++) await store.consume("anon:10.0.0.1", period, 100);
    for (let i = 1; i <= 50; i++) {
      await store.consume(`anon:192.0.2.${i}`, period, 100);
      // 10.0.0.1 stays active: it is never the least recently seen
      if (i % 2 === 0) await store.consume("anon:10.0.0.1", period, 100);
    }
    expect(store.anonymousCounters).toBe(3);
    expect(await store.peek("anon:10.0.0.1", period)).toBe(28);
    expect(await store.peek("anon:192.0.2.50", period)).toBe(1);
    expect(await store.peek("anon:192.0.2.1", period)).toBe(0);
    expect(await store.peek("acme", period)).toBe(1); // workspaces are never dropped
    await store.close();
    const counters = JSON.parse(await readFile(join(dir, "quota.json"), "utf8")).counters;
    expect(Object.keys(counters).filter((k) => k.startsWith("anon:"))).toHaveLength(3);
  });
});

describe("strict inputs", () => {
  const GET_ROUTES = [
    "/v1/deployments",
    "/v1/lifecycle",
    "/v1/lifecycle/events",
    `/v1/deployments/${dep("gpt-4o").id}`,
  ];

  it.each(["__proto__", "constructor", "prototype"])(
    "refuses %s as a query parameter on every GET route",
    async (name) => {
      const t = await server();
      for (const route of GET_ROUTES) {
        const answer = await t.get(`${route}?${name}=1`);
        expect(answer.status, route).toBe(400);
        expect(answer.json().errors).toEqual([{ parameter: name, message: "is not a known parameter" }]);
      }
    },
  );

  it("refuses __proto__, constructor and prototype as body fields at any depth", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    const { key } = await createKey(keysFile, "acme", "pro");
    const t = await server({ dir, keysFile });
    const auth = { authorization: `Bearer ${key}` };
    const base = `"deployment_ids":["${dep("gpt-4o").id}"],"usage":{"input_tokens":1000}`;
    for (const [body, field] of [
      [`{${base},"requires":{"__proto__":{"function_calling":"required"}}}`, "requires.__proto__"],
      [`{${base},"__proto__":{"requires":{"function_calling":"required"}}}`, "__proto__"],
      [`{${base},"requires":{"constructor":"required"}}`, "requires.constructor"],
      [`{"prototype":1,${base}}`, "prototype"],
    ] as const) {
      const answer = await t.post("/v1/deployments/compare", body, auth);
      expect(answer.status, body).toBe(400);
      expect(answer.json().code).toBe("invalid_body");
      expect(answer.json().errors).toEqual([{ parameter: field, message: "is not a known field" }]);
    }
  });

  it.each([
    ["/v1/deployments/compare", (ids: string) => `{"deployment_ids":${ids},"usage":{"input_tokens":1}`],
    ["/v1/pricing/calculate", (ids: string) => `{"deployment_id":${ids},"usage":{"input_tokens":1}`],
  ])("answers 400 invalid_body to a body nested 32,000 deep in requires on %s", async (path, start) => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    const { key } = await createKey(keysFile, "acme", "pro");
    const t = await server({ dir, keysFile });
    const id = JSON.stringify(dep("gpt-4o").id);
    const base = start(path.endsWith("compare") ? `[${id}]` : id);
    const deep = `${base},"requires":${"[".repeat(32_000)}${"]".repeat(32_000)}}`;
    const answer = await t.post(path, deep, { authorization: `Bearer ${key}` });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json().code).toBe("invalid_body");
    expect(answer.json().detail).toMatch(/64 levels/);
    // brackets inside strings do not count, and 64 levels (the body, requires, 62 arrays) are still read
    const shallow = `${base},"requires":{"function_calling":"supported","x":${"[".repeat(62)}"[[[["${"]".repeat(62)}}}`;
    const read = await t.post(path, shallow, { authorization: `Bearer ${key}` });
    expect(read.status).toBe(400);
    expect(read.json().code).toBe("invalid_body");
    // refused by the schema, naming fields, not by the depth check
    expect(read.json().detail).not.toMatch(/levels/);
    expect(read.json().errors.length).toBeGreaterThan(0);
  });

  it.each([
    ["end_of_life_after", "/v1/lifecycle?end_of_life_after=9999-12-31T23:59:59-14:00"],
    ["deprecation_before", "/v1/lifecycle?deprecation_before=0000-01-01T00:00:00%2B14:00"],
    ["since", "/v1/lifecycle/events?since=9999-12-31T23:30:00-01:00"],
  ])("answers 400 naming %s for a date-time outside years 0000-9999 in UTC", async (name, path) => {
    const t = await server();
    const answer = await t.get(path);
    expect(answer.status).toBe(400);
    expect(answer.json().errors).toEqual([
      { parameter: name, message: "must fall within the years 0000 to 9999 in UTC" },
    ]);
  });

  it("still accepts the last UTC instant of year 9999", async () => {
    const t = await server();
    expect((await t.get("/v1/lifecycle?end_of_life_after=9999-12-31T23:59:59Z")).status).toBe(200);
  });

  it.each([
    ["q", "/v1/deployments?q=%E0"],
    ["q", "/v1/deployments?q=%zz"],
    ["provider", "/v1/deployments?provider=open%"],
    ["since", "/v1/lifecycle/events?since=2026-01-01%"],
    ["%zz", "/v1/lifecycle?%zz=1"],
  ])("answers 400 naming %s for malformed percent-encoding", async (name, path) => {
    const t = await server();
    const answer = await t.get(path);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json().errors.map((e: { parameter: string }) => e.parameter)).toEqual([name]);
  });
});

describe("slow, vanishing and malformed clients", () => {
  it("answers 408 with a problem body to a client that does not finish its request head in time", async () => {
    const t = await server({ headersTimeoutMs: 300, requestTimeoutMs: 800 });
    const { text, ms } = await raw(t.server.url, ["GET /v1/deployments HTTP/1.1\r\nHost: x\r\n"]);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(problemOf(text, "request_timeout").status).toBe(408);
    expect(ms).toBeLessThan(3_000);
  });

  it("answers 408 with a problem body to a client that does not finish its body in time", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    const { key } = await createKey(keysFile, "acme", "pro");
    const t = await server({ dir, keysFile, headersTimeoutMs: 300, requestTimeoutMs: 800 });
    const { text, ms } = await raw(t.server.url, [
      `POST /v1/pricing/calculate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"deployment_id":`,
    ]);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(problemOf(text, "request_timeout").status).toBe(408);
    expect(ms).toBeLessThan(3_000);
    expect(t.log.lines().filter((l) => Number(l.level) >= 50)).toEqual([]);
  });

  it("answers an HTTP/1.1 request without Host with a 400 problem body", async () => {
    const t = await server();
    const { text } = await raw(t.server.url, ["GET /v1/deployments HTTP/1.1\r\n\r\n"]);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(problemOf(text, "bad_request").detail).toMatch(/Host/);
  });

  it("answers a 20 KB query string 431 request_header_fields_too_large, and a HEAD of it without a body", async () => {
    const t = await server();
    const path = `/v1/deployments?q=${"a".repeat(20_000)}`;
    const get = await raw(t.server.url, [`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expect(get.text).toMatch(/^HTTP\/1\.1 431 /);
    expect(problemOf(get.text, "request_header_fields_too_large").status).toBe(431);
    const head = await raw(t.server.url, [`HEAD ${path} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expect(head.text).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.text).toMatch(/\r\ncontent-length: \d+\r\n/);
    expect(head.text.endsWith("\r\n\r\n")).toBe(true);
  });

  it("answers a request that is not HTTP 400 bad_request", async () => {
    const t = await server();
    const { text } = await raw(t.server.url, ["GET /v1/deployments HTTP/1.1\r\nHost x\r\n\r\n"]);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(problemOf(text, "bad_request").status).toBe(400);
  });

  it("answers a HEAD without Host 400 without a body", async () => {
    const t = await server();
    const { text } = await raw(t.server.url, ["HEAD /v1/deployments HTTP/1.1\r\n\r\n"]);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text.endsWith("\r\n\r\n")).toBe(true);
  });

  it("logs a client that hangs up mid-body at debug level, without an error or a stack", async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    const { key } = await createKey(keysFile, "acme", "pro");
    const t = await server({ dir, keysFile });
    await raw(
      t.server.url,
      [
        `POST /v1/pricing/calculate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"deployment_id":`,
      ],
      300,
    );
    await new Promise((r) => setTimeout(r, 200));
    const lines = t.log.lines();
    expect(lines.filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(lines.some((l) => l.level === 20 && l.msg === "client went away mid-request")).toBe(true);
    expect(t.log.text()).not.toMatch(/"stack"/);
  });
});

describe("the response cache", () => {
  it("is keyed on the normalized query: padding a query with & or reordering it adds no entry", async () => {
    const t = await server();
    const variants = [
      "/v1/deployments?limit=1&provider=openai",
      "/v1/deployments?provider=openai&limit=1",
      "/v1/deployments?limit=1&provider=openai&",
      "/v1/deployments?&&limit=1&&&provider=openai&&",
      "/v1/deployments?limit=1&offset=0&provider=openai",
    ];
    const etags = new Set<string>();
    for (const path of variants) {
      const answer = await t.get(path);
      expect(answer.status).toBe(200);
      etags.add(answer.headers.etag as string);
    }
    expect(etags.size).toBe(1);
    expect(t.server.responseCache().entries).toBe(1);
    for (let i = 0; i < 200; i++) await t.get(`/v1/deployments?limit=1&provider=openai${"&".repeat(i)}`);
    expect(t.server.responseCache().entries).toBe(1);
    expect(t.server.responseCache().bytes).toBeGreaterThan(0);
  });
});
