/**
 * The release id covers the whole manifest: changing created_at, previous_release_id or
 * counts (not only a file's hash) makes `catalog verify` exit 4 naming manifest.json, and
 * the server refuse the release.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyRelease } from "../../src/release/index.js";
import { loadServedRelease } from "../../src/serve/server.js";
import { isOneLine, runCli } from "../e2e/support/cli.js";
import { DEPLOYMENTS, fixtureCatalog, publishFixture } from "../serve/support/fixture.js";

let work: string;
let pristine: string;
let first: string;
let second: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "manifest-integrity-"));
  pristine = join(work, "pristine");
  first = await publishFixture(pristine, fixtureCatalog({ deployments: DEPLOYMENTS.slice(1) }));
  second = await publishFixture(pristine, fixtureCatalog(), first);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

type Manifest = Record<string, unknown> & { counts: Record<string, number> };

const TAMPERING: Array<[string, (m: Manifest) => void]> = [
  ["created_at", (m) => (m.created_at = "2020-01-01T00:00:00Z")],
  ["previous_release_id (to null)", (m) => (m.previous_release_id = null)],
  ["previous_release_id (to another release)", (m) => (m.previous_release_id = `rel_${"a".repeat(64)}`)],
  ["counts (a changed number)", (m) => (m.counts.deployments = (m.counts.deployments ?? 0) + 1)],
  ["counts (an added entry)", (m) => (m.counts.extra = 1)],
];

describe("a manifest whose fields were changed after publishing", () => {
  it("an untouched release verifies", async () => {
    expect(await verifyRelease(pristine, second)).toEqual([]);
    const result = await runCli(["verify", second, "--snapshots", pristine]);
    expect(result.code, result.stderr).toBe(0);
  });

  it.each(TAMPERING)(
    "changing %s fails verify (exit 4, naming manifest.json) and serve",
    async (name, tamper) => {
      const dir = join(work, name.replace(/[^a-z]+/g, "-"));
      await cp(pristine, dir, { recursive: true });
      const path = join(dir, "releases", second, "manifest.json");
      const manifest = JSON.parse(await readFile(path, "utf8")) as Manifest;
      tamper(manifest);
      await writeFile(path, `${JSON.stringify(manifest)}\n`);

      const problems = await verifyRelease(dir, second);
      expect(problems).toHaveLength(1);
      expect(problems[0]?.file).toBe("manifest.json");
      expect(problems[0]?.problem).toMatch(/altered/);

      const verify = await runCli(["verify", second, "--snapshots", dir]);
      expect(verify.code).toBe(4);
      expect(verify.stderr).toMatch(/manifest\.json: .*altered/);
      await expect(loadServedRelease(dir)).rejects.toMatchObject({ code: "release_damaged" });

      const diff = await runCli(["diff", first, second, "--snapshots", dir]);
      expect(diff.code).toBe(4);
      expect(isOneLine(diff.stderr), diff.stderr).toBe(true);
    },
  );
});
