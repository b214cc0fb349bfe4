/**
 * Every /v1 endpoint, filter, sort and pagination boundary, over real HTTP on loopback
 * against the fixture release (test/serve/support/fixture.ts).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CompareResponse,
  Deployment,
  DeploymentPage,
  EventPage,
  LifecyclePage,
} from "../../src/schema/index.js";
import { createKey } from "../../src/serve/index.js";
import { DEPLOYMENTS, dep, fixtureCatalog, publishFixture, SOURCES } from "./support/fixture.js";
import { type Answer, makeTempDir, startTestServer, type TestServer } from "./support/harness.js";

const A_EU = dep("anthropic.claude-sonnet-4-v1:0", "eu-central-1").id;
const A_US = dep("anthropic.claude-sonnet-4-v1:0", "us-east-1").id;
const CLAUDE = dep("claude-sonnet-4").id;
const GPT35 = dep("gpt-3.5-turbo").id;
const BATCH = dep("gpt-4o", "global", "batch").id;
const GPT4O = dep("gpt-4o").id;

let t: TestServer;
let auth: Record<string, string>;

beforeAll(async () => {
  const dir = await makeTempDir();
  const plansFile = join(dir, "plans.json");
  await writeFile(
    plansFile,
    JSON.stringify({ plans: { pro: { monthly_quota: 100_000 }, anonymous: { monthly_quota: 100_000 } } }),
  );
  const keysFile = join(dir, "keys.json");
  const { key } = await createKey(keysFile, "acme", "pro");
  auth = { authorization: `Bearer ${key}` };
  t = await startTestServer({ dir, plansFile, keysFile });
});

afterAll(async () => {
  await t.stop();
});

function ids(answer: Answer): string[] {
  expect(answer.status, answer.text).toBe(200);
  return answer.json().data.map((d: { id?: string; resource_id?: string }) => d.id ?? d.resource_id);
}

describe("GET /v1/deployments", () => {
  it("lists every deployment ordered by id in the page envelope, valid against the schema", async () => {
    const answer = await t.get("/v1/deployments");
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    const page = DeploymentPage.parse(answer.json());
    expect(page.data.map((d) => d.id)).toEqual([A_EU, A_US, CLAUDE, GPT35, BATCH, GPT4O]);
    expect(page.meta).toEqual({ total: 6, limit: 100, offset: 0, has_more: false });
    // the records are served exactly as published
    expect(page.data).toEqual(DEPLOYMENTS);
  });

  it.each([
    ["provider=openai", [GPT35, BATCH, GPT4O]],
    ["provider=nobody", []],
    ["model=openai/gpt-4o", [BATCH, GPT4O]],
    ["region=eu-central-1", [A_EU]],
    ["region=global", [CLAUDE, GPT35, BATCH, GPT4O]],
    ["mode=batch", [BATCH]],
    ["capability=tool_calling", [A_EU, CLAUDE, GPT35, GPT4O]],
    ["capability=structured_output", [GPT4O]],
    ["capability=vision", []],
    ["has_pricing=true", [A_EU, A_US, CLAUDE, BATCH, GPT4O]],
    ["has_pricing=false", [GPT35]],
    ["q=GPT-4O", [BATCH, GPT4O]],
    ["q=anthropic", [A_EU, A_US, CLAUDE]],
    ["q=sonnet%20bedrock", [A_EU, A_US]],
    ["q=batch", [BATCH]],
    ["q=claude-sonnet-4-v1%3A0", [A_EU, A_US]],
    ["q=dep_openai_gpt-3.5", [GPT35]],
    ["q=nomatch", []],
    ["provider=amazon-bedrock&capability=tool_calling", [A_EU]],
    ["model=anthropic/claude-sonnet-4&has_pricing=true&region=us-east-1", [A_US]],
    // A_EU's listing is community_reported; BATCH's rate card is community_corroborated
    ["verification=official", [A_US, CLAUDE, GPT35, GPT4O]],
    ["verification=corroborated", [A_US, CLAUDE, GPT35, BATCH, GPT4O]],
    ["verification=official&provider=openai", [GPT35, GPT4O]],
  ])("filters with %s", async (query, expected) => {
    const answer = await t.get(`/v1/deployments?${query}`);
    expect(ids(answer)).toEqual(expected);
    expect(answer.json().meta.total).toBe(expected.length);
  });

  it.each([
    ["limit=1", [A_EU], { total: 6, limit: 1, offset: 0, has_more: true }],
    ["limit=1&offset=5", [GPT4O], { total: 6, limit: 1, offset: 5, has_more: false }],
    ["limit=2&offset=2", [CLAUDE, GPT35], { total: 6, limit: 2, offset: 2, has_more: true }],
    [
      "limit=500",
      [A_EU, A_US, CLAUDE, GPT35, BATCH, GPT4O],
      { total: 6, limit: 500, offset: 0, has_more: false },
    ],
    ["offset=6", [], { total: 6, limit: 100, offset: 6, has_more: false }],
    ["offset=1000", [], { total: 6, limit: 100, offset: 1000, has_more: false }],
  ])("paginates with %s", async (query, expected, meta) => {
    const answer = await t.get(`/v1/deployments?${query}`);
    expect(ids(answer)).toEqual(expected);
    expect(answer.json().meta).toEqual(meta);
  });

  it("walking pages with offset += limit visits every record once", async () => {
    const seen: string[] = [];
    for (let offset = 0; ; offset += 4) {
      const answer = await t.get(`/v1/deployments?limit=4&offset=${offset}`);
      seen.push(...ids(answer));
      if (!answer.json().meta.has_more) break;
    }
    expect(seen).toEqual(DEPLOYMENTS.map((d) => d.id));
  });

  it.each([
    ["capability=tool_calling&capability=structured_output", [GPT4O]],
    ["capability=structured_output&capability=tool_calling&capability=tool_calling", [GPT4O]],
    ["capability=tool_calling&capability=vision", []],
    ["min_context_tokens=0", [A_EU, A_US, CLAUDE, BATCH, GPT4O]],
    ["min_context_tokens=128000", [A_EU, A_US, CLAUDE, BATCH, GPT4O]],
    ["min_context_tokens=128001", [A_EU, A_US, CLAUDE]],
    ["min_context_tokens=200001", []],
    ["min_max_output_tokens=16384", [A_EU, A_US, CLAUDE, BATCH, GPT4O]],
    ["min_max_output_tokens=16385", []],
    ["max_input_price=3000000", [A_US, CLAUDE, BATCH, GPT4O]],
    ["max_input_price=0", []],
    ["max_output_price=10000000", [BATCH, GPT4O]],
    ["max_input_price=3000000&max_output_price=14999999", [BATCH, GPT4O]],
  ])("keeps only deployments whose known value passes %s (unknown never does)", async (query, expected) => {
    const answer = await t.get(`/v1/deployments?${query}`);
    expect(ids(answer)).toEqual(expected);
    expect(answer.json().meta.total).toBe(expected.length);
  });

  it("answers the cheapest deployments with tool calling and at least 128k context in one request", async () => {
    const answer = await t.get(
      "/v1/deployments?capability=tool_calling&min_context_tokens=128000&sort=input_price&limit=2",
    );
    expect(ids(answer)).toEqual([GPT4O, CLAUDE]);
    expect(answer.json().meta).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });
  });

  it.each([
    ["min_context_tokens=-1", "min_context_tokens", "must be a decimal integer"],
    ["min_context_tokens=1.5", "min_context_tokens", "must be a decimal integer"],
    ["min_max_output_tokens=lots", "min_max_output_tokens", "must be a decimal integer"],
    ["max_input_price=1e6", "max_input_price", "must be a decimal integer"],
    ["max_output_price=", "max_output_price", "must be a decimal integer"],
    ["capability=tool_calling&capability=telepathy", "capability", "must be one of"],
  ])("refuses %s with a 400 invalid_parameter naming it", async (query, parameter, message) => {
    const answer = await t.get(`/v1/deployments?${query}`);
    expect(answer.status).toBe(400);
    const problem = answer.json();
    expect(problem.code).toBe("invalid_parameter");
    expect(problem.errors).toHaveLength(1);
    expect(problem.errors[0].parameter).toBe(parameter);
    expect(problem.errors[0].message).toContain(message);
  });

  it("a repeated parameter is a set: its order and repetitions change neither the bytes nor the ETag", async () => {
    const a = await t.get("/v1/deployments?capability=tool_calling&capability=structured_output");
    const b = await t.get(
      "/v1/deployments?capability=structured_output&capability=tool_calling&capability=structured_output",
    );
    expect(a.body.equals(b.body)).toBe(true);
    expect(a.headers.etag).toBe(b.headers.etag);
    const c = await t.get("/v1/deployments?status=legacy&status=deprecated");
    const d = await t.get("/v1/deployments?status=deprecated&status=legacy&status=legacy");
    expect(c.headers.etag).toBe(d.headers.etag);
    expect(ids(c)).toEqual([CLAUDE, GPT35]);
    const single = await t.get("/v1/deployments?capability=tool_calling");
    expect(single.headers.etag).not.toBe(a.headers.etag);
  });

  it("the same query on the same release returns the same bytes", async () => {
    const a = await t.get("/v1/deployments?provider=openai&limit=2");
    const b = await t.get("/v1/deployments?limit=2&provider=openai");
    expect(a.body.equals(b.body)).toBe(true);
    expect(a.headers.etag).toBe(b.headers.etag);
  });
});

describe("GET /v1/deployments/{id}", () => {
  it("returns the deployment object itself, not wrapped", async () => {
    const answer = await t.get(`/v1/deployments/${GPT35}`);
    expect(answer.status).toBe(200);
    const body = Deployment.parse(answer.json());
    expect(body).toEqual(dep("gpt-3.5-turbo"));
    // null stays null: unknown price and limits are never zero or unlimited
    expect(answer.json().rate_card).toBeNull();
    expect(answer.json().context_tokens).toBeNull();
  });

  it("accepts a percent-encoded id", async () => {
    const answer = await t.get(`/v1/deployments/${encodeURIComponent(GPT4O).replace("_", "%5F")}`);
    expect(answer.status).toBe(200);
    expect(answer.json().id).toBe(GPT4O);
  });

  it("is 404 not_found for an unknown id", async () => {
    const answer = await t.get("/v1/deployments/dep_openai_gpt-9_api_global");
    expect(answer.status).toBe(404);
    expect(answer.json().code).toBe("not_found");
  });
});

describe("GET /v1/lifecycle", () => {
  const NULL_TAIL = [
    A_EU,
    BATCH,
    GPT4O,
    "anthropic/claude-sonnet-4",
    "openai/gpt-3.5-turbo",
    "openai/gpt-4o",
    "amazon-bedrock",
    "anthropic",
    "openai",
  ];

  it("sorts by end_of_life ascending by default, nulls last, then resource_type, resource_id", async () => {
    const answer = await t.get("/v1/lifecycle");
    const page = LifecyclePage.parse(answer.json());
    expect(page.data.map((r) => r.resource_id)).toEqual([GPT35, A_US, CLAUDE, ...NULL_TAIL]);
    expect(page.meta).toEqual({ total: 12, limit: 100, offset: 0, has_more: false });
    const openai = page.data.find((r) => r.resource_id === "openai");
    expect(openai?.summary?.deployment_count).toBe(3);
  });

  it.each([
    ["sort=end_of_life&order=desc", [CLAUDE, A_US, GPT35, ...NULL_TAIL]],
    ["sort=deprecation", [GPT35, CLAUDE, A_EU, A_US, BATCH, GPT4O, ...NULL_TAIL.slice(3)]],
    ["sort=deprecation&order=desc", [CLAUDE, GPT35, A_EU, A_US, BATCH, GPT4O, ...NULL_TAIL.slice(3)]],
    ["sort=last_changed", [GPT35, BATCH, GPT4O, CLAUDE, A_US, A_EU, ...NULL_TAIL.slice(3)]],
    ["sort=last_changed&order=desc", [A_US, CLAUDE, BATCH, GPT4O, GPT35, A_EU, ...NULL_TAIL.slice(3)]],
  ])("sorts with %s", async (query, expected) => {
    expect(ids(await t.get(`/v1/lifecycle?${query}`))).toEqual(expected);
  });

  it.each([
    ["resource_type=provider", ["amazon-bedrock", "anthropic", "openai"]],
    [
      "resource_type=model&sort=last_changed",
      ["anthropic/claude-sonnet-4", "openai/gpt-3.5-turbo", "openai/gpt-4o"],
    ],
    ["resource_id=openai", ["openai"]],
    [`resource_id=${GPT35}`, [GPT35]],
    ["provider=openai", [GPT35, BATCH, GPT4O, "openai"]],
    ["model=anthropic/claude-sonnet-4", [A_US, CLAUDE, A_EU, "anthropic/claude-sonnet-4"]],
    ["status=deprecated", [GPT35]],
    ["status=legacy", [CLAUDE]],
    ["deprecation_state=not_announced", [BATCH, GPT4O]],
    ["end_of_life_state=scheduled", [GPT35, A_US, CLAUDE]],
    ["end_of_life_state=unknown&resource_type=deployment", [A_EU]],
    ["coverage_status=monitored", [GPT35, A_US, CLAUDE, BATCH, GPT4O, "openai"]],
    ["coverage_status=partial", []],
    [
      "coverage_status=unmonitored",
      [
        A_EU,
        "anthropic/claude-sonnet-4",
        "openai/gpt-3.5-turbo",
        "openai/gpt-4o",
        "amazon-bedrock",
        "anthropic",
      ],
    ],
    // status and both milestones all unknown are dropped; not_announced is knowledge
    ["include_unknown=false", [GPT35, A_US, CLAUDE, BATCH, GPT4O, "openai"]],
    ["include_unknown=true&limit=3", [GPT35, A_US, CLAUDE]],
  ])("filters with %s", async (query, expected) => {
    expect(ids(await t.get(`/v1/lifecycle?${query}`))).toEqual(expected);
  });

  it.each([
    ["end_of_life_before=2026-12-31", [GPT35, A_US]],
    ["end_of_life_before=2026-12-30", [GPT35]],
    ["end_of_life_after=2026-12-31", [A_US, CLAUDE]],
    ["end_of_life_after=2026-12-31T12:00:00Z", [A_US, CLAUDE]],
    // 2027-01-01T01:00+02:00 is 2026-12-31T23:00Z: the boundary's UTC date is 2026-12-31
    ["end_of_life_before=2027-01-01T01:00:00%2B02:00", [GPT35, A_US]],
    ["end_of_life_after=2026-10-01&end_of_life_before=2027-01-01", [A_US]],
    ["end_of_life_after=2030-01-01", []],
    ["deprecation_before=2026-03-01", [GPT35]],
    ["deprecation_after=2026-03-02", [CLAUDE]],
    ["deprecation_after=2026-01-01&sort=deprecation&order=desc", [CLAUDE, GPT35]],
  ])("keeps only known dates within %s (inclusive; unknown dates excluded)", async (query, expected) => {
    expect(ids(await t.get(`/v1/lifecycle?${query}`))).toEqual(expected);
  });

  it("paginates with limit 1 and past the end", async () => {
    const first = await t.get("/v1/lifecycle?limit=1&offset=11");
    expect(ids(first)).toEqual(["openai"]);
    expect(first.json().meta).toEqual({ total: 12, limit: 1, offset: 11, has_more: false });
    const past = await t.get("/v1/lifecycle?offset=12&limit=500");
    expect(ids(past)).toEqual([]);
    expect(past.json().meta).toEqual({ total: 12, limit: 500, offset: 12, has_more: false });
  });
});

describe("GET /v1/lifecycle/events", () => {
  it("orders by detected_at then id", async () => {
    const answer = await t.get("/v1/lifecycle/events");
    const page = EventPage.parse(answer.json());
    expect(page.data.map((e) => e.id)).toEqual(["evt_0001", "evt_0002", "evt_0000", "evt_0003", "evt_0004"]);
    expect(page.meta.total).toBe(5);
  });

  it.each([
    ["since=2026-11-11", ["evt_0000", "evt_0003", "evt_0004"]],
    ["until=2026-11-11", ["evt_0001", "evt_0002", "evt_0000", "evt_0003"]],
    ["until=2026-11-21", ["evt_0001", "evt_0002", "evt_0000", "evt_0003", "evt_0004"]],
    ["until=2026-11-21T23:59:58Z", ["evt_0001", "evt_0002", "evt_0000", "evt_0003"]],
    ["since=2026-11-10T12:00:00Z&until=2026-11-11T00:00:00Z", ["evt_0002", "evt_0000", "evt_0003"]],
    ["since=2026-11-10T12:00:01Z", ["evt_0000", "evt_0003", "evt_0004"]],
    ["since=2026-11-11T02:00:00%2B02:00", ["evt_0000", "evt_0003", "evt_0004"]],
    ["since=2026-12-01", []],
    ["provider=anthropic", ["evt_0002", "evt_0003"]],
    ["event_type=lifecycle.source_changed", ["evt_0001", "evt_0000", "evt_0004"]],
    ["event_type=lifecycle.source_failed", ["evt_0002"]],
    [`source_id=${SOURCES.bedrockPricing}`, ["evt_0000"]],
    [`source_id=${SOURCES.bedrockPricing.toUpperCase()}`, ["evt_0000"]],
    ["provider=openai&event_type=lifecycle.source_changed&since=2026-11-02", ["evt_0004"]],
    ["limit=2&offset=2", ["evt_0000", "evt_0003"]],
    ["offset=5", []],
  ])("filters with %s", async (query, expected) => {
    expect(ids(await t.get(`/v1/lifecycle/events?${query}`))).toEqual(expected);
  });
});

describe("POST /v1/deployments/compare", () => {
  it("ranks qualifying candidates by total price, omitting unknown ids and unpriced deployments", async () => {
    const answer = await t.post(
      "/v1/deployments/compare",
      {
        deployment_ids: [GPT4O, BATCH, CLAUDE, GPT35, "dep_nobody_x_api_global", GPT4O],
        usage: { input_tokens: 1000, output_tokens: 500 },
      },
      auth,
    );
    expect(answer.status, answer.text).toBe(200);
    const body = CompareResponse.parse(answer.json());
    expect(body.data.map((i) => [i.deployment.id, i.pricing.total_usd])).toEqual([
      [BATCH, "0.003750"],
      [GPT4O, "0.007500"],
      [CLAUDE, "0.010500"],
    ]);
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.headers.etag).toMatch(/^"[0-9a-f]+"$/);
  });

  it("omits a candidate whose rate card lacks a price the usage needs", async () => {
    const answer = await t.post(
      "/v1/deployments/compare",
      { deployment_ids: [GPT4O, BATCH], usage: { input_tokens: 10, cached_input_tokens: 100 } },
      auth,
    );
    expect(answer.json().data.map((i: { deployment: { id: string } }) => i.deployment.id)).toEqual([GPT4O]);
  });

  it("applies requires: supported excludes conditional, conditional accepts both", async () => {
    const usage = { input_tokens: 1, output_tokens: 1 };
    const strict = await t.post(
      "/v1/deployments/compare",
      { deployment_ids: [GPT4O, BATCH, A_US], usage, requires: { tool_calling: "supported" } },
      auth,
    );
    expect(strict.json().data.map((i: { deployment: { id: string } }) => i.deployment.id)).toEqual([GPT4O]);
    const loose = await t.post(
      "/v1/deployments/compare",
      { deployment_ids: [GPT4O, BATCH, A_US], usage, requires: { tool_calling: "conditional" } },
      auth,
    );
    expect(loose.json().data.map((i: { deployment: { id: string } }) => i.deployment.id)).toEqual([
      BATCH,
      GPT4O,
    ]);
  });

  it("applies verification: official keeps official listings and rate cards, corroborated admits corroborated", async () => {
    const usage = { input_tokens: 1000, output_tokens: 500 };
    const deployment_ids = [GPT4O, BATCH, A_EU, A_US];
    const ranked = async (verification?: string) => {
      const answer = await t.post(
        "/v1/deployments/compare",
        { deployment_ids, usage, ...(verification ? { verification } : {}) },
        auth,
      );
      expect(answer.status, answer.text).toBe(200);
      return answer.json().data.map((i: { deployment: { id: string } }) => i.deployment.id);
    };
    expect(await ranked()).toEqual([BATCH, GPT4O, A_US, A_EU]);
    expect(await ranked("official")).toEqual([GPT4O, A_US]);
    expect(await ranked("corroborated")).toEqual([BATCH, GPT4O, A_US]);
  });

  it("answers 400 to an unknown verification value, in the body and in the query", async () => {
    const body = await t.post(
      "/v1/deployments/compare",
      { deployment_ids: [GPT4O], usage: {}, verification: "community" },
      auth,
    );
    expect(body.status).toBe(400);
    expect(body.text).toContain("verification");
    const query = await t.get("/v1/deployments?verification=official_declared");
    expect(query.status).toBe(400);
    expect(query.text).toContain("verification");
  });

  it("answers 200 with an empty data array when nothing qualifies", async () => {
    const answer = await t.post(
      "/v1/deployments/compare",
      { deployment_ids: [GPT35, "dep_x_y_z_w"], usage: { input_tokens: 5 } },
      auth,
    );
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ data: [] });
  });

  it("accepts a JSON media type with parameters and the +json suffix", async () => {
    const body = { deployment_ids: [GPT4O], usage: {} };
    for (const type of [
      "application/json; charset=utf-8",
      "Application/JSON",
      "application/vnd.catalog+json",
    ]) {
      const answer = await t.post("/v1/deployments/compare", body, { ...auth, "content-type": type });
      expect(answer.status, type).toBe(200);
      expect(answer.json().data[0].pricing.total_usd).toBe("0.000000");
    }
  });
});

describe("POST /v1/pricing/calculate", () => {
  it("prices one deployment with the per-component breakdown", async () => {
    const answer = await t.post(
      "/v1/pricing/calculate",
      { deployment_id: GPT4O, usage: { input_tokens: 1000, cached_input_tokens: 1000, output_tokens: 3 } },
      auth,
    );
    expect(answer.status, answer.text).toBe(200);
    const body = answer.json();
    expect(body.deployment_id).toBe(GPT4O);
    expect(body.pricing.currency).toBe("USD");
    // 1000 x 2.5 + 1000 x 1.25 + 3 x 10 = 3780 micro-USD
    expect(body.pricing.total_usd).toBe("0.003780");
    expect(body.pricing.components.map((c: { component: string }) => c.component)).toEqual([
      "input",
      "cached_input",
      "output",
    ]);
  });

  it("prices the whole usage of many requests and echoes requests (default 1)", async () => {
    const many = await t.post(
      "/v1/pricing/calculate",
      { deployment_id: GPT4O, usage: { input_tokens: 1_000_000, output_tokens: 200_000, requests: 50 } },
      auth,
    );
    expect(many.status, many.text).toBe(200);
    // 1,000,000 x 2.5 + 200,000 x 10 = 4,500,000 micro-USD for all 50 requests
    expect(many.json().pricing).toMatchObject({ total_usd: "4.500000", requests: 50 });
    const one = await t.post(
      "/v1/pricing/calculate",
      { deployment_id: GPT4O, usage: { input_tokens: 1 } },
      auth,
    );
    expect(one.json().pricing.requests).toBe(1);
    const compared = await t.post(
      "/v1/deployments/compare",
      { deployment_ids: [GPT4O], usage: { input_tokens: 10, requests: 7 } },
      auth,
    );
    expect(compared.json().data[0].pricing.requests).toBe(7);
  });

  it.each([0, -1, 1.5, "2", null])(
    "refuses usage.requests = %j with a 400 invalid_body naming it",
    async (requests) => {
      const answer = await t.post(
        "/v1/pricing/calculate",
        { deployment_id: GPT4O, usage: { input_tokens: 1, requests } },
        auth,
      );
      expect(answer.status).toBe(400);
      expect(answer.json().code).toBe("invalid_body");
      expect(answer.json().errors.map((e: { parameter: string }) => e.parameter)).toEqual(["usage.requests"]);
    },
  );

  it("is 422 not_priceable for a deployment without a rate card", async () => {
    const answer = await t.post(
      "/v1/pricing/calculate",
      { deployment_id: GPT35, usage: { input_tokens: 1 } },
      auth,
    );
    expect(answer.status).toBe(422);
    expect(answer.headers["content-type"]).toBe("application/problem+json");
    expect(answer.json()).toMatchObject({ code: "not_priceable", status: 422 });
  });

  it("is 422 not_priceable naming the usage field whose price is unknown", async () => {
    const answer = await t.post(
      "/v1/pricing/calculate",
      { deployment_id: BATCH, usage: { input_tokens: 1, cached_input_tokens: 5 } },
      auth,
    );
    expect(answer.status).toBe(422);
    expect(answer.json().errors).toEqual([
      { parameter: "usage.cached_input_tokens", message: expect.stringContaining("cached input") },
    ]);
  });

  it("is 404 not_found for an unknown deployment", async () => {
    const answer = await t.post("/v1/pricing/calculate", { deployment_id: "dep_a_b_c_d", usage: {} }, auth);
    expect(answer.status).toBe(404);
    expect(answer.json().code).toBe("not_found");
  });
});

describe("service endpoints", () => {
  it("serves the OpenAPI document with an ETag and revalidation", async () => {
    const answer = await t.get("/v1/openapi.json");
    expect(answer.status).toBe(200);
    expect(answer.json().openapi).toBe("3.1.0");
    expect(Object.keys(answer.json().paths)).toContain("/v1/deployments/compare");
    const again = await t.get("/v1/openapi.json", { "if-none-match": answer.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("answers /healthz and /readyz", async () => {
    expect((await t.get("/healthz")).json()).toEqual({ status: "ok" });
    expect((await t.get("/readyz")).json()).toEqual({ status: "ready", release: t.releaseId });
    expect((await t.head("/readyz")).status).toBe(200);
  });
});

describe("a release larger than one page", () => {
  it("caps a page at limit=500 and continues at offset=500", async () => {
    const base = DEPLOYMENTS.find((d) => d.id === GPT4O) as (typeof DEPLOYMENTS)[number];
    const many = Array.from({ length: 601 }, (_, i) => {
      const name = `m-${String(i).padStart(4, "0")}`;
      return {
        ...base,
        id: `dep_openai_${name}_api_global`,
        model_id: `openai/${name}`,
        provider_model_id: name,
      };
    });
    const dir = await makeTempDir();
    const big = await startTestServer({ dir, snapshotsDir: join(dir, "big") });
    try {
      const releaseId = await publishFixture(
        join(dir, "big"),
        fixtureCatalog({ deployments: many }),
        big.releaseId,
      );
      expect(await big.server.reload()).toBe(releaseId);
      const first = await big.get("/v1/deployments?limit=500");
      expect(first.json().data).toHaveLength(500);
      expect(first.json().meta).toEqual({ total: 601, limit: 500, offset: 0, has_more: true });
      const second = await big.get("/v1/deployments?limit=500&offset=500");
      expect(ids(second)).toEqual(many.slice(500).map((d) => d.id));
      expect(second.json().meta.has_more).toBe(false);
    } finally {
      await big.stop();
    }
  });
});
