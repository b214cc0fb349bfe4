import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { captureDir, readCaptureMeta } from "../../src/collect/index.js";
import { applySecrets, REDACTED, redact, redactError } from "../../src/collect/secrets.js";
import { CatalogError } from "../../src/lib/errors.js";
import { sha256Hex } from "../../src/lib/hash.js";
import type { SourceDefinition } from "../../src/schema/index.js";
import { definition } from "./fixtures.js";
import { liveHarness } from "./live.js";

const KEY = "AIzaTest-s3cr3t+key/1";

const live = liveHarness();
const collect = live.collect;

function skusSource(maxPages = 10): SourceDefinition {
  return definition({
    name: "skus",
    url: `${live.server.origin}/v1/services/X/skus?currencyCode=USD`,
    format: "json",
    secrets: { key: { env: "TEST_BILLING_KEY", query_param: "key" } },
    page_token: {
      items_field: "skus",
      response_field: "nextPageToken",
      query_param: "pageToken",
      max_pages: maxPages,
    },
  });
}

/** Two pages behind the key; any other key is refused with the URL echoed (as some APIs do). */
function serveTwoPages() {
  live.server.route("/v1/services/X/skus", (req, res) => {
    const url = new URL(req.url ?? "/", live.server.origin);
    if (url.searchParams.get("key") !== KEY || url.searchParams.get("currencyCode") !== "USD")
      return void res.writeHead(403, { "content-type": "text/plain" }).end(`denied ${req.url}`);
    const token = url.searchParams.get("pageToken");
    const body =
      token === null
        ? { skus: [{ skuId: "A" }], nextPageToken: "t2" }
        : token === "t2"
          ? { skus: [{ skuId: "B" }], nextPageToken: "" }
          : null;
    if (!body) return void res.writeHead(400).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
}

describe("source secrets and token pagination", () => {
  it("send the key from the environment, follow every page, and record no trace of the key", async () => {
    serveTwoPages();
    const def = skusSource();
    const [result] = await collect([def], { TEST_BILLING_KEY: KEY });
    expect(result?.status).toBe("ok");
    expect(JSON.parse(result?.content ?? "")).toEqual({ skus: [{ skuId: "A" }, { skuId: "B" }] });
    // The raw hash covers every page: it is the joined document's, not the first page's.
    expect(result?.rawSha256).toBe(sha256Hex(Buffer.from('{"skus":[{"skuId":"A"},{"skuId":"B"}]}', "utf8")));
    const meta = await readCaptureMeta(live.temp.dir, def);
    expect(meta?.url).toBe(def.url);
    const dir = captureDir(live.temp.dir, def);
    for (const file of await readdir(dir)) {
      const text = await readFile(`${dir}/${file}`, "utf8");
      expect(text).not.toContain("s3cr3t");
    }
  });

  it("skip the source, naming the variable, when the secret is not set", async () => {
    serveTwoPages();
    const [result] = await collect([skusSource()], {});
    expect(result?.status).toBe("skipped");
    expect(result?.skippedReason).toContain("TEST_BILLING_KEY");
    expect(live.server.received).toHaveLength(0);
  });

  it("redact the key from a failure whose message names the request URL", async () => {
    serveTwoPages();
    const [result] = await collect([skusSource()], { TEST_BILLING_KEY: "wrong-s3cr3t" });
    expect(result?.status).toBe("failed");
    expect(result?.httpStatus).toBe(403);
    expect(result?.error).toContain(REDACTED);
    expect(result?.error).not.toContain("s3cr3t");
  });

  it("fail rather than follow more pages than max_pages", async () => {
    serveTwoPages();
    const [result] = await collect([skusSource(1)], { TEST_BILLING_KEY: KEY });
    expect(result?.status).toBe("failed");
    expect(result?.error).toContain("max_pages 1");
  });

  it("redact raw and URL-encoded secret values, in messages and error details", () => {
    const applied = applySecrets(
      { url: "https://x.example/a?b=1", secrets: { k: { env: "K", query_param: "key" } } },
      { K: KEY },
    );
    expect(applied).toEqual({
      ok: true,
      url: `https://x.example/a?b=1&key=${encodeURIComponent(KEY).replace(/%20/g, "+")}`,
      values: [KEY],
    });
    if (!applied.ok) return;
    expect(redact(`GET ${applied.url} and ${KEY}`, applied.values)).toBe(
      `GET https://x.example/a?b=1&key=${REDACTED} and ${REDACTED}`,
    );
    const error = redactError(
      new CatalogError("fetch_failed", `fetch ${applied.url} failed`, { url: applied.url, status: 403 }),
      [KEY],
    );
    expect(error).toBeInstanceOf(CatalogError);
    expect(
      JSON.stringify({ message: error.message, details: (error as CatalogError).details }),
    ).not.toContain("s3cr3t");
    expect((error as CatalogError).details?.["status"]).toBe(403);
    expect(
      applySecrets(
        { url: "https://x.example/", secrets: { k: { env: "K", query_param: "key" } } },
        { K: "" },
      ),
    ).toEqual({
      ok: false,
      missing: ["K"],
    });
  });
});
