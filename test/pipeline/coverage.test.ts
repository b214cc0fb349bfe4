/**
 * Coverage of token limits and capabilities from OFFICIAL sources in the offline build of the
 * recorded captures (the committed snapshot, which build.test.ts holds to be that build), among the deployments the release publishes as not retired. "From
 * official sources" = what mergeSpecs gives each published deployment from the official facts
 * of the release's facts.json alone (its deployment facts and its provider model's facts), so
 * a value LiteLLM alone supplies does not count.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  type DeploymentCandidate,
  indexModelFacts,
  mergeSpecs,
  modelFactKey,
} from "../../src/release/model-facts.js";
import { committedRelease } from "../helpers/committed-release.js";

interface Coverage {
  total: number;
  context: number;
  maxOutput: number;
  capability: number;
}

const byProvider = new Map<string, Coverage>();
const all: Coverage = { total: 0, context: 0, maxOutput: 0, capability: 0 };

beforeAll(async () => {
  const { catalog, facts } = await committedRelease();
  const officialSources = facts.sources.filter((s) => s.source_type !== "community_catalog");
  const modelFacts = indexModelFacts(officialSources, () => true);
  const deploymentFacts = new Map<string, DeploymentCandidate[]>();
  for (const source of officialSources)
    source.output.deployments.forEach((fact, index) => {
      const list = deploymentFacts.get(fact.id) ?? [];
      list.push({ fact, source, official: true, observedMs: Date.parse(fact.evidence.observed_at), index });
      deploymentFacts.set(fact.id, list);
    });
  for (const d of catalog.deployments) {
    if (d.status === "retired") continue;
    const o = mergeSpecs(
      d.mode,
      deploymentFacts.get(d.id) ?? [],
      modelFacts.get(modelFactKey(d.provider_id, d.provider_model_id)),
    );
    const counts = byProvider.get(d.provider_id) ?? { total: 0, context: 0, maxOutput: 0, capability: 0 };
    const add = (key: keyof Coverage, yes: boolean) => {
      if (!yes) return;
      counts[key]++;
      all[key]++;
    };
    add("total", true);
    add("context", o.context_tokens !== null);
    add("maxOutput", o.max_output_tokens !== null);
    // the published entry itself carries its verification status
    add(
      "capability",
      Object.values(d.capabilities).some((c) => c.verification_status?.startsWith("official_") === true),
    );
    byProvider.set(d.provider_id, counts);
  }
}, 120_000);

describe("official limits and capabilities of non-retired deployments", () => {
  it("official values reach the providers whose models pages are recorded", () => {
    // Floors at the deployments an official source lists (LiteLLM-only deployments excluded
    // from the floor, so removing them does not break it): Claude overview + model pages,
    // Azure OpenAI models sold directly by Azure, Gemini API models page, Mistral model cards.
    expect(byProvider.get("anthropic")?.context).toBeGreaterThanOrEqual(18);
    expect(byProvider.get("anthropic")?.maxOutput).toBeGreaterThanOrEqual(18);
    expect(byProvider.get("anthropic")?.capability).toBeGreaterThanOrEqual(8);
    expect(byProvider.get("azure")?.context).toBeGreaterThanOrEqual(84);
    expect(byProvider.get("azure")?.maxOutput).toBeGreaterThanOrEqual(59);
    expect(byProvider.get("azure")?.capability).toBeGreaterThanOrEqual(37);
    expect(byProvider.get("google")?.context).toBeGreaterThanOrEqual(13);
    expect(byProvider.get("google")?.capability).toBeGreaterThanOrEqual(18);
    // Mistral's model cards: most of their models are retired by 2026-11-23.
    expect(byProvider.get("mistral")?.context).toBeGreaterThanOrEqual(12);
    // OpenAI model pages (16 recorded: each gives its model id and default snapshot): 44 of
    // the 142 officially listed non-retired OpenAI deployments, 70 of 235 with LiteLLM's.
    expect(byProvider.get("openai")?.context).toBeGreaterThanOrEqual(44);
    expect(byProvider.get("openai")?.maxOutput).toBeGreaterThanOrEqual(44);
    expect(byProvider.get("openai")?.capability).toBeGreaterThanOrEqual(44);
  });

  it("no official limits are recorded for Amazon Bedrock or Vertex AI deployments", () => {
    // No stored official model page was found for them (README "Capabilities"): when one is
    // recorded this fails, and its floor belongs in the test above.
    for (const provider of ["amazon-bedrock", "google-vertex"]) {
      expect(byProvider.get(provider)?.total).toBeGreaterThan(0);
      expect(byProvider.get(provider)?.context).toBe(0);
      expect(byProvider.get(provider)?.maxOutput).toBe(0);
    }
  });

  it("at least 23% of non-retired deployments have an official context window, 15% an official max output and 12% an official capability", () => {
    // Measured 2026-11-23 with LiteLLM's capture present (its LiteLLM-only deployments count in
    // the denominator): 23.2% / 15.3% / 12.6% of 1,274; only officially listed deployments:
    // 45.3% / 27.5% / 22.8% of 567.
    expect(all.context / all.total).toBeGreaterThanOrEqual(0.23);
    expect(all.maxOutput / all.total).toBeGreaterThanOrEqual(0.15);
    expect(all.capability / all.total).toBeGreaterThanOrEqual(0.12);
  });

  // The target. Not reached: only 16 OpenAI model pages were found stored, and no
  // stored official model page for Amazon Bedrock (model cards) or Vertex AI (model pages); see
  // the README "Capabilities" section.
  it.todo(
    ">= 80% of non-retired deployments have official context and max output, >= 50% an official capability",
  );
});
