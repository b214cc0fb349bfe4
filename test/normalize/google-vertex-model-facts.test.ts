import { describe, expect, it } from "vitest";
import { parsers } from "../../src/normalize/parsers/google-vertex-model-facts.js";
import { type ModelFact, ParseOutput } from "../../src/schema/index.js";
import { conditional, supported, unsupported } from "../helpers/capabilities.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { recordedModelPageFacts } from "../helpers/model-pages.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const page = defined(parsers["google-vertex-model-page"], "parser google-vertex-model-page");

async function factsOf(name: string): Promise<Map<string, ModelFact>> {
  const out = ParseOutput.parse(page(await recordedInput("google-vertex", name)));
  return new Map((out.model_facts ?? []).map((f) => [f.provider_model_id, f]));
}

describe("Vertex AI Gemini model pages", () => {
  it("every recorded model page yields model facts of provider google-vertex with official evidence and no deployments", async () => {
    // lifecycle: the caution notes (next test)
    const byPage = await recordedModelPageFacts("google-vertex", /^model-gemini-/, { lifecycle: "allowed" });
    expect(byPage.size).toBe(16);
    const facts = [...byPage.values()].flat();
    for (const fact of facts)
      if (fact.provider_model_id !== "gemini-embedding-2") expect(fact.max_output_tokens).toBeGreaterThan(0);
    expect(facts.map((f) => f.provider_model_id).sort()).toEqual([
      "gemini-2.5-flash",
      "gemini-2.5-flash-image",
      "gemini-2.5-flash-lite",
      "gemini-2.5-flash-lite-preview-09-2025",
      "gemini-2.5-flash-preview-09-2025",
      "gemini-2.5-pro",
      "gemini-3-flash-preview",
      "gemini-3-pro-image",
      "gemini-3.1-flash-image",
      "gemini-3.1-flash-lite-image",
      "gemini-3.1-pro-preview",
      "gemini-3.5-flash",
      "gemini-3.5-flash-lite",
      "gemini-3.6-flash",
      "gemini-3.7-flash",
      "gemini-3.8-flash-cyber",
      "gemini-embedding-2",
      "gemini-live-2.5-flash-native-audio",
      "gemini-live-2.5-flash-preview-native-audio-09-2025",
    ]);
  });

  it("a caution note dates a model id's end of life on Vertex AI and names its replacement, in every recorded page that has one", async () => {
    const ended = new Map<string, { date: string | null; replacements: string[] | undefined }>();
    for (const name of [
      "model-gemini-2-5-flash",
      "model-gemini-2-5-flash-lite",
      "model-gemini-2-5-flash-live-api",
      "model-gemini-2-5-pro",
      "model-gemini-3-6-flash",
    ]) {
      const out = ParseOutput.parse(page(await recordedInput("google-vertex", name)));
      for (const a of out.lifecycle) {
        expect(a).toMatchObject({
          scope: "deployment",
          provider_id: "google-vertex",
          target: { api_surface: "vertex-ai" },
          end_of_life: { state: "scheduled", date_type: "on", precision: "day" },
          evidence: { verification_status: "official_declared" },
        });
        ended.set(a.target?.provider_model_id ?? "", {
          date: a.end_of_life?.date ?? null,
          replacements: a.replacements,
        });
      }
    }
    expect(Object.fromEntries(ended)).toEqual({
      "gemini-2.5-flash-preview-09-2025": { date: "2026-07-09", replacements: ["gemini-2.5-flash"] },
      "gemini-2.5-flash-lite-preview-09-2025": {
        date: "2026-07-09",
        replacements: ["gemini-2.5-flash-lite"],
      },
      "gemini-live-2.5-flash-preview-native-audio-09-2025": {
        date: "2026-03-19",
        replacements: ["gemini-live-2.5-flash-native-audio"],
      },
    });
    // a caution without a date it can read is not a lifecycle statement
    const input = await recordedInput("google-vertex", "model-gemini-2-5-flash");
    const out = page(
      edit(input, (c) => c.replace("will be discontinued on July 9, 2026", "will be discontinued soon")),
    );
    expect(out.lifecycle).toEqual([]);
  });

  it("the pages recorded from Markdown renderings of the HTML (one value per line, a separate Tools list): limits, modalities, the items' Supported / Not supported", async () => {
    const flash = defined(
      (await factsOf("model-gemini-3-7-flash")).get("gemini-3.7-flash"),
      "gemini-3.7-flash",
    );
    expect(flash.context_tokens).toBe(1_048_576);
    expect(flash.max_output_tokens).toBe(65_536);
    expect(flash.capabilities).toEqual({
      vision: supported,
      image_output: unsupported,
      audio_input: supported,
      audio_output: unsupported,
      video_input: supported,
      reasoning: supported,
      structured_output: supported,
      prompt_caching: supported, // "Context caching" / "Implicit context caching, explicit context caching" / Supported
      web_search: supported, // "Grounding" / "Google Search, Google Maps" / Supported
      code_execution: supported,
      tool_calling: supported,
      computer_use: conditional, // a Preview feature that is Supported
      batch: supported,
    });
    // 3.6 Flash: Computer Use, a Preview feature, Not supported
    expect(
      (await factsOf("model-gemini-3-6-flash")).get("gemini-3.6-flash")?.capabilities?.computer_use,
    ).toEqual(unsupported);
    // the Cyber model: no tools at all ("Grounding" / Not supported is no web search), no batch
    const cyber = defined(
      (await factsOf("model-gemini-3-8-flash-cyber")).get("gemini-3.8-flash-cyber"),
      "gemini-3.8-flash-cyber",
    );
    expect(cyber.capabilities?.web_search).toEqual(unsupported);
    expect(cyber.capabilities?.tool_calling).toEqual(unsupported);
    expect(cyber.capabilities?.batch).toEqual(unsupported);
    // the image model: image in and out, no audio, its own limits, structured output and caching not supported
    const image = defined(
      (await factsOf("model-gemini-3-1-flash-image")).get("gemini-3.1-flash-image"),
      "gemini-3.1-flash-image",
    );
    expect(image.context_tokens).toBe(131_072);
    expect(image.max_output_tokens).toBe(32_768);
    expect(image.capabilities).toMatchObject({
      vision: supported,
      image_output: supported,
      audio_input: unsupported,
      structured_output: unsupported,
      prompt_caching: unsupported,
      web_search: supported,
      tool_calling: unsupported,
      batch: supported,
    });
  });

  it("a rendering of the older layout (inputs & outputs, limits as bullets, items under Supported / Not supported headings): Gemini 3 Pro Image", async () => {
    const fact = defined(
      (await factsOf("model-gemini-3-pro-image")).get("gemini-3-pro-image"),
      "gemini-3-pro-image",
    );
    expect(fact.context_tokens).toBe(65_536); // "Maximum input tokens", the only input limit given
    expect(fact.max_output_tokens).toBe(32_768);
    expect(fact.capabilities).toEqual({
      vision: supported,
      image_output: supported,
      audio_input: unsupported,
      audio_output: unsupported,
      video_input: unsupported,
      web_search: supported,
      reasoning: supported,
      code_execution: unsupported,
      tool_calling: unsupported,
      prompt_caching: unsupported,
      batch: supported,
    });
  });

  it("a rendered page without token counts or a Modalities list fails to parse", async () => {
    const input = await recordedInput("google-vertex", "model-gemini-3-6-flash");
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("Context window\n\n1,048,576", "Context window\n\nlarge"))),
      "model-gemini-3-6-flash: gemini-3.6-flash: no context window / maximum input and maximum output token counts",
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("Modalities\n", "Inputs\n"))),
      "model-gemini-3-6-flash: gemini-3.6-flash: no Modalities list",
    );
  });

  it("the Live API page: limits printed as 128K / 64K, audio in and out, a Maximum concurrent sessions row between the limits and the capabilities, batch not supported", async () => {
    const facts = await factsOf("model-gemini-2-5-flash-live-api");
    expect([...facts.keys()]).toEqual([
      "gemini-live-2.5-flash-native-audio",
      "gemini-live-2.5-flash-preview-native-audio-09-2025",
    ]);
    for (const fact of facts.values()) {
      // The preview's second "Context window" row ("32K (default), upgradable to 128K") is not read.
      expect(fact.context_tokens).toBe(128_000);
      expect(fact.max_output_tokens).toBe(64_000);
      expect(fact.capabilities).toEqual({
        vision: supported,
        image_output: unsupported,
        audio_input: supported,
        audio_output: supported,
        video_input: supported,
        web_search: supported,
        tool_calling: supported,
        code_execution: unsupported,
        structured_output: unsupported,
        reasoning: unsupported,
        prompt_caching: unsupported,
        batch: unsupported,
      });
    }
  });

  it("Gemini 2.5 Pro: context window, the default maximum output, modalities and the two capability lists", async () => {
    const fact = defined((await factsOf("model-gemini-2-5-pro")).get("gemini-2.5-pro"), "gemini-2.5-pro");
    expect(fact.context_tokens).toBe(1_048_576);
    expect(fact.max_output_tokens).toBe(65_535);
    expect(fact.capabilities).toEqual({
      vision: supported,
      image_output: unsupported,
      audio_input: supported,
      audio_output: unsupported,
      video_input: supported,
      web_search: supported,
      code_execution: supported,
      structured_output: supported,
      tool_calling: supported,
      reasoning: supported,
      prompt_caching: supported,
      batch: supported,
    });
  });

  it("a page with a GA model and its preview gives each block its own facts (batch differs)", async () => {
    const facts = await factsOf("model-gemini-2-5-flash");
    expect([...facts.keys()].sort()).toEqual(["gemini-2.5-flash", "gemini-2.5-flash-preview-09-2025"]);
    expect(facts.get("gemini-2.5-flash")?.capabilities?.batch).toEqual(supported);
    expect(facts.get("gemini-2.5-flash-preview-09-2025")?.capabilities?.batch).toEqual(unsupported);
  });

  it("Computer Use marked as a preview feature is conditional; a name neither list gives stays unknown", async () => {
    const fact = defined(
      (await factsOf("model-gemini-3-5-flash")).get("gemini-3.5-flash"),
      "gemini-3.5-flash",
    );
    expect(fact.capabilities?.computer_use).toEqual(conditional);
    const pro = defined((await factsOf("model-gemini-2-5-pro")).get("gemini-2.5-pro"), "gemini-2.5-pro");
    expect(pro.capabilities && "computer_use" in pro.capabilities).toBe(false);
  });

  it("an image model: maximum input tokens as the context, image output supported, function calling and explicit caching not", async () => {
    const fact = defined(
      (await factsOf("model-gemini-3-1-flash-lite-image")).get("gemini-3.1-flash-lite-image"),
      "gemini-3.1-flash-lite-image",
    );
    expect(fact.context_tokens).toBe(65_536);
    expect(fact.max_output_tokens).toBe(4_096);
    expect(fact.capabilities?.image_output).toEqual(supported);
    expect(fact.capabilities?.audio_input).toEqual(unsupported);
    expect(fact.capabilities?.tool_calling).toEqual(unsupported);
    // implicit caching supported, explicit not: caching is supported
    expect(fact.capabilities?.prompt_caching).toEqual(supported);
  });

  it("an embedding model: maximum input tokens as the context; a maximum output of N/A is not read, and no Capabilities row leaves those unknown", async () => {
    const fact = defined(
      (await factsOf("model-gemini-embedding-2")).get("gemini-embedding-2"),
      "gemini-embedding-2",
    );
    expect(fact.context_tokens).toBe(8_192);
    expect("max_output_tokens" in fact).toBe(false);
    expect(fact.capabilities).toEqual({
      vision: supported,
      image_output: unsupported,
      audio_input: supported,
      audio_output: unsupported,
      video_input: supported,
      batch: unsupported,
    });
  });

  it("the 3.1 Pro page's custom-tools endpoint gets no facts: only the Model ID row names a model", async () => {
    const facts = await factsOf("model-gemini-3-1-pro");
    expect([...facts.keys()]).toEqual(["gemini-3.1-pro-preview"]);
  });

  it("a page without a Model ID row, token limits or a Modalities row fails to parse", async () => {
    const input = await recordedInput("google-vertex", "model-gemini-2-5-pro");
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("| Model ID |", "| Model |"))),
      'model-gemini-2-5-pro: no "| Model ID | `<model>` ||" row',
    );
    expectParseFailure(
      () =>
        page(edit(input, (c) => c.replace("| Context window | 1,048,576 |", "| Context window | large |"))),
      "model-gemini-2-5-pro: gemini-2.5-pro: no context window / maximum input and maximum output token counts",
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("| Modalities |", "| Inputs |"))),
      "model-gemini-2-5-pro: gemini-2.5-pro: no Modalities row",
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("| Model ID | `gemini-2.5-pro` ||", "| Model ID | Gemini ||"))),
      'model-gemini-2-5-pro: "Gemini" is not a model id',
    );
  });
});

describe("Vertex AI developer's guides", () => {
  const guide = defined(parsers["google-vertex-model-guide"], "parser google-vertex-model-guide");

  it("the 3.7 Flash guide's comparison table (text rendering) gives each compared model id its context window and max output", async () => {
    const input = await recordedInput("google-vertex", "guide-gemini-3-7-flash");
    const out = ParseOutput.parse(guide(input));
    expect(out.deployments).toEqual([]);
    expect(
      (out.model_facts ?? []).map((f) => [
        f.provider_id,
        f.provider_model_id,
        f.context_tokens,
        f.max_output_tokens,
      ]),
    ).toEqual([
      ["google-vertex", "gemini-3.7-flash", 1_048_576, 65_536],
      ["google-vertex", "gemini-3.6-flash", 1_048_576, 65_536],
      ["google-vertex", "gemini-3.1-pro-preview", 1_048_576, 65_536],
    ]);
    expect(out.model_facts?.[0]?.capabilities).toBeUndefined(); // limits only
  });

  it("reads the same rows from the Markdown table the live page serves", async () => {
    const input = await recordedInput("google-vertex", "guide-gemini-3-7-flash");
    const markdown = [
      "| | Gemini 3.7 Flash | Gemini 3.6 Flash |",
      "|---|---|---|",
      "| Model ID | `gemini-3.7-flash` | `gemini-3.6-flash` |",
      "| Context window | 1,048,576 | 1,048,576 |",
      "| Maximum output token length | 65,536 | 65,536 |",
    ].join("\n");
    const out = ParseOutput.parse(guide({ ...input, content: markdown }));
    expect((out.model_facts ?? []).map((f) => [f.provider_model_id, f.max_output_tokens])).toEqual([
      ["gemini-3.7-flash", 65_536],
      ["gemini-3.6-flash", 65_536],
    ]);
  });

  it("fails when a limit row does not give one token count per model id", async () => {
    const input = await recordedInput("google-vertex", "guide-gemini-3-7-flash");
    expectParseFailure(
      () =>
        guide(
          edit(input, (c) =>
            c.replace("Context window 1,048,576 1,048,576 1,048,576", "Context window 1,048,576 1,048,576"),
          ),
        ),
      'guide-gemini-3-7-flash: comparison row "Context window" does not give one token count per model:',
    );
    expectParseFailure(
      () =>
        guide(
          edit(input, (c) =>
            c.replace(
              "Maximum output token length 65,536 65,536 65,536",
              "Maximum output token length 65,536 65,536 long",
            ),
          ),
        ),
      'guide-gemini-3-7-flash: comparison row "Maximum output token length" does not give one token count',
    );
    expectParseFailure(
      () => guide(edit(input, (c) => c.replace("Model ID gemini-3.7-flash", "Model ID Flash"))),
      'guide-gemini-3-7-flash: no comparison row "Model ID" of gemini-… ids: Flash | gemini-3.6-flash |',
    );
  });
});
