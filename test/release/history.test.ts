/** Release ids by unique prefix, and the release chain newest first. */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { CatalogError } from "../../src/lib/errors.js";
import { listReleases, readManifest, releaseHistory, resolveReleaseId } from "../../src/release/index.js";
import { runCatalog } from "../helpers/cli.js";
import { committedSnapshotsCopy } from "../helpers/committed-release.js";

const catalog = runCatalog;

const A = `rel_0123abcd${"1".repeat(56)}`;
const B = `rel_0123abcd${"2".repeat(56)}`;

describe("release ids by prefix", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "catalog-prefix-"));
    for (const id of [A, B]) await mkdir(join(dir, "releases", id), { recursive: true });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("a unique prefix of at least 8 hex digits names its release, with or without rel_", async () => {
    expect(await resolveReleaseId(dir, "rel_0123abcd1")).toBe(A);
    expect(await resolveReleaseId(dir, "0123abcd2")).toBe(B);
    expect(await resolveReleaseId(dir, A)).toBe(A);
  });

  it("an ambiguous prefix is an error naming every match; a short or unknown one is refused", async () => {
    const ambiguous = await resolveReleaseId(dir, "rel_0123abcd").catch((e: unknown) => e);
    expect(ambiguous).toBeInstanceOf(CatalogError);
    expect((ambiguous as CatalogError).code).toBe("invalid_argument");
    expect((ambiguous as CatalogError).message).toContain(`${A}, ${B}`);
    const short = await resolveReleaseId(dir, "0123abc").catch((e: unknown) => e);
    expect((short as CatalogError).code).toBe("invalid_argument");
    const unknown = await resolveReleaseId(dir, "ffffffff").catch((e: unknown) => e);
    expect((unknown as CatalogError).code).toBe("release_not_found");
  });
});

describe("release history", () => {
  it("lists the chain newest first with created_at, previous id and counts", async () => {
    const { dir, snapshots: SNAPSHOTS } = await committedSnapshotsCopy();
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const chain = await listReleases(SNAPSHOTS);
    const history = await releaseHistory(SNAPSHOTS);
    expect(history.map((r) => r.id)).toEqual([...chain].reverse());
    for (const r of history) {
      const manifest = await readManifest(SNAPSHOTS, r.id);
      expect(r).toEqual({
        id: manifest.release_id,
        created_at: manifest.created_at,
        previous_release_id: manifest.previous_release_id,
        counts: manifest.counts,
      });
    }
    expect(history.at(-1)?.previous_release_id).toBeNull();
  });

  it("`catalog releases --json` prints them; diff, verify and export take prefixes", async () => {
    const { dir: work, snapshots } = await committedSnapshotsCopy();
    try {
      const listed = await catalog(["releases", "--json", "--snapshots", snapshots]);
      expect(listed.code).toBe(0);
      const { data } = JSON.parse(listed.stdout) as { data: Array<{ id: string }> };
      expect(data).toEqual(await releaseHistory(snapshots));
      const text = await catalog(["releases", "--snapshots", snapshots]);
      expect(text.stdout.split("\n")[0]).toContain(data[0]?.id);

      const newest = data[0]?.id as string;
      const verify = await catalog(["verify", newest.slice(0, 12), "--snapshots", snapshots]);
      expect(verify.stdout.trim()).toBe(`${newest} ok`);
      const tooShort = await catalog(["verify", newest.slice(0, 10), "--snapshots", snapshots]);
      expect(tooShort.code).not.toBe(0);
      expect(tooShort.stderr).toContain("at least 8 hex digits");
      if (data.length >= 2) {
        const older = data[1]?.id as string;
        const diff = await catalog([
          "diff",
          older.slice(4, 14),
          newest.slice(0, 14),
          "--snapshots",
          snapshots,
        ]);
        expect(diff.code).toBe(0);
        expect(diff.stdout).toContain(`\`${older.slice(0, 16)}…\` → \`${newest.slice(0, 16)}…\``);
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 60_000);
});
