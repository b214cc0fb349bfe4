/**
 * Price history over HTTP: GET /v1/deployments/{id}/prices (the release's prices.json, newest
 * first, 404 for an unknown id, ETag like the other GETs) and `at` on compare and calculate
 * (the interval valid that day; a deployment without a price that day is omitted or not
 * priceable), on the fixture release published with a prices.json.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/lib/canonical-json.js";
import { catalogReleaseFiles, PRICES_FILE, publishRelease } from "../../src/release/artifact.js";
import {
  CompareResponse,
  type PriceInterval,
  PriceIntervalPage,
  type PricesFile,
} from "../../src/schema/index.js";
import { createKey, type RunningServer, startServer } from "../../src/serve/index.js";
import { CREATED, dep, fixtureCatalog } from "./support/fixture.js";
import { type Answer, call, captureLogger, makeTempDir } from "./support/harness.js";

const GPT4O = dep("gpt-4o");
const CLAUDE = dep("claude-sonnet-4");
const GPT35 = dep("gpt-3.5-turbo");

function interval(from: string, to: string | null, input: number, output: number): PriceInterval {
  const url = GPT4O.rate_card?.source_url ?? "https://example.com/pricing";
  return {
    valid_from: from,
    valid_to: to,
    rate_card: {
      currency: "USD",
      unit: "million_tokens",
      input_micro_usd: input,
      cached_input_micro_usd: null,
      output_micro_usd: output,
      source_url: url,
      observed_at: `${from}T00:00:00Z`,
    },
    verification_status: "official_declared",
    source_url: url,
  };
}

const PRICES: PricesFile = {
  format: 1,
  deployments: [
    {
      deployment_id: CLAUDE.id,
      intervals: [interval("2026-03-01", null, 3_000_000, 15_000_000)],
    },
    {
      deployment_id: GPT4O.id,
      intervals: [
        interval("2026-06-01", null, 2_500_000, 10_000_000),
        interval("2025-01-01", "2026-06-01", 5_000_000, 15_000_000),
      ],
    },
  ].sort((a, b) => (a.deployment_id < b.deployment_id ? -1 : 1)),
};

describe("price history over HTTP", () => {
  let dir: string;
  let server: RunningServer;
  let auth: Record<string, string>;
  const get = (path: string, headers?: Record<string, string>): Promise<Answer> =>
    call(server.url, "GET", path, { headers });
  const post = (path: string, body: unknown): Promise<Answer> =>
    call(server.url, "POST", path, {
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    dir = await makeTempDir();
    const snapshotsDir = join(dir, "snapshots");
    const catalog = fixtureCatalog();
    await publishRelease(snapshotsDir, {
      files: { ...catalogReleaseFiles(catalog), [PRICES_FILE]: Buffer.from(canonicalJson(PRICES)) },
      createdAt: CREATED,
      previousReleaseId: null,
      counts: { deployments: catalog.deployments.length },
    });
    const plansFile = join(dir, "plans.json");
    await writeFile(
      plansFile,
      JSON.stringify({ plans: { pro: { monthly_quota: 1000 }, anonymous: { monthly_quota: 1000 } } }),
    );
    const keysFile = join(dir, "keys.json");
    const { key } = await createKey(keysFile, "acme", "pro");
    auth = { authorization: `Bearer ${key}` };
    server = await startServer({
      snapshotsDir,
      plansFile,
      keysFile,
      host: "127.0.0.1",
      port: 0,
      watchLatest: false,
      quotaFile: join(dir, "quota.json"),
      logger: captureLogger().logger,
    });
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("GET /v1/deployments/{id}/prices lists the intervals newest first in the page envelope", async () => {
    const answer = await get(`/v1/deployments/${GPT4O.id}/prices`);
    expect(answer.status, answer.text).toBe(200);
    const page = PriceIntervalPage.parse(answer.json());
    expect(page.data.map((i) => [i.valid_from, i.valid_to, i.rate_card.input_micro_usd])).toEqual([
      ["2026-06-01", null, 2_500_000],
      ["2025-01-01", "2026-06-01", 5_000_000],
    ]);
    expect(page.meta).toEqual({ total: 2, limit: 100, offset: 0, has_more: false });
    const second = PriceIntervalPage.parse(
      (await get(`/v1/deployments/${GPT4O.id}/prices?limit=1&offset=1`)).json(),
    );
    expect(second.data.map((i) => i.valid_from)).toEqual(["2025-01-01"]);
  });

  it("answers an empty list for a deployment no dated copy prices, 404 for an unknown id, 400 for an unknown parameter", async () => {
    const empty = await get(`/v1/deployments/${GPT35.id}/prices`);
    expect(empty.status).toBe(200);
    expect(empty.json()).toEqual({ data: [], meta: { total: 0, limit: 100, offset: 0, has_more: false } });
    const unknown = await get("/v1/deployments/dep_nobody_nothing_api_global/prices");
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "not_found" });
    expect((await get(`/v1/deployments/${GPT4O.id}/prices?at=2026-01-01`)).status).toBe(400);
  });

  it("answers 304 to its own ETag", async () => {
    const first = await get(`/v1/deployments/${GPT4O.id}/prices`);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await get(`/v1/deployments/${GPT4O.id}/prices`, { "if-none-match": etag })).status).toBe(304);
  });

  it("compare with `at` prices each deployment with the interval valid that day and omits one without a price then", async () => {
    const usage = { input_tokens: 1_000_000, output_tokens: 1_000_000 };
    const then = CompareResponse.parse(
      (
        await post("/v1/deployments/compare", {
          deployment_ids: [GPT4O.id, CLAUDE.id],
          usage,
          at: "2025-06-01",
        })
      ).json(),
    );
    expect(then.data.map((d) => [d.deployment.id, d.pricing.total_usd])).toEqual([[GPT4O.id, "20.000000"]]);
    const dayItChanged = CompareResponse.parse(
      (await post("/v1/deployments/compare", { deployment_ids: [GPT4O.id], usage, at: "2026-06-01" })).json(),
    );
    expect(dayItChanged.data.map((d) => d.pricing.total_usd)).toEqual(["12.500000"]);
    const now = CompareResponse.parse(
      (await post("/v1/deployments/compare", { deployment_ids: [GPT4O.id, CLAUDE.id], usage })).json(),
    );
    expect(now.data.map((d) => d.deployment.id).sort()).toEqual([GPT4O.id, CLAUDE.id].sort());
  });

  it("calculate with `at` uses that day's interval; a day without a known price is 422 naming `at`; a malformed day is 400", async () => {
    const usage = { input_tokens: 2_000_000, output_tokens: 0 };
    const then = await post("/v1/pricing/calculate", { deployment_id: GPT4O.id, usage, at: "2025-12-31" });
    expect(then.status, then.text).toBe(200);
    expect(then.json().pricing.total_usd).toBe("10.000000");
    const before = await post("/v1/pricing/calculate", { deployment_id: GPT4O.id, usage, at: "2024-12-31" });
    expect(before.status).toBe(422);
    expect(before.json()).toMatchObject({ code: "not_priceable", errors: [{ parameter: "at" }] });
    const bad = await post("/v1/pricing/calculate", { deployment_id: GPT4O.id, usage, at: "2025-13-01" });
    expect(bad.status).toBe(400);
  });
});
