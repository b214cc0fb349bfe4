import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { loadCorrections, loadSourceDefinitions } from "../../src/collect/index.js";
import { applyCorrections } from "../../src/normalize/index.js";
import { parsers as mistral } from "../../src/normalize/parsers/mistral.js";
import { buildReport, formatBuildReport } from "../../src/release/index.js";
import { type Correction, CorrectionsFile, type ParseOutput } from "../../src/schema/index.js";
import { recordedInput, SOURCES_DIR } from "../helpers/captures.js";
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

  it("the recorded Mistral corrections are valid, none is stale, and the parser reads the corrected page", async () => {
    const file = CorrectionsFile.parse(
      parseYaml(await readFile(join(SOURCES_DIR, "mistral", "corrections.yaml"), "utf8")),
    );
    const input = await recordedInput("mistral", "models");
    const corrected = applyCorrections(input.source, input.content, file.corrections);
    expect(corrected.outcomes.map((o) => o.status)).toEqual(["applied", "applied"]);
    const parse = mistral["mistral-models"] as (i: typeof input) => ParseOutput;
    const before = parse(input).deployments.map((d) => d.provider_model_id);
    const after = parse({ ...input, content: corrected.content }).deployments.map((d) => d.provider_model_id);
    expect(before).toContain("mistral-small-2509");
    expect(after).not.toContain("mistral-small-2509");
    expect(after).toContain("mistral-small-2506");
  });

  describe("loading", () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), "catalog-corrections-"));
      await mkdir(join(dir, "mistral"), { recursive: true });
      await writeFile(
        join(dir, "mistral", "models.yaml"),
        await readFile(join(SOURCES_DIR, "mistral", "models.yaml"), "utf8"),
      );
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("is not read as a source definition, and loads per provider", async () => {
      await writeFile(
        join(dir, "mistral", "corrections.yaml"),
        await readFile(join(SOURCES_DIR, "mistral", "corrections.yaml"), "utf8"),
      );
      const { definitions, errors } = await loadSourceDefinitions(dir);
      expect(errors).toEqual([]);
      expect(definitions.map((d) => d.name)).toEqual(["models"]);
      const loaded = await loadCorrections(dir, definitions);
      expect(loaded.errors).toEqual([]);
      expect(loaded.corrections.get("mistral")).toHaveLength(2);
    });

    it("reports a schema error, invalid YAML or a correction of an unknown source as an error", async () => {
      const { definitions } = await loadSourceDefinitions(dir);
      const write = (text: string) => writeFile(join(dir, "mistral", "corrections.yaml"), text);
      await write("corrections:\n  - source: models\n    page_says: a\n    means: b\n");
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
