import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stringify as stringifyYaml } from "yaml";
import { loadCorrections, loadSourceDefinitions } from "../../src/collect/index.js";
import { fixedClock } from "../../src/lib/clock.js";
import { silentLogger } from "../../src/lib/logger.js";
import { applyCorrections } from "../../src/normalize/index.js";
import { runBuild } from "../../src/pipeline/build.js";
import { buildReport, formatBuildReport, loadRelease } from "../../src/release/index.js";
import { type Correction, CorrectionsFile } from "../../src/schema/index.js";
import { SOURCES_DIR } from "../helpers/captures.js";
import { mergedCatalog, NOW } from "../release/fixtures.js";

const SOURCE = { provider_id: "mistral", name: "models" };
const correction = (page_says: string, means: string, source = "models"): Correction => ({
  source,
  page_says,
  means,
  why: "the provider's own changelog names the other id",
  evidence_url: "https://github.com/mistralai/platform-docs-public/blob/abc/changelog.mdx",
});

describe("applyCorrections", () => {
  it("replaces the text a correction names when it occurs once, and reports it as applied", () => {
    const result = applyCorrections(SOURCE, "| `mistral-small-2509` | 25.06 |", [
      correction("`mistral-small-2509`", "`mistral-small-2506`"),
    ]);
    expect(result.content).toBe("| `mistral-small-2506` | 25.06 |");
    expect(result.outcomes).toEqual([
      expect.objectContaining({
        provider_id: "mistral",
        source: "models",
        status: "applied",
        occurrences: 1,
      }),
    ]);
  });

  it("reports a correction whose text no longer occurs as stale, and one whose text occurs twice as ambiguous; neither changes the content", () => {
    const content = "2525/06/06 and 2525/06/06";
    const result = applyCorrections(SOURCE, content, [
      correction("mistral-small-2509", "mistral-small-2506"),
      correction("2525/06/06", "2025/06/06"),
    ]);
    expect(result.content).toBe(content);
    expect(result.outcomes.map((o) => [o.status, o.occurrences])).toEqual([
      ["stale", 0],
      ["ambiguous", 2],
    ]);
  });

  it("applies only the corrections of the source being parsed", () => {
    const result = applyCorrections(SOURCE, "abc", [correction("abc", "xyz", "pricing")]);
    expect(result).toEqual({ content: "abc", outcomes: [] });
  });
});

describe("corrections.yaml", () => {
  it("rejects entries without evidence, without a reason, with an unknown field or that change nothing", () => {
    const good = correction("a", "b");
    expect(CorrectionsFile.safeParse({ corrections: [good] }).success).toBe(true);
    const { evidence_url: _e, ...noEvidence } = good;
    for (const bad of [
      noEvidence,
      { ...good, why: "typo" },
      { ...good, evidence_url: "not a url" },
      { ...good, means: good.page_says },
      { ...good, reviewer: "me" },
      { ...good, source: "Models Page" },
    ])
      expect(CorrectionsFile.safeParse({ corrections: [bad] }).success).toBe(false);
    expect(CorrectionsFile.safeParse({ corrections: [] }).success).toBe(false);
  });

  it("a build applies a corrections.yaml of the sources tree: the published fact changes and the report lists the correction", async () => {
    // A test-only correction on a copy of the recorded captures (no real capture needs one since
    // Mistral's overview page, whose two typos were corrected, gave way to its model cards).
    const dir = await mkdtemp(join(tmpdir(), "catalog-corrections-build-"));
    try {
      const sources = join(dir, "sources");
      await cp(SOURCES_DIR, sources, { recursive: true });
      const row =
        "| Claude Opus 4.7                                                                         | $5 / MTok         |";
      await writeFile(
        join(sources, "anthropic", "corrections.yaml"),
        stringifyYaml({
          corrections: [
            {
              source: "pricing",
              page_says: row,
              means: row.replace("$5 / MTok ", "$6 / MTok "),
              why: "test-only correction: the build must apply it and list it",
              evidence_url: "https://platform.claude.com/docs/en/about-claude/pricing",
            },
          ],
        }),
      );
      const summary = await runBuild({
        sourcesDir: sources,
        snapshotsDir: join(dir, "snapshots"),
        offline: true,
        clock: fixedClock("2026-11-23T00:00:00Z"),
        logger: silentLogger,
      });
      expect(summary.outcome.report.corrections).toEqual([
        expect.objectContaining({
          provider_id: "anthropic",
          source: "pricing",
          status: "applied",
          occurrences: 1,
        }),
      ]);
      const { catalog } = await loadRelease(join(dir, "snapshots"));
      const opus = catalog.deployments.find((d) => d.id === "dep_anthropic_claude-opus-4-7_api_global");
      expect(opus?.rate_card?.input_micro_usd).toBe(6_000_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  describe("loading", () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), "catalog-corrections-"));
      await mkdir(join(dir, "mistral"), { recursive: true });
      await writeFile(
        join(dir, "mistral", "model-cards.yaml"),
        await readFile(join(SOURCES_DIR, "mistral", "model-cards.yaml"), "utf8"),
      );
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("is not read as a source definition, and loads per provider", async () => {
      await writeFile(
        join(dir, "mistral", "corrections.yaml"),
        stringifyYaml({
          corrections: [
            correction("`mistral-small-2509`", "`mistral-small-2506`", "model-cards"),
            correction("2525/06/06", "2025/06/06", "model-cards"),
          ],
        }),
      );
      const { definitions, errors } = await loadSourceDefinitions(dir);
      expect(errors).toEqual([]);
      expect(definitions.map((d) => d.name)).toEqual(["model-cards"]);
      const loaded = await loadCorrections(dir, definitions);
      expect(loaded.errors).toEqual([]);
      expect(loaded.corrections.get("mistral")).toHaveLength(2);
    });

    it("reports a schema error, invalid YAML or a correction of an unknown source as an error", async () => {
      const { definitions } = await loadSourceDefinitions(dir);
      const write = (text: string) => writeFile(join(dir, "mistral", "corrections.yaml"), text);
      await write("corrections:\n  - source: model-cards\n    page_says: a\n    means: b\n");
      expect((await loadCorrections(dir, definitions)).errors[0]?.message).toMatch(/why|evidence_url/);
      await write("corrections: [");
      expect((await loadCorrections(dir, definitions)).errors[0]?.message).toMatch(/not valid YAML/);
      await write(
        `corrections:\n  - source: pricing\n    page_says: a\n    means: b\n    why: the provider says so elsewhere\n    evidence_url: https://docs.mistral.ai/\n`,
      );
      const unknown = await loadCorrections(dir, definitions);
      expect(unknown.errors[0]?.message).toMatch(/names no source of mistral: pricing/);
      expect(unknown.corrections.size).toBe(0);
    });
  });
});

describe("the build report", () => {
  it("lists every correction, warns about stale ones and prints the applied ones", () => {
    const input = {
      now: NOW,
      previousReleaseId: null,
      catalog: mergedCatalog(),
      checks: [],
      conflicts: [],
      unresolvedReplacements: [],
      carriedForward: [],
      failedWithoutFacts: [],
    };
    const applied = {
      ...correction("2509", "2506"),
      provider_id: "mistral",
      status: "applied" as const,
      occurrences: 1,
    };
    const stale = {
      ...correction("2525/06/06", "2025/06/06"),
      provider_id: "mistral",
      status: "stale" as const,
      occurrences: 0,
    };
    const report = buildReport({ ...input, corrections: [applied, stale] });
    expect(report.corrections).toEqual([applied, stale]);
    expect(report.warnings).toEqual([
      expect.objectContaining({
        check: "correction_stale",
        count: 1,
        examples: [{ provider_id: "mistral", source: "models", status: "stale", page_says: "2525/06/06" }],
      }),
    ]);
    expect(formatBuildReport(report)).toContain(
      `upstream corrections applied: 1\n  mistral/models: "2509" -> "2506"`,
    );
    expect(buildReport(input).corrections).toEqual([]);
  });
});
