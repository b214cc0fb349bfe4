/**
 * Release history and browsing over HTTP, on two real releases built from the recorded
 * captures: A, then B where Claude Opus 4.7's input price went from $5 to $6.
 */
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaptureMeta } from "../../src/collect/definitions.js";
import { loadSourceDefinitions, writeCapture } from "../../src/collect/index.js";
import { fixedClock } from "../../src/lib/clock.js";
import { sha256Hex } from "../../src/lib/hash.js";
import { silentLogger } from "../../src/lib/logger.js";
import { runBuild } from "../../src/pipeline/build.js";
import { diffReleases, loadRelease } from "../../src/release/index.js";
import { type Deployment, Model, Provider, ReleaseDiff } from "../../src/schema/index.js";
import { type RunningServer, startServer } from "../../src/serve/index.js";
import { SOURCES_DIR } from "../helpers/captures.js";
import { copyCommittedSnapshots } from "../helpers/committed-release.js";
import { type Answer, call } from "./support/harness.js";

const OPUS = "dep_anthropic_claude-opus-4-7_api_global";

describe("release history and browsing over HTTP", () => {
  let work: string;
  let snapshots: string;
  let server: RunningServer;
  let releaseA: string;
  let releaseB: string;
  const get = (path: string, headers?: Record<string, string>): Promise<Answer> =>
    call(server.url, "GET", path, { headers });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "catalog-history-"));
    const sources = join(work, "sources");
    snapshots = join(work, "snapshots");
    await cp(SOURCES_DIR, sources, { recursive: true });
    const build = (now: string) =>
      runBuild({
        sourcesDir: sources,
        snapshotsDir: snapshots,
        offline: true,
        clock: fixedClock(now),
        logger: silentLogger,
      });
    // the first release is the committed one (build.test.ts holds it to be this build at 2026-11-23)
    releaseA = await copyCommittedSnapshots(snapshots);
    const { definitions } = await loadSourceDefinitions(sources);
    const pricing = definitions.find((d) => d.provider_id === "anthropic" && d.name === "pricing");
    if (!pricing) throw new Error("no anthropic pricing source");
    const dir = join(sources, "anthropic", "captures", "pricing");
    const meta = JSON.parse(await readFile(join(dir, "CURRENT.json"), "utf8")) as CaptureMeta;
    const text = (await readFile(join(dir, meta.file), "utf8")).replace(
      /^\| Claude Opus 4\.7 +\| \$5 \/ MTok /m,
      (row) => row.replace("$5 / MTok", "$6 / MTok"),
    );
    await writeCapture(sources, pricing, {
      content: text,
      sha256: sha256Hex(text),
      url: meta.url,
      fetchedAt: "2026-11-24T00:00:00Z",
      httpStatus: 200,
      contentType: meta.content_type,
      etag: null,
      lastModified: null,
    });
    releaseB = (await build("2026-11-24T00:00:00Z")).release_id as string;
    expect(releaseB).not.toBe(releaseA);
    server = await startServer({
      snapshotsDir: snapshots,
      host: "127.0.0.1",
      port: 0,
      watchLatest: false,
      quotaFile: join(work, "quota.json"),
      logger: silentLogger,
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await rm(work, { recursive: true, force: true });
  });

  it("GET /v1/releases lists the chain newest first; GET /v1/releases/{id} is one item", async () => {
    const list = await get("/v1/releases");
    expect(list.status).toBe(200);
    const body = list.json();
    expect(body.meta).toEqual({ total: 2, limit: 100, offset: 0, has_more: false });
    expect(body.data.map((r: { id: string }) => r.id)).toEqual([releaseB, releaseA]);
    expect(body.data[0]).toMatchObject({ created_at: "2026-11-24T00:00:00Z", previous_release_id: releaseA });
    expect(body.data[1].previous_release_id).toBeNull();
    const one = await get(`/v1/releases/${releaseA}`);
    expect(one.json()).toEqual(body.data[1]);
    expect((await get("/v1/releases/rel_0000")).status).toBe(404);
    expect((await get("/v1/releases?limit=1&offset=1")).json().data[0].id).toBe(releaseA);
  });

  it("GET /v1/releases/{id}/diff is what `catalog diff` computes, and matches the published schema", async () => {
    const answer = await get(`/v1/releases/${releaseB}/diff`);
    expect(answer.status).toBe(200);
    const diff = ReleaseDiff.parse(answer.json());
    const { diff: computed } = await diffReleases(snapshots, releaseA, releaseB);
    expect(diff).toEqual(JSON.parse(JSON.stringify(computed)));
    expect(diff.price_changes).toContainEqual(
      expect.objectContaining({ deployment_id: OPUS, component: "input", old: 5_000_000, new: 6_000_000 }),
    );
    const first = ReleaseDiff.parse((await get(`/v1/releases/${releaseA}/diff`)).json());
    expect(first.from_release_id).toBeNull();
    expect(first.to_release_id).toBe(releaseA);
  });

  it("GET /v1/deployments/{id}/history: one entry per release that changed it, newest first, naming the change", async () => {
    const answer = await get(`/v1/deployments/${OPUS}/history`);
    expect(answer.status).toBe(200);
    const { data, meta } = answer.json() as {
      data: Array<{
        release_id: string;
        change: string[];
        before: Deployment | null;
        after: Deployment | null;
      }>;
      meta: { total: number };
    };
    expect(meta.total).toBe(2);
    expect(data.map((e) => [e.release_id, e.change])).toEqual([
      [releaseB, ["rate_card"]],
      [releaseA, ["added"]],
    ]);
    expect(data[0]?.before?.rate_card?.input_micro_usd).toBe(5_000_000);
    expect(data[0]?.after?.rate_card?.input_micro_usd).toBe(6_000_000);
    expect(data[1]?.before).toBeNull();
    // Same field order as GET /v1/deployments/{id}.
    const current = await get(`/v1/deployments/${OPUS}`);
    expect(JSON.stringify(data[0]?.after)).toBe(current.text);

    // A deployment nothing happened to since A has only its "added" entry.
    const { catalog } = await loadRelease(snapshots, releaseA);
    const quiet = catalog.deployments.find((d) => d.provider_id === "openai") as Deployment;
    expect(
      (await get(`/v1/deployments/${quiet.id}/history`))
        .json()
        .data.map((e: { change: string[] }) => e.change),
    ).toEqual([["added"]]);
    const unknown = await get("/v1/deployments/dep_nobody_nothing_api_global/history");
    expect(unknown.status).toBe(404);
    expect(unknown.json().code).toBe("not_found");
    expect((await get(`/v1/deployments/${OPUS}/history?limit=0`)).status).toBe(400);
  });

  it("GET /v1/providers and /v1/models carry each lifecycle record and summary, ordered by id, models filtered by provider", async () => {
    const providers = (await get("/v1/providers")).json();
    const ids = providers.data.map((p: { id: string }) => p.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toContain("anthropic");
    for (const p of providers.data) Provider.parse(p);
    const { catalog } = await loadRelease(snapshots);
    const record = catalog.lifecycle.find(
      (r) => r.resource_type === "provider" && r.resource_id === "anthropic",
    );
    expect(providers.data.find((p: { id: string }) => p.id === "anthropic")).toEqual({
      id: "anthropic",
      lifecycle: record?.lifecycle,
      summary: record?.summary,
    });

    const models = (await get("/v1/models?provider=anthropic&limit=500")).json();
    expect(models.meta.total).toBeGreaterThan(10);
    for (const m of models.data) {
      Model.parse(m);
      expect(m.provider_ids).toContain("anthropic");
    }
    const modelIds = models.data.map((m: { id: string }) => m.id);
    expect(modelIds).toEqual([...modelIds].sort());
    const plain = await get("/v1/models/anthropic/claude-opus-4-7");
    const encoded = await get("/v1/models/anthropic%2Fclaude-opus-4-7");
    expect(plain.status).toBe(200);
    expect(encoded.text).toBe(plain.text);
    expect(plain.json().provider_ids).toContain("anthropic");
    expect((await get("/v1/models/anthropic/nothing")).status).toBe(404);
    expect((await get("/v1/models?provider=anthropic&provider=openai")).status).toBe(400);
  });

  it("/v1/deployments takes a repeatable status and sorts by price or context, nulls last in both orders, ties by id", async () => {
    const { catalog } = await loadRelease(snapshots);
    const statuses = ["deprecated", "retired"];
    const all = await get("/v1/deployments?status=deprecated&status=retired&limit=500");
    expect(all.json().meta.total).toBe(catalog.deployments.filter((d) => statuses.includes(d.status)).length);
    for (const d of all.json().data) expect(statuses).toContain(d.status);

    for (const [sort, value] of [
      ["input_price", (d: Deployment) => d.rate_card?.input_micro_usd ?? null],
      ["output_price", (d: Deployment) => d.rate_card?.output_micro_usd ?? null],
      ["context_tokens", (d: Deployment) => d.context_tokens],
    ] as const) {
      for (const descending of [false, true]) {
        const expected = [...catalog.deployments]
          .filter((d) => d.provider_id === "anthropic")
          .sort((a, b) => {
            const va = value(a);
            const vb = value(b);
            if (va !== vb) {
              if (va === null) return 1;
              if (vb === null) return -1;
              return descending ? vb - va : va - vb;
            }
            return a.id < b.id ? -1 : 1;
          })
          .map((d) => d.id);
        const answer = await get(
          `/v1/deployments?provider=anthropic&sort=${descending ? "-" : ""}${sort}&limit=500`,
        );
        expect(answer.json().data.map((d: Deployment) => d.id)).toEqual(expected);
      }
    }
    const bad = await get("/v1/deployments?sort=price&status=gone");
    expect(bad.status).toBe(400);
    expect(
      bad
        .json()
        .errors.map((e: { parameter: string }) => e.parameter)
        .sort(),
    ).toEqual(["sort", "status"]);
    expect((await get("/v1/deployments?sort=id&sort=-id")).status).toBe(400);
  });

  it("the new routes follow the ETag, 304, HEAD, quota and strict-parameter rules of the others", async () => {
    for (const path of [
      "/v1/providers",
      "/v1/models",
      "/v1/releases",
      `/v1/releases/${releaseB}/diff`,
      `/v1/deployments/${OPUS}/history`,
    ]) {
      const first = await get(path);
      expect(first.status).toBe(200);
      expect(first.headers.etag).toMatch(/^"[0-9a-f]{40}"$/);
      expect(first.headers["cache-control"]).toBe("no-cache");
      expect(first.headers["x-svc-catalog-release"]).toBe(releaseB);
      const remaining = Number(first.headers["x-ratelimit-remaining"]);
      const again = await get(path, { "if-none-match": first.headers.etag as string });
      expect(again.status).toBe(304);
      expect(Number(again.headers["x-ratelimit-remaining"])).toBe(remaining);
      const head = await call(server.url, "HEAD", path);
      expect(head.status).toBe(200);
      expect(head.headers.etag).toBe(first.headers.etag);
      expect(head.body.length).toBe(0);
      const unknown = await get(`${path}?nope=1`);
      expect(unknown.status).toBe(400);
      expect(unknown.json().errors).toEqual([{ parameter: "nope", message: "is not a known parameter" }]);
    }
  });
});
