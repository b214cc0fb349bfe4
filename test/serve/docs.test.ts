/**
 * GET /docs in a real headless Chromium (Debian's `chromium`, or Chrome on GitHub's runners),
 * driven by playwright-core with the system browser (no browser download): the page renders
 * the OpenAPI document from the server's own files, shows the endpoints, logs no console
 * errors and requests nothing from another origin; and it costs no quota.
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/lib/logger.js";
import { type RunningServer, startServer } from "../../src/serve/index.js";
import { committedSnapshotsCopy } from "../helpers/committed-release.js";

const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
].filter((p): p is string => typeof p === "string" && p !== "");
const BROWSER = CANDIDATES.find((p) => existsSync(p));
// In CI a missing browser is a failure, never a silent skip (.ci/run installs chromium).
const RUN = BROWSER !== undefined || process.env.CI !== undefined;

describe.skipIf(!RUN)("GET /docs in headless Chromium", () => {
  let server: RunningServer;
  let work: string;
  beforeAll(async () => {
    const copy = await committedSnapshotsCopy();
    work = copy.dir;
    server = await startServer({
      snapshotsDir: copy.snapshots,
      host: "127.0.0.1",
      port: 0,
      watchLatest: false,
      logger: silentLogger,
      plansFile: undefined,
      quotaFile: join(tmpdir(), `catalog-docs-quota-${process.pid}.json`),
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await rm(join(tmpdir(), `catalog-docs-quota-${process.pid}.json`), { force: true });
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("renders the API reference from the server's own files, shows the endpoints and logs no console errors", async () => {
    if (!BROWSER) throw new Error(`no Chromium found (tried ${CANDIDATES.join(", ")}); set CHROMIUM_PATH`);
    const browser = await chromium.launch({ executablePath: BROWSER, args: ["--no-sandbox"] });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const errors: string[] = [];
      const foreign: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("request", (request) => {
        if (
          !request.url().startsWith(server.url) &&
          !request.url().startsWith("data:") &&
          !request.url().startsWith("blob:")
        )
          foreign.push(request.url());
      });
      const started = performance.now();
      const response = await page.goto(`${server.url}/docs`, { waitUntil: "load" });
      expect(response?.status()).toBe(200);
      await page.locator("h2", { hasText: "List deployments" }).first().waitFor({ timeout: 30_000 });
      const loadMs = Math.round(performance.now() - started);
      const text = (await page.locator("body").textContent()) ?? "";
      expect(text).toContain("List deployments");
      expect(text).toContain("/v1/deployments");
      expect(text).toContain("List releases");
      expect(errors).toEqual([]);
      expect(foreign).toEqual([]);
      process.stderr.write(`/docs rendered in Chromium in ${loadMs} ms\n`);
    } finally {
      await browser.close();
    }
  }, 90_000);

  it("serves the page and the bundle with ETags, 304 on revalidation, and never counts them against quota", async () => {
    const before = await fetch(`${server.url}/v1/releases`);
    const remaining = Number(before.headers.get("x-ratelimit-remaining"));
    for (const path of ["/docs", "/docs/redoc.standalone.js"]) {
      const first = await fetch(`${server.url}${path}`);
      expect(first.status).toBe(200);
      expect(first.headers.get("x-ratelimit-remaining")).toBeNull();
      const etag = first.headers.get("etag") as string;
      await first.arrayBuffer();
      const again = await fetch(`${server.url}${path}`, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
    }
    expect((await fetch(`${server.url}/docs?x=1`)).status).toBe(400);
    const after = await fetch(`${server.url}/v1/releases`);
    expect(Number(after.headers.get("x-ratelimit-remaining"))).toBe(remaining - 1);
  }, 30_000);
});
