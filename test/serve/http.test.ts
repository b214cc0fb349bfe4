/**
 * Protocol behaviour over real HTTP: common headers, ETags and conditional requests, HEAD,
 * authentication, every problem code the request shape can cause, and robustness against
 * arbitrary input (never a 500).
 */
import { writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Problem } from "../../src/schema/index.js";
import { createKey, revokeKey } from "../../src/serve/index.js";
import { dep } from "./support/fixture.js";
import { type Answer, call, makeTempDir, startTestServer, type TestServer } from "./support/harness.js";

const GPT4O = dep("gpt-4o").id;
const GPT35 = dep("gpt-3.5-turbo").id;

let t: TestServer;
let key: string;
let revoked: string;
let auth: Record<string, string>;

beforeAll(async () => {
  const dir = await makeTempDir();
  const plansFile = join(dir, "plans.json");
  await writeFile(
    plansFile,
    JSON.stringify({ plans: { pro: { monthly_quota: 1_000_000 }, anonymous: { monthly_quota: 1_000_000 } } }),
  );
  const keysFile = join(dir, "keys.json");
  key = (await createKey(keysFile, "acme", "pro")).key;
  const old = await createKey(keysFile, "acme", "pro");
  revoked = old.key;
  await revokeKey(keysFile, old.keyId);
  auth = { authorization: `Bearer ${key}` };
  t = await startTestServer({ dir, plansFile, keysFile });
});

afterAll(async () => {
  await t.stop();
});

function expectProblem(answer: Answer, status: number, code: string): Record<string, unknown> {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers["content-type"]).toBe("application/problem+json");
  const body = Problem.parse(answer.json());
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(body.type).toBe(`urn:catalog:problem:${code}`);
  expect(body.request_id).toBe(answer.headers["x-request-id"]);
  expect(answer.text).not.toMatch(/\bat .*\.(ts|js):\d+/); // no stack traces
  return body;
}

const GET_ROUTES = ["/v1/deployments", `/v1/deployments/${GPT4O}`, "/v1/lifecycle", "/v1/lifecycle/events"];

describe("headers of successful answers", () => {
  it.each(GET_ROUTES)(
    "GET %s carries request id, release, strong ETag, rate limits, Cache-Control and Date",
    async (path) => {
      const answer = await t.get(path);
      expect(answer.status).toBe(200);
      expect(answer.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/);
      expect(answer.headers["x-svc-catalog-release"]).toBe(t.releaseId);
      expect(answer.headers.etag).toMatch(/^"[0-9a-f]{40}"$/);
      expect(answer.headers["x-ratelimit-limit"]).toBe("1000000");
      expect(Number(answer.headers["x-ratelimit-remaining"])).toBeGreaterThan(0);
      expect(answer.headers["x-ratelimit-reset"]).toMatch(/^\d{4}-\d{2}-01T00:00:00Z$/);
      expect(answer.headers["cache-control"]).toBe("no-cache");
      expect(Number.isNaN(Date.parse(answer.headers.date as string))).toBe(false);
      expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    },
  );

  it("echoes a sane client x-request-id and replaces an insane one", async () => {
    const sane = await t.get("/v1/deployments?limit=1", { "x-request-id": "client-42.abc" });
    expect(sane.headers["x-request-id"]).toBe("client-42.abc");
    const insane = await t.get("/v1/deployments?limit=1", { "x-request-id": "a b<script>" });
    expect(insane.headers["x-request-id"]).toMatch(/^req_/);
    const long = await t.get("/v1/deployments?limit=1", { "x-request-id": "x".repeat(200) });
    expect(long.headers["x-request-id"]).toMatch(/^req_/);
    const problem = await t.get("/v1/nothing", { "x-request-id": "trace-7" });
    expect(problem.json().request_id).toBe("trace-7");
    const line = t.log.lines().find((l) => l.request_id === "trace-7");
    expect(line).toMatchObject({ method: "GET", path: "/v1/nothing", status: 404, msg: "request" });
    expect(typeof line?.ms).toBe("number");
  });
});

describe("ETag and If-None-Match", () => {
  it("depends only on the release and the normalized request", async () => {
    const plain = await t.get("/v1/deployments");
    const defaults = await t.get("/v1/deployments?offset=0&limit=100");
    const keyed = await t.get("/v1/deployments", auth);
    const other = await t.get("/v1/deployments?limit=99");
    expect(defaults.headers.etag).toBe(plain.headers.etag);
    expect(keyed.headers.etag).toBe(plain.headers.etag);
    expect(other.headers.etag).not.toBe(plain.headers.etag);
    const lifecycle = await t.get("/v1/lifecycle?sort=end_of_life&order=asc&include_unknown=true");
    expect(lifecycle.headers.etag).toBe((await t.get("/v1/lifecycle")).headers.etag);
  });

  it.each(GET_ROUTES)("answers 304 on %s with the 200's headers and no body", async (path) => {
    const first = await t.get(path, auth);
    const etag = first.headers.etag as string;
    const cases = [etag, `W/${etag}`, `"nope", ${etag}`, `"a",W/${etag} , "b"`, "*"];
    for (const header of cases) {
      const answer = await t.get(path, { ...auth, "if-none-match": header, "x-request-id": "cond-1" });
      expect(answer.status, header).toBe(304);
      expect(answer.body.length).toBe(0);
      expect(answer.headers.etag).toBe(etag);
      expect(answer.headers["x-svc-catalog-release"]).toBe(t.releaseId);
      expect(answer.headers["x-request-id"]).toBe("cond-1");
      expect(answer.headers["cache-control"]).toBe(first.headers["cache-control"]);
      expect(answer.headers["x-ratelimit-limit"]).toBe(first.headers["x-ratelimit-limit"]);
      expect(answer.headers["x-ratelimit-reset"]).toBe(first.headers["x-ratelimit-reset"]);
      expect(answer.headers["x-ratelimit-remaining"]).toBeDefined();
      expect(answer.headers.date).toBeDefined();
    }
  });

  it("answers 200 when no tag matches", async () => {
    const answer = await t.get("/v1/deployments", { "if-none-match": '"0000", W/"1111"' });
    expect(answer.status).toBe(200);
  });

  it("does not apply a precondition where the answer is not 2xx", async () => {
    const unknown = await t.get("/v1/deployments/dep_no_such_api_global", { "if-none-match": "*" });
    expectProblem(unknown, 404, "not_found");
    const bad = await t.get("/v1/deployments?limit=0", { "if-none-match": "*" });
    expectProblem(bad, 400, "invalid_parameter");
  });

  it("does not count a 304 against the quota", async () => {
    const first = await t.get("/v1/lifecycle?limit=2", auth);
    const remaining = Number(first.headers["x-ratelimit-remaining"]);
    for (let i = 0; i < 3; i++) {
      const answer = await t.get("/v1/lifecycle?limit=2", {
        ...auth,
        "if-none-match": first.headers.etag as string,
      });
      expect(answer.status).toBe(304);
      expect(Number(answer.headers["x-ratelimit-remaining"])).toBe(remaining);
    }
    const counted = await t.get("/v1/lifecycle?limit=2", auth);
    expect(Number(counted.headers["x-ratelimit-remaining"])).toBe(remaining - 1);
  });
});

describe("HEAD", () => {
  it.each([...GET_ROUTES, "/v1/openapi.json", "/healthz"])(
    "answers HEAD %s with the GET's headers and no body",
    async (path) => {
      const get = await t.get(path);
      const head = await t.head(path);
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
      expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
      expect(head.headers.etag).toBe(get.headers.etag);
      expect(head.headers["cache-control"]).toBe(get.headers["cache-control"]);
    },
  );

  it("answers a conditional HEAD with 304 and a failing HEAD with the error status", async () => {
    const get = await t.get("/v1/lifecycle/events");
    expect(
      (await t.head("/v1/lifecycle/events", { "if-none-match": get.headers.etag as string })).status,
    ).toBe(304);
    const bad = await t.head("/v1/lifecycle/events?limit=x");
    expect(bad.status).toBe(400);
    expect(bad.body.length).toBe(0);
  });
});

describe("400 invalid_parameter", () => {
  it.each([
    ["/v1/deployments?limit=0", ["limit"]],
    ["/v1/deployments?limit=501", ["limit"]],
    ["/v1/deployments?limit=abc", ["limit"]],
    ["/v1/deployments?limit=1e2", ["limit"]],
    ["/v1/deployments?limit=", ["limit"]],
    ["/v1/deployments?limit=%205", ["limit"]],
    ["/v1/deployments?offset=-1", ["offset"]],
    ["/v1/deployments?offset=1.5", ["offset"]],
    ["/v1/deployments?capability=telepathy", ["capability"]],
    ["/v1/deployments?has_pricing=yes", ["has_pricing"]],
    ["/v1/deployments?q=", ["q"]],
    ["/v1/deployments?provider=Open%20AI", ["provider"]],
    ["/v1/deployments?model=gpt-4o", ["model"]],
    ["/v1/deployments?provdier=openai", ["provdier"]],
    ["/v1/deployments?provider=openai&provider=anthropic", ["provider"]],
    ["/v1/deployments?limit=1&limit=1", ["limit"]],
    ["/v1/deployments?limit=0&offset=-1&colour=red", ["limit", "offset", "colour"]],
    ["/v1/lifecycle?sort=name", ["sort"]],
    ["/v1/lifecycle?order=up", ["order"]],
    ["/v1/lifecycle?resource_type=region", ["resource_type"]],
    ["/v1/lifecycle?status=alive", ["status"]],
    ["/v1/lifecycle?deprecation_state=soon", ["deprecation_state"]],
    ["/v1/lifecycle?end_of_life_state=maybe", ["end_of_life_state"]],
    ["/v1/lifecycle?coverage_status=full", ["coverage_status"]],
    ["/v1/lifecycle?include_unknown=1", ["include_unknown"]],
    ["/v1/lifecycle?end_of_life_before=2026-13-01", ["end_of_life_before"]],
    ["/v1/lifecycle?end_of_life_after=tomorrow", ["end_of_life_after"]],
    ["/v1/lifecycle?deprecation_before=2026-02-30", ["deprecation_before"]],
    ["/v1/lifecycle?deprecation_after=2026-01-01T25:00:00Z", ["deprecation_after"]],
    ["/v1/lifecycle/events?since=01/02/2026", ["since"]],
    ["/v1/lifecycle/events?until=2026-11-11T00:00:00", ["until"]],
    ["/v1/lifecycle/events?source_id=not-a-uuid", ["source_id"]],
    ["/v1/lifecycle/events?event_type=lifecycle.source_exploded", ["event_type"]],
    ["/v1/lifecycle/events?since=2026-01-01&since=2026-02-01", ["since"]],
    [`/v1/deployments/${GPT4O}?fields=id`, ["fields"]],
    ["/v1/openapi.json?format=yaml", ["format"]],
  ])("%s names %j", async (path, parameters) => {
    const body = expectProblem(await t.get(path), 400, "invalid_parameter");
    const errors = body.errors as Array<{ parameter: string; message: string }>;
    expect([...new Set(errors.map((e) => e.parameter))].sort()).toEqual([...parameters].sort());
    for (const e of errors) expect(e.message.length).toBeGreaterThan(0);
  });

  it("rejects query parameters on POST endpoints", async () => {
    expectProblem(
      await t.post("/v1/deployments/compare?debug=1", { deployment_ids: [GPT4O], usage: {} }, auth),
      400,
      "invalid_parameter",
    );
  });
});

describe("400 invalid_body, 413 and 415", () => {
  const compare = (body: unknown, headers: Record<string, string> = {}) =>
    t.post("/v1/deployments/compare", body, { ...auth, ...headers });

  it.each([
    ["malformed JSON", '{"deployment_ids": [', undefined],
    ["an empty body", "", undefined],
    ["an array body", [], undefined],
    ["a missing usage", { deployment_ids: [GPT4O] }, "usage"],
    ["empty deployment_ids", { deployment_ids: [], usage: {} }, "deployment_ids"],
    [
      "101 deployment_ids",
      { deployment_ids: Array.from({ length: 101 }, (_, i) => `dep_a_m${i}_api_global`), usage: {} },
      "deployment_ids",
    ],
    ["a non-string id", { deployment_ids: [42], usage: {} }, "deployment_ids.0"],
    ["negative tokens", { deployment_ids: [GPT4O], usage: { input_tokens: -1 } }, "usage.input_tokens"],
    ["fractional tokens", { deployment_ids: [GPT4O], usage: { output_tokens: 1.5 } }, "usage.output_tokens"],
    ["string tokens", { deployment_ids: [GPT4O], usage: { output_tokens: "10" } }, "usage.output_tokens"],
    [
      "an unknown usage field",
      { deployment_ids: [GPT4O], usage: { reasoning_tokens: 1 } },
      "usage.reasoning_tokens",
    ],
    [
      "a bad requires level",
      { deployment_ids: [GPT4O], usage: {}, requires: { tool_calling: "yes" } },
      "requires.tool_calling",
    ],
    ["an unknown top-level field", { deployment_ids: [GPT4O], usage: {}, sort: "price" }, "sort"],
  ])("compare rejects %s", async (_name, body, parameter) => {
    const problem = expectProblem(await compare(body), 400, "invalid_body");
    if (parameter)
      expect((problem.errors as Array<{ parameter: string }>).map((e) => e.parameter)).toContain(parameter);
  });

  it("calculate rejects an invalid body", async () => {
    const problem = expectProblem(
      await t.post("/v1/pricing/calculate", { deployment_id: GPT4O, usage: {}, extra: 1 }, auth),
      400,
      "invalid_body",
    );
    expect(problem.errors).toEqual([{ parameter: "extra", message: "is not a known field" }]);
  });

  it("answers 413 for a body over 64 KiB, declared or chunked", async () => {
    const big = JSON.stringify({ deployment_ids: [GPT4O], usage: {}, pad: "x".repeat(64 * 1024) });
    expectProblem(await compare(big), 413, "payload_too_large");
    const chunked = await call(t.server.url, "POST", "/v1/deployments/compare", {
      headers: { ...auth, "content-type": "application/json", "transfer-encoding": "chunked" },
      body: big,
    });
    expectProblem(chunked, 413, "payload_too_large");
    // exactly 64 KiB is allowed (and then invalid only for its content)
    const limit = JSON.stringify({ deployment_ids: [GPT4O], usage: {} }).padEnd(64 * 1024, " ");
    expect((await compare(limit)).status).toBe(200);
  });

  it("answers 415 without a JSON content type", async () => {
    expectProblem(
      await compare({ deployment_ids: [GPT4O], usage: {} }, { "content-type": "text/plain" }),
      415,
      "unsupported_media_type",
    );
    const none = await call(t.server.url, "POST", "/v1/pricing/calculate", {
      headers: auth,
      body: JSON.stringify({ deployment_id: GPT4O, usage: {} }),
    });
    expectProblem(none, 415, "unsupported_media_type");
  });
});

describe("401 unauthorized", () => {
  it("requires a key on compare and calculate, with a Bearer challenge without error", async () => {
    for (const path of ["/v1/deployments/compare", "/v1/pricing/calculate"]) {
      const answer = await call(t.server.url, "POST", path, {
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expectProblem(answer, 401, "unauthorized");
      expect(answer.headers["www-authenticate"]).toBe('Bearer realm="catalog"');
      expect(answer.headers["x-ratelimit-limit"]).toBeDefined();
    }
  });

  it.each([
    ["an unknown key", () => "Bearer cat_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["a malformed key", () => "Bearer hunter2"],
    ["a revoked key", () => `Bearer ${revoked}`],
    ["another scheme", () => `Basic ${Buffer.from("a:b").toString("base64")}`],
    ["an empty credential", () => "Bearer "],
  ])("rejects %s on an optional endpoint too, never echoing it", async (_name, header) => {
    const value = header();
    const answer = await t.get("/v1/deployments", { authorization: value });
    expectProblem(answer, 401, "unauthorized");
    expect(answer.headers["www-authenticate"]).toBe('Bearer realm="catalog", error="invalid_token"');
    const credential = value.split(" ")[1] as string;
    if (credential.length > 0) {
      expect(answer.text).not.toContain(credential);
      expect(JSON.stringify(answer.headers)).not.toContain(credential);
    }
  });

  it("accepts the scheme name in any case", async () => {
    for (const scheme of ["bearer", "BEARER", "BeArEr"]) {
      const answer = await t.post(
        "/v1/deployments/compare",
        { deployment_ids: [GPT4O], usage: {} },
        {
          authorization: `${scheme} ${key}`,
        },
      );
      expect(answer.status, scheme).toBe(200);
    }
  });

  it("never writes a key or the Authorization header to the log", async () => {
    await t.get("/v1/deployments?limit=1", auth);
    await t.get("/v1/deployments?limit=1", {
      authorization: "Bearer cat_live_secretsecretsecretsecretsecretsecretsecret",
    });
    const text = t.log.text();
    expect(text).not.toContain(key);
    expect(text).not.toContain("secretsecret");
    expect(text.toLowerCase()).not.toContain("authorization");
  });
});

describe("404 and 405", () => {
  it.each([
    "/v1/deployment",
    "/v1/deployments/",
    "/v1/lifecycle/",
    "/v1/lifecycle/events/",
    `/v1/deployments/${GPT4O}/`,
    `/v1/deployments/${GPT4O}/pricing`,
    "/v2/deployments",
    "/",
    "/v1/deployments/%E0%A4%A",
  ])("%s is 404 not_found", async (path) => {
    expectProblem(await t.get(path), 404, "not_found");
  });

  it.each([
    ["GET", "/v1/deployments/compare", "POST"],
    ["PUT", "/v1/deployments/compare", "POST"],
    ["GET", "/v1/pricing/calculate", "POST"],
    ["POST", "/v1/deployments", "GET, HEAD"],
    ["DELETE", `/v1/deployments/${GPT35}`, "GET, HEAD"],
    ["PATCH", "/v1/lifecycle", "GET, HEAD"],
    ["POST", "/v1/lifecycle/events", "GET, HEAD"],
    ["POST", "/healthz", "GET, HEAD"],
    ["OPTIONS", "/v1/openapi.json", "GET, HEAD"],
  ])("%s %s is 405 with Allow: %s", async (method, path, allow) => {
    const answer = await call(t.server.url, method, path, { headers: auth });
    expectProblem(answer, 405, "method_not_allowed");
    expect(answer.headers.allow).toBe(allow);
  });
});

describe("robustness", () => {
  it("answers an absolute-form request target", async () => {
    const answer = await call(t.server.url, "GET", `${t.server.url}/v1/deployments?limit=1`);
    expect(answer.status).toBe(200);
    expect(answer.json().data).toHaveLength(1);
  });

  it("answers malformed HTTP with a 400 problem", async () => {
    const url = new URL(t.server.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write("GARBAGE\r\n\r\n"));
      let data = "";
      socket.on("data", (c) => (data += c.toString()));
      socket.on("end", () => resolve(data));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).toContain("application/problem+json");
  });

  it("never answers 5xx for arbitrary paths, queries, headers and bodies", async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        "v1",
        "deployments",
        "lifecycle",
        "events",
        "compare",
        "pricing",
        "calculate",
        GPT4O,
        "",
        "%",
        "%zz",
        "..",
      ),
      fc.string({ maxLength: 8 }).map(encodeURIComponent),
    );
    const param = fc.tuple(
      fc.constantFrom(
        "limit",
        "offset",
        "q",
        "provider",
        "sort",
        "order",
        "since",
        "until",
        "capability",
        "has_pricing",
        "include_unknown",
        "x",
        "%",
        "",
      ),
      fc.oneof(
        fc.string({ maxLength: 12 }).map(encodeURIComponent),
        fc.constantFrom("-1", "0", "500", "501", "2026-01-01", "true", "%E0", "%", "null", "a+b"),
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE"),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.array(param, { maxLength: 4 }),
        fc.oneof(fc.constant(undefined), fc.json(), fc.string({ maxLength: 50 })),
        fc.constantFrom(undefined, "application/json", "text/plain", "application/json; charset=latin1"),
        fc.boolean(),
        async (method, segments, params, body, type, withKey) => {
          const query = params.map(([k, v]) => `${k}=${v}`).join("&");
          const path = `/${segments.join("/")}${query ? `?${query}` : ""}`;
          const headers: Record<string, string> = {
            ...(withKey ? auth : {}),
            ...(type ? { "content-type": type } : {}),
          };
          const answer = await call(t.server.url, method, path, {
            headers,
            body: method === "GET" || method === "HEAD" ? undefined : body,
          });
          expect(answer.status, `${method} ${path}`).toBeLessThan(500);
          expect(answer.status).toBeGreaterThanOrEqual(200);
        },
      ),
      { numRuns: 300 },
    );
  });
});
