import { describe, expect, it } from "vitest";

import {
  anthropicIdentity,
  azureCanonicalModelId,
  azureIdentity,
  bedrockIdentity,
  googleIdentity,
  groqModelId,
  identifiedDeployment,
  identityOf,
  mistralAliasList,
  mistralIdentity,
  mistralIdentityWith,
  openaiIdentity,
  PROVIDER_IDENTITIES,
  togetherModelId,
  vertexIdentity,
} from "../../src/normalize/identity/index.js";
import { identityFor, canonicalModelId as litellmModelId } from "../../src/normalize/parsers/litellm.js";

describe("provider identity modules", () => {
  it("Bedrock: versioned, regional and community spellings of one model are one canonical id", () => {
    for (const id of [
      "meta.llama3-2-11b-instruct-v1:0",
      "us.meta.llama3-2-11b-instruct-v1:0",
      "meta.llama3-2-11b-instruct-v1",
    ])
      expect(bedrockIdentity.canonicalModelId(id)).toBe("meta/llama-3.2-11b-instruct");
    const cases: Array<[string, string]> = [
      ["cohere.command-r-v1:0", "cohere/command-r"],
      ["ai21.jamba-1-5-mini-v1:0", "ai21/jamba-1.5-mini"],
      ["amazon.nova-lite-v1:0", "amazon/nova-lite-v1"],
      ["amazon.nova-reel-v1:1", "amazon/nova-reel-v1-1"],
      ["openai.gpt-oss-120b-1:0", "openai/gpt-oss-120b"],
      ["nvidia.nemotron-nano-12b-v2", "nvidia/nemotron-nano-12b-v2"],
      // Claude 2 on Bedrock is Anthropic's claude-2.1 / claude-2.0, not one "claude"
      ["anthropic.claude-v2:1", "anthropic/claude-2.1"],
      ["anthropic.claude-v2", "anthropic/claude-2.0"],
      ["anthropic.claude-instant-v1", "anthropic/claude-instant-1.2"],
    ];
    for (const [id, model] of cases) expect(bedrockIdentity.canonicalModelId(id)).toBe(model);
    // an alias of the provider model id: one deployment, one model
    expect(bedrockIdentity.providerModelId("moonshotai.kimi-k2-thinking")).toBe("moonshot.kimi-k2-thinking");
    expect(bedrockIdentity.canonicalModelId("moonshotai.kimi-k2-thinking")).toBe(
      bedrockIdentity.canonicalModelId("moonshot.kimi-k2-thinking"),
    );
    expect(() => bedrockIdentity.canonicalModelId("claude")).toThrow(RangeError);
  });

  it("Azure: the gpt-3.5 and gpt-35 spellings and a version's parts are one model", () => {
    expect(azureIdentity.providerModelId("gpt-3.5-turbo-0125")).toBe("gpt-35-turbo-0125");
    expect(azureIdentity.canonicalModelId("gpt-3.5-turbo-0125")).toBe("openai/gpt-3.5-turbo-0125");
    expect(azureIdentity.canonicalModelId("gpt-35-turbo-0125")).toBe("openai/gpt-3.5-turbo-0125");
    expect(azureCanonicalModelId("gpt-35-turbo", "0125")).toBe("openai/gpt-3.5-turbo-0125");
    expect(azureCanonicalModelId("text-embedding-ada-002", "2")).toBe("openai/text-embedding-ada-002");
    // version 1 is an earlier model than the one OpenAI's API serves
    expect(azureCanonicalModelId("text-embedding-ada-002", "1")).toBe("openai/text-embedding-ada-002-v1");
    for (const [alias, id] of Object.entries(azureIdentity.aliases))
      expect(azureIdentity.providerModelId(alias)).toBe(id);
  });

  it("OpenAI: the API id is the model; moving aliases are not resolved statically", () => {
    expect(openaiIdentity.canonicalModelId("gpt-4o-2024-08-06")).toBe("openai/gpt-4o-2024-08-06");
    expect(openaiIdentity.canonicalModelId("gpt-4o")).toBe("openai/gpt-4o");
    expect(openaiIdentity.aliases).toEqual({});
  });

  it("Anthropic: a short name, a -latest or -0 alias and the dated id are one model", () => {
    for (const name of ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929"])
      expect(anthropicIdentity.canonicalModelId(name)).toBe("anthropic/claude-sonnet-4-5-20250929");
    expect(anthropicIdentity.canonicalModelId("claude-3-7-sonnet-latest")).toBe(
      "anthropic/claude-3-7-sonnet-20250219",
    );
    expect(anthropicIdentity.canonicalModelId("claude-opus-4-0")).toBe("anthropic/claude-opus-4-20250514");
    expect(anthropicIdentity.canonicalModelId("claude-opus-4-6")).toBe("anthropic/claude-opus-4-6");
    // LiteLLM's spellings of the same ids: words reordered, a date on an undated 4.6+ id
    expect(anthropicIdentity.providerModelId("claude-4-opus-20250514")).toBe("claude-opus-4-20250514");
    expect(anthropicIdentity.providerModelId("claude-opus-4-6-20260205")).toBe("claude-opus-4-6");
  });

  it("Google and Vertex: resource prefixes, @ versions, Claude and Mistral spellings", () => {
    expect(googleIdentity.canonicalModelId("models/gemini-2.5-pro")).toBe("google/gemini-2.5-pro");
    expect(googleIdentity.canonicalModelId("gemini-2.5-pro")).toBe("google/gemini-2.5-pro");
    expect(vertexIdentity.canonicalModelId("claude-3-5-sonnet-v2@20241022")).toBe(
      "anthropic/claude-3-5-sonnet-20241022",
    );
    expect(vertexIdentity.providerModelId("claude-sonnet-4-5")).toBe("claude-sonnet-4-5@20250929");
    expect(vertexIdentity.canonicalModelId("claude-sonnet-4-5")).toBe("anthropic/claude-sonnet-4-5-20250929");
    expect(vertexIdentity.providerModelId("mistralai/codestral-2")).toBe("codestral-2");
    expect(vertexIdentity.canonicalModelId("mistralai/codestral-2")).toBe("mistral/codestral-2");
    expect(vertexIdentity.canonicalModelId("multimodalembedding@001")).toBe("google/multimodalembedding-001");
    expect(vertexIdentity.canonicalModelId("deepseek-ai/deepseek-v3.2-maas")).toBe("deepseek/deepseek-v3.2");
  });

  it("an open model is one canonical model at every provider that serves it (Bedrock, Vertex, Groq, Together)", () => {
    const same: Array<[string, string[]]> = [
      [
        "openai/gpt-oss-120b",
        [
          bedrockIdentity.canonicalModelId("openai.gpt-oss-120b-1:0"),
          vertexIdentity.canonicalModelId("openai/gpt-oss-120b-maas"),
          groqModelId("openai/gpt-oss-120b") ?? "",
          togetherModelId("openai/gpt-oss-120b") ?? "",
        ],
      ],
      [
        "moonshot/kimi-k2-thinking",
        [
          bedrockIdentity.canonicalModelId("moonshot.kimi-k2-thinking"),
          bedrockIdentity.canonicalModelId("moonshotai.kimi-k2-thinking"),
          vertexIdentity.canonicalModelId("moonshotai/kimi-k2-thinking-maas"),
        ],
      ],
      [
        "moonshot/kimi-k2.5",
        [
          bedrockIdentity.canonicalModelId("moonshotai.kimi-k2.5"),
          togetherModelId("moonshotai/Kimi-K2.5") ?? "",
        ],
      ],
      [
        "meta/llama-4-scout-17b-16e-instruct",
        [
          vertexIdentity.canonicalModelId("meta/llama-4-scout-17b-16e-instruct-maas"),
          groqModelId("meta-llama/llama-4-scout-17b-16e-instruct") ?? "",
          togetherModelId("meta-llama/Llama-4-Scout-17B-16E-Instruct") ?? "",
        ],
      ],
      [
        "meta/llama-3-70b-instruct",
        [
          bedrockIdentity.canonicalModelId("meta.llama3-70b-instruct-v1:0"),
          vertexIdentity.canonicalModelId("meta/llama3-70b-instruct-maas"),
        ],
      ],
      [
        "qwen/qwen3-235b-a22b-instruct-2507",
        [
          bedrockIdentity.canonicalModelId("qwen.qwen3-235b-a22b-2507-v1:0"),
          vertexIdentity.canonicalModelId("qwen/qwen3-235b-a22b-instruct-2507-maas"),
          togetherModelId("Qwen/Qwen3-235B-A22B-Instruct-2507-tput") ?? "",
        ],
      ],
      // xAI's own API id (its models page), which Vertex spells grok-4.1-fast-...
      ["xai/grok-4-1-fast-reasoning", [vertexIdentity.canonicalModelId("xai/grok-4.1-fast-reasoning")]],
      [
        "zai/glm-4.7",
        [
          bedrockIdentity.canonicalModelId("zai.glm-4.7"),
          vertexIdentity.canonicalModelId("zai-org/glm-4.7-maas"),
          togetherModelId("zai-org/GLM-4.7") ?? "",
        ],
      ],
    ];
    for (const [model, ids] of same) expect(ids).toEqual(ids.map(() => model));
  });

  it("Mistral: LiteLLM's slug-shaped names are the model cards' API names", () => {
    expect(mistralIdentity.providerModelId("ministral-3-14b-2512")).toBe("ministral-14b-2512");
    expect(mistralIdentity.canonicalModelId("magistral-medium-1-2-2509")).toBe(
      "mistral/magistral-medium-2509",
    );
    expect(mistralIdentity.providerModelId("mistral-large-3")).toBe("mistral-large-2512");
    expect(
      mistralIdentityWith({ "mistral-small-latest": "mistral-small-2506" }).providerModelId(
        "mistral-small-3-2-2506",
      ),
    ).toBe("mistral-small-2506");
  });

  it("Mistral: the page's own -latest list resolves to the versioned id it points to", () => {
    const page = [
      "- `mistral-small-latest`: currently points to `mistral-small-2506`.",
      "- `codestral-latest`: currently points to `codestral-2508`",
      "Some prose about `mistral-large-latest`.",
    ].join("\n");
    const aliases = mistralAliasList(page);
    expect(aliases).toEqual({
      "mistral-small-latest": "mistral-small-2506",
      "codestral-latest": "codestral-2508",
    });
    const identity = mistralIdentityWith(aliases);
    expect(identity.canonicalModelId("mistral-small-latest")).toBe("mistral/mistral-small-2506");
    expect(identity.canonicalModelId("mistral-small-2506")).toBe("mistral/mistral-small-2506");
    expect(mistralIdentity.canonicalModelId("mistral-small-latest")).toBe("mistral/mistral-small-latest");
  });

  it("every provider's identity is found by its provider id, and a deployment is built from the resolved name", () => {
    for (const [provider, identity] of Object.entries(PROVIDER_IDENTITIES)) {
      expect(identity.providerId).toBe(provider);
      expect(identityOf(provider)).toBe(identity);
    }
    expect(identityOf("nobody")).toBeNull();
    expect(
      identifiedDeployment(anthropicIdentity, {
        provider_model_id: "claude-haiku-4-5",
        api_surface: "api",
        mode: "standard",
        region: "global",
      }),
    ).toMatchObject({
      id: "dep_anthropic_claude-haiku-4-5-20251001_api_global",
      model_id: "anthropic/claude-haiku-4-5-20251001",
      provider_model_id: "claude-haiku-4-5-20251001",
    });
  });

  it("the LiteLLM parser uses the same identities: its keys resolve to the official deployment and model", () => {
    const resolve = (key: string, provider: string) => {
      const r = identityFor(key, provider);
      if (!r.ok) throw new Error(r.reason);
      return [r.identity.provider_model_id, litellmModelId(r.identity), r.identity.aliased] as const;
    };
    expect(resolve("bedrock/us-west-2/meta.llama3-2-11b-instruct-v1:0", "bedrock")).toEqual([
      "meta.llama3-2-11b-instruct-v1:0",
      bedrockIdentity.canonicalModelId("meta.llama3-2-11b-instruct-v1:0"),
      false,
    ]);
    expect(resolve("azure/global/gpt-3.5-turbo-0125", "azure")).toEqual([
      "gpt-35-turbo-0125",
      "openai/gpt-3.5-turbo-0125",
      true,
    ]);
    expect(resolve("claude-4-sonnet-20250514", "anthropic")).toEqual([
      "claude-sonnet-4-20250514",
      "anthropic/claude-sonnet-4-20250514",
      true,
    ]);
    expect(resolve("claude-sonnet-4-5", "anthropic")).toEqual([
      "claude-sonnet-4-5-20250929",
      "anthropic/claude-sonnet-4-5-20250929",
      true,
    ]);
    expect(resolve("vertex_ai/mistralai/codestral-2", "vertex_ai-mistral_models")).toEqual([
      "codestral-2",
      "mistral/codestral-2",
      true,
    ]);
  });
});
