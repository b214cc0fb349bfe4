/**
 * Deployment history over a chain of fixture releases in which every kind of change happens
 * (added, removed, re-added, each aspect alone, several at once, and changes that are none:
 * re-observed prices, new evidence), over real HTTP: each answer is byte for byte the envelope
 * of `{release_id, created_at, change, before, after}` a plain walk over the parsed catalogs
 * gives. Releases from before serve-index.json (read whole) sit in the chain beside indexed
 * ones. Then an older release that is damaged (left out of the chain), or damaged after the
 * chain was verified, or pruned; and
 * the cap on the records a served release keeps.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/lib/canonical-json.js";
import { deploymentId } from "../../src/lib/ids.js";
import { readManifest } from "../../src/release/artifact.js";
import { type CatalogContent, Deployment } from "../../src/schema/index.js";
import { type RunningServer, startServer } from "../../src/serve/index.js";
import { objectPath, releaseDir, SERVE_INDEX_FILE } from "../../src/snapshot/index.js";
import { CATALOG_FILE } from "../../src/snapshot/manifest.js";
import { CREATED, DEPLOYMENTS, dep, fixtureCatalog, publishFixture } from "./support/fixture.js";
import {
  call,
  captureLogger,
  makeTempDir,
  serverOptions,
  startTestServer,
  type TestServer,
} from "./support/harness.js";

const GPT4O = dep("gpt-4o").id;
const GPT4O_BATCH = dep("gpt-4o", "global", "batch").id;
const GPT35 = dep("gpt-3.5-turbo").id;
const SONNET = dep("claude-sonnet-4").id;
const BEDROCK_EU = dep("anthropic.claude-sonnet-4-v1:0", "eu-central-1").id;
const BEDROCK_US = dep("anthropic.claude-sonnet-4-v1:0", "us-east-1").id;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()?.();
});

type Edit = (d: Deployment) => Deployment;

/** The catalog of `deployments` with the edits applied by id. */
function catalogOf(deployments: readonly Deployment[], edits: Record<string, Edit> = {}): CatalogContent {
  return fixtureCatalog({ deployments: deployments.map((d) => edits[d.id]?.(d) ?? d) });
}

const byId = (c: CatalogContent, id: string) => c.deployments.find((d) => d.id === id);

/**
 * The chain, oldest first, and the change each release made to each deployment it changed
 * (the expected `change` lists, written out by hand).
 */
function chainOfChanges(): Array<{ catalog: CatalogContent; changes: Record<string, string[]> }> {
  const r1 = catalogOf(DEPLOYMENTS.filter((d) => d.id !== BEDROCK_US));
  const r2 = catalogOf(
    DEPLOYMENTS.filter((d) => d.id !== SONNET),
    {
      [GPT4O]: (d) => ({ ...d, rate_card: d.rate_card && { ...d.rate_card, input_micro_usd: 2_000_000 } }),
      [GPT4O_BATCH]: (d) => ({ ...d, context_tokens: 64_000 }),
      [GPT35]: (d) => ({
        ...d,
        capabilities: {
          ...d.capabilities,
          structured_output: { status: "supported", verification_status: "official_declared" },
        },
      }),
      // status must equal lifecycle.status: a status change is a lifecycle change too
      [BEDROCK_EU]: (d) => ({
        ...d,
        status: "available",
        lifecycle: { ...d.lifecycle, status: "available" },
      }),
    },
  );
  const r3 = catalogOf(DEPLOYMENTS, {
    ...Object.fromEntries(r2.deployments.map((d) => [d.id, () => d])),
    // re-observed at the same prices, with new evidence: no change
    [GPT4O]: () => {
      const d = byId(r2, GPT4O) as Deployment;
      return {
        ...d,
        rate_card: d.rate_card && { ...d.rate_card, observed_at: "2026-11-22T12:00:00Z" },
        evidence_urls: [...d.evidence_urls, "https://example.com/more-evidence"],
      };
    },
    [GPT4O_BATCH]: () => {
      const d = byId(r2, GPT4O_BATCH) as Deployment;
      return {
        ...d,
        status: "deprecated",
        lifecycle: { ...d.lifecycle, status: "deprecated" },
        max_output_tokens: 8_192,
        rate_card: d.rate_card && { ...d.rate_card, output_micro_usd: 6_000_000 },
      };
    },
    [BEDROCK_US]: (d) => ({
      ...d,
      lifecycle: { ...d.lifecycle, end_of_life: { ...d.lifecycle.end_of_life, date: "2027-01-31" } },
    }),
  });
  const r4 = catalogOf(r3.deployments, {
    [GPT35]: (d) => ({ ...d, lifecycle: { ...d.lifecycle, replacement_ids: [GPT4O, GPT4O_BATCH] } }),
    // a new last_changed_at and reordered evidence alone are no change
    [BEDROCK_US]: (d) => ({
      ...d,
      lifecycle: {
        ...d.lifecycle,
        last_changed_at: "2026-11-22T00:00:00Z",
        end_of_life: {
          ...d.lifecycle.end_of_life,
          evidence: d.lifecycle.end_of_life.evidence.map((e) => ({
            ...e,
            observed_at: "2026-11-22T00:00:00Z",
          })),
        },
      },
    }),
  });
  return [
    { catalog: r1, changes: Object.fromEntries(r1.deployments.map((d) => [d.id, ["added"]])) },
    {
      catalog: r2,
      changes: {
        [BEDROCK_US]: ["added"],
        [SONNET]: ["removed"],
        [GPT4O]: ["rate_card"],
        [GPT4O_BATCH]: ["limits"],
        [GPT35]: ["capabilities"],
        [BEDROCK_EU]: ["status", "lifecycle"],
      },
    },
    {
      catalog: r3,
      changes: {
        [SONNET]: ["added"],
        [GPT4O_BATCH]: ["rate_card", "limits", "status", "lifecycle"],
        [BEDROCK_US]: ["lifecycle"],
      },
    },
    { catalog: r4, changes: { [GPT35]: ["lifecycle"] } },
  ];
}

/** A deployment as the API serves it from a release: stored as canonical JSON, then through its schema. */
const stored = (d: Deployment) => Deployment.parse(JSON.parse(canonicalJson(d)));

/** What GET /v1/deployments/{id}/history answers, built from the catalogs themselves. */
function expectedHistory(
  chain: ReturnType<typeof chainOfChanges>,
  ids: string[],
  id: string,
  page: { limit: number; offset: number } = { limit: 100, offset: 0 },
): string {
  const entries: unknown[] = [];
  for (let i = chain.length - 1; i >= 0; i--) {
    const { catalog, changes } = chain[i] as (typeof chain)[number];
    const change = changes[id];
    if (!change) continue;
    const before = i === 0 ? undefined : byId((chain[i - 1] as (typeof chain)[number]).catalog, id);
    const after = byId(catalog, id);
    entries.push({
      release_id: ids[i],
      created_at: CREATED,
      change,
      before: before ? stored(before) : null,
      after: after ? stored(after) : null,
    });
  }
  const data = entries.slice(page.offset, page.offset + page.limit);
  return JSON.stringify({
    data,
    meta: { total: entries.length, ...page, has_more: page.offset + page.limit < entries.length },
  });
}

async function serve(snapshotsDir: string, dir: string, recordCache?: number): Promise<RunningServer> {
  const server = await startServer({ ...serverOptions(snapshotsDir, dir), noQuota: true, recordCache });
  cleanup.push(() => server.close());
  return server;
}

async function tempDir(): Promise<string> {
  const dir = await makeTempDir("history-chain-");
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Publishes the catalogs as a chain, oldest first, each in its format; the release ids. */
async function publishChain(
  snapshotsDir: string,
  catalogs: Array<{ catalog: CatalogContent; format: "indexed" | "catalog-only" }>,
): Promise<string[]> {
  const ids: string[] = [];
  for (const { catalog, format } of catalogs)
    ids.push(await publishFixture(snapshotsDir, catalog, ids.at(-1) ?? null, format));
  return ids;
}

describe("deployment history over a chain with every kind of change", () => {
  it("answers every deployment's history byte for byte as a walk over the parsed catalogs gives it, whatever each release's format", async () => {
    const dir = await tempDir();
    const snapshots = join(dir, "snapshots");
    const chain = chainOfChanges();
    const formats = ["catalog-only", "indexed", "indexed", "catalog-only"] as const;
    const ids = await publishChain(
      snapshots,
      chain.map(({ catalog }, i) => ({ catalog, format: formats[i] as (typeof formats)[number] })),
    );
    // the same chain with every release indexed, the served one read from its spans
    const indexedSnapshots = join(dir, "indexed");
    const indexedIds = await publishChain(
      indexedSnapshots,
      chain.map(({ catalog }) => ({ catalog, format: "indexed" as const })),
    );
    for (const [snapshotsDir, releaseIds] of [
      [snapshots, ids],
      [indexedSnapshots, indexedIds],
    ] as const) {
      const server = await serve(snapshotsDir, dir);
      for (const d of DEPLOYMENTS) {
        const answer = await call(server.url, "GET", `/v1/deployments/${d.id}/history`);
        expect(answer.status, d.id).toBe(200);
        expect(answer.text, d.id).toBe(expectedHistory(chain, releaseIds, d.id));
      }
      const page = await call(server.url, "GET", `/v1/deployments/${GPT4O_BATCH}/history?limit=1&offset=1`);
      expect(page.text).toBe(expectedHistory(chain, releaseIds, GPT4O_BATCH, { limit: 1, offset: 1 }));
      const never = await call(server.url, "GET", "/v1/deployments/dep_nobody_nothing_api_global/history");
      expect(never.status).toBe(404);
    }
    // the oracle names every kind of change at least once
    const kinds = new Set(chain.flatMap(({ changes }) => Object.values(changes).flat()));
    expect([...kinds].sort()).toEqual(
      ["added", "capabilities", "lifecycle", "limits", "rate_card", "removed", "status"].sort(),
    );
  });
});

/** `count` deployments, copies of the fixture's in regions of their own (catalogs of several MiB). */
function manyDeployments(count: number): Deployment[] {
  return Array.from({ length: count }, (_, i) => {
    const d = DEPLOYMENTS[i % DEPLOYMENTS.length] as Deployment;
    const region = `region-${String(i).padStart(5, "0")}`;
    return {
      ...d,
      region,
      id: deploymentId({ ...d, region }),
    };
  }).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

describe("deployment history over catalogs larger than a read window", () => {
  it("compares and keeps every record right when the walk reads each catalog in many windows", async () => {
    const dir = await tempDir();
    const snapshots = join(dir, "snapshots");
    const all = manyDeployments(4_000);
    const r1 = catalogOf(all.filter((_, i) => i % 13 !== 0));
    const r2 = catalogOf(
      all.filter((_, i) => i % 11 !== 0),
      Object.fromEntries(
        all
          .filter((_, i) => i % 7 === 0)
          .map((d) => [
            d.id,
            (x: Deployment) =>
              ({
                ...x,
                context_tokens: (x.context_tokens ?? 1_000) + 1,
                // a known limit has a provenance (the schema holds them together)
                provenance: {
                  ...x.provenance,
                  context_tokens: x.provenance.context_tokens ?? x.provenance.listing,
                },
              }) as Deployment,
          ]),
      ),
    );
    const r3 = catalogOf(r2.deployments, {
      ...Object.fromEntries(
        r2.deployments
          .filter((_, i) => i % 5 === 0)
          .map((d) => [
            d.id,
            (x: Deployment) => ({ ...x, rate_card: x.rate_card && { ...x.rate_card, output_micro_usd: 1 } }),
          ]),
      ),
    });
    expect(canonicalJson(r1).length).toBeGreaterThan(4 << 20);
    const changesOf = (older: CatalogContent | null, newer: CatalogContent) => {
      const changes: Record<string, string[]> = {};
      const before = new Map(older?.deployments.map((d) => [d.id, d]));
      const after = new Map(newer.deployments.map((d) => [d.id, d]));
      for (const [id, d] of after) {
        const b = before.get(id);
        if (!b) changes[id] = ["added"];
        else {
          const change = [
            ...(canonicalJson(b.rate_card) !== canonicalJson(d.rate_card) ? ["rate_card"] : []),
            ...(b.context_tokens !== d.context_tokens ? ["limits"] : []),
          ];
          if (change.length > 0) changes[id] = change;
        }
      }
      for (const id of before.keys()) if (!after.has(id)) changes[id] = ["removed"];
      return changes;
    };
    const chain = [
      { catalog: r1, changes: changesOf(null, r1) },
      { catalog: r2, changes: changesOf(r1, r2) },
      { catalog: r3, changes: changesOf(r2, r3) },
    ];
    const ids = await publishChain(
      snapshots,
      chain.map(({ catalog }) => ({ catalog, format: "indexed" as const })),
    );
    const server = await serve(snapshots, dir);
    // every deployment in the last windows of each catalog, and a sample of the rest
    const sample = all.filter((_, i) => i % 17 === 0 || i >= all.length - 60);
    for (const d of sample) {
      const answer = await call(server.url, "GET", `/v1/deployments/${d.id}/history`);
      const expected = expectedHistory(chain, ids, d.id);
      // a deployment no release held (dropped from the first and from the second) is not found
      if (JSON.parse(expected).meta.total === 0) expect(answer.status, d.id).toBe(404);
      else expect(answer.text, d.id).toBe(expected);
    }
  });
});

describe("an older release that is damaged, or pruned", () => {
  async function twoReleases(): Promise<{ dir: string; snapshots: string; first: string; second: string }> {
    const dir = await tempDir();
    const snapshots = join(dir, "snapshots");
    const [r1, r2] = chainOfChanges();
    const [first, second] = await publishChain(snapshots, [
      { catalog: (r1 as { catalog: CatalogContent }).catalog, format: "indexed" },
      { catalog: (r2 as { catalog: CatalogContent }).catalog, format: "indexed" },
    ]);
    return { dir, snapshots, first: first as string, second: second as string };
  }

  /** Three releases (the first three of chainOfChanges), the server on them and its log. */
  async function threeReleases() {
    const dir = await tempDir();
    const snapshots = join(dir, "snapshots");
    const [first, second, third] = (await publishChain(
      snapshots,
      chainOfChanges()
        .slice(0, 3)
        .map(({ catalog }) => ({ catalog, format: "indexed" as const })),
    )) as [string, string, string];
    return { dir, snapshots, first, second, third };
  }

  async function serveLogged(snapshots: string, dir: string) {
    const log = captureLogger();
    const server = await startServer({ ...serverOptions(snapshots, dir), noQuota: true, logger: log.logger });
    cleanup.push(() => server.close());
    return { server, log };
  }

  const damages: Array<[string, (snapshots: string, id: string) => Promise<void>]> = [
    [
      "one field of its manifest changed",
      async (snapshots, id) => {
        const path = join(releaseDir(snapshots, id), "manifest.json");
        const manifest = JSON.parse(await readFile(path, "utf8"));
        manifest.counts.deployments += 1;
        await writeFile(path, JSON.stringify(manifest));
      },
    ],
    [
      "its catalog.json deleted",
      async (snapshots, id) =>
        rm(objectPath(snapshots, (await readManifest(snapshots, id)).files[CATALOG_FILE]?.sha256 as string)),
    ],
    [
      "one byte of its serve-index.json altered",
      async (snapshots, id) => {
        const path = objectPath(
          snapshots,
          (await readManifest(snapshots, id)).files[SERVE_INDEX_FILE]?.sha256 as string,
        );
        const bytes = await readFile(path);
        bytes[0] = bytes[0] === 0x7b ? 0x20 : 0x7b;
        await writeFile(path, bytes);
      },
    ],
  ];

  it.each(damages)(
    "an oldest release with %s is left out of the chain with a warning; the history routes answer for the rest",
    async (_, damage) => {
      const { dir, snapshots, first, second, third } = await threeReleases();
      const chain = chainOfChanges().slice(0, 3);
      await damage(snapshots, first);
      const { server, log } = await serveLogged(snapshots, dir);
      const releases = await call(server.url, "GET", "/v1/releases");
      expect(releases.status, releases.text).toBe(200);
      expect(releases.json().data.map((r: { id: string }) => r.id)).toEqual([third, second]);
      expect((await call(server.url, "GET", `/v1/releases/${second}`)).status).toBe(200);
      expect((await call(server.url, "GET", `/v1/releases/${first}`)).status).toBe(404);
      // (the fixture releases have no diff.json: only the damaged one's diff is checked)
      expect((await call(server.url, "GET", `/v1/releases/${first}/diff`)).status).toBe(404);
      // third's changes against second are known; second's against the damaged first are not
      const history = await call(server.url, "GET", `/v1/deployments/${GPT4O_BATCH}/history`);
      expect(history.status, history.text).toBe(200);
      const expected = JSON.parse(expectedHistory(chain, [first, second, third], GPT4O_BATCH));
      expect(history.json().data).toEqual(
        expected.data.filter((e: { release_id: string }) => e.release_id === third),
      );
      const warnings = log
        .lines()
        .filter((l) => String(l.msg).startsWith("a release of the served chain is damaged"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.release).toBe(first);
    },
  );

  it("a damaged middle release ends the chain there: only the newer releases are listed", async () => {
    const { dir, snapshots, second, third } = await threeReleases();
    await damages[0]?.[1](snapshots, second);
    const { server } = await serveLogged(snapshots, dir);
    const releases = await call(server.url, "GET", "/v1/releases");
    expect(releases.json().data.map((r: { id: string }) => r.id)).toEqual([third]);
    expect((await call(server.url, "GET", `/v1/deployments/${GPT4O}/history`)).status).toBe(404);
  });

  it("a reload of the same release verifies its chain again: an older release damaged since is left out then", async () => {
    const { dir, snapshots, first, second, third } = await threeReleases();
    const { server, log } = await serveLogged(snapshots, dir);
    const listed = async () =>
      (await call(server.url, "GET", "/v1/releases")).json().data.map((r: { id: string }) => r.id);
    expect(await listed()).toEqual([third, second, first]);
    await damages[1]?.[1](snapshots, first);
    // the chain of the served release is kept until a reload
    expect(await listed()).toEqual([third, second, first]);
    expect(await server.reload()).toBe(third);
    expect(await listed()).toEqual([third, second]);
    expect(log.lines().filter((l) => l.release === first && Number(l.level) === 40)).toHaveLength(1);
  });

  it("a catalog.json damaged after the chain was verified fails history with a 500, not kept: the next request after a repair answers", async () => {
    const { dir, snapshots, first, second } = await twoReleases();
    const server = await serve(snapshots, dir);
    const releases = await call(server.url, "GET", "/v1/releases");
    expect(releases.json().data.map((r: { id: string }) => r.id)).toEqual([second, first]);
    const catalogObject = objectPath(
      snapshots,
      (await readManifest(snapshots, first)).files[CATALOG_FILE]?.sha256 as string,
    );
    const original = await readFile(catalogObject);
    const damaged = Buffer.from(original);
    damaged[damaged.length - 2] = "x".charCodeAt(0);
    await writeFile(catalogObject, damaged);

    const failed = await call(server.url, "GET", `/v1/deployments/${GPT4O}/history`);
    expect(failed.status).toBe(500);
    expect(failed.json().code).toBe("internal_error");

    await writeFile(catalogObject, original);
    const repaired = await call(server.url, "GET", `/v1/deployments/${GPT4O}/history`);
    expect(repaired.status).toBe(200);
    expect(repaired.json().data.map((e: { change: string[] }) => e.change)).toEqual([
      ["rate_card"],
      ["added"],
    ]);
  });

  it("a pruned previous release ends the chain: the served release's changes are unknown, so no deployment has a history", async () => {
    const { dir, snapshots, first, second } = await twoReleases();
    await rm(releaseDir(snapshots, first), { recursive: true });
    const server = await serve(snapshots, dir);
    const releases = await call(server.url, "GET", "/v1/releases");
    expect(releases.json().data.map((r: { id: string }) => r.id)).toEqual([second]);
    expect((await call(server.url, "GET", `/v1/deployments/${GPT4O}/history`)).status).toBe(404);
    expect((await call(server.url, "GET", `/v1/releases/${second}`)).status).toBe(200);
  });
});

describe("the records a served release keeps", () => {
  let t: TestServer;
  afterEach(async () => {
    await t?.stop();
  });

  it("stay within the cap after more records than the cap were read, and the answers are those of an uncapped server", async () => {
    t = await startTestServer({ recordCache: 2 });
    const wide = await startTestServer({ recordCache: 1_000 });
    cleanup.push(() => wide.stop());
    const paths = [
      "/v1/deployments",
      "/v1/lifecycle",
      ...DEPLOYMENTS.map((d) => `/v1/deployments/${d.id}`),
      ...DEPLOYMENTS.map((d) => `/v1/deployments/${d.id}/history`),
    ];
    for (const path of paths) {
      const [capped, uncapped] = [await t.get(path), await wide.get(path)];
      expect(capped.status, path).toBe(200);
      expect(capped.text, path).toBe(uncapped.text);
    }
    expect(DEPLOYMENTS.length).toBeGreaterThan(2);
    expect(t.server.recordCache()).toEqual({ deployments: 2, deploymentJson: 2, lifecycleJson: 2 });
    // the uncapped one kept every record it read
    expect(wide.server.recordCache().deploymentJson).toBe(DEPLOYMENTS.length);
    const none = await startTestServer({ recordCache: 0 });
    cleanup.push(() => none.stop());
    expect((await none.get("/v1/deployments")).text).toBe((await wide.get("/v1/deployments")).text);
    expect(none.server.recordCache()).toEqual({ deployments: 0, deploymentJson: 0, lifecycleJson: 0 });
  });

  it("refuses a cap that is not a whole number", async () => {
    await expect(startTestServer({ recordCache: -1 })).rejects.toMatchObject({ code: "invalid_argument" });
  });
});
