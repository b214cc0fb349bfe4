import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureDir, readCaptureMeta } from "../../src/collect/index.js";
import { sha256Hex } from "../../src/lib/hash.js";
import type { SourceDefinition } from "../../src/schema/index.js";
import { definition } from "./fixtures.js";
import { liveHarness } from "./live.js";

const live = liveHarness();
const collect = live.collect;

function bundled(listing: (origin: string) => unknown[]): SourceDefinition {
  live.server.route("/list", (req, res) => {
    if (req.headers["if-none-match"] === '"l1"') return void res.writeHead(304).end();
    res
      .writeHead(200, { "content-type": "application/json", etag: '"l1"' })
      .end(JSON.stringify(listing(live.server.origin)));
  });
  for (const file of ["a.ts", "b.ts", "index.ts"])
    live.server.route(`/raw/${file}`, (_req, res) => {
      res
        .writeHead(200, { "content-type": "text/plain; charset=utf-8" })
        .end(`export default { file: '${file}' };\n`);
    });
  return definition({
    name: "cards",
    url: `${live.server.origin}/list`,
    format: "json",
    source_type: "official_models_api",
    bundle: {
      match: "^models/(?!index\\.ts$)[^/]+\\.ts$",
      name_field: "path",
      url_field: "download_url",
      sha_field: "sha",
      max_files: 10,
    },
  });
}

describe("bundled sources", () => {
  it("fetch every matching listed file and record them as one JSON document with their SHAs", async () => {
    const def = bundled((origin) => [
      { path: "models/a.ts", sha: "s-a", download_url: `${origin}/raw/a.ts` },
      { path: "models/index.ts", sha: "s-i", download_url: `${origin}/raw/index.ts` },
      { path: "models/b.ts", sha: "s-b", download_url: `${origin}/raw/b.ts` },
      { path: "models/nested", sha: "s-n", download_url: null },
    ]);
    const [first] = await collect([def]);
    expect(first?.status).toBe("ok");
    expect(JSON.parse(first?.content ?? "")).toEqual({
      files: [
        { name: "models/a.ts", sha: "s-a", content: "export default { file: 'a.ts' };\n" },
        { name: "models/b.ts", sha: "s-b", content: "export default { file: 'b.ts' };\n" },
      ],
    });
    expect(live.server.hits("/raw/index.ts")).toBe(0);
    // No single response is the document: the raw hash is the assembled document's (here its capture's).
    expect(first?.rawSha256).toBe(sha256Hex(Buffer.from(first?.content ?? "", "utf8")));
    const meta = await readCaptureMeta(live.temp.dir, def);
    expect(await readFile(join(captureDir(live.temp.dir, def), meta?.file ?? ""), "utf8")).toBe(
      first?.content,
    );

    // An unchanged listing (304) re-confirms the capture without fetching the files again.
    const [second] = await collect([def]);
    expect(second).toMatchObject({ status: "not_modified", monitoredSha256: first?.monitoredSha256 });
    expect(live.server.hits("/raw/a.ts")).toBe(1);
  });

  it("fail when a listed file lives on a host the source does not allow", async () => {
    const foreign = bundled(() => [
      { path: "models/a.ts", sha: "s-a", download_url: "https://elsewhere.example/a.ts" },
    ]);
    const [refused] = await collect([foreign]);
    expect(refused?.status).toBe("failed");
    expect(refused?.error).toContain("elsewhere.example is not an allowed host");
  });
});
