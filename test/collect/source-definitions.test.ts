/**
 * Invariants over every committed source definition: sources that share a URL are one live page
 * plus recorded earlier versions of it (`archived`), each of which has its capture committed.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSourceDefinitions, readCaptureMeta } from "../../src/collect/index.js";
import { SourceDefinition } from "../../src/schema/index.js";
import { definition } from "./fixtures.js";

const SOURCES_DIR = join(import.meta.dirname, "..", "..", "sources");
const { definitions, errors } = await loadSourceDefinitions(SOURCES_DIR);

describe("source definitions", () => {
  it("sharing a URL, all but one are archived earlier versions, so a live build fetches each page once", () => {
    expect(errors).toEqual([]);
    const byUrl = new Map<string, SourceDefinition[]>();
    for (const d of definitions) byUrl.set(d.url, [...(byUrl.get(d.url) ?? []), d]);
    const shared = [...byUrl.values()].filter((list) => list.length > 1);
    // DeepSeek's pricing page (two earlier versions). Azure's model table file and reasoning
    // models page moved to articles/foundry/ in 2026: the current sources follow the new paths,
    // the old main URLs are left to their 2025 versions, and the January 2026 (and June 2025)
    // versions have URLs of their own, pinned to a commit.
    expect(shared.length).toBeGreaterThanOrEqual(1);
    for (const list of shared)
      expect(list.filter((d) => !d.archived).map((d) => `${d.provider_id}/${d.name}`)).toHaveLength(1);
  });

  it("an archived source has its capture committed, and the schema refuses one without", async () => {
    const archived = definitions.filter((d) => d.archived);
    expect(archived.map((d) => `${d.provider_id}/${d.name}`).sort()).toEqual([
      "anthropic/models-overview-2024",
      "anthropic/models-overview-2025",
      "azure/model-retirements-2025-12",
      "azure/models-azure-openai-2025",
      "azure/models-azure-openai-2026-01",
      "azure/models-sold-by-azure-2026-09",
      "azure/reasoning-models-2025-06",
      "azure/reasoning-models-2025-08",
      "azure/reasoning-models-2026-01",
      "deepseek/pricing-2025-12",
      "deepseek/pricing-2026-06",
      "xai/models-2025",
    ]);
    for (const d of archived) expect(await readCaptureMeta(SOURCES_DIR, d)).not.toBeNull();
    expect(() => definition({ name: "old", archived: true, offline_capture: false })).toThrow(
      /offline_capture must be true/,
    );
    expect(SourceDefinition.parse(definition({ name: "plain" })).archived).toBeUndefined();
  });
});
