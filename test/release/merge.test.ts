import { describe, expect, test } from "vitest";
import { gatherFacts } from "../../src/release/facts.js";
import { loadRelease, readFacts, readManifest, runRelease } from "../../src/release/index.js";
import { mergeCatalog } from "../../src/release/merge.js";
import type { Deployment } from "../../src/schema/index.js";
import {
  assertion,
  COMMUNITY_ID,
  contributionsFor,
  depId,
  fact,
  LATER,
  LIFECYCLE_ID,
  NOW,
  PRICING_ID,
  rateCard,
  releaseInput,
  scheduled,
  source,
  standardWorld,
  tempSnapshots,
  type World,
} from "./fixtures.js";

const TURBO = depId("gpt-4-turbo");
const GPT4O = depId("gpt-4o");

function merge(world: World, now = NOW) {
  const { contributions, states } = contributionsFor(world, [], now);
  const { facts } = gatherFacts(contributions, null);
  return mergeCatalog({ now, facts, states, previousCores: new Map() });
}

function find(deployments: Deployment[], id: string): Deployment {
  const found = deployments.find((d) => d.id === id);
  if (!found) throw new Error(`no deployment ${id}`);
  return found;
}

describe("merge precedence", () => {
  test("an official price beats a community price and the disagreement is reported as a conflict", () => {
    const world = standardWorld();
    const community = source("community");
    world.community[0] = fact(community, "gpt-4o", {
      rate_card: rateCard(community, 3, 1.25, 10),
      context_tokens: 128_000,
      max_output_tokens: 16_384,
    });
    const merged = merge(world);
    const gpt4o = find(merged.deployments, GPT4O);
    expect(gpt4o.rate_card?.input_micro_usd).toBe(2_500_000);
    expect(gpt4o.rate_card?.source_url).toBe(source("pricing").url);
    // the official page is silent about limits, so the community value fills them
    expect(gpt4o.max_output_tokens).toBe(16_384);
    expect(merged.conflicts).toEqual([
      {
        resource_id: GPT4O,
        provider_id: "openai",
        field: "rate_card.input_micro_usd",
        official: { source_id: PRICING_ID, value: 2_500_000 },
        community: { source_id: COMMUNITY_ID, value: 3_000_000 },
      },
    ]);
  });

  test("an official limit beats a community limit and the conflict is listed", () => {
    const world = standardWorld();
    const pricing = source("pricing");
    world.pricing[0] = fact(pricing, "gpt-4o", {
      rate_card: rateCard(pricing, 2.5, 1.25, 10),
      context_tokens: 256_000,
    });
    const merged = merge(world);
    expect(find(merged.deployments, GPT4O).context_tokens).toBe(256_000);
    expect(merged.conflicts.map((c) => [c.field, c.official.value, c.community.value])).toEqual([
      ["context_tokens", 256_000, 128_000],
    ]);
  });

  test("an official end-of-life date beats a community one and the conflict is listed", () => {
    const world = standardWorld();
    const community = source("community");
    const communityEol = assertion(community, "gpt-4-turbo", { end_of_life: scheduled("2026-12-31") });
    const { contributions, states } = contributionsFor(world);
    const communityContribution = contributions.find((c) => c.source.source_id === COMMUNITY_ID);
    communityContribution?.output?.lifecycle.push(communityEol);
    const { facts } = gatherFacts(contributions, null);
    const merged = mergeCatalog({ now: NOW, facts, states, previousCores: new Map() });
    expect(find(merged.deployments, TURBO).lifecycle.end_of_life.date).toBe("2027-01-15");
    expect(merged.conflicts).toEqual([
      {
        resource_id: TURBO,
        provider_id: "openai",
        field: "end_of_life.date",
        official: { source_id: LIFECYCLE_ID, value: "2027-01-15" },
        community: { source_id: COMMUNITY_ID, value: "2026-12-31" },
      },
    ]);
  });

  test("a deployment-scope assertion naming more target fields beats one naming fewer, and both beat model scope", () => {
    const world = standardWorld();
    const lifecycle = source("lifecycle");
    world.lifecycle = [
      assertion(lifecycle, "gpt-4o", { status: "legacy" }),
      assertion(lifecycle, "gpt-4o", {
        target: { provider_model_id: "gpt-4o", mode: "batch" },
        status: "deprecated",
      }),
      assertion(lifecycle, "gpt-4o", {
        scope: "model",
        target: undefined,
        model_id: "openai/gpt-4o",
        status: "preview",
        end_of_life: scheduled("2027-10-01"),
      }),
    ];
    const merged = merge(world);
    expect(find(merged.deployments, GPT4O).status).toBe("legacy");
    expect(find(merged.deployments, depId("gpt-4o", "batch")).status).toBe("deprecated");
    // the model-scope assertion still speaks where nothing more specific does
    expect(find(merged.deployments, GPT4O).lifecycle.end_of_life.date).toBe("2027-10-01");
    const modelRecord = merged.lifecycle.find(
      (r) => r.resource_type === "model" && r.resource_id === "openai/gpt-4o",
    );
    // the model's own status is its deployments' (legacy before deprecated), not the
    // model-scope assertion's `preview`; its milestones stay the model scope's
    expect(modelRecord?.lifecycle.status).toBe("legacy");
    expect(modelRecord?.lifecycle.end_of_life.date).toBe("2027-10-01");
  });

  test("within a tier the newest observation wins", () => {
    const world = standardWorld();
    const pricing = source("pricing");
    const lifecycle = source("lifecycle");
    world.lifecycleFacts.push(
      fact(
        lifecycle,
        "gpt-4.1",
        { rate_card: rateCard(lifecycle, 3, null, 12, "2026-11-21T12:00:00Z") },
        "2026-11-21T12:00:00Z",
      ),
    );
    world.pricing[2] = fact(pricing, "gpt-4.1", { rate_card: rateCard(pricing, 2, 0.5, 8) });
    const merged = merge(world);
    expect(find(merged.deployments, depId("gpt-4.1")).rate_card?.input_micro_usd).toBe(3_000_000);
  });

  test("status falls back to the fact's status, then to available for a deployment an official price list shows, then unknown", () => {
    const world = standardWorld();
    const pricing = source("pricing");
    const community = source("community");
    world.pricing.push(
      fact(pricing, "o1-preview", { status: "preview", rate_card: rateCard(pricing, 15, 7.5, 60) }),
    );
    world.community.push(fact(community, "davinci-002", { rate_card: rateCard(community, 2, null, 2) }));
    const merged = merge(world);
    expect(find(merged.deployments, depId("o1-preview")).status).toBe("preview");
    expect(find(merged.deployments, depId("gpt-4.1")).status).toBe("available");
    const communityOnly = find(merged.deployments, depId("davinci-002"));
    expect(communityOnly.status).toBe("unknown");
    expect(communityOnly.lifecycle.last_changed_at).toBeNull();
    expect(communityOnly.lifecycle.coverage).toMatchObject({ status: "partial", source_ids: [COMMUNITY_ID] });
  });

  test("status is derived at the build's now, not at the facts' observation time, and summaries count it", () => {
    const world = standardWorld();
    const lifecycle = source("lifecycle");
    // Observed long before either build; the page declares the model available.
    world.lifecycle[0] = assertion(
      lifecycle,
      "gpt-4-turbo",
      { status: "available", end_of_life: scheduled("2026-12-01") },
      "2020-01-01T00:00:00Z",
    );
    const before = merge(world, "2026-11-30T23:59:59Z");
    const after = merge(world, "2026-12-01T00:00:00Z");
    expect(find(before.deployments, TURBO).status).toBe("available");
    expect(find(after.deployments, TURBO).status).toBe("retired");
    expect(find(after.deployments, TURBO).lifecycle.status).toBe("retired");
    const summary = (m: typeof after) =>
      m.lifecycle.find((r) => r.resource_type === "provider" && r.resource_id === "openai")?.summary;
    expect(summary(after)?.status_counts.retired ?? 0).toBe(
      (summary(before)?.status_counts.retired ?? 0) + 1,
    );
  });

  test("replacements are canonical model ids; unresolved ones are dropped and reported with the reason", () => {
    const world = standardWorld();
    const lifecycle = source("lifecycle");
    world.lifecycle[0] = assertion(lifecycle, "gpt-4-turbo", {
      status: "deprecated",
      end_of_life: scheduled("2027-01-15"),
      replacements: ["gpt-4.1", "gpt-4o", "gpt-5-imaginary"],
    });
    const merged = merge(world);
    expect(find(merged.deployments, TURBO).lifecycle.replacement_ids).toEqual([
      "openai/gpt-4.1",
      "openai/gpt-4o",
    ]);
    expect(merged.unresolvedReplacements).toEqual([
      {
        resource_type: "deployment",
        resource_id: TURBO,
        replacement: "gpt-5-imaginary",
        reason: "no_match",
        source_id: LIFECYCLE_ID,
      },
    ]);
    // every resource type: a model record's replacements are model ids too
    const model = merged.lifecycle.find(
      (r) => r.resource_type === "model" && r.resource_id === "openai/gpt-4-turbo",
    );
    expect(model?.lifecycle.replacement_ids).toEqual([]);
    for (const r of merged.lifecycle)
      for (const id of r.lifecycle.replacement_ids) expect(id).toMatch(/^[a-z0-9-]+\/[a-z0-9.-]+$/);
  });

  test("a replacement never names the resource's own model, not even through its unversioned name", () => {
    const world = standardWorld();
    const pricing = source("pricing");
    const lifecycle = source("lifecycle");
    world.pricing.push(fact(pricing, "gpt-realtime-mini-2025-10-06"));
    world.lifecycle.push(
      assertion(lifecycle, "gpt-realtime-mini-2025-10-06", {
        status: "deprecated",
        replacements: ["gpt-realtime-mini", "gpt-realtime-mini-2025-10-06"],
      }),
    );
    const merged = merge(world);
    const own = depId("gpt-realtime-mini-2025-10-06");
    expect(find(merged.deployments, own).lifecycle.replacement_ids).toEqual([]);
    expect(merged.unresolvedReplacements.filter((u) => u.resource_id === own)).toEqual([
      expect.objectContaining({ replacement: "gpt-realtime-mini", reason: "no_match" }),
      expect.objectContaining({ replacement: "gpt-realtime-mini-2025-10-06", reason: "self" }),
    ]);
  });

  test("a replacement named without its version resolves to the current versioned model of that name, never a deprecated one", () => {
    const world = standardWorld();
    const pricing = source("pricing");
    const lifecycle = source("lifecycle");
    world.pricing.push(
      fact(pricing, "gpt-35-turbo-instruct-0914"),
      fact(pricing, "gpt-4o-mini-2024-07-18"),
      fact(pricing, "gpt-4o-mini-2025-09-01"),
      fact(pricing, "o9-2025-01-01"),
      fact(pricing, "o9-2025-06-01"),
    );
    world.lifecycle.push(
      assertion(lifecycle, "gpt-4o-mini-2024-07-18", {
        status: "deprecated",
        end_of_life: scheduled("2027-01-01"),
      }),
    );
    world.lifecycle[0] = assertion(lifecycle, "gpt-4-turbo", {
      replacements: ["gpt-35-turbo-instruct", "gpt-4o-mini", "o9"],
    });
    const merged = merge(world);
    expect(find(merged.deployments, TURBO).lifecycle.replacement_ids).toEqual([
      "openai/gpt-35-turbo-instruct-0914",
      "openai/gpt-4o-mini-2025-09-01",
    ]);
    // two current versions of one name: not guessed
    expect(merged.unresolvedReplacements.map((u) => [u.replacement, u.reason])).toEqual([
      ["o9", "ambiguous"],
    ]);
  });

  test("a replacement resolves through the provider's alias table to the model it names", () => {
    const world = standardWorld();
    const pricing = source("pricing");
    const lifecycle = source("lifecycle");
    const claude = (providerModelId: string) =>
      fact(pricing, providerModelId, { provider_id: "anthropic", model_id: `anthropic/${providerModelId}` });
    world.pricing.push(claude("claude-sonnet-4-5-20250929"), claude("claude-3-haiku-20240307"));
    world.lifecycle.push(
      assertion(lifecycle, "claude-3-haiku-20240307", {
        provider_id: "anthropic",
        status: "deprecated",
        replacements: ["claude-sonnet-4-5"],
      }),
    );
    const merged = merge(world);
    const haiku = depId("claude-3-haiku-20240307", "standard", "global", "anthropic");
    expect(find(merged.deployments, haiku).lifecycle.replacement_ids).toEqual([
      "anthropic/claude-sonnet-4-5-20250929",
    ]);
  });

  test("milestones carry the evidence of the assertion that set them", () => {
    const merged = merge(standardWorld());
    const eol = find(merged.deployments, TURBO).lifecycle.end_of_life;
    expect(eol.evidence.map((e) => [e.source_url, e.source_type])).toEqual([
      [source("lifecycle").url, "official_lifecycle"],
    ]);
  });

  test("provider and model records summarize their deployments and have their own lifecycle only when a source asserts one", () => {
    const merged = merge(standardWorld());
    const provider = merged.lifecycle.find(
      (r) => r.resource_type === "provider" && r.resource_id === "openai",
    );
    expect(provider?.provider_id).toBe("openai");
    expect(provider?.lifecycle.status).toBe("unknown");
    expect(provider?.lifecycle.coverage.source_ids).toEqual([PRICING_ID, LIFECYCLE_ID, COMMUNITY_ID].sort());
    expect(provider?.summary).toEqual({
      deployment_count: 4,
      status_counts: { available: 3, deprecated: 1 },
      // gpt-4o standard + batch: not_announced x2 each; gpt-4-turbo: two scheduled; gpt-4.1: none
      known_milestone_count: 6,
      unknown_milestone_count: 2,
      next_end_of_life: { date: "2027-01-15", date_type: "on", precision: "day", deployment_id: TURBO },
    });
    expect(merged.lifecycle.map((r) => `${r.resource_type}:${r.resource_id}`)).toEqual([
      `deployment:${TURBO}`,
      `deployment:${depId("gpt-4.1")}`,
      `deployment:${depId("gpt-4o", "batch")}`,
      `deployment:${GPT4O}`,
      "model:openai/gpt-4-turbo",
      "model:openai/gpt-4.1",
      "model:openai/gpt-4o",
      "provider:openai",
    ]);
    // an end of life already passed is not the next one
    const after = merge(standardWorld(), "2027-02-01T00:00:00Z");
    expect(after.lifecycle.find((r) => r.resource_type === "provider")?.summary?.next_end_of_life).toBeNull();
  });
});

describe("carry-forward and last_changed_at across builds", () => {
  test("a failed source's facts are carried forward from the previous release with coverage partial", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      const first = await runRelease(releaseInput(dir));
      expect(first.status).toBe("published");
      const firstTurbo = find((await loadRelease(dir)).catalog.deployments, TURBO);
      expect(firstTurbo.lifecycle.coverage.status).toBe("monitored");

      const second = await runRelease(releaseInput(dir, { now: LATER, failed: ["lifecycle"] }));
      expect(second.status).toBe("published");
      const release = await loadRelease(dir);
      const turbo = find(release.catalog.deployments, TURBO);
      expect(turbo.status).toBe("deprecated");
      expect(turbo.lifecycle.end_of_life).toMatchObject({ state: "scheduled", date: "2027-01-15" });
      expect(turbo.lifecycle.coverage.status).toBe("partial");
      expect(turbo.lifecycle.coverage.source_ids).toContain(LIFECYCLE_ID);
      // unchanged assertion: last_changed_at stays at the first build
      expect(turbo.lifecycle.last_changed_at).toBe(NOW);
      expect(find(release.catalog.deployments, depId("gpt-4.1")).lifecycle.coverage.status).toBe("partial");
      expect(second.report.carried_forward).toEqual([
        {
          source_id: LIFECYCLE_ID,
          provider_id: "openai",
          source_url: source("lifecycle").url,
          observed_at: "2026-11-21T00:00:00Z",
          deployments: 2,
          lifecycle_assertions: 2,
        },
      ]);
      const facts = await readFacts(dir, await readManifest(dir, second.releaseId as string));
      expect(facts?.sources.find((s) => s.source_id === LIFECYCLE_ID)?.carried_forward).toBe(true);
    } finally {
      await cleanup();
    }
  });

  test("a failed source with no earlier facts contributes nothing and is reported", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      const outcome = await runRelease(releaseInput(dir, { failed: ["lifecycle"] }));
      expect(outcome.status).toBe("published");
      expect(outcome.report.failed_without_facts.map((s) => s.source_id)).toEqual([LIFECYCLE_ID]);
      const turbo = find((await loadRelease(dir)).catalog.deployments, TURBO);
      expect(turbo.lifecycle.end_of_life.state).toBe("unknown");
      expect(turbo.status).toBe("available");
    } finally {
      await cleanup();
    }
  });

  test("last_changed_at moves to the build's now when the normalized assertion changes", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      await runRelease(releaseInput(dir));
      const world = standardWorld();
      world.lifecycle[0] = {
        ...world.lifecycle[0],
        end_of_life: scheduled("2027-03-01"),
      } as World["lifecycle"][number];
      await runRelease(releaseInput(dir, { world, now: LATER }));
      const deployments = (await loadRelease(dir)).catalog.deployments;
      expect(find(deployments, TURBO).lifecycle.last_changed_at).toBe(LATER);
      expect(find(deployments, GPT4O).lifecycle.last_changed_at).toBe(NOW);
    } finally {
      await cleanup();
    }
  });
});

describe("skipped sources", () => {
  test("a source skipped in this build keeps its previous facts verbatim, not marked carried forward", () => {
    const world = standardWorld();
    const first = gatherFacts(contributionsFor(world).contributions, null).facts;
    const { contributions } = contributionsFor(world);
    const skipped = contributions.map((c) =>
      c.source.source_id === COMMUNITY_ID ? { ...c, output: null, failed: false, observedAt: null } : c,
    );
    const again = gatherFacts(skipped, first);
    expect(again.facts).toEqual(first);
    expect(again.carriedForward).toEqual([]);
    const none = gatherFacts(skipped, null);
    expect(none.facts.sources.map((s) => s.source_id)).not.toContain(COMMUNITY_ID);
  });
});
