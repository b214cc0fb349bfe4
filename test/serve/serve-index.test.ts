/**
 * A release with serve-index.json is served from the index: catalog.json is hash-checked by
 * streaming and read one record at a time when a request needs it. What it serves must be
 * exactly what the same catalog serves when loaded whole (a release published before the
 * index existed, which still loads that way), and a damaged index or catalog stops start-up.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_FILE, publishRelease } from "../../src/release/artifact.js";
import type { CatalogContent, ServeIndexFile } from "../../src/schema/index.js";
import { indexRelease } from "../../src/serve/catalog-index.js";
import { createKey } from "../../src/serve/index.js";
import { loadServedRelease } from "../../src/serve/server.js";
import {
  catalogReleaseFiles,
  loadRelease,
  objectPath,
  readManifest,
  SERVE_INDEX_FILE,
  verifyRelease,
} from "../../src/snapshot/index.js";
import { DEPLOYMENTS, dep, fixtureCatalog, publishFixture } from "./support/fixture.js";
import { makeTempDir, startTestServer, type TestServer } from "./support/harness.js";
import { expectSameServed } from "./support/same-served.js";

let work: string;
let indexedDir: string;
let wholeLifecycleDir: string;
let legacyDir: string;
let indexedId: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "serve-index-"));
  indexedDir = join(work, "indexed");
  wholeLifecycleDir = join(work, "whole-lifecycle");
  legacyDir = join(work, "legacy");
  indexedId = await publishFixture(indexedDir);
  // every lifecycle record its own object (a JSON round trip): catalog.json stores them all and
  // serve-index.json is format 1, as releases were published before format 2
  await publishFixture(wholeLifecycleDir, JSON.parse(JSON.stringify(fixtureCatalog())) as CatalogContent);
  await publishFixture(legacyDir, fixtureCatalog(), null, "catalog-only");
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("a release served from its serve-index.json", () => {
  it("holds the same records, columns, indexes and orders as the same catalog loaded whole, and as a release without the index", async () => {
    const indexed = await loadServedRelease(indexedDir);
    const legacy = await loadServedRelease(legacyDir);
    expect(indexed.manifest.files[SERVE_INDEX_FILE]).toBeDefined();
    expect(legacy.manifest.files[SERVE_INDEX_FILE]).toBeUndefined();
    expect(indexed.deploymentCount).toBe(DEPLOYMENTS.length);
    await expectSameServed(indexed, indexRelease(await loadRelease(indexedDir)));
    await expectSameServed(indexed, legacy);
    indexed.close();
  });

  it("serves the deployments' own lifecycle records from the deployments (format 2) exactly as from stored records (format 1)", async () => {
    const own = await loadServedRelease(indexedDir);
    const whole = await loadServedRelease(wholeLifecycleDir);
    const index = async (dir: string) => {
      const manifest = await readManifest(dir, (await loadServedRelease(dir)).releaseId);
      const entry = manifest.files[SERVE_INDEX_FILE];
      return JSON.parse(await readFile(objectPath(dir, entry?.sha256 as string), "utf8")) as ServeIndexFile;
    };
    const [ownIndex, wholeIndex] = [await index(indexedDir), await index(wholeLifecycleDir)];
    expect([ownIndex.format, wholeIndex.format]).toEqual([2, 1]);
    const deploymentRecords = (i: ServeIndexFile) =>
      i.lifecycle.resource_type.codes.filter((c) => i.lifecycle.resource_type.values[c] === "deployment")
        .length;
    expect([deploymentRecords(ownIndex), deploymentRecords(wholeIndex)]).toEqual([0, DEPLOYMENTS.length]);
    expect(own.lifecycleCount).toBe(whole.lifecycleCount);
    await expectSameServed(own, whole);
    // the records' stored bytes (what history reads) too
    const [a, b] = [own.lifecycle.bytes(), whole.lifecycle.bytes()];
    for (let i = 0; i < own.lifecycleCount; i++) expect(a(i)?.toString(), `${i}`).toBe(b(i)?.toString());
    own.close();
    whole.close();
  });

  it("reads a deployment from its span of catalog.json on first use, and the same bytes again after", async () => {
    const indexed = await loadServedRelease(indexedDir);
    const whole = indexRelease(await loadRelease(indexedDir));
    const position = indexed.deploymentById.get(dep("gpt-4o").id) as number;
    const first = indexed.deploymentJson.at(position);
    expect(first?.toString()).toBe(whole.deploymentJson.at(position)?.toString());
    expect(indexed.deploymentJson.at(position)).toBe(first); // kept, not read again
    expect(indexed.deployments.at(position)).toEqual(whole.deployments.at(position));
    expect(indexed.deploymentJson.at(indexed.deploymentCount)).toBeUndefined();
    indexed.close();
  });
});

describe("the API over a release with and without serve-index.json", () => {
  let indexed: TestServer;
  let legacy: TestServer;
  let auth: Record<string, string>;

  beforeAll(async () => {
    const dir = await makeTempDir();
    const keysFile = join(dir, "keys.json");
    auth = { authorization: `Bearer ${(await createKey(keysFile, "acme", "pro")).key}` };
    indexed = await startTestServer({ keysFile, noQuota: true });
    legacy = await startTestServer({ keysFile, noQuota: true, fixtureFormat: "catalog-only" });
  });

  afterAll(async () => {
    await indexed.stop();
    await legacy.stop();
  });

  it("answers every list, record and computation with the same bytes", async () => {
    const gets = [
      "/v1/deployments",
      "/v1/deployments?limit=2&offset=1",
      "/v1/deployments?sort=-input_price",
      "/v1/deployments?sort=context_tokens&provider=openai",
      "/v1/deployments?capability=vision&has_pricing=true",
      "/v1/deployments?q=GPT%204o&status=available",
      `/v1/deployments/${dep("gpt-4o").id}`,
      "/v1/deployments/dep_nobody_x_api_global",
      "/v1/lifecycle",
      "/v1/lifecycle?sort=end_of_life&order=desc&resource_type=deployment",
      "/v1/lifecycle?include_unknown=false&end_of_life_after=2020-01-01",
      "/v1/lifecycle/events",
      "/v1/providers",
      "/v1/models?provider=openai",
    ];
    for (const path of gets) {
      const [a, b] = [await indexed.get(path), await legacy.get(path)];
      expect(a.status, path).toBe(b.status);
      if (a.status === 200) expect(a.text, path).toBe(b.text);
    }
    const posts: Array<[string, unknown]> = [
      [
        "/v1/deployments/compare",
        {
          deployment_ids: DEPLOYMENTS.map((d) => d.id).concat("dep_nobody_x_api_global"),
          usage: { input_tokens: 1000, output_tokens: 500 },
        },
      ],
      ["/v1/pricing/calculate", { deployment_id: dep("gpt-4o").id, usage: { input_tokens: 1000 } }],
      ["/v1/pricing/calculate", { deployment_id: "dep_nobody_x_api_global", usage: { input_tokens: 1 } }],
    ];
    for (const [path, body] of posts) {
      const [a, b] = [await indexed.post(path, body, auth), await legacy.post(path, body, auth)];
      expect(a.status, path).toBe(b.status);
      if (a.status === 200) expect(a.text, path).toBe(b.text);
    }
  });
});

describe("a damaged release with serve-index.json", () => {
  async function copy(name: string): Promise<string> {
    const dir = join(work, name);
    await cp(indexedDir, dir, { recursive: true });
    return dir;
  }

  it("refuses to start on a serve-index.json that does not match its hash (release_damaged)", async () => {
    const dir = await copy("bad-index");
    const entry = (await readManifest(dir, indexedId)).files[SERVE_INDEX_FILE];
    const path = objectPath(dir, entry?.sha256 as string);
    const index = JSON.parse(await readFile(path, "utf8")) as ServeIndexFile;
    index.deployments.priced = [];
    await writeFile(path, JSON.stringify(index));
    await expect(loadServedRelease(dir)).rejects.toMatchObject({
      code: "release_damaged",
      message: expect.stringContaining(SERVE_INDEX_FILE),
    });
    expect((await verifyRelease(dir, indexedId)).map((p) => p.file)).toEqual([SERVE_INDEX_FILE]);
  });

  it("refuses to start on a catalog.json that does not match its hash, though it parses only the index", async () => {
    const dir = await copy("bad-catalog");
    const entry = (await readManifest(dir, indexedId)).files[CATALOG_FILE];
    const path = objectPath(dir, entry?.sha256 as string);
    const bytes = await readFile(path);
    bytes[bytes.length - 2] = "]".charCodeAt(0) === bytes[bytes.length - 2] ? 0x20 : "]".charCodeAt(0);
    await writeFile(path, bytes);
    await expect(loadServedRelease(dir)).rejects.toMatchObject({
      code: "release_damaged",
      message: expect.stringContaining(CATALOG_FILE),
    });
  });

  it("serves an index published before it stored max_output_tokens, reading them from the records", async () => {
    const files = catalogReleaseFiles(fixtureCatalog());
    const index = JSON.parse(Buffer.from(files[SERVE_INDEX_FILE] as Uint8Array).toString()) as ServeIndexFile;
    expect(index.deployments.max_output_tokens).toEqual(DEPLOYMENTS.map((d) => d.max_output_tokens));
    delete index.deployments.max_output_tokens;
    const dir = join(work, "before-max-output");
    await publishRelease(dir, {
      files: { ...files, [SERVE_INDEX_FILE]: Buffer.from(JSON.stringify(index)) },
      createdAt: "2026-11-22T00:00:00Z",
      previousReleaseId: null,
      counts: { deployments: DEPLOYMENTS.length },
    });
    const older = await loadServedRelease(dir);
    const current = await loadServedRelease(indexedDir);
    expect(older.maxOutputTokens).toEqual(DEPLOYMENTS.map((d) => d.max_output_tokens));
    await expectSameServed(older, current);
    older.close();
    current.close();
  });

  it("refuses an index that does not describe its catalog, even with matching hashes", async () => {
    const files = catalogReleaseFiles(fixtureCatalog());
    const good = JSON.parse(Buffer.from(files[SERVE_INDEX_FILE] as Uint8Array).toString()) as ServeIndexFile;
    const breakages: Array<[string, (index: ServeIndexFile) => void, RegExp]> = [
      [
        "a column shorter than its list",
        (i) => i.deployments.provider_model_id.pop(),
        /provider_model_id holds/,
      ],
      ["a span beyond the file", (i) => (i.lifecycle.offset[0] = i.catalog_bytes), /outside catalog\.json/],
      [
        "a code without a value",
        (i) => (i.deployments.region.codes[0] = 99),
        /region has a code without a value/,
      ],
      ["a position beyond the list", (i) => i.deployments.priced.push(1000), /priced names a position/],
      ["another catalog's size", (i) => (i.catalog_bytes += 1), /describes a catalog of/],
      [
        "a number in a string column",
        (i) => ((i.lifecycle.resource_id as unknown[])[0] = 7),
        /resource_id holds a value that is not a string/,
      ],
      [
        "a fraction for a price",
        (i) => (i.deployments.input_micro_usd[0] = 0.5),
        /input_micro_usd holds a value that is not a count or null/,
      ],
      [
        "a missing column",
        (i) => delete (i.lifecycle as Partial<ServeIndexFile["lifecycle"]>).status,
        /lifecycle.status is not an object/,
      ],
      [
        "an unknown capability",
        (i) => ((i.deployments.supported as Record<string, number[]>).telepathy = [0]),
        /unknown capability telepathy/,
      ],
      ["another format", (i) => ((i as { format: number }).format = 3), /has format 3/],
      [
        "format 2 without the deployments' lifecycles",
        (i) => delete i.deployment_lifecycle,
        /deployment_lifecycle is not an object/,
      ],
      [
        "a deployment lifecycle column shorter than the deployments",
        (i) => i.deployment_lifecycle?.end_of_life_date.codes.pop(),
        /deployment_lifecycle.end_of_life_date holds/,
      ],
      [
        "a stored deployment record in format 2",
        (i) => i.lifecycle.resource_type.values.push("deployment"),
        /lists a stored deployment lifecycle record/,
      ],
      [
        "format 1 with the deployments' lifecycles",
        (i) => ((i as { format: number }).format = 1),
        /of format 1 has deployment_lifecycle/,
      ],
      [
        "a fraction for a max output",
        (i) => ((i.deployments.max_output_tokens as Array<number | null>)[0] = 0.5),
        /max_output_tokens holds a value that is not a count or null/,
      ],
    ];
    for (const [name, breakIt, message] of breakages) {
      const index = structuredClone(good);
      breakIt(index);
      const dir = join(work, `broken-${name.replace(/\W+/g, "-")}`);
      await publishRelease(dir, {
        files: { ...files, [SERVE_INDEX_FILE]: Buffer.from(JSON.stringify(index)) },
        createdAt: "2026-11-22T00:00:00Z",
        previousReleaseId: null,
        counts: { deployments: DEPLOYMENTS.length },
      });
      await expect(loadServedRelease(dir), name).rejects.toMatchObject({ code: "release_damaged", message });
    }
  });
});
