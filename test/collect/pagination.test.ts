import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type CollectOptions,
  collectSources,
  extractMonitored,
  readCapture,
} from "../../src/collect/index.js";
import { fixedClock } from "../../src/lib/clock.js";
import { sha256Hex } from "../../src/lib/hash.js";
import { silentLogger } from "../../src/lib/logger.js";
import { SourceDefinition } from "../../src/schema/index.js";
import { definition, type TempSources, tempSourcesDir } from "./fixtures.js";
import { startServer, type TestServer } from "./server.js";

let temp: TempSources;
let server: TestServer;
beforeEach(async () => {
  temp = await tempSourcesDir();
});
afterEach(async () => {
  await temp.cleanup();
});
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

function options(definitions: SourceDefinition[]): CollectOptions {
  return {
    sourcesDir: temp.dir,
    definitions,
    offline: false,
    clock: fixedClock("2026-11-22T12:00:00Z"),
    logger: silentLogger,
    previousStates: [],
    progress: false,
    fetcher: {
      allowLoopback: true,
      perHostIntervalMs: 0,
      retries: 0,
      sleep: async () => {},
      random: () => 0,
    },
  };
}

const PAGING = { next_link_json_pointer: "/NextPageLink", items_json_pointer: "/Items", max_pages: 5 };

/** Serves `pages` as a Retail-Prices-shaped list: page i links to page i+1 by absolute URL. */
function routePages(prefix: string, pages: string[][]): string[] {
  const bodies = pages.map((items, i) =>
    JSON.stringify({
      BillingCurrency: "USD",
      Items: items.map((meterName) => ({ meterName })),
      NextPageLink: i + 1 < pages.length ? `${server.origin}${prefix}/${i + 2}?$skip=${(i + 1) * 100}` : null,
      Count: items.length,
    }),
  );
  bodies.forEach((body, i) => {
    server.route(`${prefix}/${i + 1}`, (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(body);
    });
  });
  return bodies;
}

describe("paginated JSON sources", () => {
  it("fetches all three pages into one monitored document with every item in page order", async () => {
    const bodies = routePages("/three", [["a", "b"], ["c"], ["d", "e"]]);
    const def = definition({
      name: "three",
      format: "json",
      url: `${server.origin}/three/1`,
      pagination: PAGING,
    });
    const [result] = await collectSources(options([def]));
    expect(result?.status).toBe("ok");
    expect(server.hits("/three/1")).toBe(1);
    expect(server.hits("/three/2")).toBe(1);
    expect(server.hits("/three/3")).toBe(1);
    const joined = JSON.parse(result?.content ?? "null");
    expect(joined.Items.map((i: { meterName: string }) => i.meterName)).toEqual(["a", "b", "c", "d", "e"]);
    expect(joined.NextPageLink).toBeNull();
    expect(joined.Count).toBe(2); // the first page's other fields are kept as they were
    // The raw hash covers every page's bytes; the capture is the monitored document.
    expect(result?.rawSha256).toBe(sha256Hex(bodies.map((b) => sha256Hex(b)).join("\n")));
    const stored = await readCapture(temp.dir, def);
    expect(stored?.content).toBe(result?.content);
    expect(stored?.meta.url).toBe(def.url);
    // Replaying the capture through the extraction gives the same bytes (offline builds).
    expect(extractMonitored(def, stored?.content ?? "").content).toBe(result?.content);
  });

  it("monitors only the items when the definition's json_pointer selects them", async () => {
    routePages("/items", [["x"], ["y"]]);
    const def = definition({
      name: "items",
      format: "json",
      url: `${server.origin}/items/1`,
      pagination: PAGING,
      monitor: { json_pointer: "/Items" },
    });
    const [result] = await collectSources(options([def]));
    expect(JSON.parse(result?.content ?? "null")).toEqual({
      Items: [{ meterName: "x" }, { meterName: "y" }],
    });
  });

  it("fails the source rather than truncating when there are more pages than max_pages", async () => {
    routePages("/long", [["1"], ["2"], ["3"]]);
    const def = definition({
      name: "long",
      format: "json",
      url: `${server.origin}/long/1`,
      pagination: { ...PAGING, max_pages: 2 },
    });
    const [result] = await collectSources(options([def]));
    expect(result?.status).toBe("failed");
    expect(result?.error).toContain("more than max_pages (2) pages");
    expect(await readCapture(temp.dir, def)).toBeNull();
  });

  it("fails a page without the items array, and a next link to a host the source does not allow", async () => {
    server.route("/noitems/1", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end('{"Items":null,"NextPageLink":null}');
    });
    server.route("/away/1", (_req, res) => {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end('{"Items":[],"NextPageLink":"https://elsewhere.example/page2"}');
    });
    const noItems = definition({
      name: "noitems",
      format: "json",
      url: `${server.origin}/noitems/1`,
      pagination: PAGING,
    });
    const away = definition({
      name: "away",
      format: "json",
      url: `${server.origin}/away/1`,
      pagination: PAGING,
    });
    const [a, b] = await collectSources(options([noItems, away]));
    expect(a?.error).toContain('has no array at "/Items"');
    expect(b?.error).toContain("leaves the source's allowed hosts");
  });

  it("is defined for json sources only", () => {
    const parsed = SourceDefinition.safeParse({
      ...definition({ name: "h" }),
      pagination: PAGING,
    });
    expect(parsed.success).toBe(false);
  });
});
