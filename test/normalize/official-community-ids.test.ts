/**
 * The official parsers of the hosts and API labs added with LiteLLM coverage (xAI, DeepSeek,
 * Cohere, Groq, Together AI) and the LiteLLM parser give the same deployment the same id and the
 * same canonical model, so the merge reports their disagreements instead of listing the
 * deployment twice.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parserFor } from "../../src/normalize/index.js";
import { identityFor, parsers as litellmParsers } from "../../src/normalize/parsers/litellm.js";
import { LITELLM_FILE, loadDefinition, recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";

const litellm = defined(litellmParsers["litellm"], "parser litellm");
const community = litellm({
  source: await loadDefinition("litellm", "model-prices"),
  content: await readFile(LITELLM_FILE, "utf8"),
  observedAt: "2026-07-24T00:00:00Z",
});
const communityById = new Map(community.deployments.map((d) => [d.id, d]));

async function official(provider: string, name: string) {
  const input = await recordedInput(provider, name);
  return parserFor(input.source)(input);
}

describe("official and community deployment ids", () => {
  it("maps LiteLLM's xai, deepseek, cohere, groq and together_ai keys to the catalog's providers", () => {
    expect(identityFor("xai/grok-4-0709", "xai")).toMatchObject({
      ok: true,
      identity: {
        provider_id: "xai",
        provider_model_id: "grok-4-0709",
        api_surface: "api",
        region: "global",
      },
    });
    expect(identityFor("deepseek/deepseek-chat", "deepseek")).toMatchObject({
      identity: { provider_id: "deepseek", provider_model_id: "deepseek-chat" },
    });
    expect(identityFor("command-r-08-2024", "cohere_chat")).toMatchObject({
      identity: { provider_id: "cohere", provider_model_id: "command-r-08-2024" },
    });
    expect(identityFor("groq/meta-llama/llama-4-scout-17b-16e-instruct", "groq")).toMatchObject({
      identity: { provider_id: "groq", provider_model_id: "meta-llama/llama-4-scout-17b-16e-instruct" },
    });
    expect(identityFor("together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo", "together_ai")).toMatchObject({
      identity: { provider_id: "together-ai", provider_model_id: "meta-llama/Llama-3.3-70B-Instruct-Turbo" },
    });
    expect(identityFor("together-ai-4.1b-8b", "together_ai")).toEqual({
      ok: false,
      reason: "size-tier price, not a model",
    });
  });

  it.each([
    ["cohere", "models", 8],
    ["groq", "deprecations", 8],
    ["groq", "models", 5],
    ["xai", "models-2025", 9],
    ["xai", "models", 3],
    ["xai", "retirement-2026-05-15", 7],
    ["together-ai", "serverless-models", 21],
    ["deepseek", "pricing", 2],
    ["deepseek", "pricing-2026-06", 2],
    ["deepseek", "pricing-2025-12", 2],
  ])(
    "%s %s: every model both sources list has one id and one canonical model",
    async (provider, name, shared) => {
      const out = await official(provider, name);
      const both = out.deployments.filter((d) => communityById.has(d.id));
      expect(both).toHaveLength(shared);
      for (const d of both) expect(communityById.get(d.id)?.model_id).toBe(d.model_id);
    },
  );
});
