/**
 * Provenance of every served fact (src/release/merge.ts, model-facts.ts, precedence.ts) on the
 * committed release, the offline build of the recorded captures (test/pipeline/build.test.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { comparePrecedence } from "../../src/release/precedence.js";
import { type Deployment, deploymentLevel, meetsVerification } from "../../src/schema/index.js";
import { type CommittedRelease, committedRelease } from "../helpers/committed-release.js";

const LITELLM = "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json";
const CLAUDE_OVERVIEW = "https://docs.claude.com/en/docs/about-claude/models/overview.md";

let release: CommittedRelease;
let byId: Map<string, Deployment>;

beforeAll(async () => {
  release = await committedRelease();
  byId = new Map(release.catalog.deployments.map((d) => [d.id, d]));
});

function deployment(id: string): Deployment {
  const d = byId.get(id);
  if (!d) throw new Error(`the committed release has no ${id}`);
  return d;
}

describe("provenance", () => {
  it("an official deployment says which pages list and price it, and where its limits come from", () => {
    const sonnet = deployment("dep_anthropic_claude-sonnet-4-5-20250929_api_global");
    expect(sonnet.provenance).toEqual({
      listing: {
        verification_status: "official_declared",
        source_urls: [
          "https://platform.claude.com/docs/en/about-claude/model-deprecations.md",
          "https://platform.claude.com/docs/en/about-claude/pricing.md",
        ],
        observed_at: "2026-09-23T00:00:00Z",
      },
      rate_card: {
        verification_status: "official_declared",
        source_urls: ["https://platform.claude.com/docs/en/about-claude/pricing.md"],
        observed_at: sonnet.rate_card?.observed_at,
      },
      context_tokens: {
        verification_status: "official_declared",
        source_urls: [CLAUDE_OVERVIEW],
        observed_at: "2025-10-15T00:00:00Z",
      },
      max_output_tokens: {
        verification_status: "official_declared",
        source_urls: [CLAUDE_OVERVIEW],
        observed_at: "2025-10-15T00:00:00Z",
      },
    });
  });

  it("a model-level fact applied to another provider's deployment is official_inferred; no rate card, no provenance", () => {
    // Claude Opus 4 on Bedrock (no Bedrock card of it is recorded): Anthropic's overview
    const haiku = deployment(
      "dep_amazon-bedrock_anthropic.claude-opus-4-20250514-v1-0_bedrock-runtime_us-east-1",
    );
    expect(haiku.provenance.context_tokens).toEqual({
      verification_status: "official_inferred",
      source_urls: [CLAUDE_OVERVIEW],
      observed_at: "2025-10-15T00:00:00Z",
    });
    expect(haiku.rate_card).toBeNull();
    expect(haiku.provenance.rate_card).toBeNull();
  });

  it("a deployment only LiteLLM's map names is community_reported in every fact, and fails verification=official", () => {
    const turbo = deployment("dep_openai_gpt-3.5-turbo-16k_api_global");
    for (const fact of [
      turbo.provenance.listing,
      turbo.provenance.rate_card,
      turbo.provenance.context_tokens,
      turbo.provenance.max_output_tokens,
    ])
      expect(fact).toMatchObject({ verification_status: "community_reported", source_urls: [LITELLM] });
    expect(deploymentLevel(turbo)).toBe("community_reported");
    expect(meetsVerification(deploymentLevel(turbo), "official")).toBe(false);
    expect(meetsVerification(deploymentLevel(turbo), "corroborated")).toBe(false);
  });

  it("every deployment has a listing, and a provenance exactly where a rate card or limit is known", () => {
    for (const d of release.catalog.deployments) {
      expect(d.provenance.listing.source_urls.length, d.id).toBeGreaterThan(0);
      expect(d.provenance.rate_card === null, d.id).toBe(d.rate_card === null);
      expect(d.provenance.context_tokens === null, d.id).toBe(d.context_tokens === null);
      expect(d.provenance.max_output_tokens === null, d.id).toBe(d.max_output_tokens === null);
      // a rate card's provenance names the page the card cites
      if (d.rate_card) expect(d.provenance.rate_card?.source_urls, d.id).toContain(d.rate_card.source_url);
    }
  });

  it("ranks official before community, then specificity, then the level, then the newer observation", () => {
    const key = (over: Partial<Parameters<typeof comparePrecedence>[0]>) => ({
      official: true,
      specificity: 0,
      verification: "official_declared" as const,
      observedMs: 0,
      sourceId: "a",
      index: 0,
      ...over,
    });
    expect(
      comparePrecedence(key({}), key({ official: false, verification: "community_corroborated" })),
    ).toBeLessThan(0);
    expect(
      comparePrecedence(key({ specificity: 1, verification: "official_inferred" }), key({})),
    ).toBeLessThan(0);
    expect(
      comparePrecedence(key({ observedMs: 0 }), key({ verification: "official_inferred", observedMs: 9 })),
    ).toBeLessThan(0);
    expect(comparePrecedence(key({ observedMs: 9 }), key({}))).toBeLessThan(0);
    expect(
      comparePrecedence(
        key({ official: false, verification: "community_corroborated" }),
        key({ official: false, verification: "community_reported", observedMs: 9 }),
      ),
    ).toBeLessThan(0);
  });
});
