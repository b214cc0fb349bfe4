/**
 * Every curl request in the README and docs/*.md, run against a server on the committed release
 * (a copy of it): each answers 2xx, and a list answers at least one item, so a documented
 * question keeps its one-request answer. `$KEY` is a key created for the test, and
 * `$(cat snapshots/LATEST)` the served release's id.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/lib/logger.js";
import { createKey, type RunningServer, startServer } from "../../src/serve/index.js";
import { committedSnapshotsCopy } from "../helpers/committed-release.js";
import { curlRequests, documentationFiles, readDoc } from "../helpers/markdown.js";

describe("the documented requests", () => {
  let dir: string;
  let releaseId: string;
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    const copy = await committedSnapshotsCopy();
    dir = copy.dir;
    releaseId = copy.releaseId;
    const keysFile = join(dir, "keys.json");
    key = (await createKey(keysFile, "docs", "free")).key;
    server = await startServer({
      snapshotsDir: copy.snapshots,
      host: "127.0.0.1",
      port: 0,
      watchLatest: false,
      logger: silentLogger,
      keysFile,
      quotaFile: join(dir, "quota.json"),
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const requests = documentationFiles().flatMap((file) =>
    curlRequests(readDoc(file)).map((request) => ({ file, request })),
  );

  it("there are requests to run: the README's tour and docs/api.md's questions", () => {
    expect(requests.filter((r) => r.file === "README.md").length).toBeGreaterThanOrEqual(5);
    expect(requests.filter((r) => r.file === "docs/api.md").length).toBeGreaterThanOrEqual(12);
  });

  it.each(requests.map((r) => [`${r.file}: ${r.request.method} ${r.request.url}`, r.request] as const))(
    "%s",
    async (_name, request) => {
      const expand = (text: string) =>
        text.replaceAll("$KEY", key).replaceAll("$(cat snapshots/LATEST)", releaseId);
      expect(request.url).toMatch(/^localhost:8080\//);
      const url = `${server.url}${expand(request.url).slice("localhost:8080".length)}`;
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, expand(v)]));
      const answer = await fetch(url, {
        method: request.method,
        headers,
        ...(request.body !== undefined ? { body: expand(request.body) } : {}),
      });
      const text = await answer.text();
      expect(answer.status, text.slice(0, 500)).toBeGreaterThanOrEqual(200);
      expect(answer.status, text.slice(0, 500)).toBeLessThan(300);
      const body = JSON.parse(text) as { data?: unknown };
      if (Array.isArray(body.data)) expect(body.data.length, url).toBeGreaterThan(0);
    },
  );
});
