/**
 * The rehearsal's replay server over real HTTP: what each kind of source is answered with, the
 * secret check and the validators. The rehearsal test runs it on the real captures.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { CaptureMeta } from "../../src/collect/index.js";
import {
  PAGE_SIZE,
  type RecordedSource,
  type ReplayServer,
  startReplay,
} from "../../src/rehearsal/replay.js";
import { definition } from "../collect/fixtures.js";

const meta = (contentType: string, etag: string | null = null): CaptureMeta => ({
  file: `${"0".repeat(64)}.json`,
  sha256: "0".repeat(64),
  url: "https://acme.example/",
  fetched_at: "2026-11-01T00:00:00Z",
  http_status: 200,
  content_type: contentType,
  etag,
  last_modified: null,
});

let replay: ReplayServer | undefined;
afterEach(async () => {
  await replay?.close();
  replay = undefined;
});

/** GETs `url` through the replay's origin rewrite, as the Fetcher does. */
async function get(url: string, headers: Record<string, string> = {}) {
  const target = new URL(url);
  const base = (replay as ReplayServer).origins[target.origin];
  if (!base) throw new Error(`${target.origin} is not replayed`);
  const response = await fetch(`${base}${target.pathname}${target.search}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe("the replay server", () => {
  it("answers a page with its capture, its recorded ETag and 304 to a matching If-None-Match", async () => {
    const page = definition({ name: "pricing", url: "https://acme.example/pricing?tab=api" });
    replay = await startReplay(
      [{ source: page, meta: meta("text/html; charset=utf-8", '"rec-1"'), content: "<p>$1</p>" }],
      {},
    );
    const first = await get("https://acme.example/pricing?tab=api");
    expect(first).toMatchObject({ status: 200, text: "<p>$1</p>" });
    expect(first.headers.get("etag")).toBe('"rec-1"');
    expect(first.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect((await get("https://acme.example/pricing?tab=api", { "if-none-match": '"rec-1"' })).status).toBe(
      304,
    );
    expect((await get("https://acme.example/other")).status).toBe(404);
    expect(Object.fromEntries(replay.answered(page.source_id))).toEqual({ 200: 1, 304: 1 });

    // a changed page has another ETag (derived from its body); a failing one answers its status
    replay.change(page.source_id, "<p>$2</p>");
    const changed = await get("https://acme.example/pricing?tab=api", { "if-none-match": '"rec-1"' });
    expect(changed).toMatchObject({ status: 200, text: "<p>$2</p>" });
    expect(changed.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
    replay.fail(page.source_id, 500);
    expect((await get("https://acme.example/pricing?tab=api")).status).toBe(500);
  });

  it("cuts a token-paged capture into pages behind the key the environment gives", async () => {
    const api = definition({
      name: "models",
      url: "https://api.acme.example/v1/models?view=full",
      format: "json",
      secrets: { key: { env: "ACME_KEY", query_param: "key" } },
      page_token: {
        items_field: "models",
        response_field: "nextPageToken",
        query_param: "pageToken",
        max_pages: 10,
      },
    });
    const models = Array.from({ length: PAGE_SIZE + 5 }, (_, i) => ({ id: `m${i}` }));
    const recorded: RecordedSource = {
      source: api,
      meta: meta("application/json"),
      content: JSON.stringify({ models }),
    };
    replay = await startReplay([recorded], { ACME_KEY: "k-1" });
    expect((await get("https://api.acme.example/v1/models?view=full")).status).toBe(400);
    expect((await get("https://api.acme.example/v1/models?view=full&key=wrong")).status).toBe(400);
    const first = JSON.parse((await get("https://api.acme.example/v1/models?view=full&key=k-1")).text);
    expect(first.models).toEqual(models.slice(0, PAGE_SIZE));
    expect(first.nextPageToken).toBe("page-2");
    const second = JSON.parse(
      (await get("https://api.acme.example/v1/models?view=full&key=k-1&pageToken=page-2")).text,
    );
    expect(second).toEqual({ models: models.slice(PAGE_SIZE) });
  });

  it("lists a bundle's recorded files and serves each on the source's allowed host", async () => {
    const cards = definition({
      name: "cards",
      url: "https://api.acme.example/contents/models",
      format: "json",
      allowed_hosts: ["raw.acme.example"],
      bundle: {
        match: "^models/",
        name_field: "path",
        url_field: "download_url",
        sha_field: "sha",
        max_files: 10,
      },
    });
    const files = [
      { name: "models/a.ts", sha: "s-a", content: "export const a = 1;\n" },
      { name: "models/b.ts", sha: null, content: "export const b = 2;\n" },
    ];
    replay = await startReplay(
      [{ source: cards, meta: meta("application/json"), content: JSON.stringify({ files }) }],
      {},
    );
    const listing = JSON.parse((await get(cards.url)).text);
    expect(listing).toEqual([
      {
        path: "models/a.ts",
        sha: "s-a",
        download_url: "https://raw.acme.example/rehearsal/acme/cards/models/a.ts",
      },
      { path: "models/b.ts", download_url: "https://raw.acme.example/rehearsal/acme/cards/models/b.ts" },
    ]);
    const file = await get(listing[1].download_url);
    expect(file).toMatchObject({ status: 200, text: "export const b = 2;\n" });
    expect(file.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });
});
