import { describe, expect, it } from "vitest";
import { tokenCount } from "../../src/normalize/helpers.js";
import { normalizeSource } from "../../src/normalize/index.js";
import { parsers as anthropicParsers } from "../../src/normalize/parsers/anthropic-model-facts.js";
import {
  parsers as azureParsers,
  describedCapabilities,
  modelVersions,
} from "../../src/normalize/parsers/azure-model-facts.js";
import { parsers as googleParsers } from "../../src/normalize/parsers/google-model-facts.js";
import { type ModelFact, ParseOutput } from "../../src/schema/index.js";
import { supported, unsupported } from "../helpers/capabilities.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const anthropic = defined(anthropicParsers["anthropic-model-facts"], "parser anthropic-model-facts");
const launchPage = defined(anthropicParsers["anthropic-launch-page"], "parser anthropic-launch-page");
const overview2024 = defined(
  anthropicParsers["anthropic-models-overview-2024"],
  "parser anthropic-models-overview-2024",
);
const google = defined(googleParsers["google-model-facts"], "parser google-model-facts");
const azure = defined(azureParsers["azure-model-facts"], "parser azure-model-facts");

/** Facts by provider model id, of one provider (the source's own unless named). */
function byId(facts: readonly ModelFact[] | undefined, provider?: string): Map<string, ModelFact> {
  const own = provider ?? facts?.[0]?.provider_id;
  return new Map(
    (facts ?? [])
      .filter((f) => f.modes === undefined && f.provider_id === own)
      .map((f) => [f.provider_model_id, f]),
  );
}

describe("official model facts create no deployments", () => {
  it.each([
    ["anthropic", "models-overview"],
    ["anthropic", "models-overview-2025"],
    ["anthropic", "models-overview-2024"],
    ["google", "models"],
    ["google", "embeddings"],
    ["azure", "models-azure-openai"],
    ["azure", "models-azure-openai-2026-01"],
    ["azure", "models-azure-openai-2025"],
    ["azure", "models-sold-by-azure-2026-09"],
  ])(
    "%s/%s yields model facts with official evidence: declared for its own provider, inferred for the Claude ids of Bedrock and Google Cloud",
    async (provider, name) => {
      const input = await recordedInput(provider, name);
      const out = normalizeSource(input);
      expect(out.deployments).toEqual([]);
      expect(out.lifecycle).toEqual([]);
      expect(out.model_facts?.length).toBeGreaterThan(0);
      for (const fact of out.model_facts ?? []) {
        const own = fact.provider_id === provider;
        if (!own) {
          expect(provider).toBe("anthropic");
          expect(["amazon-bedrock", "google-vertex"]).toContain(fact.provider_id);
        }
        expect(fact.evidence).toEqual({
          source_url: input.source.url,
          source_type: "official_docs",
          observed_at: input.observedAt,
          verification_status: own ? "official_declared" : "official_inferred",
        });
        for (const entry of Object.values(fact.capabilities ?? {}))
          expect(entry.verification_status).toBeDefined();
      }
    },
  );
});

describe("model facts about another provider", () => {
  it("an official source may state them only as official_inferred", async () => {
    const input = await recordedInput("anthropic", "models-overview");
    const withStatus = (verification_status: "official_declared" | "official_inferred") => ({
      [input.source.parser]: () => ({
        deployments: [],
        lifecycle: [],
        skipped: [],
        model_facts: [
          {
            provider_id: "amazon-bedrock",
            provider_model_id: "anthropic.claude-opus-5",
            context_tokens: 1_000_000,
            evidence: {
              source_url: input.source.url,
              source_type: "official_docs" as const,
              observed_at: input.observedAt,
              verification_status,
            },
          },
        ],
      }),
    });
    expect(normalizeSource(input, withStatus("official_inferred")).model_facts).toHaveLength(1);
    expectParseFailure(
      () => normalizeSource(input, withStatus("official_declared")),
      "models-overview: emitted a model fact about amazon-bedrock/anthropic.claude-opus-5, another",
    );
  });
});

describe("Claude models overview", () => {
  it("gives each model of the comparison table, by API id and alias, its context window, max output, thinking and vision", async () => {
    const out = ParseOutput.parse(anthropic(await recordedInput("anthropic", "models-overview")));
    const facts = byId(out.model_facts);
    expect([...facts.keys()].sort()).toEqual([
      "claude-fable-5",
      "claude-haiku-4-5",
      "claude-haiku-4-5-20251001",
      "claude-opus-5",
      "claude-sonnet-5",
    ]);
    expect(facts.get("claude-opus-5")).toMatchObject({
      context_tokens: 1_000_000,
      max_output_tokens: 128_000,
      capabilities: { reasoning: supported, vision: supported },
    });
    expect(facts.get("claude-haiku-4-5-20251001")).toMatchObject({
      context_tokens: 200_000,
      max_output_tokens: 64_000,
      capabilities: { reasoning: supported, vision: supported },
    });
    expect(facts.get("claude-haiku-4-5")).toEqual({
      ...facts.get("claude-haiku-4-5-20251001"),
      provider_model_id: "claude-haiku-4-5",
    });
  });

  it("gives the same limits to the column's AWS Bedrock and Google Cloud ids, marked official_inferred, with a glued footnote marker dropped", async () => {
    const out = ParseOutput.parse(anthropic(await recordedInput("anthropic", "models-overview")));
    const bedrock = byId(out.model_facts, "amazon-bedrock");
    const vertex = byId(out.model_facts, "google-vertex");
    // the page prints "anthropic.claude-fable-53": the id plus footnote 3
    expect([...bedrock.keys()].sort()).toEqual([
      "anthropic.claude-fable-5",
      "anthropic.claude-haiku-4-5-20251001-v1:0",
      "anthropic.claude-opus-5",
      "anthropic.claude-sonnet-5",
    ]);
    expect([...vertex.keys()].sort()).toEqual([
      "claude-fable-5",
      "claude-haiku-4-5@20251001",
      "claude-opus-5",
      "claude-sonnet-5",
    ]);
    expect(bedrock.get("anthropic.claude-opus-5")).toMatchObject({
      context_tokens: 1_000_000,
      max_output_tokens: 128_000,
      capabilities: {
        reasoning: { status: "supported", verification_status: "official_inferred" },
        vision: { status: "supported", verification_status: "official_inferred" },
      },
    });
  });

  it("reads every comparison table: the October 2025 page's legacy models too", async () => {
    const out = ParseOutput.parse(anthropic(await recordedInput("anthropic", "models-overview-2025")));
    const claude = byId(out.model_facts, "anthropic");
    expect(claude.get("claude-3-haiku-20240307")).toMatchObject({
      context_tokens: 200_000,
      max_output_tokens: 4_000,
    });
    expect(claude.get("claude-3-7-sonnet-20250219")?.max_output_tokens).toBe(64_000); // not the 128K beta
    expect(claude.has("claude-3-haiku-latest")).toBe(false); // "—": no alias
    expect(
      byId(out.model_facts, "amazon-bedrock").get("anthropic.claude-sonnet-4-5-20250929-v1:0"),
    ).toMatchObject({
      context_tokens: 200_000,
      max_output_tokens: 64_000,
    });
    expect(byId(out.model_facts, "google-vertex").get("claude-opus-4-1@20250805")?.max_output_tokens).toBe(
      32_000,
    );
  });

  it("reads the standard context window, not the beta one, and says nothing about vision when the page does not", async () => {
    const input = await recordedInput("anthropic", "models-overview");
    const out = anthropic(
      edit(input, (c) =>
        c
          .replace(/(\| \*\*Context window\*\* \| )[^|]*\|/, "$1200K tokens /   1M tokens (beta)3 |")
          .replace(
            "All current Claude models support text and image input, text output, multilingual capabilities, and vision.",
            "",
          ),
      ),
    );
    const fable = byId(out.model_facts).get("claude-fable-5");
    expect(fable?.context_tokens).toBe(200_000);
    expect(fable?.capabilities?.vision).toBeUndefined();
  });

  it("says reasoning is unsupported only when every thinking row says No", async () => {
    const input = await recordedInput("anthropic", "models-overview");
    const out = anthropic(
      edit(input, (c) => c.replace("| Yes (always on) | Yes | Yes | No |", "| No | No | Yes | No |")),
    );
    const facts = byId(out.model_facts);
    expect(facts.get("claude-fable-5")?.capabilities?.reasoning).toEqual(unsupported);
    expect(facts.get("claude-haiku-4-5")?.capabilities?.reasoning).toEqual(supported);
  });

  it("fails when the comparison table loses its Max output row", async () => {
    const input = await recordedInput("anthropic", "models-overview");
    expectParseFailure(
      () => anthropic(edit(input, (c) => c.replace("| **Max output** |", "| **Output** |"))),
      'models-overview: comparison table has no "max output" row',
    );
  });

  it("fails when a context window is not a size", async () => {
    const input = await recordedInput("anthropic", "models-overview");
    expectParseFailure(
      () => anthropic(edit(input, (c) => c.replace(/(\| \*\*Context window\*\* \| )[^|]*\|/, "$1large |"))),
      "models-overview: Claude Fable 5: context window or max output is not a token size",
    );
  });
});

describe("Claude models overview of 2024", () => {
  it("gives each column its API model name's limits and vision, and Claude 3's Bedrock and Vertex AI names the same, inferred", async () => {
    const out = ParseOutput.parse(overview2024(await recordedInput("anthropic", "models-overview-2024")));
    const claude = byId(out.model_facts, "anthropic");
    expect([...claude.keys()]).toEqual([
      "claude-3-opus-20240229",
      "claude-3-sonnet-20240229",
      "claude-3-haiku-20240307",
      "claude-2.1",
      "claude-2.0",
      "claude-instant-1.2",
    ]);
    expect(claude.get("claude-3-opus-20240229")).toMatchObject({
      context_tokens: 200_000, // "200K\*": the footnote marker is not part of the size
      max_output_tokens: 4_096,
      capabilities: { vision: supported },
      evidence: { verification_status: "official_declared" },
    });
    expect(claude.get("claude-2.0")).toMatchObject({
      context_tokens: 100_000,
      max_output_tokens: 4_096,
      capabilities: { vision: unsupported },
    });
    const inferred = { status: "supported", verification_status: "official_inferred" };
    const bedrock = byId(out.model_facts, "amazon-bedrock");
    expect([...bedrock.keys()]).toEqual([
      "anthropic.claude-3-opus-20240229-v1:0",
      "anthropic.claude-3-sonnet-20240229-v1:0",
      "anthropic.claude-3-haiku-20240307-v1:0",
    ]);
    expect(bedrock.get("anthropic.claude-3-sonnet-20240229-v1:0")).toMatchObject({
      context_tokens: 200_000,
      max_output_tokens: 4_096,
      capabilities: { vision: inferred },
      evidence: { verification_status: "official_inferred" },
    });
    const vertex = byId(out.model_facts, "google-vertex");
    expect([...vertex.keys()]).toEqual([
      "claude-3-opus@20240229",
      "claude-3-sonnet@20240229",
      "claude-3-haiku@20240307",
    ]);
  });

  it("fails when the names table's API model name is not the comparison table's, or a platform name is malformed", async () => {
    const input = await recordedInput("anthropic", "models-overview-2024");
    expect(
      expectParseFailure(
        () =>
          overview2024(
            edit(input, (c) =>
              c.replace(
                "| Claude 3 Opus | claude-3-opus-20240229 |",
                "| Claude 3 Opus | claude-3-opus-20240301 |",
              ),
            ),
          ),
        'models-overview-2024: Claude 3 Opus: the names table\'s API model name is "claude-3-opus-20240301",',
      ),
    ).toMatch(/Claude 3 Opus: the names table's API model name is "claude-3-opus-20240301"/);
    expect(
      expectParseFailure(
        () =>
          overview2024(edit(input, (c) => c.replace("| claude-3-sonnet@20240229 |", "| claude-3-sonnet |"))),
        'models-overview-2024: Claude 3 Sonnet: "claude-3-sonnet" is not a google-vertex Claude model id',
      ),
    ).toMatch(/"claude-3-sonnet" is not a google-vertex Claude model id/);
  });

  it("fails without the names table, without the Max output row, or when a context window is not a size", async () => {
    const input = await recordedInput("anthropic", "models-overview-2024");
    expectParseFailure(
      () => overview2024(edit(input, (c) => c.replace("| Latest AWS Bedrock model name |", "| Bedrock |"))),
      "models-overview-2024: expected a model names table (Latest AWS Bedrock model name) and a comparison",
    );
    expectParseFailure(
      () => overview2024(edit(input, (c) => c.replace("| Max output |", "| Output |"))),
      'models-overview-2024: comparison table has no "max output" row',
    );
    expectParseFailure(
      () =>
        overview2024(
          edit(input, (c) => c.replace("| Context window | 200K\\* |", "| Context window | large |")),
        ),
      "models-overview-2024: Claude 3 Opus: context window or max output is not a token size",
    );
  });
});

describe("Gemini API models page", () => {
  it("gives every model code and named version its token limits and stated capabilities", async () => {
    const out = ParseOutput.parse(google(await recordedInput("google", "models")));
    const facts = byId(out.model_facts);
    expect(facts.size).toBe(19);
    expect(facts.get("gemini-2.5-pro")).toEqual({
      provider_id: "google",
      provider_model_id: "gemini-2.5-pro",
      context_tokens: 1_048_576,
      max_output_tokens: 65_536,
      capabilities: {
        audio_output: unsupported,
        batch: supported,
        prompt_caching: supported,
        code_execution: supported,
        tool_calling: supported,
        image_output: unsupported,
        web_search: supported,
        structured_output: supported,
        reasoning: supported,
        vision: supported,
        video_input: supported,
        audio_input: supported,
        pdf_input: supported,
      },
      evidence: out.model_facts?.[0]?.evidence,
    });
    const tts = facts.get("gemini-2.5-flash-preview-tts");
    expect(tts).toMatchObject({ context_tokens: 8_192, max_output_tokens: 16_384 });
    expect(tts?.capabilities).toMatchObject({ audio_output: supported, tool_calling: unsupported });
    // input types the list leaves out stay unknown
    expect(tts?.capabilities?.vision).toBeUndefined();
    // "Thinking: Experimental" is conditional; versions named in the Versions row share the facts
    expect(facts.get("gemini-2.0-flash-001")?.capabilities?.reasoning).toEqual({
      status: "conditional",
      verification_status: "official_declared",
    });
    expect(facts.get("gemini-2.5-flash-native-audio-preview-09-2025")).toMatchObject({
      context_tokens: 131_072,
      max_output_tokens: 8_192,
    });
  });

  it("fails on a capability value it does not know", async () => {
    const input = await recordedInput("google", "models");
    expectParseFailure(
      () => google(edit(input, (c) => c.replace("**Batch API** Supported", "**Batch API** Maybe"))),
      'models: capability "Batch API" has the unknown value "Maybe"',
    );
  });

  it("fails on a capability it does not know rather than dropping it", async () => {
    const input = await recordedInput("google", "models");
    expectParseFailure(
      () => google(edit(input, (c) => c.replace("**Caching** Supported", "**Teleport** Supported"))),
      'models: gemini-3-pro-preview: unknown capability "Teleport"',
    );
  });

  it("fails when a model's token limits are missing", async () => {
    const input = await recordedInput("google", "models");
    expectParseFailure(
      () =>
        google(edit(input, (c) => c.replace("**Output token limit** 65,536", "**Output token limit** lots"))),
      'models: gemini-3-pro-preview: token limits "**Input token limit** 1,048,576 **Output token limit**',
    );
  });

  it("fails when the model details tables are gone", async () => {
    const input = await recordedInput("google", "models");
    expectParseFailure(
      () => google(edit(input, (c) => c.replaceAll("| Property | Description |", "| Key | Value |"))),
      "models: found no model details table (Property | Description)",
    );
  });
});

describe("Claude launch pages", () => {
  it("What's new in Claude Opus 4.7: the New model table's id gets the sentence's 1M window, 128k output and adaptive thinking", async () => {
    const out = ParseOutput.parse(launchPage(await recordedInput("anthropic", "whats-new-claude-4-7")));
    expect(out.deployments).toEqual([]);
    expect(out.model_facts).toEqual([
      expect.objectContaining({
        provider_id: "anthropic",
        provider_model_id: "claude-opus-4-7",
        context_tokens: 1_000_000,
        max_output_tokens: 128_000,
        capabilities: { reasoning: supported },
      }),
    ]);
  });

  it("Introducing Claude Fable 5 and Claude Mythos 5: the shared specs and supported features apply to both models", async () => {
    const out = ParseOutput.parse(
      launchPage(await recordedInput("anthropic", "introducing-claude-fable-5-and-claude-mythos-5")),
    );
    const facts = byId(out.model_facts);
    expect([...facts.keys()]).toEqual(["claude-fable-5", "claude-mythos-5"]);
    for (const fact of facts.values())
      expect(fact).toMatchObject({
        context_tokens: 1_000_000,
        max_output_tokens: 128_000,
        capabilities: { reasoning: supported, vision: supported, code_execution: supported },
      });
  });

  it("fails when a table of several models has no shared-specs statement, or the section states no limits", async () => {
    const fable = await recordedInput("anthropic", "introducing-claude-fable-5-and-claude-mythos-5");
    expectParseFailure(
      () => launchPage(edit(fable, (c) => c.replace("share the same specs", "differ in specs"))),
      "introducing-claude-fable-5-and-claude-mythos-5: 2 models in the table, but the section does not say",
    );
    const opus = await recordedInput("anthropic", "whats-new-claude-4-7");
    expectParseFailure(
      () => launchPage(edit(opus, (c) => c.replace("128k max output tokens", "long outputs"))),
      'whats-new-claude-4-7: the "New model" section states no context window and max output tokens',
    );
    expectParseFailure(
      () => launchPage(edit(opus, (c) => c.replace("`claude-opus-4-7`", "Opus"))),
      "whats-new-claude-4-7: the models table has a row without a `claude-…` API model ID",
    );
  });
});

describe("Gemini API per-model pages", () => {
  const conditional = { status: "conditional", verification_status: "official_declared" };
  async function factOf(name: string, id: string): Promise<ModelFact> {
    const out = ParseOutput.parse(google(await recordedInput("google", name)));
    expect((out.model_facts ?? []).map((f) => f.provider_model_id)).toEqual([id]);
    return defined(out.model_facts?.[0], id);
  }

  it("the rendered page (line breaks, linked labels, a Consumption options row): Gemini 3.5 Flash-Lite", async () => {
    const fact = await factOf("model-gemini-3-5-flash-lite", "gemini-3.5-flash-lite");
    expect(fact.context_tokens).toBe(1_048_576);
    expect(fact.max_output_tokens).toBe(65_536);
    expect(fact.capabilities).toEqual({
      audio_output: unsupported,
      prompt_caching: supported,
      code_execution: supported,
      computer_use: conditional, // "Supported (Preview)"
      tool_calling: supported,
      image_output: unsupported,
      web_search: supported,
      structured_output: supported,
      reasoning: supported,
      batch: supported, // from the Consumption options row
      vision: supported,
      video_input: supported,
      audio_input: supported,
      pdf_input: supported,
    });
  });

  it("the rendered page of the older layout (Batch API among the capabilities, no Consumption options): Gemini Robotics-ER 1.5 Preview", async () => {
    const fact = await factOf("model-gemini-robotics-er-1-5-preview", "gemini-robotics-er-1.5-preview");
    expect(fact.context_tokens).toBe(1_048_576);
    expect(fact.max_output_tokens).toBe(65_536);
    expect(fact.capabilities).toEqual({
      audio_output: unsupported,
      batch: unsupported,
      prompt_caching: unsupported,
      code_execution: supported,
      tool_calling: supported,
      image_output: unsupported,
      web_search: supported,
      structured_output: supported,
      reasoning: supported,
      vision: supported,
      video_input: supported,
      audio_input: supported,
    });
  });

  it("the Markdown page with Flex and Priority inference among the capabilities: Gemini 3.1 Flash-Lite", async () => {
    const fact = await factOf("model-gemini-3-1-flash-lite", "gemini-3.1-flash-lite");
    expect(fact.context_tokens).toBe(1_048_576);
    expect(fact.max_output_tokens).toBe(65_536);
    expect(fact.capabilities?.computer_use).toEqual(unsupported);
    expect(fact.capabilities?.batch).toEqual(supported);
  });

  it("a page whose Versions row names a second endpoint gives it the same facts: Gemini 3.1 Pro Preview and its customtools endpoint", async () => {
    const out = ParseOutput.parse(google(await recordedInput("google", "model-gemini-3-1-pro-preview")));
    const facts = byId(out.model_facts);
    expect([...facts.keys()]).toEqual(["gemini-3.1-pro-preview", "gemini-3.1-pro-preview-customtools"]);
    for (const fact of facts.values()) {
      expect([fact.context_tokens, fact.max_output_tokens]).toEqual([1_048_576, 65_536]);
      expect(fact.capabilities).toMatchObject({
        batch: supported,
        reasoning: supported,
        image_output: unsupported,
      });
    }
  });

  it("an image model's smaller limits and its image output: Gemini 3.1 Flash Image Preview", async () => {
    const fact = await factOf("model-gemini-3-1-flash-image-preview", "gemini-3.1-flash-image-preview");
    expect([fact.context_tokens, fact.max_output_tokens]).toEqual([131_072, 32_768]);
    expect(fact.capabilities).toMatchObject({
      image_output: supported,
      tool_calling: unsupported,
      structured_output: unsupported,
      vision: supported,
      pdf_input: supported,
    });
    expect(fact.capabilities?.video_input).toBeUndefined(); // not among its input types: unknown
  });

  it("the preview page of a model whose stable page is recorded too: Gemini 3.1 Flash-Lite Preview", async () => {
    const fact = await factOf("model-gemini-3-1-flash-lite-preview", "gemini-3.1-flash-lite-preview");
    expect([fact.context_tokens, fact.max_output_tokens]).toEqual([1_048_576, 65_536]);
    expect(fact.capabilities?.computer_use).toEqual(unsupported);
    expect(fact.evidence.observed_at).toBe("2026-03-01T00:00:00Z");
  });

  it("the Embeddings page: input token limits, no max output (an output dimension size is none), input types as capabilities", async () => {
    const out = ParseOutput.parse(google(await recordedInput("google", "embeddings")));
    const facts = byId(out.model_facts);
    expect([...facts.keys()]).toEqual(["gemini-embedding-2", "gemini-embedding-001"]);
    expect(facts.get("gemini-embedding-2")).toMatchObject({
      context_tokens: 8_192,
      capabilities: {
        vision: supported,
        video_input: supported,
        audio_input: supported,
        pdf_input: supported,
      },
    });
    expect(facts.get("gemini-embedding-001")?.context_tokens).toBe(2_048);
    for (const fact of facts.values()) expect(fact.max_output_tokens).toBeUndefined();
    expect(facts.get("gemini-embedding-001")?.capabilities).toBeUndefined(); // text input only: nothing to state
  });

  it("fails on a table without an output token limit that is not an embedding model's", async () => {
    const input = await recordedInput("google", "embeddings");
    expectParseFailure(
      () =>
        google(
          edit(input, (c) =>
            c.replace("**Output** Text embeddings |\n| Token limits", "**Output** Text |\n| Token limits"),
          ),
        ),
      'embeddings: gemini-embedding-2: token limits "**Input token limit** 8,192 **Output dimension size**',
    );
  });

  it("the rendered page with relative links and no line breaks: Gemini 3.1 Flash Image, an image model that thinks", async () => {
    const fact = await factOf("model-gemini-3-1-flash-image", "gemini-3.1-flash-image");
    expect(fact.context_tokens).toBe(131_072);
    expect(fact.max_output_tokens).toBe(32_768);
    expect(fact.capabilities).toEqual({
      audio_output: unsupported,
      prompt_caching: unsupported,
      code_execution: unsupported,
      tool_calling: unsupported,
      image_output: supported,
      web_search: supported,
      structured_output: unsupported,
      reasoning: supported,
      batch: supported,
      vision: supported, // "Text and Image / PDF"
      pdf_input: supported,
    });
  });

  it("the page's text rendering (a docs search copy): Gemini 3.6 Flash reads exactly as the table form of 3.5 Flash-Lite, which states the same values", async () => {
    const fact = await factOf("model-gemini-3-6-flash", "gemini-3.6-flash");
    const table = await factOf("model-gemini-3-5-flash-lite", "gemini-3.5-flash-lite");
    expect(fact.context_tokens).toBe(1_048_576);
    expect(fact.max_output_tokens).toBe(65_536);
    expect(Object.keys(fact.capabilities ?? {})).toHaveLength(14);
    expect(fact.capabilities).toEqual(table.capabilities);
  });

  it("reads thinking levels as supported and skips the note under them: Gemini 3.7 Flash", async () => {
    const fact = await factOf("model-gemini-3-7-flash", "gemini-3.7-flash");
    expect(fact.context_tokens).toBe(1_048_576);
    expect(fact.max_output_tokens).toBe(65_536);
    expect(fact.capabilities?.reasoning).toEqual(supported); // "Supported (low, medium, high)"
    expect(fact.capabilities?.web_search).toEqual(supported); // the label after the "Note: ..." line
  });

  it("gives the text rendering's facts to every id its Versions bullets name: Gemini 3.5 Flash", async () => {
    const out = ParseOutput.parse(google(await recordedInput("google", "model-gemini-3-5-flash")));
    const facts = byId(out.model_facts);
    expect([...facts.keys()]).toEqual(["gemini-3.5-flash", "gemini-3-flash-preview"]);
    expect(facts.get("gemini-3-flash-preview")).toMatchObject({
      context_tokens: 1_048_576,
      max_output_tokens: 65_536,
      capabilities: { computer_use: unsupported, batch: supported },
    });
  });

  it("reads a version's label as the status the page declares for it, in the table and in the text rendering", async () => {
    const table = byId(ParseOutput.parse(google(await recordedInput("google", "models"))).model_facts);
    expect(table.get("gemini-2.5-flash-native-audio-preview-09-2025")?.status).toBe("preview");
    expect(table.get("gemini-2.5-flash-preview-09-2025")?.status).toBe("preview");
    expect(table.get("gemini-2.0-flash-001")?.status).toBe("available"); // "Stable:"
    expect(table.get("gemini-2.5-flash-image-preview")?.status).toBe("deprecated");
    expect(table.get("gemini-2.0-flash-exp")?.status).toBe("preview"); // "Experimental:"
    // "Latest: `gemini-2.0-flash`" (an alias) and a model code without a label declare none
    expect(table.get("gemini-2.0-flash")?.status).toBeUndefined();
    const text = byId(
      ParseOutput.parse(google(await recordedInput("google", "model-gemini-3-5-flash"))).model_facts,
    );
    expect(text.get("gemini-3-flash-preview")?.status).toBe("preview");
  });

  it("Live and TTS previews: their own limits, audio output, silence on unlisted input types", async () => {
    const live = await factOf("model-gemini-3-1-flash-live-preview", "gemini-3.1-flash-live-preview");
    expect([live.context_tokens, live.max_output_tokens]).toEqual([131_072, 65_536]);
    expect(live.capabilities).toMatchObject({
      audio_output: supported,
      audio_input: supported,
      batch: unsupported,
    });
    expect(live.capabilities?.video_input).toBeUndefined(); // "Text, images, audio"
    const tts = await factOf("model-gemini-3-1-flash-tts-preview", "gemini-3.1-flash-tts-preview");
    expect([tts.context_tokens, tts.max_output_tokens]).toEqual([8_192, 16_384]);
    expect(tts.capabilities).toMatchObject({
      audio_output: supported,
      reasoning: unsupported,
      batch: supported,
    });
    expect(tts.capabilities?.vision).toBeUndefined();
  });

  it("fails on a text rendering whose labels and values do not pair up, or on a line outside any property", async () => {
    const input = await recordedInput("google", "model-gemini-3-6-flash");
    expectParseFailure(
      () => google(edit(input, (c) => c.replace("Caching\n\nSupported\n\n", "Caching\n\n"))),
      'model-gemini-3-6-flash: gemini-3.6-flash: "capabilities" is not label / value pairs: Audio',
    );
    expectParseFailure(
      () =>
        google(
          edit(input, (c) =>
            c.replace("Model code gemini-3.6-flash\n", "Model code gemini-3.6-flash\nStray line\n"),
          ),
        ),
      'model-gemini-3-6-flash: line "Stray line" of the model details under "gemini-3.6-flash" belongs to no property',
    );
    expectParseFailure(
      () =>
        google(edit(input, (c) => c.replace("Thinking\n\nSupported", "Thinking\n\nSupported (sometimes)"))),
      'model-gemini-3-6-flash: capability "Thinking" has the unknown value "Supported (sometimes)"',
    );
  });

  it("fails on a consumption option value it does not know", async () => {
    const input = await recordedInput("google", "model-gemini-3-5-flash-lite");
    expectParseFailure(
      () =>
        google(
          edit(input, (c) =>
            c.replace(
              "Batch API](https://ai.google.dev/gemini-api/docs/batch-api)**<br>Supported",
              "Batch API](https://ai.google.dev/gemini-api/docs/batch-api)**<br>Soon",
            ),
          ),
        ),
      'model-gemini-3-5-flash-lite: capability "Batch API" has the unknown value "Soon"',
    );
  });
});

describe("Azure OpenAI models sold directly by Azure", () => {
  it("gives every model version its context window, max output and described capabilities", async () => {
    const out = ParseOutput.parse(azure(await recordedInput("azure", "models-azure-openai-2026-01")));
    const facts = byId(out.model_facts);
    expect(facts.size).toBe(62);
    expect(facts.get("gpt-5-2025-08-07")).toMatchObject({
      context_tokens: 400_000,
      max_output_tokens: 128_000,
      capabilities: {
        reasoning: supported,
        structured_output: supported,
        vision: supported,
        tool_calling: supported,
        parallel_tool_calling: supported,
      },
    });
    // Max request "Input: 200,000 Output: 100,000"
    expect(facts.get("o3-2025-04-16")).toMatchObject({ context_tokens: 200_000, max_output_tokens: 100_000 });
    // one row naming four models; a request limit without an output limit; counter versions
    expect(facts.get("gpt-audio-mini-2025-10-06")).toMatchObject({
      context_tokens: 28_672,
      max_output_tokens: 4_096,
      capabilities: { audio_input: supported },
    });
    expect(facts.get("gpt-4o-audio-preview-2024-12-17")?.capabilities).toEqual({ audio_output: supported });
    // the January 2026 version of the page adds GPT-5.2 and drops GPT-3.5
    expect(facts.get("gpt-5.2-2025-12-11")).toMatchObject({
      context_tokens: 400_000,
      max_output_tokens: 128_000,
    });
    expect(facts.get("gpt-5.2-chat-2025-12-11")).toMatchObject({
      context_tokens: 128_000,
      max_output_tokens: 16_384,
    });
    expect(facts.has("gpt-35-turbo-0125")).toBe(false);
    // a max request without an output limit
    expect(facts.get("text-embedding-ada-002-2")?.context_tokens).toBe(8_192);
    expect(facts.get("text-embedding-ada-002-2")?.max_output_tokens).toBeUndefined();
    expect(facts.get("gpt-4-turbo-2024-04-09")?.context_tokens).toBe(128_000);
    // "(Preview)" is no version; "Text in/text out only" is no vision
    expect(facts.get("gpt-oss-120b")?.capabilities?.vision).toEqual(unsupported);
    // no bare name gets a versioned row's facts
    expect(facts.has("gpt-5")).toBe(false);
  });

  it("marks a row without a version version_unstated, for the release to match to the one listed version", async () => {
    const facts = byId(azure(await recordedInput("azure", "models-azure-openai-2026-01")).model_facts);
    // the embeddings table names text-embedding-3-large / -small without a version
    expect(facts.get("text-embedding-3-large")).toMatchObject({
      context_tokens: 8_192,
      version_unstated: true,
    });
    expect(facts.get("text-embedding-3-large")?.max_output_tokens).toBeUndefined();
    expect(facts.get("text-embedding-3-small")).toMatchObject({
      context_tokens: 8_192,
      version_unstated: true,
    });
    // "(version 2)" is a version
    expect(facts.get("text-embedding-ada-002-2")?.version_unstated).toBeUndefined();
    expect(facts.get("gpt-5-2025-08-07")?.version_unstated).toBeUndefined();
    expect(facts.get("gpt-oss-120b")?.version_unstated).toBe(true);
  });

  it("gives the models of the Audio API, image and video tables the capability of their section, official_inferred, and no limits", async () => {
    const facts = byId(azure(await recordedInput("azure", "models-azure-openai-2026-01")).model_facts);
    const inferred = { status: "supported", verification_status: "official_inferred" };
    const only = (id: string) => {
      const f = facts.get(id);
      return { capabilities: f?.capabilities, limits: [f?.context_tokens, f?.max_output_tokens] };
    };
    // whisper is in the speech-to-text and the speech translation tables: one fact
    expect(only("whisper")).toEqual({
      capabilities: { audio_input: inferred },
      limits: [undefined, undefined],
    });
    expect(only("gpt-4o-mini-transcribe-2025-12-15").capabilities).toEqual({ audio_input: inferred });
    expect(only("gpt-4o-transcribe-diarize").capabilities).toEqual({ audio_input: inferred });
    expect(only("tts-hd")).toEqual({
      capabilities: { audio_output: inferred },
      limits: [undefined, undefined],
    });
    expect(only("gpt-4o-mini-tts-2025-12-15").capabilities).toEqual({ audio_output: inferred });
    // "Max request (characters)" is no token limit
    expect(only("gpt-image-1.5")).toEqual({
      capabilities: { image_output: inferred },
      limits: [undefined, undefined],
    });
    // the video table names sora without code ticks
    expect(facts.get("sora")).toMatchObject({
      capabilities: { video_output: inferred },
      version_unstated: true,
    });
    expect(facts.has("sora-2")).toBe(false);
  });

  it("June 2026 (the file's new path): GPT-5.5, GPT-5.4, GPT-5.3 and gpt-chat-latest with their limits and capabilities", async () => {
    const input = await recordedInput("azure", "models-azure-openai");
    const out = ParseOutput.parse(azure(input));
    const facts = byId(out.model_facts);
    expect(input.observedAt).toBe("2026-06-11T00:00:00Z");
    expect(facts.get("gpt-5.5-2026-04-24")).toEqual({
      provider_id: "azure",
      provider_model_id: "gpt-5.5-2026-04-24",
      context_tokens: 1_050_000,
      max_output_tokens: 128_000,
      capabilities: {
        reasoning: supported,
        structured_output: supported,
        vision: supported,
        tool_calling: supported,
        parallel_tool_calling: supported,
        // a bullet "[Computer use](...)"
        computer_use: supported,
      },
      evidence: {
        source_url: input.source.url,
        source_type: "official_docs",
        observed_at: "2026-06-11T00:00:00Z",
        verification_status: "official_declared",
      },
    });
    expect(facts.get("gpt-5.4-2026-03-05")).toMatchObject({
      context_tokens: 1_050_000,
      max_output_tokens: 128_000,
    });
    // "Functions & tools", no structured outputs, no parallel tool calling, no computer use
    expect(facts.get("gpt-5.4-pro-2026-03-05")?.capabilities).toEqual({
      reasoning: supported,
      vision: supported,
      tool_calling: supported,
    });
    expect(facts.get("gpt-5.4-mini-2026-03-17")).toMatchObject({
      context_tokens: 400_000,
      max_output_tokens: 128_000,
      capabilities: { computer_use: supported },
    });
    expect(facts.get("gpt-5.4-nano-2026-03-17")?.capabilities?.computer_use).toBeUndefined();
    expect(facts.get("gpt-5.3-codex-2026-02-24")).toMatchObject({
      context_tokens: 400_000,
      max_output_tokens: 128_000,
      capabilities: { reasoning: supported, vision: supported, parallel_tool_calling: supported },
    });
    expect(facts.get("gpt-5.3-chat-2026-03-03")).toMatchObject({
      context_tokens: 128_000,
      max_output_tokens: 16_384,
    });
    expect(facts.get("gpt-5.3-chat-2026-03-03")?.capabilities?.vision).toBeUndefined();
    for (const id of ["gpt-chat-latest-2026-05-05", "gpt-chat-latest-2026-05-28", "gpt-5.2-chat-2026-02-10"])
      expect(facts.get(id)).toMatchObject({ context_tokens: 128_000, max_output_tokens: 16_384 });
    // a <sup> footnote mark between the model and its version: still gpt-4 turbo-2024-04-09
    expect(facts.get("gpt-4-turbo-2024-04-09")).toMatchObject({
      context_tokens: 128_000,
      max_output_tokens: 4_096,
    });
    expect(facts.has("gpt-4")).toBe(false);
    expect(facts.get("o1-mini-2024-09-12")).toMatchObject({
      context_tokens: 128_000,
      max_output_tokens: 65_536,
    });
    // "Audio models for real-time audio processing." (plural)
    expect(facts.get("gpt-realtime-2.1-mini-2026-07-07")).toMatchObject({
      context_tokens: 32_000,
      max_output_tokens: 4_096,
      capabilities: { audio_input: supported },
    });
    expect(facts.get("gpt-4o-realtime-preview-2024-12-17")?.context_tokens).toBe(16_000);
    expect(facts.get("gpt-realtime-mini-2025-12-15")?.context_tokens).toBe(32_000);
    // the speech tables now give versions
    const inferred = { status: "supported", verification_status: "official_inferred" };
    expect(facts.get("gpt-4o-transcribe-2025-03-20")?.capabilities).toEqual({ audio_input: inferred });
    expect(facts.get("gpt-4o-mini-tts-2025-12-15")?.capabilities).toEqual({ audio_output: inferred });
    // dall-e-3 is gone from the image table (models-azure-openai-2026-01 keeps it)
    expect(facts.has("dall-e-3")).toBe(false);
    expect(facts.size).toBe(76);
  });

  it("June 2026: a malformed limit (gpt-audio's 'Input: 128,00') is unknown (null), never corrected", async () => {
    const out = azure(await recordedInput("azure", "models-azure-openai"));
    const facts = byId(out.model_facts);
    for (const id of ["gpt-audio-2025-08-28", "gpt-audio-mini-2025-10-06"])
      expect(facts.get(id)).toMatchObject({
        context_tokens: null,
        max_output_tokens: 16_384,
        capabilities: { audio_output: supported },
      });
    expect(out.skipped).toContainEqual({
      reason: "malformed number (limit unknown)",
      count: 1,
      examples: ["gpt-audio-2025-08-28, gpt-audio-mini-2025-10-06: Input: 128,00"],
    });
    // any other text that is not a size still fails
    const input = await recordedInput("azure", "models-azure-openai");
    expectParseFailure(
      () => azure(edit(input, (c) => c.replace("Input: 128,00 ", "Input: about 128k "))),
      'models-azure-openai: gpt-audio-2025-08-28, gpt-audio-mini-2025-10-06: max request "Input: about',
    );
  });

  it("June 2026: GPT-4.1's window for standard deployments and for batch deployments name their modes", async () => {
    const out = azure(await recordedInput("azure", "models-azure-openai"));
    for (const id of ["gpt-4.1-2025-04-14", "gpt-4.1-mini-2025-04-14", "gpt-4.1-nano-2025-04-14"]) {
      const gpt41 = (out.model_facts ?? []).filter((f) => f.provider_model_id === id);
      expect(gpt41.map((f) => [f.modes ?? null, f.context_tokens, f.max_output_tokens])).toEqual([
        [null, 1_047_576, 32_768],
        [["global-standard", "data-zone-standard", "standard"], 300_000, undefined],
        [["global-batch", "data-zone-batch"], 128_000, undefined],
      ]);
    }
    expect(out.skipped).toContainEqual({
      reason: "context window for provisioned managed deployments (no such deployments)",
      count: 3,
      examples: ["gpt-4.1-2025-04-14", "gpt-4.1-nano-2025-04-14", "gpt-4.1-mini-2025-04-14"],
    });
    // a deployment kind the parser does not know fails the source
    const input = await recordedInput("azure", "models-azure-openai");
    expectParseFailure(
      () =>
        azure(
          edit(input, (c) => c.replace("300,000 (standard deployments)", "300,000 (developer deployments)")),
        ),
      'models-azure-openai: gpt-4.1-2025-04-14: context window for "developer" deployments is not a known kind',
    );
  });

  it("reads GPT-3.5's max request from the October 2025 page, which the January 2026 one no longer has", async () => {
    const out = ParseOutput.parse(azure(await recordedInput("azure", "models-azure-openai-2025")));
    const facts = byId(out.model_facts);
    expect([...facts.keys()]).toEqual([
      "gpt-35-turbo-0125",
      "gpt-35-turbo-1106",
      "gpt-35-turbo-instruct-0914",
    ]);
    for (const id of ["gpt-35-turbo-0125", "gpt-35-turbo-1106"])
      expect(facts.get(id)).toMatchObject({
        context_tokens: 16_385,
        max_output_tokens: 4_096,
        capabilities: { tool_calling: supported, parallel_tool_calling: supported },
      });
    // a single request limit: the context, no output limit
    expect(facts.get("gpt-35-turbo-instruct-0914")?.context_tokens).toBe(4_097);
    expect(facts.get("gpt-35-turbo-instruct-0914")?.max_output_tokens).toBeUndefined();
    expect(out.model_facts?.every((f) => f.evidence.observed_at === "2025-10-17T00:00:00Z")).toBe(true);
  });

  it("gives batch deployments of GPT-4.1 their own context window and skips provisioned ones", async () => {
    const out = azure(await recordedInput("azure", "models-azure-openai-2026-01"));
    const gpt41 = (out.model_facts ?? []).filter((f) => f.provider_model_id === "gpt-4.1-2025-04-14");
    expect(gpt41.map((f) => [f.modes ?? null, f.context_tokens])).toEqual([
      [null, 1_047_576],
      [["global-batch", "data-zone-batch"], 300_000],
    ]);
    expect(gpt41[0]?.capabilities?.structured_output).toEqual({
      status: "conditional",
      verification_status: "official_declared",
    });
    expect(out.skipped).toEqual([
      {
        reason: "context window for provisioned managed deployments (no such deployments)",
        count: 3,
        examples: ["gpt-4.1-2025-04-14", "gpt-4.1-nano-2025-04-14", "gpt-4.1-mini-2025-04-14"],
      },
    ]);
  });

  it("fails when a context window is not a size", async () => {
    const input = await recordedInput("azure", "models-azure-openai-2026-01");
    expectParseFailure(
      () => azure(edit(input, (c) => c.replace("| 8,192 | 1,024 |", "| about 8k | 1,024 |"))),
      'models-azure-openai-2026-01: computer-use-preview-2025-03-11: context window "about 8k" is not a size',
    );
  });

  it("fails when a max request cell is not Input / Output", async () => {
    const input = await recordedInput("azure", "models-azure-openai-2026-01");
    expectParseFailure(
      () => azure(edit(input, (c) => c.replace("Input: 128,000  <br> Output: 32,768", "Up to 128,000 in"))),
      'models-azure-openai-2026-01: o1-preview-2024-09-12: max request "Up to 128,000 in" is not "Input:',
    );
  });

  it("fails when the model tables are gone", async () => {
    const input = await recordedInput("azure", "models-azure-openai-2026-01");
    expectParseFailure(
      () => azure(edit(input, (c) => c.replaceAll("Model ID", "Name"))),
      "models-azure-openai-2026-01: found no model table (Model ID | ...)",
    );
  });

  it("reads model ids with their versions and capabilities from description bullets", () => {
    expect(modelVersions("`gpt-realtime` (2025-08-28) (GA)<br>`gpt-audio`(2025-08-28)")).toEqual([
      { name: "gpt-realtime", version: "2025-08-28" },
      { name: "gpt-audio", version: "2025-08-28" },
    ]);
    expect(modelVersions("`text-embedding-ada-002` (version 2)")).toEqual([
      { name: "text-embedding-ada-002", version: "2" },
    ]);
    expect(modelVersions("`gpt-oss-20b` (Preview)")).toEqual([{ name: "gpt-oss-20b", version: null }]);
    // a footnote mark between name and version (June 2026)
    expect(modelVersions("`o1-mini`<sup>2</sup> (2024-09-12)")).toEqual([
      { name: "o1-mini", version: "2024-09-12" },
    ]);
    // a bare name without code ticks, but never a sentence
    expect(modelVersions(" sora ")).toEqual([{ name: "sora", version: null }]);
    expect(modelVersions("New generally available model.")).toEqual([]);
    expect(describedCapabilities("- JSON Mode. <br> - Parallel function calling.")).toEqual({
      tool_calling: supported,
      parallel_tool_calling: supported,
    });
    expect(describedCapabilities("Older preview version.")).toEqual({});
    expect(describedCapabilities("Audio model for audio and text generation.")).toEqual({
      audio_output: supported,
    });
    expect(describedCapabilities("Audio model for real-time audio processing.")).toEqual({
      audio_input: supported,
    });
  });
});

describe("token counts", () => {
  it("reads the sizes the models pages print", () => {
    expect(tokenCount("1,048,576")).toBe(1_048_576);
    expect(tokenCount("200K tokens")).toBe(200_000);
    expect(tokenCount("1M tokens")).toBe(1_000_000);
    expect(tokenCount("64k")).toBe(64_000);
    expect(tokenCount("lots")).toBeNull();
    expect(tokenCount("0")).toBeNull();
  });
});

describe("Claude model reference pages", () => {
  const evidenceOf = (
    input: { source: { url: string }; observedAt: string },
    verification_status: string,
  ) => ({
    source_url: input.source.url,
    source_type: "official_docs",
    observed_at: input.observedAt,
    verification_status,
  });

  // recorded copies of the page's opening only: the Claude API id's limits, nothing more
  it.each([
    ["model-sonnet-4-5", "claude-sonnet-4-5-20250929", 200_000, 64_000, "2025-09-29"],
    ["model-fable-5-1", "claude-fable-5-1", 1_000_000, 128_000, "2026-09-01"],
  ])(
    "%s gives %s its context window, max output and the day it was released",
    async (name, id, context, output, released) => {
      const input = await recordedInput("anthropic", name);
      const out = normalizeSource(input);
      expect(out.deployments).toEqual([]);
      expect(out.model_facts).toEqual([
        {
          provider_id: "anthropic",
          provider_model_id: id,
          context_tokens: context,
          max_output_tokens: output,
          released_at: released,
          evidence: evidenceOf(input, "official_declared"),
        },
      ]);
    },
  );

  it("reads no release day from a page whose status line states none", async () => {
    const page = defined(anthropicParsers["anthropic-model-page"], "parser anthropic-model-page");
    const input = await recordedInput("anthropic", "model-sonnet-4-5");
    const [fact] = page(edit(input, (c) => c.replace("Released September 29, 2025.", ""))).model_facts ?? [];
    expect(fact?.provider_model_id).toBe("claude-sonnet-4-5-20250929");
    expect(fact?.released_at).toBeUndefined();
  });

  // recorded copies with the Specifications' Model IDs and Capabilities tables (excerpts of the
  // English pages in the public mirror gpambrozio/ClaudeDocs, see each CURRENT.json): the Claude
  // API id's limits, thinking and vision, and the same, official_inferred, for the model's
  // Amazon Bedrock and Google Cloud ids
  it.each([
    [
      "model-opus-4-8",
      "claude-opus-4-8",
      "anthropic.claude-opus-4-8",
      "claude-opus-4-8",
      1_000_000,
      128_000,
      "2026-05-28",
    ],
    [
      "model-opus-4-6",
      "claude-opus-4-6",
      "anthropic.claude-opus-4-6-v1",
      "claude-opus-4-6",
      1_000_000,
      128_000,
      "2026-02-05",
    ],
    [
      "model-opus-4-5",
      "claude-opus-4-5-20251101",
      "anthropic.claude-opus-4-5-20251101-v1:0",
      "claude-opus-4-5@20251101",
      200_000,
      64_000,
      "2025-11-24",
    ],
    [
      "model-sonnet-4-6",
      "claude-sonnet-4-6",
      "anthropic.claude-sonnet-4-6",
      "claude-sonnet-4-6",
      1_000_000,
      128_000,
      "2026-02-17",
    ],
    [
      "model-opus-4-7",
      "claude-opus-4-7",
      "anthropic.claude-opus-4-7",
      "claude-opus-4-7",
      1_000_000,
      128_000,
      "2026-04-16",
    ],
    [
      "model-opus-5-5",
      "claude-opus-5-5",
      "anthropic.claude-opus-5-5",
      "claude-opus-5-5",
      1_000_000,
      128_000,
      "2026-09-22",
    ],
    [
      "model-mythos-5-1",
      "claude-mythos-5-1",
      "anthropic.claude-mythos-5-1",
      "claude-mythos-5-1",
      1_000_000,
      128_000,
      "2026-09-01",
    ],
  ])(
    "%s gives %s, Bedrock's %s and Google Cloud's %s their limits, thinking and vision (its release day to the Claude API id only)",
    async (name, id, bedrockId, vertexId, context, output, released) => {
      const input = await recordedInput("anthropic", name);
      const out = normalizeSource(input);
      const declared = { status: "supported", verification_status: "official_declared" };
      const inferred = { status: "supported", verification_status: "official_inferred" };
      const limits = { context_tokens: context, max_output_tokens: output };
      expect(out.deployments).toEqual([]);
      expect(out.model_facts).toEqual([
        {
          provider_id: "anthropic",
          provider_model_id: id,
          ...limits,
          capabilities: { reasoning: declared, vision: declared },
          released_at: released,
          evidence: evidenceOf(input, "official_declared"),
        },
        {
          provider_id: "amazon-bedrock",
          provider_model_id: bedrockId,
          ...limits,
          capabilities: { reasoning: inferred, vision: inferred },
          evidence: evidenceOf(input, "official_inferred"),
        },
        {
          provider_id: "google-vertex",
          provider_model_id: vertexId,
          ...limits,
          capabilities: { reasoning: inferred, vision: inferred },
          evidence: evidenceOf(input, "official_inferred"),
        },
      ]);
    },
  );

  it("fails without a Model ID line or with a specs line that gives no sizes", async () => {
    const page = defined(anthropicParsers["anthropic-model-page"], "parser anthropic-model-page");
    const input = await recordedInput("anthropic", "model-opus-4-6");
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("Model ID:", "Model:"))),
      'model-opus-4-6: no "Model ID: `claude-...`" line',
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("Max output: 128K tokens", "Max output: plenty"))),
      'model-opus-4-6: "Context window: 1M tokens · Max output: plenty ·" does not give two token sizes',
    );
  });

  it("fails on a Model IDs table whose Claude API row is another model or whose Bedrock id has another form; reads no reasoning from a Thinking row that names no thinking", async () => {
    const page = defined(anthropicParsers["anthropic-model-page"], "parser anthropic-model-page");
    const whole = await recordedInput("anthropic", "model-opus-4-6");
    const declared = { status: "supported", verification_status: "official_declared" };
    // the Claude API row must be the page's model; a Bedrock id must have Bedrock's form
    expectParseFailure(
      () =>
        page(
          edit(whole, (c) =>
            c.replace("| `claude-opus-4-6`              |", "| `claude-opus-4-7`              |"),
          ),
        ),
      'model-opus-4-6: the Model IDs table\'s Claude API row is "claude-opus-4-7", not claude-opus-4-6',
    );
    expectParseFailure(
      () => page(edit(whole, (c) => c.replace("`anthropic.claude-opus-4-6-v1`", "`claude-opus-4-6-v1`"))),
      'model-opus-4-6: "claude-opus-4-6-v1" is not a amazon-bedrock Claude model id',
    );
    // a Thinking row that names neither adaptive nor extended thinking says nothing of reasoning
    const plain = page(edit(whole, (c) => c.replace("Adaptive (extended deprecated)", "—")));
    expect(plain.model_facts?.[0]?.capabilities).toEqual({ vision: declared });
    // without the Specifications (a copy of the opening only): the Claude API id alone
    const opening = page(edit(whole, (c) => c.slice(0, c.indexOf("## Specifications"))));
    expect(opening.model_facts?.map((f) => [f.provider_id, f.provider_model_id])).toEqual([
      ["anthropic", "claude-opus-4-6"],
    ]);
  });
});

describe("Anthropic's Structured outputs page (anthropic-structured-outputs): a capability list", () => {
  const page = defined(
    anthropicParsers["anthropic-structured-outputs"],
    "parser anthropic-structured-outputs",
  );
  const NAMED = [
    "claude-fable-5",
    "claude-haiku-4-5-20251001",
    "claude-mythos-5",
    "claude-mythos-preview",
    "claude-opus-4-5-20251101",
    "claude-opus-4-6",
    "claude-opus-4-7",
    "claude-opus-4-8",
    "claude-opus-5",
    "claude-sonnet-4-5-20250929",
    "claude-sonnet-4-6",
    "claude-sonnet-5",
  ];

  it("declares structured_output supported for exactly the Claude API ids of the Supported models, and lists them per platform (Bedrock: its footnote's five)", async () => {
    const input = await recordedInput("anthropic", "structured-outputs");
    const out = ParseOutput.parse(normalizeSource(input));
    expect(out.deployments).toEqual([]);
    expect(out.lifecycle).toEqual([]);
    expect(out.model_facts?.map((f) => f.provider_model_id).sort()).toEqual(NAMED);
    for (const f of out.model_facts ?? []) {
      expect(f.provider_id).toBe("anthropic");
      expect(f.capabilities).toEqual({ structured_output: supported });
      expect(f.evidence.source_url).toBe(
        "https://platform.claude.com/docs/en/build-with-claude/structured-outputs.md",
      );
    }
    const [list, ...more] = out.capability_lists ?? [];
    expect(more).toEqual([]);
    expect(list?.capability).toBe("structured_output");
    expect(list?.lab).toBe("anthropic");
    expect(list?.evidence.observed_at).toBe("2026-08-22T12:36:51Z");
    expect([...(list?.model_ids ?? [])].sort()).toEqual(NAMED.map((id) => `anthropic/${id}`));
    const platforms = new Map(list?.providers.map((p) => [p.provider_id, [...p.model_ids].sort()]));
    expect([...platforms.keys()]).toEqual(["anthropic", "amazon-bedrock", "google-vertex"]);
    expect(platforms.get("anthropic")).toEqual(NAMED.map((id) => `anthropic/${id}`));
    expect(platforms.get("google-vertex")).toEqual(NAMED.map((id) => `anthropic/${id}`));
    // "On Amazon Bedrock, structured outputs are available for Claude Opus 4.6, Claude Sonnet 4.6,
    // Claude Sonnet 4.5, Claude Opus 4.5, and Claude Haiku 4.5."
    expect(platforms.get("amazon-bedrock")).toEqual([
      "anthropic/claude-haiku-4-5-20251001",
      "anthropic/claude-opus-4-5-20251101",
      "anthropic/claude-opus-4-6",
      "anthropic/claude-sonnet-4-5-20250929",
      "anthropic/claude-sonnet-4-6",
    ]);
    // Claude 3.x, Sonnet 4, Opus 4 and 4.1 are not named
    for (const old of ["claude-3-sonnet-20240229", "claude-sonnet-4-20250514", "claude-opus-4-1-20250805"])
      expect(list?.model_ids).not.toContain(`anthropic/${old}`);
  });

  it("fails rather than guess: a name the identity module cannot map, a footnote that names no models, no Claude API", async () => {
    const input = await recordedInput("anthropic", "structured-outputs");
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("- Haiku 4.5 |", "- Haiku 3.9 |"))),
      '"Claude Haiku 3.9" is not a Claude model name the catalog can map',
    );
    expectParseFailure(
      () =>
        page(
          edit(input, (c) =>
            c.replace("structured outputs are available for Claude Opus 4.6", "see Claude Opus 4.6"),
          ),
        ),
      "Amazon Bedrock's footnote 1 does not say which models it covers",
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("| - Claude API - ", "| - "))),
      "the Supported platforms row does not name the Claude API",
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("| Supported models |", "| Models |"))),
      'no Compatibility table with a "Supported models" row',
    );
  });
});

describe("Anthropic's Computer use tool page (anthropic-computer-use): a capability list", () => {
  const page = defined(anthropicParsers["anthropic-computer-use"], "parser anthropic-computer-use");
  const claude = (ids: readonly string[]) => ids.map((id) => `anthropic/${id}`).sort();
  // computer_20251124's "Use with" cell (without "on Amazon Bedrock, also Claude Opus 5.5")
  const EARLIER_2025_11 = [
    "claude-fable-5-1",
    "claude-mythos-5-1",
    "claude-fable-5",
    "claude-mythos-5",
    "claude-opus-5",
    "claude-sonnet-5",
    "claude-opus-4-8",
    "claude-opus-4-7",
    "claude-opus-4-6",
    "claude-sonnet-4-6",
    "claude-opus-4-5-20251101",
  ];
  // computer_20250124's: Sonnet 4.5, Haiku 4.5, Opus 4.1, Sonnet 4, Opus 4
  const EARLIER_2025_01 = [
    "claude-sonnet-4-5-20250929",
    "claude-haiku-4-5-20251001",
    "claude-opus-4-1-20250805",
    "claude-sonnet-4-20250514",
    "claude-opus-4-20250514",
  ];
  // the toolset (supportedModels) adds Claude Opus 5.5 where the toolset is offered
  const WITH_TOOLSET = claude([...EARLIER_2025_11, ...EARLIER_2025_01, "claude-opus-5-5"]);

  it("lists the toolset's and the earlier versions' models on the Claude API and Google Cloud, and on Bedrock the earlier versions' (with its own Opus 5.5)", async () => {
    const input = await recordedInput("anthropic", "computer-use-tool");
    const out = ParseOutput.parse(normalizeSource(input));
    expect(out.deployments).toEqual([]);
    expect(out.lifecycle).toEqual([]);
    const [list, ...more] = out.capability_lists ?? [];
    expect(more).toEqual([]);
    expect(list?.capability).toBe("computer_use");
    expect(list?.lab).toBe("anthropic");
    expect(list?.evidence.observed_at).toBe("2026-09-23T00:00:00Z");
    expect(list?.model_ids).toEqual(WITH_TOOLSET);
    const platforms = new Map(list?.providers.map((p) => [p.provider_id, p.model_ids]));
    expect([...platforms.keys()]).toEqual(["anthropic", "amazon-bedrock", "google-vertex"]);
    expect(platforms.get("anthropic")).toEqual(WITH_TOOLSET);
    expect(platforms.get("google-vertex")).toEqual(WITH_TOOLSET);
    // "Platforms other than the Claude API and Google Cloud currently offer only the earlier beta
    // tool versions"; "on Amazon Bedrock, also Claude Opus 5.5"
    expect(platforms.get("amazon-bedrock")).toEqual(WITH_TOOLSET);
    // Claude 3.x, Haiku 3.5 and Mythos Preview are not named
    for (const old of ["claude-3-7-sonnet-20250219", "claude-3-5-haiku-20241022", "claude-mythos-preview"])
      expect(list?.model_ids).not.toContain(`anthropic/${old}`);
    // declared for the Claude API ids the page names for the Claude API
    expect(out.model_facts?.map((f) => `anthropic/${f.provider_model_id}`)).toEqual(WITH_TOOLSET);
    for (const f of out.model_facts ?? []) {
      expect(f.provider_id).toBe("anthropic");
      expect(f.capabilities).toEqual({ computer_use: supported });
      expect(f.evidence.source_url).toBe(
        "https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool.md",
      );
    }
  });

  it("reads a platform's own additions and the toolset's platforms as written", async () => {
    const input = await recordedInput("anthropic", "computer-use-tool");
    const lists = (content: (c: string) => string) =>
      new Map(
        page(edit(input, content)).capability_lists?.[0]?.providers.map((p) => [p.provider_id, p.model_ids]),
      );
    // without Bedrock's own clause, Bedrock (earlier versions only) has no Opus 5.5
    const noClause = lists((c) => c.replace("; on Amazon Bedrock, also Claude Opus 5.5", ""));
    expect(noClause.get("amazon-bedrock")).toEqual(claude([...EARLIER_2025_11, ...EARLIER_2025_01]));
    expect(noClause.get("anthropic")).toEqual(WITH_TOOLSET);
    // a toolset model the earlier versions do not name is listed only where the toolset is offered
    const onlyApi = lists((c) =>
      c
        .replace("; on Amazon Bedrock, also Claude Opus 5.5", "")
        .replace("other than the Claude API and Google Cloud", "other than the Claude API"),
    );
    expect(onlyApi.get("google-vertex")).toEqual(claude([...EARLIER_2025_11, ...EARLIER_2025_01]));
    expect(onlyApi.get("anthropic")).toEqual(WITH_TOOLSET);
    // a platform the front matter does not name is not spoken for
    const noVertex = lists((c) => c.replace("    Google Cloud: ga\n", ""));
    expect([...noVertex.keys()]).toEqual(["anthropic", "amazon-bedrock"]);
  });

  it("fails rather than guess", async () => {
    const input = await recordedInput("anthropic", "computer-use-tool");
    expectParseFailure(
      () =>
        page(
          edit(input, (c) =>
            c.replace("Claude Haiku 4.5, Claude Opus 4.1", "Claude Haiku 3.9, Claude Opus 4.1"),
          ),
        ),
      '"Claude Haiku 3.9" is not a Claude model name the catalog can map',
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("on Amazon Bedrock, also", "on Amazon Bedrock, not"))),
      '"on Amazon Bedrock, not Claude Opus 5.5" is not "on <platform>, also <models>"',
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("Platforms other than", "Platforms besides"))),
      "no details line says which platforms offer only the earlier tool versions",
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("## Earlier tool versions", "## Older tool versions"))),
      'no "Earlier tool versions" table with a "Use with" column',
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("  supportedModels:", "  models:"))),
      "expected front matter featureMetadata with supportedModels, supportedPlatforms and details",
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("    Claude API: ga\n", ""))),
      "supportedPlatforms does not name the Claude API",
    );
  });
});
