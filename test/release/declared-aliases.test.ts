import { describe, expect, test } from "vitest";
import { resolveDeclaredAliases } from "../../src/release/declared-aliases.js";
import { type FactsFile, gatherFacts } from "../../src/release/facts.js";
import { mergeCatalog } from "../../src/release/merge.js";
import { isOfficial } from "../../src/release/merge-candidates.js";
import type { Deployment, LifecycleAssertion, ProviderAlias } from "../../src/schema/index.js";
import {
  assertion,
  COMMUNITY_ID,
  contributionsFor,
  depId,
  evidence,
  fact,
  NOW,
  PRICING_ID,
  rateCard,
  scheduled,
  source,
  standardWorld,
  type World,
} from "./fixtures.js";

const pricing = source("pricing");
const community = source("community");

function alias(name: string, target: string, src = pricing, provider = "openai"): ProviderAlias {
  return { provider_id: provider, alias: name, provider_model_id: target, evidence: evidence(src) };
}

interface Extra {
  /** Aliases the official pricing source declares. */
  official?: ProviderAlias[];
  /** Aliases the community source declares (never used to resolve). */
  communityAliases?: ProviderAlias[];
  communityLifecycle?: LifecycleAssertion[];
}

function factsOf(w: World, extra: Extra = {}) {
  const { contributions, states } = contributionsFor(w, [], NOW);
  for (const c of contributions) {
    if (!c.output) continue;
    if (c.source.source_id === PRICING_ID && extra.official) c.output.aliases = extra.official;
    if (c.source.source_id === COMMUNITY_ID) {
      if (extra.communityAliases) c.output.aliases = extra.communityAliases;
      if (extra.communityLifecycle) c.output.lifecycle = extra.communityLifecycle;
    }
  }
  return { facts: gatherFacts(contributions, null).facts, states };
}

function merge(w: World, extra: Extra = {}) {
  const { facts, states } = factsOf(w, extra);
  return { facts, merged: mergeCatalog({ now: NOW, facts, states, previousCores: new Map() }) };
}

function find(deployments: Deployment[], id: string): Deployment {
  const found = deployments.find((d) => d.id === id);
  if (!found) throw new Error(`no deployment ${id}`);
  return found;
}

const communityNames = (facts: FactsFile) =>
  resolveDeclaredAliases(facts.sources, isOfficial)
    .find((s) => s.source_id === COMMUNITY_ID)
    ?.output.deployments.map((d) => `${d.provider_id}/${d.provider_model_id}/${d.mode}`);

describe("community facts named by an alias the provider declares", () => {
  test("a community alias fact is a fact about the official deployment it stands for: the official value wins, the community one fills a gap", () => {
    const w = standardWorld();
    w.community.push(
      fact(community, "gpt-4.1-latest", {
        context_tokens: 1_047_576,
        max_output_tokens: 32_768,
        capabilities: { vision: { status: "supported" } },
      }),
    );
    const { merged, facts } = merge(w, { official: [alias("gpt-4.1-latest", "gpt-4.1")] });
    const ids = merged.deployments.map((d) => d.id);
    expect(ids).not.toContain(depId("gpt-4.1-latest"));
    expect(merged.deployments).toHaveLength(standardWorld().pricing.length);
    const d = find(merged.deployments, depId("gpt-4.1"));
    expect(d.model_id).toBe("openai/gpt-4.1");
    expect(d.context_tokens).toBe(1_047_576); // official
    expect(d.max_output_tokens).toBe(32_768); // community, where the official facts are silent
    expect(d.capabilities.vision?.status).toBe("supported");
    expect(d.lifecycle.coverage.source_ids).toContain(COMMUNITY_ID);
    // facts.json keeps what the source said
    const litellm = facts.sources.find((s) => s.source_id === COMMUNITY_ID);
    expect(litellm?.output.deployments.map((f) => f.provider_model_id)).toContain("gpt-4.1-latest");
    const official = facts.sources.find((s) => s.source_id === PRICING_ID);
    expect(official?.output.aliases).toEqual([alias("gpt-4.1-latest", "gpt-4.1")]);
  });

  test("an alias fact that gives a price or limit differently from the official facts describes an earlier target: it stays as it is", () => {
    for (const differing of [
      { context_tokens: 1_000_000, max_output_tokens: 32_768 },
      { max_output_tokens: 32_768, rate_card: rateCard(community, 3, 0.75, 12) },
    ]) {
      const w = standardWorld();
      w.community.push(fact(community, "gpt-4.1-latest", differing));
      const { merged } = merge(w, { official: [alias("gpt-4.1-latest", "gpt-4.1")] });
      // the alias keeps its own (community-only) deployment, and lends gpt-4.1 nothing
      expect(merged.deployments.map((d) => d.id)).toContain(depId("gpt-4.1-latest"));
      const d = find(merged.deployments, depId("gpt-4.1"));
      expect(d.max_output_tokens).toBeNull();
      expect(d.rate_card?.input_micro_usd).toBe(2_000_000);
      expect(d.lifecycle.coverage.source_ids).not.toContain(COMMUNITY_ID);
      expect(merged.conflicts.filter((c) => c.resource_id === depId("gpt-4.1"))).toEqual([]);
    }
    // the same values, agreeing with the official ones where both speak, fold
    const w = standardWorld();
    w.community.push(
      fact(community, "gpt-4.1-latest", {
        max_output_tokens: 32_768,
        rate_card: rateCard(community, 2, 0.5, 8),
      }),
    );
    const { merged } = merge(w, { official: [alias("gpt-4.1-latest", "gpt-4.1")] });
    expect(merged.deployments.map((d) => d.id)).not.toContain(depId("gpt-4.1-latest"));
    expect(find(merged.deployments, depId("gpt-4.1")).max_output_tokens).toBe(32_768);
  });

  test("where the official facts place no deployment of the aliased model on that surface, mode or region, the fact stays as it is", () => {
    const w = standardWorld();
    w.community.push(
      fact(community, "gpt-4.1-latest", { region: "eu" }),
      fact(community, "gpt-4.1-latest", { api_surface: "assistants" }),
      fact(community, "gpt-4.1-latest", { mode: "batch" }),
    );
    const { merged, facts } = merge(w, { official: [alias("gpt-4.1-latest", "gpt-4.1")] });
    const ids = merged.deployments.map((d) => d.id);
    expect(ids).toContain(depId("gpt-4.1-latest", "standard", "eu"));
    expect(ids).toContain(depId("gpt-4.1-latest", "standard", "global", "openai", "assistants"));
    expect(ids).toContain(depId("gpt-4.1-latest", "batch"));
    expect(communityNames(facts)).toContain("openai/gpt-4.1-latest/batch");
  });

  test("an alias only the community source declares, or one of a provider without official facts, resolves nothing", () => {
    const w = standardWorld();
    w.community.push(
      fact(community, "gpt-4.1-latest"),
      fact(community, "mistral-large-latest", {
        provider_id: "mistral",
        model_id: "mistral/mistral-large-latest",
      }),
      fact(community, "mistral-large-2512", {
        provider_id: "mistral",
        model_id: "mistral/mistral-large-2512",
      }),
    );
    const { merged, facts } = merge(w, {
      communityAliases: [
        alias("gpt-4.1-latest", "gpt-4.1", community),
        alias("mistral-large-latest", "mistral-large-2512", community, "mistral"),
      ],
      // an official source of another provider declaring the name does not speak for Mistral
      official: [alias("mistral-large-latest", "gpt-4.1")],
    });
    const ids = merged.deployments.map((d) => d.id);
    expect(ids).toContain(depId("gpt-4.1-latest"));
    expect(ids).toContain(depId("mistral-large-latest", "standard", "global", "mistral"));
    expect(ids).toContain(depId("mistral-large-2512", "standard", "global", "mistral"));
    const resolved = resolveDeclaredAliases(facts.sources, isOfficial);
    expect(resolved.find((s) => s.source_id === COMMUNITY_ID)).toBe(
      facts.sources.find((s) => s.source_id === COMMUNITY_ID),
    );
  });

  test("a name official sources declare for two models, or list as a deployment of its own, is left alone", () => {
    const w = standardWorld();
    w.community.push(fact(community, "gpt-4.1-latest"), fact(community, "gpt-4-turbo-latest"));
    const { merged } = merge(w, {
      official: [
        alias("gpt-4.1-latest", "gpt-4.1"),
        alias("gpt-4.1-latest", "gpt-4o"),
        alias("gpt-4o", "gpt-4.1"), // gpt-4o is an official deployment of its own
      ],
    });
    const ids = merged.deployments.map((d) => d.id);
    expect(ids).toContain(depId("gpt-4.1-latest"));
    expect(ids).toContain(depId("gpt-4o"));
    expect(find(merged.deployments, depId("gpt-4o")).context_tokens).toBe(128_000); // its own community fact
  });

  test("the source's own fact for the model speaks; its alias facts for it are dropped", () => {
    const w = standardWorld();
    w.community.push(
      fact(community, "gpt-4o-latest", { rate_card: rateCard(community, 9, null, 9), context_tokens: 1 }),
      fact(community, "gpt-4.1-latest", { max_output_tokens: 32_768 }),
      fact(community, "gpt-4.1-next", { max_output_tokens: 65_536 }),
    );
    const { merged, facts } = merge(w, {
      official: [
        alias("gpt-4o-latest", "gpt-4o"),
        alias("gpt-4.1-latest", "gpt-4.1"),
        alias("gpt-4.1-next", "gpt-4.1"),
      ],
    });
    const names = communityNames(facts) ?? [];
    expect(names.filter((n) => n === "openai/gpt-4o/standard")).toHaveLength(1);
    expect(names.filter((n) => n === "openai/gpt-4.1/standard")).toHaveLength(1);
    expect(names.some((n) => n.includes("-latest") || n.includes("-next"))).toBe(false);
    const gpt4o = find(merged.deployments, depId("gpt-4o"));
    expect(gpt4o.context_tokens).toBe(128_000);
    expect(
      merged.conflicts.some((c) => c.resource_id === depId("gpt-4o") && c.field === "context_tokens"),
    ).toBe(false);
    // two aliases of one deployment: the first in the source's order (by id) speaks
    expect(find(merged.deployments, depId("gpt-4.1")).max_output_tokens).toBe(32_768);
  });

  test("a community lifecycle assertion aimed at the alias on that surface and region follows it", () => {
    const w = standardWorld();
    w.community.push(fact(community, "gpt-4.1-latest"));
    const eol = assertion(community, "gpt-4.1-latest", {
      model_id: "openai/gpt-4.1-latest",
      target: { provider_model_id: "gpt-4.1-latest", api_surface: "api", region: "global" },
      end_of_life: scheduled("2027-03-01"),
    });
    const elsewhere = assertion(community, "gpt-4.1-latest", {
      target: { provider_model_id: "gpt-4.1-latest", api_surface: "api", region: "eu" },
      end_of_life: scheduled("2027-04-01"),
    });
    const { merged, facts } = merge(w, {
      official: [alias("gpt-4.1-latest", "gpt-4.1")],
      communityLifecycle: [eol, elsewhere],
    });
    expect(find(merged.deployments, depId("gpt-4.1")).lifecycle.end_of_life.date).toBe("2027-03-01");
    const lifecycle = resolveDeclaredAliases(facts.sources, isOfficial).find(
      (s) => s.source_id === COMMUNITY_ID,
    )?.output.lifecycle;
    const targets = lifecycle?.map((a) => [a.target?.provider_model_id, a.target?.region, a.model_id]);
    expect(targets).toHaveLength(2);
    expect(targets).toContainEqual(["gpt-4.1", "global", "openai/gpt-4.1"]);
    expect(targets).toContainEqual(["gpt-4.1-latest", "eu", undefined]);

    // where the alias fact stays apart (its values an earlier target's), its assertions stay with it
    const stale = standardWorld();
    stale.community.push(fact(community, "gpt-4.1-latest", { context_tokens: 1_000_000 }));
    const kept = merge(stale, {
      official: [alias("gpt-4.1-latest", "gpt-4.1")],
      communityLifecycle: [eol],
    });
    expect(find(kept.merged.deployments, depId("gpt-4.1")).lifecycle.end_of_life.state).not.toBe("scheduled");
    expect(find(kept.merged.deployments, depId("gpt-4.1-latest")).lifecycle.end_of_life.date).toBe(
      "2027-03-01",
    );
  });
});
