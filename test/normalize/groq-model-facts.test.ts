import { describe, expect, it } from "vitest";
import { modelFactParsers, parserRegistry } from "../../src/normalize/index.js";
import { parsers } from "../../src/normalize/parsers/groq-model-facts.js";
import type { ParserInput } from "../../src/normalize/types.js";
import { type ModelFact, ParseOutput } from "../../src/schema/index.js";
import { supported, textOnly } from "../helpers/capabilities.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { recordedModelPageFacts } from "../helpers/model-pages.js";
import { edit, expectParseFailure, withContent } from "../helpers/parsers.js";

const page = defined(parsers["groq-model-page"], "parser groq-model-page");

function parse(input: ParserInput): ParseOutput {
  return ParseOutput.parse(page(input));
}

/** The skipped entry of a page that lists one capability the catalog has no name for. */
function unreadCapability(name: string) {
  return {
    reason: "a listed capability without a catalog capability name (not read)",
    count: 1,
    examples: [name],
  };
}

function factOf(out: ParseOutput): ModelFact {
  expect(out.model_facts).toHaveLength(1);
  return defined(out.model_facts?.[0], "the page's model fact");
}

/** Parsing `input` fails with the `expected` failure (the test fails when parsing succeeds or fails otherwise). */
function failureOf(input: ParserInput, expected: string): string {
  return expectParseFailure(() => page(input), expected);
}

const gptOss120b = await recordedInput("groq", "model-gpt-oss-120b");

describe("Groq per-model pages", () => {
  it("is registered as a model-page parser, whose failures do not count toward the build's failed-sources threshold", () => {
    expect(parserRegistry["groq-model-page"]).toBe(page);
    expect(modelFactParsers.has("groq-model-page")).toBe(true);
  });

  it("every recorded page yields one model fact of provider groq, for the id its URL names, with official evidence and no deployments", async () => {
    const byPage = await recordedModelPageFacts("groq", /^model-/);
    expect(byPage.size).toBe(13);
    for (const [name, facts] of byPage) {
      const input = await recordedInput("groq", name);
      expect(facts.map((f) => `${f.provider_id} ${f.provider_model_id}.md`)).toEqual([
        `groq ${input.source.url.replace("https://console.groq.com/docs/model/", "")}`,
      ]);
      expect(facts[0]?.max_output_tokens).toBeGreaterThan(0);
    }
    expect([...byPage.values()].flatMap((f) => f.map((x) => x.provider_model_id)).sort()).toEqual([
      "llama-3.1-8b-instant",
      "llama-3.3-70b-versatile",
      "meta-llama/llama-4-maverick-17b-128e-instruct",
      "meta-llama/llama-guard-4-12b",
      "meta-llama/llama-prompt-guard-2-22m",
      "minimaxai/minimax-m2.7",
      "moonshotai/kimi-k2-instruct",
      "moonshotai/kimi-k2-instruct-0905",
      "openai/gpt-oss-120b",
      "openai/gpt-oss-20b",
      "openai/gpt-oss-safeguard-20b",
      "qwen/qwen3-32b",
      "qwen/qwen3.8-27b",
    ]);
  });

  it("GPT OSS 120B: 131,072 context and 65,536 output; Tool Use, JSON Schema Mode, Reasoning, Browser Search and Code Execution declared; text only; JSON Object Mode is listed as not read", () => {
    const out = parse(gptOss120b);
    expect(out.deployments).toEqual([]);
    expect(out.lifecycle).toEqual([]);
    expect(factOf(out)).toEqual({
      provider_id: "groq",
      provider_model_id: "openai/gpt-oss-120b",
      context_tokens: 131_072,
      max_output_tokens: 65_536,
      capabilities: {
        ...textOnly,
        tool_calling: supported,
        web_search: supported,
        code_execution: supported,
        structured_output: supported,
        reasoning: supported,
      },
      evidence: {
        source_url: "https://console.groq.com/docs/model/openai/gpt-oss-120b.md",
        source_type: "official_docs",
        observed_at: "2025-08-20T00:00:00Z",
        verification_status: "official_declared",
      },
    });
    expect(out.skipped).toEqual([unreadCapability("JSON Object Mode")]);
  });

  it("Qwen3.8-27B takes images (INPUT 'Text, images' and a Vision link): its page says 131,072 context and 16,384 output", async () => {
    const fact = factOf(parse(await recordedInput("groq", "model-qwen3-8-27b")));
    expect(fact.provider_model_id).toBe("qwen/qwen3.8-27b");
    expect(fact.context_tokens).toBe(131_072);
    expect(fact.max_output_tokens).toBe(16_384);
    expect(fact.capabilities).toEqual({
      ...textOnly,
      vision: supported,
      tool_calling: supported,
      structured_output: supported,
      reasoning: supported,
    });
  });

  it("Llama Prompt Guard 2 22M lists only Content Moderation: 512 / 512 and its modalities, nothing else", async () => {
    const out = parse(await recordedInput("groq", "model-llama-prompt-guard-2-22m"));
    const fact = factOf(out);
    expect(fact.provider_model_id).toBe("meta-llama/llama-prompt-guard-2-22m");
    expect(fact.context_tokens).toBe(512);
    expect(fact.max_output_tokens).toBe(512);
    expect(fact.capabilities).toEqual(textOnly);
    expect(out.skipped).toEqual([unreadCapability("Content Moderation")]);
  });

  it("a capability the CAPABILITIES links leave out stays unknown, never unsupported: MiniMax M2.7 lists no JSON Schema Mode", async () => {
    const fact = factOf(parse(await recordedInput("groq", "model-minimax-m2-7")));
    expect(fact.context_tokens).toBe(196_608);
    expect(fact.max_output_tokens).toBe(131_072);
    expect(fact.capabilities?.tool_calling).toEqual(supported);
    expect(fact.capabilities?.reasoning).toEqual(supported);
    expect(fact.capabilities && "structured_output" in fact.capabilities).toBe(false);
    expect(fact.capabilities && "web_search" in fact.capabilities).toBe(false);
  });

  it("the older page format ('Loading model information...', figures rendered by a script) is a parse failure naming it", () => {
    const older = withContent(
      {
        ...gptOss120b,
        source: { ...gptOss120b.source, url: "https://console.groq.com/docs/model/gemma2-9b-it.md" },
      },
      [
        "---",
        "description: Model card for Gemma 2 9B IT: 9B parameter instruction-tuned model from Google with state-of-the-art performance and instant responses on Groq.",
        "title: Gemma 2 9B IT - GroqDocs",
        "image: https://console.groq.com/og_cloudv5.jpg",
        "---",
        "",
        "Loading model information...",
        "",
        "### [Key Technical Specifications](#key-technical-specifications)",
        "",
        "Experience the capabilities of `gemma2-9b-it` with Groq speed:",
        "",
      ].join("\n"),
    );
    failureOf(older, 'older page format ("Loading model information...")');
  });

  it("a page without its backticked model id, or describing another model than its URL names, is a parse failure", () => {
    failureOf(
      edit(gptOss120b, (c) => c.replace("\n`openai/gpt-oss-120b`\n", "\n")),
      'no "`<model id>`" line under the title',
    );
    const elsewhere = {
      ...gptOss120b.source,
      url: "https://console.groq.com/docs/model/openai/gpt-oss-20b.md",
    };
    failureOf(
      { ...gptOss120b, source: elsewhere },
      "the page describes `openai/gpt-oss-120b`, not openai/gpt-oss-20b",
    );
    // the 2024-25 "Technical Details" table pages ("## LLaMA-3.2-3B-Preview", no id line) are not read either
    expectParseFailure(
      () =>
        page(
          edit(gptOss120b, (c) => c.replace("# GPT OSS 120B\n\n`openai/gpt-oss-120b`", "## GPT OSS 120B")),
        ),
      'model-gpt-oss-120b: no "# <model>" title',
    );
  });

  it("a limit left out stays absent, a dash is null, and an unreadable one is listed as skipped: never 0, never guessed", () => {
    const without = factOf(parse(edit(gptOss120b, (c) => c.replace("MAX OUTPUT TOKENS\n\n65,536\n", ""))));
    expect(without.context_tokens).toBe(131_072);
    expect("max_output_tokens" in without).toBe(false);
    const dash = factOf(
      parse(edit(gptOss120b, (c) => c.replace("MAX OUTPUT TOKENS\n\n65,536", "MAX OUTPUT TOKENS\n\n\\-"))),
    );
    expect(dash.max_output_tokens).toBeNull();
    const rounded = parse(
      edit(gptOss120b, (c) => c.replace("CONTEXT WINDOW\n\n131,072", "CONTEXT WINDOW\n\n128K")),
    );
    expect("context_tokens" in factOf(rounded)).toBe(false);
    expect(rounded.skipped).toContainEqual({
      reason: "a limit not printed as a whole number of tokens (left unknown)",
      count: 1,
      examples: ["CONTEXT WINDOW: 128K"],
    });
  });

  it("a modality the parser does not know, a Vision link on a text-only page, or a page stating nothing fails the parse", () => {
    failureOf(
      edit(gptOss120b, (c) => c.replace("INPUT\n\nText\n", "INPUT\n\nText, holograms\n")),
      '"holograms", not a modality the parser knows',
    );
    failureOf(
      edit(gptOss120b, (c) =>
        c.replace(
          "[Reasoning](https://console.groq.com/docs/reasoning)",
          "[Vision](https://console.groq.com/docs/vision)",
        ),
      ),
      "CAPABILITIES lists Vision, but INPUT names no images",
    );
    const nothing = edit(gptOss120b, (c) =>
      c
        .replace(/\nINPUT\n[\s\S]*?\nCAPABILITIES\n\n[^\n]*\n/, "\n")
        .replace(/### LIMITS\n[\s\S]*?### QUANTIZATION/, "### QUANTIZATION"),
    );
    failureOf(nothing, "states neither limits nor capabilities");
  });
});
