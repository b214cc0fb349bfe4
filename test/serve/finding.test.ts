/**
 * The questions of docs/finding-deployments.md, each one documented request, answered over real
 * HTTP by a server on the committed release and checked against the same release's records
 * computed independently here.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogContent, Deployment, LifecycleStatus } from "../../src/schema/index.js";
import { createKey, startServer } from "../../src/serve/index.js";
import { committedRelease, copyCommittedSnapshots } from "../helpers/committed-release.js";
import { type Answer, call, captureLogger, makeTempDir } from "./support/harness.js";

let catalog: CatalogContent;
let server: Awaited<ReturnType<typeof startServer>>;
let dir: string;
let authorization: string;
const get = (path: string): Promise<Answer> => call(server.url, "GET", path);
const post = (path: string, body: unknown): Promise<Answer> =>
  call(server.url, "POST", path, {
    headers: { "content-type": "application/json", authorization },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  catalog = (await committedRelease()).catalog;
  dir = await makeTempDir();
  const keysFile = join(dir, "keys.json");
  authorization = `Bearer ${(await createKey(keysFile, "acme", "pro")).key}`;
  // A copy holding the committed release alone: what a user's build left in snapshots/ is never served.
  const snapshotsDir = join(dir, "snapshots");
  await copyCommittedSnapshots(snapshotsDir);
  server = await startServer({
    snapshotsDir,
    host: "127.0.0.1",
    port: 0,
    watchLatest: false,
    noQuota: true,
    keysFile,
    logger: captureLogger().logger,
  });
}, 60_000);

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe("finding deployments on the committed release", () => {
  it("the 5 cheapest deployments with vision and tool calling and at least 128k context: one request", async () => {
    const answer = await get(
      "/v1/deployments?capability=vision&capability=tool_calling&min_context_tokens=128000&sort=input_price&limit=5",
    );
    expect(answer.status, answer.text).toBe(200);
    const expected = catalog.deployments
      .filter(
        (d) =>
          d.capabilities.vision?.status === "supported" &&
          d.capabilities.tool_calling?.status === "supported" &&
          d.context_tokens !== null &&
          d.context_tokens >= 128_000,
      )
      .sort(
        (a, b) =>
          (a.rate_card?.input_micro_usd ?? Number.POSITIVE_INFINITY) -
            (b.rate_card?.input_micro_usd ?? Number.POSITIVE_INFINITY) || byId(a, b),
      );
    expect(expected.length).toBeGreaterThan(5);
    const body = answer.json() as { data: Deployment[]; meta: { total: number } };
    expect(body.meta.total).toBe(expected.length);
    expect(body.data.map((d) => d.id)).toEqual(expected.slice(0, 5).map((d) => d.id));
  });

  it("deployments priced at or under $1 input and $5 output per million tokens with 64k output: one request", async () => {
    const answer = await get(
      "/v1/deployments?max_input_price=1000000&max_output_price=5000000&min_max_output_tokens=64000&limit=500",
    );
    expect(answer.status, answer.text).toBe(200);
    const expected = catalog.deployments.filter(
      (d) =>
        d.rate_card !== null &&
        d.rate_card.input_micro_usd !== null &&
        d.rate_card.input_micro_usd <= 1_000_000 &&
        d.rate_card.output_micro_usd !== null &&
        d.rate_card.output_micro_usd <= 5_000_000 &&
        d.max_output_tokens !== null &&
        d.max_output_tokens >= 64_000,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect((answer.json() as { data: Deployment[] }).data.map((d) => d.id)).toEqual(
      [...expected].sort(byId).map((d) => d.id),
    );
  });

  it("the latest Claude Sonnet with a stated release day: one request", async () => {
    const answer = await get("/v1/models?q=claude-sonnet&sort=-released_at&limit=1");
    expect(answer.status, answer.text).toBe(200);
    const [latest] = answer.json().data;
    const dated = catalog.lifecycle
      .filter(
        (r) =>
          r.resource_type === "model" &&
          r.resource_id.includes("claude-sonnet") &&
          typeof r.summary?.released_at === "string",
      )
      .sort((a, b) => ((a.summary?.released_at as string) > (b.summary?.released_at as string) ? -1 : 1));
    expect(latest.id).toBe(dated[0]?.resource_id);
    // the Bedrock model card of Claude Sonnet 5: "Model launch date: June 30, 2026" (Sonnet 4.6,
    // Feb 17, 2026, came first while no page stating Sonnet 5's day was recorded)
    expect(latest).toMatchObject({
      id: "anthropic/claude-sonnet-5",
      summary: { released_at: "2026-06-30" },
    });
  });

  it("/v1/models sorts by released_at with models without a stated day last in both orders, and refuses other sorts", async () => {
    for (const sort of ["released_at", "-released_at"]) {
      const data = (await get(`/v1/models?q=anthropic&sort=${sort}&limit=500`)).json().data as Array<{
        id: string;
        summary: { released_at?: string | null };
      }>;
      const days = data.map((m) => m.summary.released_at ?? null);
      const known = days.filter((d): d is string => d !== null);
      expect(known.length).toBeGreaterThan(1);
      expect(days.slice(0, known.length)).toEqual(known);
      const sorted = [...known].sort();
      expect(known).toEqual(sort === "released_at" ? sorted : sorted.reverse());
      expect(data.every((m) => m.id.includes("anthropic"))).toBe(true);
    }
    const bad = await get("/v1/models?sort=released");
    expect(bad.status).toBe(400);
    expect(bad.json().errors.map((e: { parameter: string }) => e.parameter)).toEqual(["sort"]);
  });

  it("no model is unknown while one of its deployments has a status; each is the first of the precedence", async () => {
    const order: LifecycleStatus[] = ["available", "preview", "legacy", "deprecated", "retired"];
    const statuses = new Map<string, Set<LifecycleStatus>>();
    for (const d of catalog.deployments) {
      const set = statuses.get(d.model_id) ?? new Set();
      set.add(d.status);
      statuses.set(d.model_id, set);
    }
    const models: Array<{ id: string; lifecycle: { status: LifecycleStatus } }> = [];
    for (let offset = 0; ; offset += 500) {
      const page = (await get(`/v1/models?limit=500&offset=${offset}`)).json();
      models.push(...page.data);
      if (!page.meta.has_more) break;
    }
    // every model with a deployment is listed (a model without one, known only from a
    // model-scope assertion, keeps what that assertion says)
    const deployed = models.filter((m) => statuses.has(m.id));
    expect(deployed.length).toBe(statuses.size);
    // where every deployment is unknown, the model's own assertions speak (a passed fixed end of
    // life makes it retired), so only those models may differ from the precedence
    let ownAssertions = 0;
    for (const m of deployed) {
      const own = statuses.get(m.id) ?? new Set();
      const first = order.find((s) => own.has(s));
      if (first === undefined) ownAssertions += 1;
      else expect(m.lifecycle.status, m.id).toBe(first);
    }
    expect(ownAssertions).toBeLessThan(deployed.length);
    const available = await get("/v1/models?limit=500");
    expect(
      available
        .json()
        .data.some((m: { lifecycle: { status: string } }) => m.lifecycle.status === "available"),
    ).toBe(true);
  });

  it("10M input tokens as 100 requests are priced at the base rates of a card with a long-context tier", async () => {
    const id = "dep_google_gemini-2.5-pro_gemini-api_global";
    const card = catalog.deployments.find((d) => d.id === id)?.rate_card;
    const tier = card?.tiers?.[0];
    if (!card || !tier || card.input_micro_usd === null || card.output_micro_usd === null)
      throw new Error(`${id} has no tiered rate card in the committed release`);
    const usage = { input_tokens: 10_000_000, output_tokens: 1_000_000 };
    const many = await post("/v1/pricing/calculate", {
      deployment_id: id,
      usage: { ...usage, requests: 100 },
    });
    expect(many.status, many.text).toBe(200);
    expect(many.json().pricing).toMatchObject({ requests: 100, tier_above_input_tokens: null });
    const base = 10n * BigInt(card.input_micro_usd) + 1n * BigInt(card.output_micro_usd);
    expect(many.json().pricing.total_usd).toBe(
      `${base / 1_000_000n}.${String(base % 1_000_000n).padStart(6, "0")}`,
    );
    const one = await post("/v1/pricing/calculate", { deployment_id: id, usage });
    expect(one.json().pricing).toMatchObject({
      requests: 1,
      tier_above_input_tokens: tier.above_input_tokens,
    });
  });
});
