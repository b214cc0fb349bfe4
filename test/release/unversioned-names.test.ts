import { describe, expect, test } from "vitest";
import { gatherFacts } from "../../src/release/facts.js";
import { mergeCatalog } from "../../src/release/merge.js";
import { isOfficial } from "../../src/release/merge-candidates.js";
import { resolveUnversionedNames } from "../../src/release/unversioned-names.js";
import type { Deployment, DeploymentFact, LifecycleAssertion } from "../../src/schema/index.js";
import {
  assertion,
  contributionsFor,
  depId,
  fact,
  NOW,
  rateCard,
  scheduled,
  source,
  standardWorld,
  type World,
} from "./fixtures.js";

const pricing = source("pricing");
const community = source("community");
const azure = (surface = "azure-openai-global-standard", region = "global") => ({
  provider_id: "azure",
  api_surface: surface,
  region,
});
const azureId = (pmid: string, surface = "azure-openai-global-standard", region = "global") =>
  depId(pmid, "standard", region, "azure", surface);

/** The standard world plus Azure facts: official (pricing source) and community (LiteLLM). */
function world(official: DeploymentFact[], communityFacts: DeploymentFact[]): World {
  const w = standardWorld();
  w.pricing.push(...official);
  w.community.push(...communityFacts);
  return w;
}

function merge(w: World, communityLifecycle: LifecycleAssertion[] = []) {
  const { contributions, states } = contributionsFor(w, [], NOW);
  const communityContribution = contributions.find((c) => c.source.source_id === community.source_id);
  if (communityContribution?.output) communityContribution.output.lifecycle = communityLifecycle;
  const { facts } = gatherFacts(contributions, null);
  return { facts, merged: mergeCatalog({ now: NOW, facts, states, previousCores: new Map() }) };
}

function find(deployments: Deployment[], id: string): Deployment {
  const found = deployments.find((d) => d.id === id);
  if (!found) throw new Error(`no deployment ${id}`);
  return found;
}

describe("community names without their version (Azure)", () => {
  test("a bare name where the official tables place exactly one version is that version's deployment, its values filling what the official facts leave unknown", () => {
    const w = world(
      [
        fact(pricing, "gpt-5.1-2025-11-13", {
          ...azure(),
          model_id: "openai/gpt-5.1-2025-11-13",
          context_tokens: 400_000,
        }),
      ],
      [
        fact(community, "gpt-5.1", {
          ...azure(),
          model_id: "openai/gpt-5.1",
          context_tokens: 272_000,
          max_output_tokens: 128_000,
          rate_card: rateCard(community, 1.25, 0.125, 10),
        }),
      ],
    );
    const { merged, facts } = merge(w);
    const ids = merged.deployments.map((d) => d.id);
    expect(ids).not.toContain(azureId("gpt-5.1"));
    const versioned = find(merged.deployments, azureId("gpt-5.1-2025-11-13"));
    expect(versioned.model_id).toBe("openai/gpt-5.1-2025-11-13");
    expect(versioned.context_tokens).toBe(400_000); // the official value wins
    expect(versioned.max_output_tokens).toBe(128_000); // the community value fills the gap
    expect(versioned.rate_card?.input_micro_usd).toBe(1_250_000);
    expect(versioned.lifecycle.coverage.source_ids).toContain(community.source_id);
    expect(merged.conflicts).toContainEqual(
      expect.objectContaining({
        resource_id: azureId("gpt-5.1-2025-11-13"),
        field: "context_tokens",
        official: { source_id: pricing.source_id, value: 400_000 },
        community: { source_id: community.source_id, value: 272_000 },
      }),
    );
    // facts.json keeps what the source said
    const litellm = facts.sources.find((s) => s.source_id === community.source_id);
    expect(litellm?.output.deployments.map((d) => d.provider_model_id)).toContain("gpt-5.1");
  });

  test("a bare name with two official versions, none, or its one version elsewhere stays its own deployment", () => {
    const w = world(
      [
        fact(pricing, "gpt-4o-2024-08-06", azure()),
        fact(pricing, "gpt-4o-2024-11-20", azure()),
        fact(pricing, "o3-mini-2025-01-31", azure("azure-openai-data-zone-standard", "eu")),
      ],
      [
        fact(community, "gpt-4o", azure()),
        fact(community, "o3-mini", azure()),
        fact(community, "gpt-5.6", azure()),
      ],
    );
    const ids = merge(w).merged.deployments.map((d) => d.id);
    for (const bare of ["gpt-4o", "o3-mini", "gpt-5.6"]) expect(ids).toContain(azureId(bare));
    expect(ids).toContain(azureId("o3-mini-2025-01-31", "azure-openai-data-zone-standard", "eu"));
  });

  test("only providers that deploy versions resolve bare names: OpenAI's alias and its snapshot stay two deployments", () => {
    const w = world([fact(pricing, "gpt-4.1-2025-04-14")], [fact(community, "gpt-4.1-mini")]);
    w.pricing = w.pricing.filter((f) => f.provider_model_id !== "gpt-4.1");
    w.community.push(fact(community, "gpt-4.1"));
    const ids = merge(w).merged.deployments.map((d) => d.id);
    expect(ids).toContain(depId("gpt-4.1"));
    expect(ids).toContain(depId("gpt-4.1-2025-04-14"));
  });

  test("a bare name the official sources list as a deployment of its own is left alone", () => {
    const w = world(
      [fact(pricing, "model-router", azure()), fact(pricing, "model-router-2025-11-18", azure())],
      [fact(community, "model-router", { ...azure(), context_tokens: 200_000 })],
    );
    const ids = merge(w).merged.deployments.map((d) => d.id);
    expect(ids).toContain(azureId("model-router"));
    expect(find(merge(w).merged.deployments, azureId("model-router-2025-11-18")).context_tokens).toBeNull();
  });

  test("when the source also names the version, its versioned fact speaks and the bare one is dropped as its alias", () => {
    const w = world(
      [fact(pricing, "gpt-4.1-2025-04-14", azure())],
      [
        fact(community, "gpt-4.1", { ...azure(), rate_card: rateCard(community, 9, null, 9) }),
        fact(community, "gpt-4.1-2025-04-14", { ...azure(), rate_card: rateCard(community, 2, 0.5, 8) }),
      ],
    );
    const sources = resolveUnversionedNames(
      gatherFacts(contributionsFor(w, [], NOW).contributions, null).facts.sources,
      isOfficial,
    );
    const litellm = sources.find((s) => s.source_id === community.source_id);
    expect(
      litellm?.output.deployments.filter((d) => d.provider_id === "azure").map((d) => d.provider_model_id),
    ).toEqual(["gpt-4.1-2025-04-14"]);
    expect(find(merge(w).merged.deployments, azureId("gpt-4.1-2025-04-14")).rate_card?.input_micro_usd).toBe(
      2_000_000,
    );
  });

  test("a community lifecycle assertion aimed at the bare name on that surface and region moves to the version", () => {
    const w = world([fact(pricing, "o1-2024-12-17", azure())], [fact(community, "o1", azure())]);
    const eol = assertion(community, "o1", {
      provider_id: "azure",
      model_id: "openai/o1",
      target: { provider_model_id: "o1", api_surface: "azure-openai-global-standard", region: "global" },
      end_of_life: scheduled("2027-03-01"),
    });
    const o1 = find(merge(w, [eol]).merged.deployments, azureId("o1-2024-12-17"));
    expect(o1.lifecycle.end_of_life.date).toBe("2027-03-01");
    expect(merge(w, [eol]).merged.deployments.map((d) => d.id)).not.toContain(azureId("o1"));
  });
});
