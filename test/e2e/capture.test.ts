/**
 * `catalog capture` records a saved page as a source's capture exactly as a live build would
 * (monitored content, named by its SHA-256, CURRENT.json with the note); `catalog sources`
 * reports a damaged capture; a damaged capture fails its source, and the published files name
 * it by a path relative to the sources directory, never by a path of the building machine.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractMonitored, loadSourceDefinitions } from "../../src/collect/index.js";
import { sha256Hex } from "../../src/lib/hash.js";
import { loadRelease, readManifest, readReleaseFile } from "../../src/release/index.js";
import { REPO, runCatalog } from "../helpers/cli.js";

const catalog = runCatalog;

describe("catalog capture and damaged captures", () => {
  let work: string;
  let sources: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "catalog-capture-"));
    sources = join(work, "sources");
    await cp(join(REPO, "sources"), sources, { recursive: true });
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("records a saved page's monitored content under its SHA-256 with the observed time and the note, and a second run of the same content writes nothing", async () => {
    const dir = join(sources, "anthropic", "captures", "pricing");
    const before = JSON.parse(await readFile(join(dir, "CURRENT.json"), "utf8")) as { file: string };
    const current = await readFile(join(dir, before.file), "utf8");
    // A page saved by hand: CRLF line ends and trailing blanks, which extraction removes.
    const saved = `${current.replace(/\n/g, "   \r\n")}\r\n\r\n`;
    const file = join(work, "pricing.md");
    await writeFile(file, saved);
    const note = "Saved from https://platform.claude.com/docs/en/about-claude/pricing.md on 2026-11-24";
    const result = await catalog([
      "capture",
      "anthropic/pricing",
      file,
      "--observed-at",
      "2026-11-24T08:00:00Z",
      "--note",
      note,
      "--sources",
      sources,
    ]);
    expect(result.code).toBe(0);
    const { definitions } = await loadSourceDefinitions(sources);
    const source = definitions.find((d) => d.provider_id === "anthropic" && d.name === "pricing");
    if (!source) throw new Error("no anthropic/pricing");
    const expected = extractMonitored(source, saved);
    expect(expected.content).toBe(current);
    const meta = JSON.parse(await readFile(join(dir, "CURRENT.json"), "utf8")) as Record<string, unknown>;
    expect(meta).toMatchObject({
      file: `${expected.sha256}.md`,
      sha256: expected.sha256,
      url: source.url,
      fetched_at: "2026-11-24T08:00:00Z",
      http_status: 200,
      note,
    });
    expect(result.stdout.trim()).toBe(expected.sha256);
    expect(sha256Hex(await readFile(join(dir, `${expected.sha256}.md`)))).toBe(expected.sha256);
    // the capture file and CURRENT.json, beside the source's dated copies (docs/price-history.md)
    expect((await readdir(dir)).sort()).toEqual([`${expected.sha256}.md`, "CURRENT.json", "dated"].sort());

    const again = await catalog(["capture", "anthropic/pricing", file, "--note", note, "--sources", sources]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("unchanged");
    expect(JSON.parse(await readFile(join(dir, "CURRENT.json"), "utf8"))).toEqual(meta);
  }, 60_000);

  it("refuses an unknown source and a malformed --observed-at", async () => {
    const file = join(work, "page.md");
    await writeFile(file, "# x\n");
    const unknown = await catalog(["capture", "anthropic/nope", file, "--sources", sources]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no source "anthropic/nope"');
    const bad = await catalog([
      "capture",
      "anthropic/pricing",
      file,
      "--observed-at",
      "yesterday",
      "--sources",
      sources,
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--observed-at");
  }, 60_000);

  it("a damaged capture is reported by `catalog sources`, fails its source in a build, and no published file holds an absolute path", async () => {
    const snapshots = join(work, "snapshots");
    const first = await catalog([
      "build",
      "--offline",
      "--sources",
      sources,
      "--snapshots",
      snapshots,
      "--now",
      "2026-11-23T00:00:00Z",
    ]);
    expect(first.code).toBe(0);
    const dir = join(sources, "mistral", "captures", "model-cards");
    const meta = JSON.parse(await readFile(join(dir, "CURRENT.json"), "utf8")) as { file: string };
    await writeFile(join(dir, meta.file), "damaged\n");

    const listed = await catalog(["sources", "--sources", sources]);
    expect(listed.code).toBe(6);
    expect(listed.stdout).toMatch(
      /mistral +model-cards .*DAMAGED CAPTURE: capture file mistral\/captures\/model-cards\/[0-9a-f]{64}\.json is damaged/,
    );
    expect(listed.stderr).toContain("1 damaged capture(s)");

    const second = await catalog([
      "build",
      "--offline",
      "--json",
      "--sources",
      sources,
      "--snapshots",
      snapshots,
      "--now",
      "2026-11-24T00:00:00Z",
    ]);
    expect(second.code).toBe(0);
    const summary = JSON.parse(second.stdout) as {
      failed_sources: Array<{ provider_id: string; error: string }>;
    };
    expect(summary.failed_sources.map((s) => s.provider_id)).toEqual(["mistral"]);
    expect(summary.failed_sources[0]?.error).toMatch(
      /^capture file mistral\/captures\/model-cards\/[0-9a-f]{64}\.json is damaged/,
    );

    const { manifest, catalog: content } = await loadRelease(snapshots);
    expect(content.events.find((e) => e.provider_id === "mistral")?.event_type).toBe(
      "lifecycle.source_failed",
    );
    for (const name of Object.keys(manifest.files)) {
      const bytes = await readReleaseFile(
        snapshots,
        await readManifest(snapshots, manifest.release_id),
        name,
      );
      expect(bytes.includes(work), `${name} holds the path ${work}`).toBe(false);
    }
    const diff = await readReleaseFile(snapshots, manifest, "diff.md");
    expect(diff.toString()).toContain("mistral/captures/model-cards/");
  }, 120_000);
});
