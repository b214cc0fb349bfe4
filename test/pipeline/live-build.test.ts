/**
 * The live build the nightly runs, against real HTTP on loopback: three official sources
 * (their real recorded pages, served by a local server in place of the providers) are fetched,
 * captured under sources/, parsed and published; an ETag turns the next fetch into a 304; a
 * changed page writes a new capture and raises source_changed; a 500 raises source_failed,
 * keeps the last good capture and facts, and the release is still published.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureDir, loadSourceDefinitions, readCaptureMeta } from "../../src/collect/index.js";
import { fixedClock } from "../../src/lib/clock.js";
import { silentLogger } from "../../src/lib/logger.js";
import { runBuild } from "../../src/pipeline/build.js";
import { loadRelease, PRICES_FILE, readReleaseFile } from "../../src/release/index.js";
import type { PricesFile } from "../../src/schema/index.js";
import { startServer, type TestServer } from "../collect/server.js";
import { SOURCES_DIR } from "../helpers/captures.js";

const PICKED = [
  ["anthropic", "pricing"],
  ["anthropic", "deprecations"],
  ["openai", "pricing"],
] as const;

let work: string;
let sources: string;
let snapshots: string;
let server: TestServer;
const pages = new Map<string, { body: string; etag: string; status: number }>();

async function build(now: string) {
  return runBuild({
    sourcesDir: sources,
    snapshotsDir: snapshots,
    offline: false,
    clock: fixedClock(now),
    logger: silentLogger,
    fetcher: { allowLoopback: true, retries: 0, perHostIntervalMs: 0 },
  });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "catalog-live-"));
  sources = join(work, "sources");
  snapshots = join(work, "snapshots");
  server = await startServer();
  for (const [provider, name] of PICKED) {
    await cp(join(SOURCES_DIR, provider, `${name}.yaml`), join(sources, provider, `${name}.yaml`));
    const { definitions } = await loadSourceDefinitions(join(SOURCES_DIR));
    const def = definitions.find((d) => d.provider_id === provider && d.name === name);
    if (!def) throw new Error(`no ${provider}/${name}`);
    const meta = await readCaptureMeta(SOURCES_DIR, def);
    if (!meta) throw new Error(`no capture for ${provider}/${name}`);
    const path = `/${provider}/${name}.md`;
    pages.set(path, {
      body: await readFile(join(captureDir(SOURCES_DIR, def), meta.file), "utf8"),
      etag: `"${provider}-${name}-1"`,
      status: 200,
    });
    // The definition points at the local server instead of the provider.
    const yamlPath = join(sources, provider, `${name}.yaml`);
    const yaml = (await readFile(yamlPath, "utf8")).replace(/^url: .*$/m, `url: ${server.origin}${path}`);
    await writeFile(yamlPath, yaml);
    server.route(path, (req, res) => {
      const page = pages.get(path);
      if (!page) return void res.writeHead(404).end();
      if (page.status !== 200) return void res.writeHead(page.status).end("upstream error");
      if (req.headers["if-none-match"] === page.etag)
        return void res.writeHead(304, { etag: page.etag }).end();
      res.writeHead(200, { "content-type": "text/markdown; charset=utf-8", etag: page.etag }).end(page.body);
    });
  }
}, 30_000);

afterAll(async () => {
  await server.close();
  await rm(work, { recursive: true, force: true });
});

/** The capture files and CURRENT.json of a source (its dated/ folder apart). */
async function captureFiles(provider: string, name: string): Promise<string[]> {
  return (await readdir(join(sources, provider, "captures", name))).filter((f) => f !== "dated").sort();
}

describe("a live build", () => {
  it("fetches, records captures, publishes; then 304, a change and a failure behave as the nightly needs", async () => {
    const first = await build("2026-11-23T00:00:00Z");
    expect(first.status).toBe("published");
    expect(first.sources.map((s) => s.status)).toEqual(["ok", "ok", "ok"]);
    for (const [provider, name] of PICKED) expect(await captureFiles(provider, name)).toHaveLength(2);
    const firstRelease = await loadRelease(snapshots);
    expect(firstRelease.catalog.sources.every((s) => s.http_status === 200)).toBe(true);
    const opus = "dep_anthropic_claude-opus-4-7_api_global";
    expect(firstRelease.catalog.deployments.find((d) => d.id === opus)?.rate_card?.input_micro_usd).toBe(
      5_000_000,
    );

    // Nothing changed upstream: every source answers 304 and, the same day, nothing is published.
    const second = await build("2026-11-23T18:00:00Z");
    expect(second.sources.map((s) => s.status)).toEqual(["not_modified", "not_modified", "not_modified"]);
    expect(second.status).toBe("unchanged");

    // A day later still nothing changed upstream, but Claude Opus 4.5's earliest retirement day
    // ("Not sooner than November 24, 2026") has come: the status follows the build's clock, so
    // that alone publishes a release whose diff lists the change, with no source event.
    const nextDay = await build("2026-11-24T00:00:00Z");
    expect(nextDay.sources.map((s) => s.status)).toEqual(["not_modified", "not_modified", "not_modified"]);
    expect(nextDay.status).toBe("published");
    expect(
      nextDay.outcome.diff?.status_changes.map((c) => `${c.deployment_id} ${c.old} -> ${c.new}`),
    ).toEqual([
      "dep_anthropic_claude-opus-4-5-20251101_api-batch_global available -> deprecated",
      "dep_anthropic_claude-opus-4-5-20251101_api_global available -> deprecated",
    ]);
    expect(nextDay.outcome.diff?.source_events).toEqual([]);

    // Anthropic raises a price; OpenAI's page breaks (HTTP 500).
    const pricing = pages.get("/anthropic/pricing.md") as { body: string; etag: string; status: number };
    const oldCapture = await captureFiles("anthropic", "pricing");
    pricing.body = pricing.body.replace(/^(\| Claude Opus 4\.7 +\| )\$5 \/ MTok/m, "$1$6 / MTok");
    pricing.etag = '"anthropic-pricing-2"';
    (pages.get("/openai/pricing.md") as { status: number }).status = 500;
    const openaiCapture = await captureFiles("openai", "pricing");

    const third = await build("2026-11-25T00:00:00Z");
    expect(third.status).toBe("published");
    expect(third.failed_sources.map((s) => s.provider_id)).toEqual(["openai"]);
    const release = await loadRelease(snapshots);
    expect(release.catalog.deployments.find((d) => d.id === opus)?.rate_card?.input_micro_usd).toBe(
      6_000_000,
    );
    expect(release.catalog.events.map((e) => `${e.event_type} ${e.provider_id}`).sort()).toEqual([
      "lifecycle.source_changed anthropic",
      "lifecycle.source_failed openai",
    ]);
    // The changed page has a new capture (the old file is gone); the failed one keeps its last good one.
    const newCapture = await captureFiles("anthropic", "pricing");
    expect(newCapture).toHaveLength(2);
    expect(newCapture).not.toEqual(oldCapture);
    expect(await captureFiles("openai", "pricing")).toEqual(openaiCapture);
    // The replaced capture is kept as a dated one, so the release dates both of Opus 4.7's prices.
    const dated = JSON.parse(
      await readFile(join(sources, "anthropic", "captures", "pricing", "dated", "INDEX.json"), "utf8"),
    ) as { captures: Array<{ observed_at: string; file: string; provenance: unknown }> };
    expect(dated.captures.map((c) => [c.observed_at, c.file.replace(/\.md\.gz$/, ".md")])).toEqual([
      ["2026-11-23T00:00:00Z", oldCapture.find((f) => f.endsWith(".md"))],
    ]);
    expect(dated.captures[0]?.provenance).toEqual({
      superseded_capture: { fetched_at: "2026-11-23T00:00:00Z" },
    });
    const prices = JSON.parse(
      (await readReleaseFile(snapshots, release.manifest, PRICES_FILE)).toString("utf8"),
    ) as PricesFile;
    expect(
      prices.deployments
        .find((d) => d.deployment_id === opus)
        ?.intervals.map((i) => [i.valid_from, i.valid_to, i.rate_card.input_micro_usd]),
    ).toEqual([
      ["2026-11-25", null, 6_000_000],
      ["2026-11-23", "2026-11-25", 5_000_000],
    ]);
    // OpenAI's facts are carried forward.
    const openaiBefore = firstRelease.catalog.deployments.filter((d) => d.provider_id === "openai").length;
    expect(release.catalog.deployments.filter((d) => d.provider_id === "openai").length).toBe(openaiBefore);
    expect(release.catalog.sources.find((s) => s.provider_id === "openai")).toMatchObject({
      status: "failed",
      http_status: 500,
      // the same-day 304 build published nothing; the next day's 304 build published (a status
      // changed), so its check is the last recorded success
      last_ok_at: "2026-11-24T00:00:00Z",
    });
  }, 90_000);
});
