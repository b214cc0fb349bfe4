import { describe, expect, it } from "vitest";
import { parsers } from "../../src/normalize/parsers/google-models-api.js";
import { type ModelFact, ParseOutput } from "../../src/schema/index.js";
import { supported } from "../helpers/capabilities.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { expectParseFailure, withContent } from "../helpers/parsers.js";

const parse = defined(parsers["google-models-api"], "parser google-models-api");

async function recordedFacts(): Promise<Map<string, ModelFact>> {
  const out = ParseOutput.parse(parse(await recordedInput("google", "models-api")));
  expect(out.deployments).toEqual([]);
  return new Map((out.model_facts ?? []).map((f) => [f.provider_model_id, f]));
}

describe("Gemini API models.list (recorded first page, June 2026)", () => {
  it("gives every listed model its input limit, as official_declared facts of provider google", async () => {
    const facts = await recordedFacts();
    expect(facts.size).toBe(50);
    for (const fact of facts.values()) {
      expect(fact.provider_id).toBe("google");
      expect(fact.context_tokens).toBeGreaterThan(0);
      expect(fact.evidence).toMatchObject({
        source_type: "official_models_api",
        source_url: "https://generativelanguage.googleapis.com/v1beta/models",
        observed_at: "2026-06-12T10:51:06Z",
        verification_status: "official_declared",
      });
    }
  });

  it("reads thinking, context caching and batch from the model resource (the -latest aliases too)", async () => {
    const facts = await recordedFacts();
    expect(facts.get("gemini-flash-latest")).toMatchObject({
      context_tokens: 1_048_576,
      max_output_tokens: 65_536,
      capabilities: { reasoning: supported, prompt_caching: supported, batch: supported },
    });
    // No `thinking` field: reasoning stays unknown (the list omits it, it does not say false).
    const flash2 = facts.get("gemini-2.0-flash");
    expect(flash2).toMatchObject({ context_tokens: 1_048_576, max_output_tokens: 8192 });
    expect(flash2?.capabilities).toEqual({ prompt_caching: supported, batch: supported });
    // Batch but no createCachedContent: prompt caching stays unknown.
    expect(facts.get("gemini-3-pro-image")?.capabilities).toEqual({ reasoning: supported, batch: supported });
    // Only generateContent / countTokens: no capability at all.
    expect(facts.get("lyria-3-pro-preview")?.capabilities).toBeUndefined();
  });

  it("states no max output where the limit is not one of output tokens (embeddings, Imagen, Veo)", async () => {
    const facts = await recordedFacts();
    const embedding = facts.get("gemini-embedding-2-preview");
    expect(embedding).toMatchObject({ context_tokens: 8192, capabilities: { batch: supported } });
    expect(embedding?.max_output_tokens).toBeUndefined();
    for (const id of ["imagen-4.0-generate-001", "veo-3.1-generate-preview"]) {
      const fact = facts.get(id);
      expect(fact?.context_tokens).toBe(480);
      expect(fact?.max_output_tokens).toBeUndefined();
      expect(fact?.capabilities).toBeUndefined();
    }
    expect(facts.get("aqa")).toMatchObject({ context_tokens: 7168, max_output_tokens: 1024 });
  });

  it("reads thinking: false as reasoning unsupported", async () => {
    const input = await recordedInput("google", "models-api");
    const content = JSON.stringify({
      models: [
        {
          name: "models/gemini-x",
          inputTokenLimit: 1000,
          outputTokenLimit: 100,
          supportedGenerationMethods: ["generateContent"],
          thinking: false,
        },
      ],
    });
    const [fact] = parse(withContent(input, content)).model_facts ?? [];
    expect(fact?.capabilities).toEqual({
      reasoning: { status: "unsupported", verification_status: "official_declared" },
    });
  });

  it("fails on a changed shape: a name that is not models/<id>, no input limit, no models, a repeated model", async () => {
    const input = await recordedInput("google", "models-api");
    const model = { name: "models/gemini-x", inputTokenLimit: 10, supportedGenerationMethods: [] };
    const cases: Array<[string, string | RegExp]> = [
      [
        JSON.stringify({ models: [{ ...model, name: "tunedModels/x" }] }),
        'model name "tunedModels/x" is not "models/<id>"',
      ],
      [
        JSON.stringify({ models: [{ name: "models/gemini-x" }] }),
        /not a Gemini API model list: [\s\S]*"inputTokenLimit"[\s\S]*expected number, received undefined/,
      ],
      [JSON.stringify({ models: [] }), "models-api: found no models"],
      [JSON.stringify({ models: [model, model] }), "model gemini-x is listed twice"],
      ["<html>not json</html>", "not a Gemini API model list: Unexpected token '<'"],
    ];
    for (const [content, expected] of cases)
      expectParseFailure(() => parse(withContent(input, content)), expected);
  });
});
