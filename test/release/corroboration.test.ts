/**
 * Corroboration and fill-only community datasets, on the committed release (the offline build
 * of the recorded captures, test/pipeline/build.test.ts) and its facts: LiteLLM's map, models.dev
 * (ef62eb36-...) and genai-prices (af820b95-...).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { FactsFile } from "../../src/release/facts.js";
import { withoutUnplacedFills } from "../../src/release/fills.js";
import { mergeCatalog } from "../../src/release/merge.js";
import { type CommunityVoice, corroborate } from "../../src/release/precedence.js";
import type { Deployment } from "../../src/schema/index.js";
import { type CommittedRelease, committedRelease } from "../helpers/committed-release.js";

const LITELLM = "fcd51132-2127-4ab7-8d96-1dc88e7585bb";
const MODELS_DEV = "ef62eb36-dbfc-453c-aa33-e46cf22ce234";
const GENAI_PRICES = "af820b95-b47a-47e1-a326-31e33dac781d";
const LITELLM_URL =
  "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json";
const MODELS_DEV_URL = "https://models.dev/api.json";
const GENAI_PRICES_URL = "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/data.json";
const NOW = "2026-11-23T00:00:00Z";

let release: CommittedRelease;
let byId: Map<string, Deployment>;

function dep(id: string): Deployment {
  const d = byId.get(id);
  if (!d) throw new Error(`no deployment ${id}`);
  return d;
}

function sourceFacts(facts: FactsFile, sourceId: string) {
  const source = facts.sources.find((s) => s.source_id === sourceId);
  if (!source) throw new Error(`no facts of ${sourceId}`);
  return source;
}

beforeAll(async () => {
  release = await committedRelease();
  byId = new Map(release.catalog.deployments.map((d) => [d.id, d]));
});

describe("corroboration (precedence.ts corroborate)", () => {
  const voice = (sourceId: string, value: number, extra: Partial<CommunityVoice> = {}) => ({
    sourceId,
    value,
    fillsOnly: false,
    notIndependentOf: [] as string[],
    ...extra,
  });
  const same = (a: { value: number }, b: { value: number }) => a.value === b.value;

  it("keeps the value two datasets agree on before a lone value that ranks first", () => {
    const decided = corroborate([voice("a", 1), voice("b", 2), voice("c", 2)], same);
    expect(decided?.kept.sourceId).toBe("b");
    expect(decided?.level).toBe("community_corroborated");
    expect(decided?.agreeing.map((v) => v.sourceId)).toEqual(["c"]);
    expect(decided?.differing.map((v) => v.sourceId)).toEqual(["a"]);
  });

  it("where no two agree, keeps the first dataset that places deployments, community_reported", () => {
    const decided = corroborate([voice("new", 1, { fillsOnly: true }), voice("placer", 2)], same);
    expect(decided).toMatchObject({ level: "community_reported", kept: { sourceId: "placer" } });
    expect(decided?.differing.map((v) => v.sourceId)).toEqual(["new"]);
  });

  it("one dataset's two facts, or a dataset that is not independent of the other, corroborate nothing", () => {
    expect(corroborate([voice("a", 1), voice("a", 1)], same)?.level).toBe("community_reported");
    const dependent = corroborate([voice("g", 1, { notIndependentOf: ["l"] }), voice("l", 1)], same);
    expect(dependent).toMatchObject({ level: "community_reported", agreeing: [], differing: [] });
  });
});

describe("the committed release", () => {
  it("a price two independent datasets agree on is community_corroborated, both named", () => {
    // Claude Opus 4.1 on Bedrock's US profile: models.dev and LiteLLM both say 15 / 75
    const opus = dep("dep_amazon-bedrock_anthropic.claude-opus-4-1-20250805-v1-0_bedrock-runtime_us");
    expect(opus.rate_card).toMatchObject({ input_micro_usd: 15_000_000, output_micro_usd: 75_000_000 });
    expect(opus.provenance.rate_card).toMatchObject({
      verification_status: "community_corroborated",
      source_urls: [MODELS_DEV_URL, LITELLM_URL],
    });
  });

  it("a limit two independent datasets agree on is community_corroborated", () => {
    const scout = dep("dep_groq_meta-llama-llama-4-scout-17b-16e-instruct_api_global");
    expect(scout.context_tokens).toBe(131_072);
    expect(scout.provenance.context_tokens).toMatchObject({
      verification_status: "community_corroborated",
      source_urls: [MODELS_DEV_URL, LITELLM_URL],
    });
  });

  it("datasets that disagree are reported and the value stays community_reported", () => {
    // Claude Haiku 4.5 through the `us` profile: LiteLLM $1.10,
    // models.dev $1.00 per 1M input tokens; no official Bedrock price is recorded
    const id = "dep_amazon-bedrock_anthropic.claude-haiku-4-5-20251001-v1-0_bedrock-runtime_us";
    expect(dep(id).provenance.rate_card).toMatchObject({
      verification_status: "community_reported",
      source_urls: [LITELLM_URL],
    });
    expect(dep(id).rate_card?.input_micro_usd).toBe(1_100_000);
    expect(release.report.community_disagreements).toContainEqual({
      resource_id: id,
      provider_id: "amazon-bedrock",
      field: "rate_card.input_micro_usd",
      kept: { source_id: LITELLM, value: 1_100_000, observed_at: "2026-07-24T18:23:43Z" },
      other: { source_id: MODELS_DEV, value: 1_000_000, observed_at: "2026-07-01T16:40:28Z" },
    });
  });

  it("an agreement of genai-prices with LiteLLM alone corroborates nothing (not independent)", () => {
    const pair = [GENAI_PRICES_URL, LITELLM_URL].sort().join(" ");
    const corroborated = release.catalog.deployments.filter(
      (d) => d.provenance.rate_card?.verification_status === "community_corroborated",
    );
    expect(corroborated.length).toBeGreaterThan(0);
    for (const d of corroborated) expect(d.provenance.rate_card?.source_urls.join(" ")).not.toBe(pair);
  });

  it("a dependent dataset's agreeing card is not served: what only LiteLLM states stays out", () => {
    // Claude 3.7 Sonnet: models.dev and genai-prices corroborate 3 / 0.30 / 15; LiteLLM's
    // agreeing card adds a 1-hour cache write that neither independent dataset states
    const sonnet = dep("dep_anthropic_claude-3-7-sonnet-20250219_api_global");
    expect(sonnet.provenance.rate_card).toMatchObject({
      verification_status: "community_corroborated",
      source_urls: [MODELS_DEV_URL, GENAI_PRICES_URL],
    });
    expect(sonnet.rate_card).toMatchObject({ input_micro_usd: 3_000_000, output_micro_usd: 15_000_000 });
    expect(sonnet.rate_card?.cache_write_1h_micro_usd).toBeUndefined();
  });

  it("a dataset key that names no deployment another source places creates nothing", () => {
    // models.dev prices Cohere's north-mini-code-1-0 (at 0): no other source lists it
    const models = sourceFacts(release.facts, MODELS_DEV);
    expect(models.fills_only).toBe(true);
    expect(models.output.deployments.map((d) => d.id)).toContain("dep_cohere_north-mini-code-1-0_api_global");
    expect(byId.has("dep_cohere_north-mini-code-1-0_api_global")).toBe(false);
    const { sources, unplaced } = withoutUnplacedFills(release.facts.sources);
    expect(unplaced.get(MODELS_DEV)).toBeGreaterThan(0);
    expect(unplaced.get(GENAI_PRICES)).toBeGreaterThan(0);
    expect(unplaced.has(LITELLM)).toBe(false);
    // every fill-only fact left names a deployment another source's facts name
    const named = new Set(
      sources.filter((s) => !s.fills_only).flatMap((s) => s.output.deployments.map((d) => d.id)),
    );
    for (const s of sources.filter((s) => s.fills_only))
      for (const d of s.output.deployments) expect(named.has(d.id)).toBe(true);
  });

  it("without fills_only the same facts would create those deployments (the merge honours it)", () => {
    const sources = release.facts.sources.map(({ fills_only: _, ...s }) => s);
    const merged = mergeCatalog({
      now: NOW,
      facts: { format: 1, sources },
      states: [],
      previousCores: new Map(),
    });
    expect(merged.deployments.map((d) => d.id)).toContain("dep_cohere_north-mini-code-1-0_api_global");
  });

  it("a community zero is no price: models.dev's 0 for Labs Devstral Small is neither served nor a conflict", () => {
    const id = "dep_mistral_labs-devstral-small-2512_api_global";
    const fact = sourceFacts(release.facts, MODELS_DEV).output.deployments.find((d) => d.id === id);
    expect(fact).toBeDefined();
    expect(fact?.rate_card).toBeUndefined();
    expect(release.report.conflicts.some((c) => c.resource_id === id && c.community.value === 0)).toBe(false);
    const served = release.catalog.deployments.filter((d) =>
      [MODELS_DEV_URL, GENAI_PRICES_URL].includes(d.rate_card?.source_url ?? ""),
    );
    expect(served.length).toBeGreaterThan(0);
    for (const d of served)
      for (const v of [
        d.rate_card?.input_micro_usd,
        d.rate_card?.output_micro_usd,
        d.rate_card?.cached_input_micro_usd,
      ])
        expect(v).not.toBe(0);
  });
});
