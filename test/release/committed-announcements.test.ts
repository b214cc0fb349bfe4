/**
 * The committed release's announcement dates from dated copies (docs/price-history.md,
 * "Announcement dates from dated copies"): Ministral 8B's deprecation first shown by Mistral's
 * model cards in the copy of 2025-12-02, a LiteLLM deprecation_date first shown on 2025-05-03,
 * and how many lifecycles the dated copies date.
 */
import { describe, expect, it } from "vitest";
import type { LifecycleRecord } from "../../src/schema/index.js";
import { committedRelease } from "../helpers/committed-release.js";

async function lifecycleOf(id: string): Promise<LifecycleRecord["lifecycle"] | undefined> {
  const { catalog } = await committedRelease();
  return catalog.lifecycle.find((r) => r.resource_type === "deployment" && r.resource_id === id)?.lifecycle;
}

/**
 * Whether a record's announced_at is a dated copy's: the observed_at of one of its milestones'
 * evidence that a later observation of the same source (the current copy) follows.
 */
function datedByCopy(record: LifecycleRecord): boolean {
  const { announced_at, deprecation, end_of_life } = record.lifecycle;
  const evidence = [...deprecation.evidence, ...end_of_life.evidence];
  return evidence.some(
    (e) =>
      e.observed_at === announced_at &&
      evidence.some((later) => later.source_url === e.source_url && later.observed_at > e.observed_at),
  );
}

describe("the committed release's announcement dates from dated copies", () => {
  it("dates Ministral 8B's announcement by the model-card copy of 2025-12-02, which the current card does not state", async () => {
    const lifecycle = await lifecycleOf("dep_mistral_ministral-8b-2410_api_global");
    expect(lifecycle?.announced_at).toBe("2025-12-02T15:03:14Z");
    expect(lifecycle?.end_of_life).toMatchObject({ state: "scheduled", date: "2025-12-31" });
    expect(lifecycle?.end_of_life.evidence).toContainEqual({
      source_url:
        "https://api.github.com/repos/mistralai/platform-docs-public/contents/src/schema/models/models?ref=main",
      source_type: "official_lifecycle",
      observed_at: "2025-12-02T15:03:14Z",
      verification_status: "official_declared",
    });
    const { facts } = await committedRelease();
    const stated = facts.sources
      .flatMap((s) => s.output.lifecycle)
      .filter((a) => a.provider_id === "mistral" && a.target?.provider_model_id === "ministral-8b-2410");
    expect(stated.length).toBeGreaterThan(0);
    for (const assertion of stated) expect(assertion.announced_at ?? null).toBeNull();
  });

  it("dates a community deprecation by LiteLLM's first copy showing it (2025-05-03)", async () => {
    const lifecycle = await lifecycleOf("dep_google-vertex_gemini-2.0-flash-001_vertex-ai_global");
    expect(lifecycle?.announced_at).toBe("2025-05-03T18:08:48Z");
    expect(lifecycle?.end_of_life.evidence.map((e) => [e.observed_at, e.verification_status])).toContainEqual(
      ["2025-05-03T18:08:48Z", "community_reported"],
    );
  });

  it("dates 10 deployment lifecycles, none after a scheduled milestone", async () => {
    const { catalog } = await committedRelease();
    const dated = catalog.lifecycle.filter(datedByCopy);
    // 11 before Vertex AI's partner model deprecations page (recorded) dated Claude 3.7 Sonnet's
    // deprecation on Vertex itself
    expect(dated.length).toBe(10);
    expect(new Set(dated.map((r) => r.resource_type))).toEqual(new Set(["deployment"]));
    for (const record of dated)
      for (const milestone of [record.lifecycle.deprecation, record.lifecycle.end_of_life])
        if (milestone.state === "scheduled" && milestone.precision === "day")
          expect(
            String(record.lifecycle.announced_at).slice(0, 10) <= String(milestone.date),
            record.resource_id,
          ).toBe(true);
  });
});
