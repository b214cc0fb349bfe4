import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type CollectOptions,
  type CollectResult,
  captureDir,
  collectSources,
  deriveSourceStates,
  extractMonitored,
  formatCollectSummary,
  loadSourceDefinitions,
  readCaptureMeta,
  refusesToPublish,
  type SourceOutcome,
  writeCapture,
} from "../../src/collect/index.js";
import { fixedClock } from "../../src/lib/clock.js";
import { sha256Hex } from "../../src/lib/hash.js";
import { silentLogger } from "../../src/lib/logger.js";
import type { SourceDefinition, SourceState } from "../../src/schema/index.js";
import { defined } from "../helpers/defined.js";
import { definition, type TempSources, tempSourcesDir, writeDefinition } from "./fixtures.js";
import { startServer, type TestServer } from "./server.js";

let temp: TempSources;
beforeEach(async () => {
  temp = await tempSourcesDir();
});
afterEach(async () => {
  await temp.cleanup();
});

function options(overrides: Partial<CollectOptions> & Pick<CollectOptions, "definitions">): CollectOptions {
  return {
    sourcesDir: temp.dir,
    offline: true,
    clock: fixedClock("2026-11-22T12:00:00Z"),
    logger: silentLogger,
    previousStates: [],
    progress: false,
    fetcher: {
      allowLoopback: true,
      perHostIntervalMs: 0,
      retries: 1,
      sleep: async () => {},
      random: () => 0,
    },
    ...overrides,
  };
}

function page(price: string, nonce = "n1"): string {
  return `<html><body><script nonce="${nonce}">var t="${nonce}"</script><table class="prices"><tr><td>gpt</td><td>${price}</td></tr></table></body></html>`;
}

/** What the orchestrator turns collect results into (parsing always succeeds here). */
function outcomes(results: CollectResult[]): SourceOutcome[] {
  return results
    .filter((r) => r.status !== "skipped")
    .map((r) => ({
      source: r.source,
      ok: r.status !== "failed",
      httpStatus: r.httpStatus ?? null,
      rawSha256: r.rawSha256 ?? null,
      monitoredSha256: r.monitoredSha256 ?? null,
      observedAt: r.observedAt ?? null,
      error: r.error ?? null,
    }));
}

describe("offline collect", () => {
  async function recorded(def: SourceDefinition, html: string) {
    await writeDefinition(temp.dir, def);
    const monitored = extractMonitored(def, html);
    await writeCapture(temp.dir, def, {
      content: monitored.content,
      sha256: monitored.sha256,
      url: def.url,
      fetchedAt: "2026-11-01T08:30:00Z",
      httpStatus: 200,
      contentType: "text/html",
      etag: null,
      lastModified: null,
    });
    return monitored;
  }

  it("replays recorded captures, skips sources without one, fails damaged ones, in definition order", async () => {
    const good = definition({ name: "good", monitor: { selector: "table.prices" } });
    const community = definition({ name: "community", offline_capture: false });
    const uncaptured = definition({ name: "uncaptured" });
    const damaged = definition({ name: "damaged" });
    const monitored = await recorded(good, page("$1"));
    await writeDefinition(temp.dir, community);
    await writeDefinition(temp.dir, uncaptured);
    const broken = await recorded(damaged, page("$5"));
    await writeFile(join(captureDir(temp.dir, damaged), `${broken.sha256}.html`), "tampered");

    const { definitions, errors } = await loadSourceDefinitions(temp.dir);
    expect(errors).toEqual([]);
    const order = [good, community, uncaptured, damaged];
    const results = await collectSources(
      options({
        definitions: order.map((d) =>
          defined(
            definitions.find((x) => x.name === d.name),
            `definition ${d.name}`,
          ),
        ),
      }),
    );

    expect(results.map((r) => [r.source.name, r.status])).toEqual([
      ["good", "ok"],
      ["community", "skipped"],
      ["uncaptured", "skipped"],
      ["damaged", "failed"],
    ]);
    const [ok, skippedCommunity, skippedNone, failed] = results;
    expect(ok).toMatchObject({
      content: monitored.content,
      monitoredSha256: monitored.sha256,
      rawSha256: monitored.sha256,
      observedAt: "2026-11-01T08:30:00Z",
      httpStatus: 200,
      changed: false,
    });
    expect(skippedCommunity?.skippedReason).toContain("offline_capture is false");
    expect(skippedNone?.skippedReason).toContain("no recorded capture");
    expect(failed?.error).toContain("is damaged");
  });

  it("flags a replayed capture whose hash differs from the previous release as changed, and carries the raw hash otherwise", async () => {
    const def = definition({ name: "pricing" });
    const monitored = await recorded(def, page("$1"));
    const previous: SourceState = {
      source_id: def.source_id,
      provider_id: def.provider_id,
      source_url: def.url,
      status: "ok",
      http_status: 200,
      raw_sha256: "f".repeat(64),
      monitored_sha256: monitored.sha256,
      checked_at: "2026-11-01T00:00:00Z",
      last_changed_at: "2026-11-01T00:00:00Z",
      last_ok_at: "2026-11-01T00:00:00Z",
      content_observed_at: "2026-10-01T00:00:00Z",
      error: null,
    };
    const [same] = await collectSources(options({ definitions: [def], previousStates: [previous] }));
    expect(same).toMatchObject({ changed: false, rawSha256: "f".repeat(64) });
    const [changed] = await collectSources(
      options({ definitions: [def], previousStates: [{ ...previous, monitored_sha256: "0".repeat(64) }] }),
    );
    expect(changed?.changed).toBe(true);
  });
});

describe("live collect against a loopback server", () => {
  let server: TestServer;
  let current = { price: "$1", nonce: "n1", etag: '"v1"' };
  beforeAll(async () => {
    server = await startServer();
    server.route("/pricing", (req, res) => {
      if (req.headers["if-none-match"] === current.etag) {
        res.writeHead(304, { etag: current.etag }).end();
        return;
      }
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8", etag: current.etag })
        .end(page(current.price, current.nonce));
    });
    server.route("/models.json", (_q, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end('{"data":[{"id":"m"}]}');
    });
    server.route("/broken", (_q, res) => {
      res.writeHead(500).end();
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("records, reuses and replaces captures as the page changes, and derives events from it", async () => {
    const pricing = definition({
      name: "pricing",
      url: `${server.origin}/pricing`,
      monitor: { selector: "table.prices" },
    });
    const models = definition({
      name: "models",
      url: `${server.origin}/models.json`,
      format: "json",
      source_type: "official_models_api",
    });
    const broken = definition({ name: "broken", url: `${server.origin}/broken` });
    const definitions = [pricing, models, broken];
    const dir = captureDir(temp.dir, pricing);

    // 1. first build: captures recorded, the broken source fails, the others go on
    current = { price: "$1", nonce: "n1", etag: '"v1"' };
    const first = await collectSources(options({ offline: false, definitions }));
    expect(first.map((r) => r.status)).toEqual(["ok", "ok", "failed"]);
    expect(first[0]?.captureWritten).toBe(true);
    expect(first[0]?.observedAt).toBe("2026-11-22T12:00:00Z");
    expect(first[0]?.rawSha256).toBe(sha256Hex(page("$1", "n1")));
    expect(first[2]).toMatchObject({ httpStatus: 500 });
    expect(first[2]?.error).toContain("HTTP 500");
    expect(refusesToPublish(outcomes(first), 0.5)).toBe(false);
    const build1 = deriveSourceStates([], outcomes(first), "2026-11-22T12:00:00Z");
    expect(build1.events.map((e) => [e.event_type, e.source_id])).toEqual([
      ["lifecycle.source_failed", broken.source_id],
    ]);
    const meta1 = await readCaptureMeta(temp.dir, pricing);
    expect(meta1).toMatchObject({
      sha256: first[0]?.monitoredSha256,
      etag: '"v1"',
      http_status: 200,
      fetched_at: "2026-11-22T12:00:00Z",
    });

    // 2. same ETag: 304, the stored capture is reused with the same hash
    const second = await collectSources(
      options({ offline: false, definitions: [pricing], previousStates: build1.states }),
    );
    expect(second[0]).toMatchObject({
      status: "not_modified",
      httpStatus: 304,
      monitoredSha256: first[0]?.monitoredSha256,
      content: first[0]?.content,
      changed: false,
    });
    expect(second[0]?.rawSha256).toBe(first[0]?.rawSha256);
    expect(server.received.filter((r) => r.path === "/pricing").at(-1)?.headers["if-none-match"]).toBe(
      '"v1"',
    );

    // 3. new ETag, only the nonce changed: same monitored hash, no capture written, no event;
    // CURRENT.json takes the new ETag (and keeps when the content was fetched), so the next
    // fetch is conditional on it
    current = { price: "$1", nonce: "n2", etag: '"v2"' };
    const third = await collectSources(
      options({ offline: false, definitions: [pricing], previousStates: build1.states }),
    );
    expect(third[0]).toMatchObject({
      status: "ok",
      monitoredSha256: first[0]?.monitoredSha256,
      captureWritten: false,
      changed: false,
    });
    expect(deriveSourceStates(build1.states, outcomes(third), "2026-11-23T00:00:00Z").events).toEqual([]);
    expect(await readCaptureMeta(temp.dir, pricing)).toEqual({ ...meta1, etag: '"v2"' });
    expect(await readdir(dir)).toHaveLength(2);
    const revalidated = await collectSources(
      options({ offline: false, definitions: [pricing], previousStates: build1.states }),
    );
    expect(revalidated[0]).toMatchObject({ status: "not_modified", httpStatus: 304 });
    expect(server.received.filter((r) => r.path === "/pricing").at(-1)?.headers["if-none-match"]).toBe(
      '"v2"',
    );

    // 4. a real change: new capture, old one removed, changed event with both hashes
    current = { price: "$2", nonce: "n3", etag: '"v3"' };
    const fourth = await collectSources(
      options({ offline: false, definitions, previousStates: build1.states }),
    );
    expect(fourth[0]).toMatchObject({ status: "ok", captureWritten: true, changed: true });
    expect(await readdir(dir)).toHaveLength(2);
    const build4 = deriveSourceStates(build1.states, outcomes(fourth), "2026-11-24T00:00:00Z");
    const changed = build4.events.filter((e) => e.event_type === "lifecycle.source_changed");
    expect(changed.map((e) => [e.source_id, e.previous_sha256, e.current_sha256])).toEqual([
      [pricing.source_id, first[0]?.monitoredSha256, fourth[0]?.monitoredSha256],
    ]);
    // the broken source is still failing: no second failed event
    expect(build4.events.filter((e) => e.event_type === "lifecycle.source_failed")).toEqual([]);

    // 5. the broken source recovers
    server.route("/broken", (_q, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end("<p>back</p>");
    });
    const fifth = await collectSources(
      options({ offline: false, definitions: [broken], previousStates: build4.states }),
    );
    const build5 = deriveSourceStates(build4.states, outcomes(fifth), "2026-11-25T00:00:00Z");
    expect(build5.events.map((e) => [e.event_type, e.previous_sha256])).toEqual([
      ["lifecycle.source_recovered", null],
    ]);

    // 6. offline replay of what live builds recorded gives the same monitored content
    const offline = await collectSources(options({ definitions }));
    expect(offline.map((r) => r.monitoredSha256)).toEqual([
      fourth[0]?.monitoredSha256,
      fourth[1]?.monitoredSha256,
      fifth[0]?.monitoredSha256,
    ]);
    expect(offline.map((r) => r.content)).toEqual([
      fourth[0]?.content,
      fourth[1]?.content,
      fifth[0]?.content,
    ]);
  });

  it("replays an archived source's recorded capture in a live build and never requests its URL", async () => {
    // an earlier version of the page at the same URL as a live source
    const live = definition({
      name: "pricing",
      url: `${server.origin}/pricing`,
      monitor: { selector: "table.prices" },
    });
    const archived = definition({
      name: "pricing-2025",
      url: `${server.origin}/pricing`,
      monitor: { selector: "table.prices" },
      archived: true,
    });
    const old = extractMonitored(archived, page("$9", "old"));
    await writeCapture(temp.dir, archived, {
      content: old.content,
      sha256: old.sha256,
      url: archived.url,
      fetchedAt: "2025-12-01T00:00:00Z",
      httpStatus: 200,
      contentType: "text/html",
      etag: null,
      lastModified: null,
    });
    current = { price: "$3", nonce: "n9", etag: '"v9"' };
    const before = server.received.filter((r) => r.path === "/pricing").length;
    const results = await collectSources(options({ offline: false, definitions: [live, archived] }));
    // one request: the live source's
    expect(server.received.filter((r) => r.path === "/pricing").length).toBe(before + 1);
    expect(results[0]).toMatchObject({ status: "ok", observedAt: "2026-11-22T12:00:00Z" });
    expect(results[0]?.content).toContain("$3");
    expect(results[1]).toMatchObject({
      status: "ok",
      content: old.content,
      monitoredSha256: old.sha256,
      observedAt: "2025-12-01T00:00:00Z",
      changed: false,
    });
    expect(results[1]?.captureWritten).toBeUndefined();
    expect((await readCaptureMeta(temp.dir, archived))?.fetched_at).toBe("2025-12-01T00:00:00Z");
  });

  it("writes plain progress lines and the summary table when stderr is not a terminal", async () => {
    const pricing = definition({ name: "pricing", url: `${server.origin}/pricing` });
    const lines: string[] = [];
    const results = await collectSources(
      options({
        offline: false,
        definitions: [pricing],
        progress: true,
        progressStream: { write: (s: string) => lines.push(s) },
      }),
    );
    const text = lines.join("");
    expect(text).not.toContain("\r");
    expect(text).toContain("collect [1/1]  ok  acme/pricing  HTTP 200");
    expect(text).toContain(formatCollectSummary(results).split("\n")[0]);
    expect(text).toContain("1 sources: 1 ok, 0 changed, 0 not modified, 0 failed, 0 skipped");
  });

  it("rewrites one live line in place on a terminal", async () => {
    const pricing = definition({ name: "pricing", url: `${server.origin}/pricing` });
    const lines: string[] = [];
    await collectSources(
      options({
        offline: false,
        definitions: [pricing],
        progress: true,
        progressStream: { write: (s: string) => lines.push(s), isTTY: true, columns: 80 },
      }),
    );
    expect(lines[0]).toMatch(/^\r\x1b\[2Kcollect \[0\/1\] fetching acme\/pricing/);
    expect(lines.join("")).toContain("1 sources:");
  });
});

describe("the collect summary", () => {
  it("has a row per source with status, HTTP status, duration and reason, and totals", () => {
    const a = definition({ name: "a" });
    const b = definition({ name: "b" });
    const c = definition({ name: "c" });
    const d = definition({ name: "d" });
    const text = formatCollectSummary([
      { source: a, status: "ok", httpStatus: 200, changed: true, durationMs: 120 },
      { source: b, status: "not_modified", httpStatus: 304, durationMs: 1500 },
      { source: c, status: "failed", httpStatus: 500, error: "HTTP 500 from acme.example", durationMs: 30 },
      { source: d, status: "skipped", skippedReason: "no recorded capture" },
    ]);
    const rows = text.trimEnd().split("\n");
    expect(rows[0]).toMatch(/^status\s+source\s+http\s+duration\s+reason$/);
    expect(rows[1]).toMatch(/^changed\s+acme\/a\s+200\s+120 ms$/);
    expect(rows[2]).toMatch(/^not modified\s+acme\/b\s+304\s+1\.5 s$/);
    expect(rows[3]).toMatch(/^failed\s+acme\/c\s+500\s+30 ms\s+HTTP 500 from acme.example$/);
    expect(rows[4]).toMatch(/^skipped\s+acme\/d\s+no recorded capture$/);
    expect(rows[5]).toBe("4 sources: 0 ok, 1 changed, 1 not modified, 1 failed, 1 skipped");
  });
});
