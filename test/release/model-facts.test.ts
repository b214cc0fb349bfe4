import { describe, expect, test } from "vitest";
import { FactsFile, gatherFacts } from "../../src/release/facts.js";
import { mergeCatalog, releaseSummary } from "../../src/release/merge.js";
import type { Deployment, ModelFact, SourceDefinition } from "../../src/schema/index.js";
import {
  COMMUNITY_ID,
  contributionsFor,
  depId,
  evidence,
  fact,
  NOW,
  OBSERVED,
  source,
  standardWorld,
  state,
  type World,
} from "./fixtures.js";

const MODELS_ID = "3e9a1d7b-8c9d-4f6b-bd4e-5f6a7b8c9d0e";
const NEWER_MODELS_ID = "4fab2e8c-9d0e-4a7c-8e5f-6a7b8c9d0e1f";

function modelsSource(sourceId = MODELS_ID): SourceDefinition {
  return {
    source_id: sourceId,
    provider_id: "openai",
    name: sourceId === MODELS_ID ? "models" : "models-compare",
    url: `https://developers.openai.com/api/docs/models/${sourceId === MODELS_ID ? "all" : "compare"}`,
    source_type: "official_docs",
    format: "html",
    parser: "openai-models",
    allowed_hosts: [],
    offline_capture: true,
  };
}

function modelFact(
  providerModelId: string,
  fields: Partial<ModelFact> = {},
  src = modelsSource(),
): ModelFact {
  return {
    provider_id: "openai",
    provider_model_id: providerModelId,
    evidence: evidence(src, fields.evidence?.observed_at ?? OBSERVED),
    ...fields,
  };
}

/** The world's sources plus official models pages contributing only model facts. */
function merge(world: World, pages: Array<[SourceDefinition, ModelFact[]]>) {
  const { contributions, states } = contributionsFor(world, [], NOW);
  for (const [src, facts] of pages) {
    contributions.push({
      source: src,
      output: { deployments: [], lifecycle: [], model_facts: facts, skipped: [] },
      failed: false,
      observedAt: OBSERVED,
    });
    states.push(state(src));
  }
  const { facts } = gatherFacts(contributions, null);
  return { facts, merged: mergeCatalog({ now: NOW, facts, states, previousCores: new Map() }) };
}

function find(deployments: Deployment[], id: string): Deployment {
  const found = deployments.find((d) => d.id === id);
  if (!found) throw new Error(`no deployment ${id}`);
  return found;
}

const GPT4O = depId("gpt-4o");
const GPT4O_BATCH = depId("gpt-4o", "batch");
const GPT41 = depId("gpt-4.1");

describe("model facts", () => {
  test("a model fact fills context, max output and capabilities on every deployment of its provider model and creates none", () => {
    const world = standardWorld();
    world.community = [];
    const before = merge(world, []).merged.deployments.map((d) => d.id);
    const { merged, facts } = merge(world, [
      [
        modelsSource(),
        [
          modelFact("gpt-4o", {
            context_tokens: 128_000,
            max_output_tokens: 16_384,
            capabilities: { vision: { status: "supported", verification_status: "official_declared" } },
          }),
          modelFact("gpt-9", { context_tokens: 1_000_000 }),
          modelFact("gpt-4-turbo", { provider_id: "azure", context_tokens: 8_192 }),
        ],
      ],
    ]);
    expect(merged.deployments.map((d) => d.id)).toEqual(before);
    for (const id of [GPT4O, GPT4O_BATCH]) {
      const d = find(merged.deployments, id);
      expect(d.context_tokens).toBe(128_000);
      expect(d.max_output_tokens).toBe(16_384);
      expect(d.capabilities).toEqual({
        vision: { status: "supported", verification_status: "official_declared" },
        // gpt-4o's official rate card prices cached input (its batch card does not)
        ...(id === GPT4O
          ? { prompt_caching: { status: "supported", verification_status: "official_inferred" } }
          : {}),
        // and gpt-4o has an official batch price
        batch: { status: "supported", verification_status: "official_inferred" },
      });
      expect(d.evidence_urls).toContain(modelsSource().url);
    }
    // another provider's fact about the same name does not apply; an untouched deployment cites no models page
    const turbo = find(merged.deployments, depId("gpt-4-turbo"));
    expect(turbo.context_tokens).toBeNull();
    expect(turbo.evidence_urls).not.toContain(modelsSource().url);
    // facts.json keeps the model facts, sorted, and still validates
    expect(
      FactsFile.parse(facts)
        .sources.find((s) => s.source_id === MODELS_ID)
        ?.output.model_facts?.map((f) => f.provider_model_id),
    ).toEqual(["gpt-4-turbo", "gpt-4o", "gpt-9"]);
  });

  test("an official model fact beats a community deployment fact, and the conflict is reported", () => {
    const { merged } = merge(standardWorld(), [
      [
        modelsSource(),
        [
          modelFact("gpt-4o", {
            context_tokens: 256_000,
            capabilities: {
              tool_calling: { status: "unsupported", verification_status: "official_declared" },
            },
          }),
        ],
      ],
    ]);
    const gpt4o = find(merged.deployments, GPT4O);
    expect(gpt4o.context_tokens).toBe(256_000);
    // the official page is silent about max output: the community value fills it
    expect(gpt4o.max_output_tokens).toBe(16_384);
    expect(gpt4o.capabilities.tool_calling).toEqual({
      status: "unsupported",
      verification_status: "official_declared",
    });
    expect(merged.conflicts.filter((c) => c.resource_id === GPT4O && c.field === "context_tokens")).toEqual([
      {
        resource_id: GPT4O,
        provider_id: "openai",
        field: "context_tokens",
        official: { source_id: MODELS_ID, value: 256_000 },
        community: { source_id: COMMUNITY_ID, value: 128_000 },
      },
    ]);
  });

  test("a community max output beyond the official context window stays unknown; one within it fills the gap", () => {
    // the community fact says 128,000 context and 16,384 max output; the official page only a window
    const narrow = merge(standardWorld(), [
      [modelsSource(), [modelFact("gpt-4o", { context_tokens: 8_192 })]],
    ]);
    const gpt4o = find(narrow.merged.deployments, GPT4O);
    expect([gpt4o.context_tokens, gpt4o.max_output_tokens]).toEqual([8_192, null]);
    const wide = merge(standardWorld(), [
      [modelsSource(), [modelFact("gpt-4o", { context_tokens: 16_384 })]],
    ]);
    expect(find(wide.merged.deployments, GPT4O).max_output_tokens).toBe(16_384);
    // without an official window, the community's own pair stands
    expect(find(merge(standardWorld(), []).merged.deployments, GPT4O).max_output_tokens).toBe(16_384);
  });

  test("an official fact about the deployment beats an official fact about its model: no conflict, but an official disagreement naming the deployment", () => {
    const world = standardWorld();
    const own = world.pricing.find((f) => f.provider_model_id === "gpt-4.1");
    if (!own) throw new Error("the standard world prices gpt-4.1");
    expect(own.context_tokens).toBe(1_047_576);
    own.capabilities = { tool_calling: { status: "supported" } };
    const { merged } = merge(world, [
      [
        modelsSource(),
        [
          modelFact("gpt-4.1", {
            context_tokens: 1_000_000,
            capabilities: { tool_calling: { status: "unsupported" } },
          }),
        ],
      ],
    ]);
    const gpt41 = find(merged.deployments, GPT41);
    expect(gpt41.context_tokens).toBe(1_047_576);
    expect(gpt41.capabilities.tool_calling?.status).toBe("supported");
    expect(merged.conflicts.filter((c) => c.field === "context_tokens")).toEqual([]);
    const kept = { source_id: expect.any(String), observed_at: expect.any(String) };
    expect(merged.officialDisagreements.filter((d) => d.deployment_id === GPT41)).toEqual([
      {
        provider_id: "openai",
        provider_model_id: "gpt-4.1",
        deployment_id: GPT41,
        field: "capabilities.tool_calling",
        kept: { ...kept, value: "supported" },
        other: { source_id: MODELS_ID, value: "unsupported", observed_at: OBSERVED },
      },
      {
        provider_id: "openai",
        provider_model_id: "gpt-4.1",
        deployment_id: GPT41,
        field: "context_tokens",
        kept: { ...kept, value: 1_047_576 },
        other: { source_id: MODELS_ID, value: 1_000_000, observed_at: OBSERVED },
      },
    ]);
    // agreeing with the deployment's own fact is no disagreement
    const agreeing = merge(standardWorld(), [
      [modelsSource(), [modelFact("gpt-4.1", { context_tokens: 1_047_576 })]],
    ]);
    expect(agreeing.merged.officialDisagreements).toEqual([]);
  });

  test("a model fact naming modes applies to those modes only and beats the fact for every mode", () => {
    const world = standardWorld();
    world.community = [];
    const { merged } = merge(world, [
      [
        modelsSource(),
        [
          modelFact("gpt-4o", { context_tokens: 128_000 }),
          modelFact("gpt-4o", { modes: ["batch"], context_tokens: 64_000 }),
        ],
      ],
    ]);
    expect(find(merged.deployments, GPT4O).context_tokens).toBe(128_000);
    expect(find(merged.deployments, GPT4O_BATCH).context_tokens).toBe(64_000);
  });

  test("between two official model facts the newer observation wins", () => {
    const world = standardWorld();
    world.community = [];
    const newer = modelsSource(NEWER_MODELS_ID);
    const { merged } = merge(world, [
      [modelsSource(), [modelFact("gpt-4o", { max_output_tokens: 4_096 })]],
      [
        newer,
        [
          modelFact(
            "gpt-4o",
            { max_output_tokens: 16_384, evidence: evidence(newer, "2026-11-21T12:00:00Z") },
            newer,
          ),
        ],
      ],
    ]);
    const gpt4o = find(merged.deployments, GPT4O);
    expect(gpt4o.max_output_tokens).toBe(16_384);
    expect(gpt4o.evidence_urls).toContain(newer.url);
    expect(gpt4o.evidence_urls).not.toContain(modelsSource().url);
    // The contradiction is reported: the kept (newer) value and the other official one.
    expect(merged.officialDisagreements).toEqual([
      {
        provider_id: "openai",
        provider_model_id: "gpt-4o",
        field: "max_output_tokens",
        kept: { source_id: NEWER_MODELS_ID, value: 16_384, observed_at: "2026-11-21T12:00:00Z" },
        other: { source_id: MODELS_ID, value: 4_096, observed_at: OBSERVED },
      },
    ]);
  });

  test("a value an official page states beats a newer one another page implies (official_inferred), and the disagreement is reported", () => {
    const world = standardWorld();
    world.community = [];
    const newer = modelsSource(NEWER_MODELS_ID);
    const { merged } = merge(world, [
      [modelsSource(), [modelFact("gpt-4o", { max_output_tokens: 64_000 })]],
      [
        newer,
        [
          modelFact(
            "gpt-4o",
            {
              max_output_tokens: 128_000,
              evidence: {
                ...evidence(newer, "2026-11-21T12:00:00Z"),
                verification_status: "official_inferred",
              },
            },
            newer,
          ),
        ],
      ],
    ]);
    expect(find(merged.deployments, GPT4O).max_output_tokens).toBe(64_000);
    expect(merged.officialDisagreements).toEqual([
      expect.objectContaining({
        field: "max_output_tokens",
        kept: { source_id: MODELS_ID, value: 64_000, observed_at: OBSERVED },
        other: { source_id: NEWER_MODELS_ID, value: 128_000, observed_at: "2026-11-21T12:00:00Z" },
      }),
    ]);
  });

  test("official disagreements: capability statuses and null limits count, agreeing values and other modes do not", () => {
    const world = standardWorld();
    world.community = [];
    const newer = modelsSource(NEWER_MODELS_ID);
    const later = (fields: Partial<ModelFact>) =>
      modelFact("gpt-4o", { ...fields, evidence: evidence(newer, "2026-11-21T12:00:00Z") }, newer);
    const { merged } = merge(world, [
      [
        modelsSource(),
        [
          modelFact("gpt-4o", {
            context_tokens: 128_000,
            max_output_tokens: 4_096,
            capabilities: { vision: { status: "supported" }, tool_calling: { status: "supported" } },
          }),
          modelFact("gpt-4.1", { context_tokens: 300_000, modes: ["batch"] }),
        ],
      ],
      [
        newer,
        [
          later({
            context_tokens: 128_000,
            max_output_tokens: null,
            capabilities: { vision: { status: "unsupported" }, tool_calling: { status: "supported" } },
          }),
          modelFact(
            "gpt-4.1",
            { context_tokens: 1_047_576, evidence: evidence(newer, "2026-11-21T12:00:00Z") },
            newer,
          ),
        ],
      ],
    ]);
    const fields = merged.officialDisagreements.map((d) => `${d.provider_model_id} ${d.field}`);
    // context_tokens agree; tool_calling agrees; gpt-4.1's facts are for different modes.
    expect(fields).toEqual(["gpt-4o capabilities.vision", "gpt-4o max_output_tokens"]);
    expect(merged.officialDisagreements[1]).toMatchObject({
      kept: { source_id: NEWER_MODELS_ID, value: null },
      other: { source_id: MODELS_ID, value: 4_096 },
    });
  });

  test("a fact about a model named without its version applies, official_inferred, to its one officially listed version only", () => {
    const world = standardWorld();
    world.community = [];
    const pricing = source("pricing");
    const community = source("community");
    world.pricing.push(
      fact(pricing, "whisper-001", { provider_id: "azure", api_surface: "azure-openai" }),
      fact(pricing, "tts-001", { provider_id: "azure", api_surface: "azure-openai" }),
      fact(pricing, "tts-002", { provider_id: "azure", api_surface: "azure-openai" }),
    );
    // a community-only version does not make the official one ambiguous, nor receive the fact
    world.community.push(
      fact(community, "whisper-002", { provider_id: "azure", api_surface: "azure-openai" }),
    );
    const audio = { status: "supported", verification_status: "official_inferred" } as const;
    const declared = { status: "supported", verification_status: "official_declared" } as const;
    const unstated = (name: string) =>
      modelFact(name, {
        provider_id: "azure",
        context_tokens: 8_192,
        capabilities: { audio_input: audio, tool_calling: declared },
        version_unstated: true,
      });
    const { merged } = merge(world, [
      [modelsSource(), [unstated("whisper"), unstated("tts"), unstated("gpt-4o")]],
    ]);
    const whisper = find(
      merged.deployments,
      depId("whisper-001", "standard", "global", "azure", "azure-openai"),
    );
    expect(whisper.context_tokens).toBe(8_192);
    expect(whisper.capabilities).toEqual({
      audio_input: audio,
      tool_calling: { status: "supported", verification_status: "official_inferred" },
    });
    expect(whisper.evidence_urls).toContain(modelsSource().url);
    const community2 = find(
      merged.deployments,
      depId("whisper-002", "standard", "global", "azure", "azure-openai"),
    );
    expect(community2.context_tokens).toBeNull();
    // two official versions: no version is guessed
    for (const version of ["tts-001", "tts-002"])
      expect(
        find(merged.deployments, depId(version, "standard", "global", "azure", "azure-openai"))
          .context_tokens,
      ).toBeNull();
    // the name itself still matches exactly (another provider's gpt-4o is untouched)
    expect(find(merged.deployments, GPT4O).context_tokens).toBeNull();
  });
});

describe("a model's stated release day", () => {
  test("the model summary carries the earliest day a model fact states and the deployment with the latest, null without one", () => {
    const world = standardWorld();
    const newer = modelsSource(NEWER_MODELS_ID);
    const { merged } = merge(world, [
      [modelsSource(), [modelFact("gpt-4o", { released_at: "2024-05-13" })]],
      // a newer official page states another day for gpt-4o: the newest observation wins
      [
        newer,
        [
          modelFact(
            "gpt-4o",
            { released_at: "2024-05-14", evidence: evidence(newer, "2026-11-21T12:00:00Z") },
            newer,
          ),
        ],
      ],
    ]);
    const summaryOf = (model: string) =>
      merged.lifecycle.find((r) => r.resource_type === "model" && r.resource_id === model)?.summary;
    const gpt4o = summaryOf("openai/gpt-4o");
    expect(gpt4o?.released_at).toBe("2024-05-14");
    // both gpt-4o deployments (standard and batch) carry the day; ties go to the smaller id
    expect(gpt4o?.newest_deployment).toEqual({
      deployment_id: [GPT4O, GPT4O_BATCH].sort()[0],
      released_at: "2024-05-14",
    });
    // no source states gpt-4.1's day: null, never a date read from its id
    expect(summaryOf("openai/gpt-4.1")).toMatchObject({ released_at: null, newest_deployment: null });
    // providers carry no release day
    const provider = merged.lifecycle.find((r) => r.resource_type === "provider")?.summary;
    expect(provider).toBeDefined();
    expect(provider && "released_at" in provider).toBe(false);
  });

  test("the earliest of the model's deployments' days is its release, the latest names its newest deployment", () => {
    const day = (id: string, released: string | null) =>
      ({ id, released }) as unknown as Deployment & { released: string | null };
    const members = [
      day("dep_b", "2026-02-17"),
      day("dep_a", null),
      day("dep_c", "2025-10-01"),
      day("dep_d", "2026-02-17"),
    ];
    expect(releaseSummary(members, (d) => (d as unknown as { released: string | null }).released)).toEqual({
      released_at: "2025-10-01",
      newest_deployment: { deployment_id: "dep_b", released_at: "2026-02-17" },
    });
    expect(releaseSummary([day("dep_a", null)], () => null)).toEqual({
      released_at: null,
      newest_deployment: null,
    });
  });
});
