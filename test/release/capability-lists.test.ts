/**
 * Official capability lists (ParseOutput.capability_lists, src/release/model-facts.ts
 * capabilityListFacts): Anthropic's Structured outputs page, recorded, on the committed release's
 * facts (the offline build of the recorded captures, which predates the page's capture), and the
 * rule's limits on small facts shaped like those.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { normalizeSource } from "../../src/normalize/index.js";
import type { SourceFacts } from "../../src/release/facts.js";
import { mergeDeploymentFields } from "../../src/release/merge.js";
import { gatherCandidates, isOfficial } from "../../src/release/merge-candidates.js";
import { capabilityListFacts } from "../../src/release/model-facts.js";
import type { CapabilityEntry, CapabilityName, DeploymentFact, ModelFact } from "../../src/schema/index.js";
import { recordedInput, recordedSourceFacts } from "../helpers/captures.js";
import { committedRelease } from "../helpers/committed-release.js";

const PAGE = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs.md";
const BEDROCK = "dep_amazon-bedrock_anthropic.";
const CLAUDE_3_SONNET_US = `${BEDROCK}claude-3-sonnet-20240229-v1-0_bedrock-runtime_us`;
const CLAUDE_3_HAIKU_US = `${BEDROCK}claude-3-haiku-20240307-v1-0_bedrock-runtime_us`;
const SONNET_45_US = `${BEDROCK}claude-sonnet-4-5-20250929-v1-0_bedrock-runtime_us`;
const OPUS_47_US = `${BEDROCK}claude-opus-4-7_bedrock-runtime_us`;
const VERTEX_SONNET_4 = "dep_google-vertex_claude-sonnet-4-20250514_vertex-ai_global";
const API_SONNET_45 = "dep_anthropic_claude-sonnet-4-5-20250929_api_global";

let committed: SourceFacts[];
let page: SourceFacts;

beforeAll(async () => {
  // the committed release's facts without the page itself: the catalog before it was recorded
  committed = (await committedRelease()).facts.sources.filter((s) => s.source_url !== PAGE);
  const input = await recordedInput("anthropic", "structured-outputs");
  page = recordedSourceFacts(input, normalizeSource(input));
});

/** Each deployment's capability (structured_output unless named) as the merge gives it from these sources' facts. */
function structuredOutput(
  sources: readonly SourceFacts[],
  ids: readonly string[],
  capability: CapabilityName = "structured_output",
) {
  const candidates = gatherCandidates(sources);
  return Object.fromEntries(
    ids.map((id) => {
      const ranked = candidates.factsById.get(id);
      const best = ranked?.[0];
      if (!ranked || !best) throw new Error(`no facts place ${id}`);
      const fields = mergeDeploymentFields(best.fact, ranked, candidates.modelFacts);
      return [id, fields.capabilities[capability]];
    }),
  );
}

const inferred = (status: CapabilityEntry["status"]) => ({
  status,
  verification_status: "official_inferred",
});

describe("Anthropic's Structured outputs page on the committed release's facts", () => {
  const ids = [
    CLAUDE_3_SONNET_US,
    CLAUDE_3_HAIKU_US,
    SONNET_45_US,
    OPUS_47_US,
    VERTEX_SONNET_4,
    API_SONNET_45,
  ];

  it("before the page: LiteLLM's supports_response_schema says Claude 3 Sonnet and Sonnet 4 have structured outputs", () => {
    const got = structuredOutput(committed, ids);
    expect(got[CLAUDE_3_SONNET_US]).toEqual({
      status: "supported",
      verification_status: "community_reported",
    });
    expect(got[VERTEX_SONNET_4]).toEqual({ status: "supported", verification_status: "community_reported" });
  });

  it("with the page: models it does not name are unsupported (official_inferred); named ones supported where it says", () => {
    const got = structuredOutput([...committed, page], ids);
    expect(got[CLAUDE_3_SONNET_US]).toEqual(inferred("unsupported"));
    expect(got[CLAUDE_3_HAIKU_US]).toEqual(inferred("unsupported"));
    expect(got[VERTEX_SONNET_4]).toEqual(inferred("unsupported"));
    // named, and named by the Bedrock footnote: supported on Bedrock; its Bedrock model card says
    // so too, and the card's own statement ranks first
    expect(got[SONNET_45_US]).toEqual({ status: "supported", verification_status: "official_declared" });
    // the Claude API id: the page's own declared fact
    expect(got[API_SONNET_45]).toEqual({ status: "supported", verification_status: "official_declared" });
    // named, but not in the Bedrock footnote: the page's silence is not read; Opus 4.7's Bedrock
    // model card speaks instead (structured outputs not supported on bedrock-runtime)
    expect(got[OPUS_47_US]).toEqual({ status: "unsupported", verification_status: "official_declared" });
    const listed = capabilityListFacts([...committed, page], isOfficial).filter(
      (c) => c.fact.evidence.source_url === PAGE && c.fact.provider_id === "amazon-bedrock",
    );
    expect(listed.some((c) => c.fact.provider_model_id.includes("claude-opus-4-7"))).toBe(false);
  });

  it("without the capability list (the page's declared facts alone), Claude 3 Sonnet on Bedrock keeps LiteLLM's supported", () => {
    const { capability_lists: _, ...facts } = page.output;
    const got = structuredOutput([...committed, { ...page, output: facts }], ids);
    expect(got[CLAUDE_3_SONNET_US]).toEqual({
      status: "supported",
      verification_status: "community_reported",
    });
    expect(got[VERTEX_SONNET_4]).toEqual({ status: "supported", verification_status: "community_reported" });
  });

  it("leaves every model of another lab alone, on every provider", () => {
    const facts = capabilityListFacts([...committed, page], isOfficial);
    expect(facts.length).toBeGreaterThan(50); // one per provider model id (71 in the committed release)
    const modelOf = new Map(
      committed.flatMap((s) =>
        s.output.deployments.map((d) => [`${d.provider_id}|${d.provider_model_id}`, d.model_id]),
      ),
    );
    for (const c of facts) {
      expect(modelOf.get(`${c.fact.provider_id}|${c.fact.provider_model_id}`)).toMatch(/^anthropic\//);
      expect(["anthropic", "amazon-bedrock", "google-vertex"]).toContain(c.fact.provider_id);
      expect(c.fact.evidence.verification_status).toBe("official_inferred");
      expect([
        PAGE,
        "https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool.md",
      ]).toContain(c.fact.evidence.source_url);
    }
  });
});

describe("Anthropic's Computer use tool page on the committed release's facts", () => {
  const USE_PAGE = "https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool.md";
  const SONNET_37_US = `${BEDROCK}claude-3-7-sonnet-20250219-v1-0_bedrock-runtime_us`;
  const SONNET_45_GLOBAL = `${BEDROCK}claude-sonnet-4-5-20250929-v1-0_bedrock-runtime_global`;
  const VERTEX_SONNET_37 = "dep_google-vertex_claude-3-7-sonnet-20250219_vertex-ai_global";
  const API_OPUS_55 = "dep_anthropic_claude-opus-5-5_api_global";
  const CLAUDE_3_OPUS_US = `${BEDROCK}claude-3-opus-20240229-v1-0_bedrock-runtime_us`;
  const ids = [
    SONNET_37_US,
    CLAUDE_3_OPUS_US,
    SONNET_45_US,
    SONNET_45_GLOBAL,
    CLAUDE_3_HAIKU_US,
    VERTEX_SONNET_4,
    VERTEX_SONNET_37,
    API_OPUS_55,
  ];
  let without: SourceFacts[];
  let usePage: SourceFacts;

  beforeAll(async () => {
    without = committed.filter((s) => s.source_url !== USE_PAGE);
    const input = await recordedInput("anthropic", "computer-use-tool");
    usePage = recordedSourceFacts(input, normalizeSource(input));
  });

  it("before the page: LiteLLM's supports_computer_use is all the catalog knows", () => {
    const got = structuredOutput(without, ids, "computer_use");
    expect(got[SONNET_37_US]).toEqual({ status: "supported", verification_status: "community_reported" });
    expect(got[VERTEX_SONNET_4]).toEqual({ status: "supported", verification_status: "community_reported" });
    // Sonnet 4.5's Bedrock model card states computer use for its profiles (official_declared)
    expect(got[SONNET_45_GLOBAL]).toEqual({ status: "supported", verification_status: "official_declared" });
    expect(got[CLAUDE_3_HAIKU_US]).toBeUndefined();
  });

  it("with the page: named models supported per platform, the others unsupported (official_inferred)", () => {
    const got = structuredOutput([...without, usePage], ids, "computer_use");
    // computer_20250124 is used with Claude Sonnet 4.5 and Claude Sonnet 4, on Bedrock and Google Cloud too
    // the card's own statement ranks before the page's inferred one
    expect(got[SONNET_45_US]).toEqual({ status: "supported", verification_status: "official_declared" });
    expect(got[SONNET_45_GLOBAL]).toEqual({ status: "supported", verification_status: "official_declared" });
    expect(got[VERTEX_SONNET_4]).toEqual(inferred("supported"));
    // Claude 3 Opus is not named, and no official source retires it on Bedrock: unsupported
    expect(got[CLAUDE_3_OPUS_US]).toEqual(inferred("unsupported"));
    // Claude 3 Haiku is not named either, but Bedrock retires it in Regions by the page's date
    // (drops_retired, below): not judged, and LiteLLM says nothing
    expect(got[CLAUDE_3_HAIKU_US]).toBeUndefined();
    // Claude Sonnet 3.7 had computer use, and is not named because the page drops retired models
    // (drops_retired): retired on Bedrock and Vertex AI by the page's date, it is not judged
    expect(got[SONNET_37_US]).toEqual({ status: "supported", verification_status: "community_reported" });
    expect(got[VERTEX_SONNET_37]).toEqual({ status: "supported", verification_status: "community_reported" });
    // the Claude API id of a supportedModels entry: the page's own declared fact
    expect(got[API_OPUS_55]).toEqual({ status: "supported", verification_status: "official_declared" });
  });
});

describe("the capability-list rule's limits (facts shaped like the committed ones)", () => {
  const LIST_AT = "2026-08-22T12:36:51Z";
  const bedrock = (model: string, observedAt: string): DeploymentFact => ({
    id: `${BEDROCK}${model}-v1-0_bedrock-runtime_us`,
    model_id: `anthropic/${model}`,
    provider_id: "amazon-bedrock",
    provider_model_id: `anthropic.${model}-v1:0`,
    api_surface: "bedrock-runtime",
    mode: "standard",
    region: "us",
    capabilities: { structured_output: { status: "supported", verification_status: "community_reported" } },
    evidence: {
      source_url: "https://example.org/litellm.json",
      source_type: "community_catalog",
      observed_at: observedAt,
      verification_status: "community_reported",
    },
  });
  const community = (deployments: DeploymentFact[]): SourceFacts => ({
    source_id: "2d8f0c6a-7b8c-4e5a-ac3d-4e5f6a7b8c9d",
    provider_id: "litellm",
    source_type: "community_catalog",
    source_url: "https://example.org/litellm.json",
    observed_at: "2026-11-20T00:00:00Z",
    carried_forward: false,
    output: { deployments, lifecycle: [], skipped: [] },
  });
  const official = (model_facts: ModelFact[], extra: Partial<SourceFacts> = {}): SourceFacts => ({
    source_id: "3e9a1d7b-8c9d-4f6b-bd4e-5f6a7b8c9d0e",
    provider_id: "amazon-bedrock",
    source_type: "official_docs",
    source_url: "https://docs.aws.amazon.com/bedrock/card",
    observed_at: "2026-09-01T00:00:00Z",
    carried_forward: false,
    output: { deployments: [], lifecycle: [], model_facts, skipped: [] },
    ...extra,
  });
  const list = (extra: Partial<SourceFacts> = {}): SourceFacts => ({
    source_id: "995f82fa-3828-4d25-87ff-1c7565595c8e",
    provider_id: "anthropic",
    source_type: "official_docs",
    source_url: PAGE,
    observed_at: LIST_AT,
    carried_forward: false,
    output: {
      deployments: [],
      lifecycle: [],
      capability_lists: [
        {
          capability: "structured_output",
          lab: "anthropic",
          model_ids: ["anthropic/claude-sonnet-4-5-20250929"],
          providers: [{ provider_id: "amazon-bedrock", model_ids: ["anthropic/claude-sonnet-4-5-20250929"] }],
          evidence: {
            source_url: PAGE,
            source_type: "official_docs",
            observed_at: LIST_AT,
            verification_status: "official_declared",
          },
        },
      ],
      skipped: [],
    },
    ...extra,
  });
  const of = (model: string) => `${BEDROCK}${model}-v1-0_bedrock-runtime_us`;

  it("judges a model only when it was out by the list's day: stated release, else first observation", () => {
    const sources = [
      community([
        bedrock("claude-3-sonnet-20240229", "2024-03-04T00:00:00Z"), // seen before the list
        bedrock("claude-next", "2026-11-20T00:00:00Z"), // first seen after it, no release stated
        bedrock("claude-later", "2024-01-01T00:00:00Z"), // seen early, but stated released later
      ]),
      official([
        {
          provider_id: "amazon-bedrock",
          provider_model_id: "anthropic.claude-later-v1:0",
          released_at: "2026-09-30",
          evidence: {
            source_url: "https://docs.aws.amazon.com/bedrock/card",
            source_type: "official_docs",
            observed_at: "2026-10-01T00:00:00Z",
            verification_status: "official_declared",
          },
        },
      ]),
      list(),
    ];
    const got = structuredOutput(sources, [
      of("claude-3-sonnet-20240229"),
      of("claude-next"),
      of("claude-later"),
    ]);
    expect(got[of("claude-3-sonnet-20240229")]).toEqual(inferred("unsupported"));
    expect(got[of("claude-next")]).toEqual({
      status: "supported",
      verification_status: "community_reported",
    });
    expect(got[of("claude-later")]).toEqual({
      status: "supported",
      verification_status: "community_reported",
    });
  });

  it("a list that drops retired models does not judge a model an official source retires at that provider by the list's day", () => {
    const deployments = community([bedrock("claude-3-sonnet-20240229", "2024-03-04T00:00:00Z")]);
    const retirement = (day: string, date_type: "on" | "not_before") =>
      official([], {
        output: {
          deployments: [],
          lifecycle: [
            {
              scope: "deployment",
              provider_id: "amazon-bedrock",
              target: { provider_model_id: "anthropic.claude-3-sonnet-20240229-v1:0", region: "us-east-1" },
              end_of_life: { state: "scheduled", date: day, precision: "day", date_type, evidence: [] },
              evidence: {
                source_url: "https://docs.aws.amazon.com/bedrock/lifecycle",
                source_type: "official_lifecycle",
                observed_at: "2026-01-01T00:00:00Z",
                verification_status: "official_declared",
              },
            },
          ],
          skipped: [],
        },
      });
    const dropping = (extra: Partial<SourceFacts> = {}) => {
      const base = list(extra);
      const lists = base.output.capability_lists ?? [];
      return {
        ...base,
        output: {
          ...base.output,
          capability_lists: lists.map((l) => ({ ...l, drops_retired: true as const })),
        },
      };
    };
    const id = of("claude-3-sonnet-20240229");
    const community_ = { status: "supported", verification_status: "community_reported" };
    // retired before the list: not judged
    expect(structuredOutput([deployments, retirement("2025-07-21", "on"), dropping()], [id])[id]).toEqual(
      community_,
    );
    // the same list without drops_retired judges it
    expect(structuredOutput([deployments, retirement("2025-07-21", "on"), list()], [id])[id]).toEqual(
      inferred("unsupported"),
    );
    // retired after the list, or only "not before" a day: judged
    for (const r of [retirement("2026-10-01", "on"), retirement("2025-07-21", "not_before")])
      expect(structuredOutput([deployments, r, dropping()], [id])[id]).toEqual(inferred("unsupported"));
  });

  it("never overrides an official statement, and an archived list says nothing", () => {
    const early = "2024-03-04T00:00:00Z";
    const card = official([
      {
        provider_id: "amazon-bedrock",
        provider_model_id: "anthropic.claude-3-sonnet-20240229-v1:0",
        capabilities: {
          structured_output: { status: "supported", verification_status: "official_declared" },
        },
        evidence: {
          source_url: "https://docs.aws.amazon.com/bedrock/card",
          source_type: "official_docs",
          observed_at: "2024-03-04T00:00:00Z",
          verification_status: "official_declared",
        },
      },
    ]);
    const deployments = community([bedrock("claude-3-sonnet-20240229", early)]);
    const id = of("claude-3-sonnet-20240229");
    expect(structuredOutput([deployments, card, list()], [id])[id]).toEqual({
      status: "supported",
      verification_status: "official_declared",
    });
    expect(structuredOutput([deployments, list({ archived: true })], [id])[id]).toEqual({
      status: "supported",
      verification_status: "community_reported",
    });
  });
});
