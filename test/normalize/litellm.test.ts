import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { perTokenToMicroPerMillion } from "../../src/normalize/helpers.js";
import { canonicalModelId, identityFor, NO_REGION, parsers } from "../../src/normalize/parsers/litellm.js";
import type { ParserInput } from "../../src/normalize/types.js";
import { type DeploymentFact, ParseOutput, type SourceDefinition } from "../../src/schema/index.js";
import { LITELLM_FILE, loadDefinition } from "../helpers/captures.js";
import { expectParseFailure } from "../helpers/parsers.js";

const OBSERVED_AT = "2026-11-23T00:00:00Z";
const parse = parsers["litellm"] as NonNullable<(typeof parsers)["litellm"]>;

let source: SourceDefinition;
let raw: string;
let output: ParseOutput;
let byId: Map<string, DeploymentFact>;

function input(content: string): ParserInput {
  return { source, content, observedAt: OBSERVED_AT };
}

function dep(id: string): DeploymentFact {
  const d = byId.get(id);
  if (!d) throw new Error(`no deployment ${id}`);
  return d;
}

/** Parsing `content` fails with a parse_failed CatalogError naming the `expected` failure. */
function expectContentFailure(content: string, expected: string): void {
  expectParseFailure(() => parse(input(content)), expected);
}

beforeAll(async () => {
  source = await loadDefinition("litellm", "model-prices");
  raw = await readFile(LITELLM_FILE, "utf8");
  output = ParseOutput.parse(parse(input(raw)));
  byId = new Map(output.deployments.map((d) => [d.id, d]));
});

describe("exact per-token price conversion", () => {
  it("turns the JSON number's decimal text into micro-USD per million without float error", () => {
    expect(perTokenToMicroPerMillion(2.5e-6)).toEqual({ ok: true, micro: 2_500_000 });
    expect(perTokenToMicroPerMillion(0.0000025)).toEqual({ ok: true, micro: 2_500_000 });
    expect(perTokenToMicroPerMillion(1.375e-7)).toEqual({ ok: true, micro: 137_500 });
    expect(perTokenToMicroPerMillion(5.5e-9)).toEqual({ ok: true, micro: 5_500 });
    expect(perTokenToMicroPerMillion(0.00015)).toEqual({ ok: true, micro: 150_000_000 });
    expect(perTokenToMicroPerMillion(0)).toEqual({ ok: true, micro: 0 });
    expect(perTokenToMicroPerMillion(3)).toEqual({ ok: true, micro: 3_000_000_000_000 });
    // Float multiplication drifts on real prices of the file; the decimal conversion does not.
    expect(0.0000165 * 1e12).not.toBe(16_500_000);
    expect(perTokenToMicroPerMillion(0.0000165)).toEqual({ ok: true, micro: 16_500_000 });
    expect(6e-8 * 1e12).not.toBe(60_000);
    expect(perTokenToMicroPerMillion(6e-8)).toEqual({ ok: true, micro: 60_000 });
  });

  it("refuses sub-micro, over-precise, negative and non-numeric prices instead of rounding them", () => {
    expect(perTokenToMicroPerMillion(1.5e-13)).toEqual({ ok: false, reason: "sub_micro" });
    expect(perTokenToMicroPerMillion(0.1 + 0.2)).toEqual({ ok: false, reason: "imprecise" });
    expect(perTokenToMicroPerMillion(-1e-6)).toEqual({ ok: false, reason: "invalid" });
    expect(perTokenToMicroPerMillion("0.000001")).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("identity mapping", () => {
  it("maps regional and cross-region Bedrock keys to AWS regions or geographies; an unqualified key to none", () => {
    const regional = identityFor("bedrock/eu-west-2/meta.llama3-70b-instruct-v1:0", "bedrock");
    expect(regional).toMatchObject({
      ok: true,
      identity: { provider_model_id: "meta.llama3-70b-instruct-v1:0", region: "eu-west-2" },
    });
    expect(identityFor("eu.anthropic.claude-3-haiku-20240307-v1:0", "bedrock")).toMatchObject({
      ok: true,
      identity: { provider_model_id: "anthropic.claude-3-haiku-20240307-v1:0", region: "eu", explicit: true },
    });
    // no region is invented: the key names none and LiteLLM documents none for such keys
    expect(identityFor("anthropic.claude-3-haiku-20240307-v1:0", "bedrock")).toEqual({
      ok: false,
      reason: NO_REGION,
    });
    expect(identityFor("bedrock/us-east-1/1-month-commitment/anthropic.claude-v1", "bedrock").ok).toBe(false);
    expect(identityFor("anthropic.claude-haiku-4-5@20251001", "bedrock_converse").ok).toBe(false);
  });

  it("maps Azure data zones and global keys to deployment types", () => {
    expect(identityFor("azure/eu/gpt-4o-2024-08-06", "azure")).toMatchObject({
      ok: true,
      identity: { mode: "data-zone-standard", region: "eu", provider_model_id: "gpt-4o-2024-08-06" },
    });
    expect(identityFor("azure/global/gpt-5.1", "azure")).toMatchObject({
      ok: true,
      identity: { mode: "global-standard", region: "global", explicit: true },
    });
    expect(identityFor("azure/gpt-5.1", "azure")).toEqual({ ok: false, reason: NO_REGION });
  });

  it("derives the lab's own model id from provider spellings", () => {
    const id = (key: string, p: string) => {
      const r = identityFor(key, p);
      if (!r.ok) throw new Error(r.reason);
      return canonicalModelId(r.identity);
    };
    expect(id("us.anthropic.claude-3-5-sonnet-20241022-v2:0", "bedrock")).toBe(
      "anthropic/claude-3-5-sonnet-20241022",
    );
    expect(id("bedrock/us-east-1/anthropic.claude-opus-4-6-v1", "bedrock_converse")).toBe(
      "anthropic/claude-opus-4-6",
    );
    expect(id("vertex_ai/claude-3-5-haiku@20241022", "vertex_ai-anthropic_models")).toBe(
      "anthropic/claude-3-5-haiku-20241022",
    );
    expect(id("vertex_ai/meta/llama-3.1-405b-instruct-maas", "vertex_ai-llama_models")).toBe(
      "meta/llama-3.1-405b-instruct",
    );
    expect(id("azure/global/gpt-35-turbo-0125", "azure")).toBe("openai/gpt-3.5-turbo-0125");
    expect(id("gemini/gemini-2.5-pro", "gemini")).toBe("google/gemini-2.5-pro");
  });
});

describe("LiteLLM price map (real data: the committed capture)", () => {
  it("normalizes hundreds of deployments of all twelve catalog providers", () => {
    expect(output.deployments.length).toBeGreaterThanOrEqual(800);
    const providers = new Set(output.deployments.map((d) => d.provider_id));
    expect([...providers].sort()).toEqual([
      "amazon-bedrock",
      "anthropic",
      "azure",
      "cohere",
      "deepseek",
      "google",
      "google-vertex",
      "groq",
      "mistral",
      "openai",
      "together-ai",
      "xai",
    ]);
    expect(new Set(output.deployments.map((d) => d.id)).size).toBe(output.deployments.length);
    for (const d of output.deployments) {
      expect(d.evidence.verification_status).toBe("community_reported");
      expect(d.evidence.source_type).toBe("community_catalog");
      expect(d.evidence.observed_at).toBe(OBSERVED_AT);
    }
  });

  it("accounts for every entry of the file: normalized, or skipped with a counted reason", () => {
    const keys = Object.keys(JSON.parse(raw) as Record<string, unknown>);
    const entrySkips = output.skipped.filter(
      (s) => !s.reason.startsWith("price") && !/price without/.test(s.reason),
    );
    const skippedEntries = entrySkips.reduce((n, s) => n + s.count, 0);
    const standardDeployments = output.deployments.filter(
      (d) => !["batch", "flex", "priority", "global-batch", "data-zone-batch"].includes(d.mode),
    ).length;
    expect(skippedEntries + standardDeployments).toBe(keys.length);
    const reasons = new Map(output.skipped.map((s) => [s.reason, s.count]));
    expect(reasons.get("sample_spec (documentation of the format)")).toBe(1);
    expect(reasons.get("not a text-generation model (mode embedding)")).toBeGreaterThanOrEqual(30);
    expect(reasons.get("not a text-generation model (mode image_generation)")).toBeGreaterThanOrEqual(100);
    expect(reasons.get("provider not in the catalog")).toBeGreaterThanOrEqual(1000);
    expect(reasons.get("fine-tuned model price")).toBeGreaterThanOrEqual(10);
  });

  it("gives gpt-5.4 its standard, batch, flex and priority prices and its long-context tier", () => {
    // "gpt-5.4": input_cost_per_token 0.0000025, cache_read 2.5e-7, output 0.000015,
    // *_above_272k_tokens 0.000005 / 5e-7 / 0.0000225.
    expect(dep("dep_openai_gpt-5.4_api_global")).toMatchObject({
      model_id: "openai/gpt-5.4",
      context_tokens: 1_050_000,
      max_output_tokens: 128_000,
      rate_card: {
        input_micro_usd: 2_500_000,
        cached_input_micro_usd: 250_000,
        output_micro_usd: 15_000_000,
        tiers: [
          {
            above_input_tokens: 272_000,
            input_micro_usd: 5_000_000,
            cached_input_micro_usd: 500_000,
            output_micro_usd: 22_500_000,
          },
        ],
      },
    });
    expect(dep("dep_openai_gpt-5.4_api-batch_global").rate_card).toMatchObject({
      input_micro_usd: 1_250_000,
      cached_input_micro_usd: null,
      output_micro_usd: 7_500_000,
    });
    expect(dep("dep_openai_gpt-5.4_api-flex_global").rate_card).toMatchObject({
      input_micro_usd: 1_250_000,
      cached_input_micro_usd: 130_000,
      output_micro_usd: 7_500_000,
    });
    expect(dep("dep_openai_gpt-5.4_api-priority_global").rate_card).toMatchObject({
      input_micro_usd: 5_000_000,
      cached_input_micro_usd: 500_000,
      output_micro_usd: 30_000_000,
    });
    expect(output.deployments.filter((d) => d.mode === "batch").length).toBeGreaterThanOrEqual(50);
  });

  it("keeps Anthropic cache-write prices, 5-minute and 1-hour", () => {
    expect(dep("dep_anthropic_claude-opus-4-6_api_global").rate_card).toMatchObject({
      input_micro_usd: 5_000_000,
      cached_input_micro_usd: 500_000,
      output_micro_usd: 25_000_000,
      cache_write_micro_usd: 6_250_000,
      cache_write_1h_micro_usd: 10_000_000,
    });
  });

  it("prices Gemini long context above 200k tokens as a tier", () => {
    expect(dep("dep_google_gemini-2.5-pro_gemini-api_global").rate_card).toMatchObject({
      input_micro_usd: 1_250_000,
      cached_input_micro_usd: 125_000,
      output_micro_usd: 10_000_000,
      tiers: [
        {
          above_input_tokens: 200_000,
          input_micro_usd: 2_500_000,
          cached_input_micro_usd: 250_000,
          output_micro_usd: 15_000_000,
        },
      ],
    });
  });

  it("maps Bedrock regional keys to one deployment per region with that region's price", () => {
    // bedrock/eu-west-2/meta.llama3-70b-instruct-v1:0: 0.00000345 / 0.00000455 per token;
    // the unqualified key (US East) 0.00000265 / 0.0000035.
    expect(
      dep("dep_amazon-bedrock_meta.llama3-70b-instruct-v1-0_bedrock-runtime_eu-west-2").rate_card,
    ).toMatchObject({
      input_micro_usd: 3_450_000,
      output_micro_usd: 4_550_000,
    });
    expect(
      dep("dep_amazon-bedrock_meta.llama3-70b-instruct-v1-0_bedrock-runtime_us-east-1").rate_card,
    ).toMatchObject({
      input_micro_usd: 2_650_000,
      output_micro_usd: 3_500_000,
    });
    const regions = output.deployments
      .filter((d) => d.provider_model_id === "meta.llama3-70b-instruct-v1:0")
      .map((d) => d.region)
      .sort();
    expect(regions).toEqual([
      "ap-south-1",
      "ca-central-1",
      "eu-west-1",
      "eu-west-2",
      "sa-east-1",
      "us-east-1",
      "us-gov-east-1",
      "us-gov-west-1",
      "us-west-1",
    ]);
    // Cross-region profile us.anthropic.claude-3-5-haiku-20241022-v1:0.
    expect(
      dep("dep_amazon-bedrock_anthropic.claude-3-5-haiku-20241022-v1-0_bedrock-runtime_us"),
    ).toMatchObject({
      model_id: "anthropic/claude-3-5-haiku-20241022",
      rate_card: {
        input_micro_usd: 800_000,
        cached_input_micro_usd: 80_000,
        output_micro_usd: 4_000_000,
        cache_write_micro_usd: 1_000_000,
      },
    });
  });

  it("maps Azure data-zone and batch prices to deployment types", () => {
    // azure/eu/gpt-4o-2024-08-06: 0.00000275 / 0.000001375 cached / 0.000011.
    expect(dep("dep_azure_gpt-4o-2024-08-06_azure-openai-data-zone-standard_eu").rate_card).toMatchObject({
      input_micro_usd: 2_750_000,
      cached_input_micro_usd: 1_375_000,
      output_micro_usd: 11_000_000,
    });
    expect(byId.has("dep_azure_gpt-4.1-2025-04-14_azure-openai-data-zone-batch_us")).toBe(true);
  });

  it("places no deployment for an unqualified Bedrock or Azure key, and says so in skipped", () => {
    // "azure/gpt-4.1-2025-04-14" and "anthropic.claude-3-haiku-20240307-v1:0" name no region;
    // the catalog used to place them in global-standard/global and us-east-1 by convention
    expect(byId.has("dep_azure_gpt-4.1-2025-04-14_azure-openai-global-batch_global")).toBe(false);
    expect(byId.has("dep_azure_gpt-4.1-2025-04-14_azure-openai-global-standard_global")).toBe(false);
    const map = JSON.parse(raw) as Record<string, unknown>;
    const usEast = [...byId.keys()].filter(
      (id) => id.startsWith("dep_amazon-bedrock_") && id.endsWith("_us-east-1"),
    );
    // every us-east-1 deployment left comes from a key that names us-east-1
    const explicit = Object.keys(map).filter((k) => k.startsWith("bedrock/us-east-1/")).length;
    expect(usEast.length).toBeLessThanOrEqual(explicit);
    const noRegion = output.skipped.find((s) => s.reason === NO_REGION);
    expect(noRegion?.count).toBeGreaterThan(100);
  });

  it("turns supports_* flags into community-reported capabilities, true and false", () => {
    const caps = dep("dep_openai_gpt-5.4_api_global").capabilities;
    expect(caps?.tool_calling).toEqual({ status: "supported", verification_status: "community_reported" });
    expect(caps?.structured_output?.status).toBe("supported");
    const withFalse = output.deployments.find((d) =>
      Object.values(d.capabilities ?? {}).some((c) => c?.status === "unsupported"),
    );
    expect(withFalse).toBeDefined();
  });

  it("turns deprecation_date into a deployment-scope end-of-life milestone, with no status of its own", () => {
    // "claude-3-opus-20240229": deprecation_date "2026-05-01"; the release stage derives the status.
    const opus = output.lifecycle.find(
      (a) => a.provider_id === "anthropic" && a.target?.provider_model_id === "claude-3-opus-20240229",
    );
    expect(opus?.status).toBeUndefined();
    expect(opus).toMatchObject({
      scope: "deployment",
      target: { provider_model_id: "claude-3-opus-20240229", region: "global", api_surface: "api" },
      end_of_life: { state: "scheduled", date: "2026-05-01", date_type: "on", precision: "day" },
      evidence: { verification_status: "community_reported" },
    });
    expect(output.lifecycle.length).toBeGreaterThanOrEqual(30);
  });

  it("reports the same milestones whatever the capture's time: no date is compared with it", () => {
    const early = parse({ source, content: raw, observedAt: "2025-01-01T00:00:00Z" });
    const strip = (o: typeof early) =>
      o.lifecycle.map((a) => [a.target, a.status, a.end_of_life?.date, a.end_of_life?.date_type]);
    expect(strip(early)).toEqual(strip(output));
  });

  it("fails, never succeeds empty, on a structurally wrong document", () => {
    expectContentFailure("not json", "model-prices: not valid JSON");
    expectContentFailure("[]", "model-prices: the price map is not a JSON object");
    expectContentFailure('"a string"', "model-prices: the price map is not a JSON object");
    expectContentFailure("{}", "model-prices: no text-generation entries of the catalog's providers");
    expectContentFailure(
      JSON.stringify({
        sample_spec: { litellm_provider: "one of https://docs.litellm.ai/docs/providers", mode: "chat" },
        "perplexity/sonar": { litellm_provider: "perplexity", mode: "chat", input_cost_per_token: 1e-6 },
        "text-embedding-3-small": {
          litellm_provider: "openai",
          mode: "embedding",
          input_cost_per_token: 2e-8,
        },
      }),
      "model-prices: no text-generation entries of the catalog's providers",
    );
  });
});
