import { beforeAll, describe, expect, it } from "vitest";
import { parsers, placementOf } from "../../src/normalize/parsers/models-dev.js";
import type { ParserInput } from "../../src/normalize/types.js";
import { type DeploymentFact, ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { expectParseFailure } from "../helpers/parsers.js";

const parse = parsers["models-dev"] as NonNullable<(typeof parsers)["models-dev"]>;

let input: ParserInput;
let output: ParseOutput;
let byId: Map<string, DeploymentFact>;

function dep(id: string): DeploymentFact {
  const d = byId.get(id);
  if (!d) throw new Error(`no deployment ${id}`);
  return d;
}

function skipped(reason: string) {
  return output.skipped.find((s) => s.reason === reason);
}

beforeAll(async () => {
  input = await recordedInput("models-dev", "api");
  output = ParseOutput.parse(parse(input));
  byId = new Map(output.deployments.map((d) => [d.id, d]));
});

describe("models.dev (the recorded api.json assembled from the repository at f3fc692)", () => {
  it("maps a model to the deployment the official parsers name, with its prices, limits and capabilities", () => {
    const gpt4o = dep("dep_openai_gpt-4o_api_global");
    expect(gpt4o.model_id).toBe("openai/gpt-4o");
    expect(gpt4o.rate_card).toMatchObject({
      input_micro_usd: 2_500_000,
      cached_input_micro_usd: 1_250_000,
      output_micro_usd: 10_000_000,
      source_url: "https://models.dev/api.json",
      observed_at: "2026-07-01T16:40:28Z",
    });
    expect(gpt4o.context_tokens).toBe(128_000);
    expect(gpt4o.max_output_tokens).toBe(16_384);
    expect(gpt4o.capabilities).toMatchObject({
      tool_calling: { status: "supported", verification_status: "community_reported" },
      vision: { status: "supported" },
      pdf_input: { status: "supported" },
    });
    expect(gpt4o.evidence).toMatchObject({
      source_type: "community_catalog",
      verification_status: "community_reported",
    });
  });

  it("a modality missing from a list says nothing (no unsupported entry)", () => {
    expect(dep("dep_openai_gpt-4o_api_global").capabilities?.audio_input).toBeUndefined();
  });

  it("places a Bedrock inference profile id in its geography, through the Bedrock identity module", () => {
    const sonnet = dep("dep_amazon-bedrock_anthropic.claude-sonnet-4-5-20250929-v1-0_bedrock-runtime_us");
    expect(sonnet.provider_model_id).toBe("anthropic.claude-sonnet-4-5-20250929-v1:0");
    expect(sonnet.region).toBe("us");
    expect(sonnet.rate_card).toMatchObject({ input_micro_usd: 3_000_000, cache_write_micro_usd: 3_750_000 });
  });

  it("invents no region: unprefixed Bedrock ids, Azure and Vertex AI records name no deployment", () => {
    expect(
      output.deployments.some((d) => d.provider_id === "azure" || d.provider_id === "google-vertex"),
    ).toBe(false);
    expect(
      output.deployments.filter((d) => d.provider_id === "amazon-bedrock").map((d) => d.region),
    ).not.toContain("us-east-1");
    expect(
      skipped("Azure record without a deployment type or region (models.dev documents none)")?.count,
    ).toBe(109);
    expect(skipped("Vertex AI record without a location (models.dev documents none)")?.count).toBe(36);
    expect(skipped("Bedrock model id without a region (models.dev documents none)")?.count).toBe(63);
    expect(placementOf("amazon-bedrock", "anthropic.claude-sonnet-4-6")).toEqual({
      ok: false,
      reason: "Bedrock model id without a region (models.dev documents none)",
    });
  });

  it("a zero cost is unknown: no price rather than a free one", () => {
    // cohere/north-mini-code-1-0 has cost input 0, output 0: no rate card, its limits kept
    const north = dep("dep_cohere_north-mini-code-1-0_api_global");
    expect(north.rate_card).toBeUndefined();
    expect(north.context_tokens).toBe(256_000);
    // mistral-embed: input 0.10, output 0 -> output unknown
    expect(dep("dep_mistral_mistral-embed_api_global").rate_card).toMatchObject({
      input_micro_usd: 100_000,
      output_micro_usd: null,
    });
    expect(skipped("zero price (a community zero is unknown: null)")?.examples).toContain(
      "cohere/north-mini-code-1-0: cost.input",
    );
    for (const d of output.deployments)
      for (const v of [
        d.rate_card?.input_micro_usd,
        d.rate_card?.output_micro_usd,
        d.rate_card?.cached_input_micro_usd,
      ])
        expect(v).not.toBe(0);
  });

  it("keeps an input limit stated below the context window, and only then", () => {
    // limit: {context: 400000, input: 272000, output: 128000}
    const gpt51 = dep("dep_openai_gpt-5.1_api_global");
    expect([gpt51.context_tokens, gpt51.max_input_tokens]).toEqual([400_000, 272_000]);
    // no limit.input
    expect(dep("dep_openai_gpt-4o_api_global").max_input_tokens).toBeUndefined();
    for (const d of output.deployments)
      if (d.max_input_tokens !== undefined) expect(d.max_input_tokens).toBeLessThan(d.context_tokens ?? 0);
  });

  it("an embedding model's output limit (its vector size) is not a max output", () => {
    expect(dep("dep_google_gemini-embedding-001_gemini-api_global").max_output_tokens).toBeUndefined();
  });

  it("fails on a document that is not api.json", () => {
    expectParseFailure(() => parse({ ...input, content: "[]" }), /api\.json is not a JSON object/);
    expectParseFailure(() => parse({ ...input, content: "{" }), /not valid JSON/);
    expectParseFailure(
      () => parse({ ...input, content: '{"openrouter":{"models":{}}}' }),
      /no model of the catalog's providers/,
    );
  });
});
