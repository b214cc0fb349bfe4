/**
 * `catalog backfill` on a small real git history made here from real copies of Claude's pricing
 * page (the dated captures of 2026-01-13 and 2026-04-17 recorded from gpambrozio/ClaudeDocs):
 * each version whose prices differ is kept as a dated capture with its commit as provenance, a
 * version with the same prices is not, a version the parser cannot read is skipped and printed
 * with the reason, and a second run changes nothing.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATED_INDEX, DatedIndex, readDatedCaptures } from "../../src/collect/dated-captures.js";
import { datedInput, loadDefinition } from "../helpers/captures.js";
import { REPO, runCatalog } from "../helpers/cli.js";

const git = promisify(execFile);
const JANUARY = "2026-01-13T22:57:00Z";
const APRIL = "2026-04-17T14:25:45Z";

describe("catalog backfill", () => {
  let work: string;
  let sources: string;
  let repo: string;
  const commits: string[] = [];

  async function commit(text: string, date: string, message: string): Promise<void> {
    await writeFile(join(repo, "docs", "pricing.md"), text);
    const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
    await git("git", ["-C", repo, "add", "-A"], { env });
    await git(
      "git",
      ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", message],
      {
        env,
      },
    );
    commits.push((await git("git", ["-C", repo, "rev-parse", "HEAD"])).stdout.trim());
  }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "catalog-backfill-"));
    sources = join(work, "sources");
    await mkdir(sources);
    await cp(join(REPO, "sources", "anthropic"), join(sources, "anthropic"), { recursive: true });
    await rm(join(sources, "anthropic", "captures", "pricing", "dated"), { recursive: true, force: true });
    repo = join(work, "docs-mirror");
    await mkdir(join(repo, "docs"), { recursive: true });
    await git("git", ["init", "-q", repo]);
    const january = (await datedInput("anthropic", "pricing", JANUARY)).content;
    const april = (await datedInput("anthropic", "pricing", APRIL)).content;
    await commit(january, "2026-01-13T22:57:00+00:00", "January copy");
    await commit(
      `${january}\nA sentence added, no price changed.\n`,
      "2026-02-01T10:00:00+01:00",
      "same prices",
    );
    await commit("# Pricing\n\nSee the console for prices.\n", "2026-03-01T00:00:00+00:00", "tables lost");
    await commit(april, "2026-04-17T14:25:45+00:00", "April copy");
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  const backfill = () =>
    runCatalog([
      "backfill",
      "anthropic/pricing",
      "--git",
      join(repo, ".git"),
      "--path",
      "docs/pricing.md",
      "--repository",
      "example/docs-mirror",
      "--sources",
      sources,
    ]);

  it("keeps each version whose prices differ, dated by its commit, and prints the version it could not read", async () => {
    const result = await backfill();
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `anthropic/pricing: skipped ${commits[2]?.slice(0, 12)} (2026-03-01T00:00:00+00:00): pricing: no Model pricing table`,
    );
    expect(result.stderr).toContain(
      "4 versions, 2 dated captures kept, 1 with the same prices as the one before, 1 skipped; written",
    );
    const dir = join(sources, "anthropic", "captures", "pricing", "dated");
    const index = DatedIndex.parse(JSON.parse(await readFile(join(dir, DATED_INDEX), "utf8")));
    expect(index.captures.map((c) => [c.observed_at, c.provenance])).toMatchObject([
      [JANUARY, { repository: "example/docs-mirror", commit: commits[0], path: "docs/pricing.md" }],
      [APRIL, { repository: "example/docs-mirror", commit: commits[3], path: "docs/pricing.md" }],
    ]);
    // compressed on disk, the monitored content itself when read
    const file = index.captures[0]?.file ?? "";
    expect(file).toMatch(/\.md\.gz$/);
    const source = await loadDefinition("anthropic", "pricing");
    const read = await readDatedCaptures(sources, source);
    expect(read[0]?.content).toBe((await datedInput("anthropic", "pricing", JANUARY)).content);
    expect((await stat(join(dir, file))).size).toBeLessThan(Buffer.byteLength(read[0]?.content ?? "") / 2);
  });

  it("changes nothing when the same history is backfilled again", async () => {
    const dir = join(sources, "anthropic", "captures", "pricing", "dated");
    const before = await snapshot(dir);
    const again = await backfill();
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(
      "2 dated captures kept, 1 with the same prices as the one before, 1 skipped; unchanged",
    );
    expect(await snapshot(dir)).toEqual(before);
  });

  it("refuses a --since that is not a day", async () => {
    const result = await runCatalog([
      "backfill",
      "anthropic/pricing",
      "--git",
      join(repo, ".git"),
      "--path",
      "docs/pricing.md",
      "--repository",
      "example/docs-mirror",
      "--since",
      "last week",
      "--sources",
      sources,
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--since must be a day YYYY-MM-DD, got "last week"');
  });
});

/** Every file of a directory with its bytes and modification time. */
async function snapshot(dir: string): Promise<Array<[string, string, number]>> {
  const names = (await readdir(dir)).sort();
  return Promise.all(
    names.map(
      async (name): Promise<[string, string, number]> => [
        name,
        (await readFile(join(dir, name))).toString("base64"),
        (await stat(join(dir, name))).mtimeMs,
      ],
    ),
  );
}
