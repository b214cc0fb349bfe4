import { describe, expect, it } from "vitest";
import {
  groqAnnouncement,
  groqModelId,
  groqReplacements,
  groqRowModelId,
  groqShutdownDate,
  groqTokenPrices,
  parsers,
} from "../../src/normalize/parsers/groq.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const deprecations = defined(parsers["groq-deprecations"], "parser groq-deprecations");
const input = await recordedInput("groq", "deprecations");
const models = defined(parsers["groq-models"], "parser groq-models");
const modelsInput = await recordedInput("groq", "models");

describe("groq deprecations", () => {
  it("asserts every deprecated model with its shutdown date, announcement and replacements", () => {
    const out = ParseOutput.parse(deprecations(input));
    expect(out.deployments).toHaveLength(39);
    expect(out.lifecycle).toHaveLength(39);
    expect(out.skipped).toEqual([
      {
        reason: "model listed again in an older section (the newest entry is kept)",
        count: 1,
        examples: ["deepseek-r1-distill-llama-70b-specdec"],
      },
    ]);
    expect(out.lifecycle.every((a) => a.status === "deprecated")).toBe(true);
    const byId = new Map(out.lifecycle.map((a) => [a.target?.provider_model_id, a]));
    const versatile = byId.get("llama-3.3-70b-versatile");
    expect(versatile).toMatchObject({
      scope: "deployment",
      provider_id: "groq",
      target: { provider_model_id: "llama-3.3-70b-versatile", api_surface: "api" },
      announced_at: "2026-06-17T00:00:00Z",
      replacements: ["openai/gpt-oss-120b", "qwen/qwen3.6-27b"],
    });
    expect(versatile?.deprecation).toMatchObject({ date: "2026-06-17", precision: "day", date_type: "on" });
    expect(versatile?.end_of_life).toMatchObject({ date: "2026-08-16", precision: "day", date_type: "on" });
    // No announcement date in the prose: the deprecation milestone is not invented.
    expect(byId.get("qwen/qwen3.6-27b")?.deprecation).toBeUndefined();
    expect(byId.get("qwen/qwen3.6-27b")?.end_of_life?.date).toBe("2026-09-14");
    // "In November 2024, we emailed ..." is a month.
    expect(byId.get("llama-3.2-90b-text-preview")?.deprecation).toMatchObject({
      date: "2024-11-01",
      precision: "month",
    });
    expect(byId.get("groq/compound")?.replacements).toEqual([]);
    expect(byId.get("deepseek-r1-distill-llama-70b-specdec")?.end_of_life?.date).toBe("2025-04-14");
    expect(byId.get("llama3-groq-8b-8192-tool-use-preview")?.end_of_life?.date).toBe("2025-01-06");
  });

  it("names hosted models by their maker", () => {
    const out = deprecations(input);
    const scout = out.deployments.find(
      (d) => d.provider_model_id === "meta-llama/llama-4-scout-17b-16e-instruct",
    );
    expect(scout).toMatchObject({
      id: "dep_groq_meta-llama-llama-4-scout-17b-16e-instruct_api_global",
      model_id: "meta/llama-4-scout-17b-16e-instruct",
    });
    expect(groqModelId("llama-3.3-70b-versatile")).toBe("meta/llama-3.3-70b-versatile");
    expect(groqModelId("moonshotai/kimi-k2-instruct-0905")).toBe("moonshot/kimi-k2-instruct-0905");
    expect(groqModelId("gemma2-9b-it")).toBe("google/gemma2-9b-it");
    expect(groqModelId("groq/compound")).toBe("groq/compound");
    expect(groqModelId("tts-arabic")).toBeNull();
  });

  it("reads the page's cells", () => {
    expect(groqShutdownDate("08/16/26")).toBe("2026-08-16");
    expect(groqShutdownDate("1/6/25")).toBe("2025-01-06");
    expect(groqShutdownDate("2026-08-16")).toBeNull();
    expect(groqReplacements("qwen-qwq-32b meta-llama/llama-4-scout-17b-16e-instruct")).toEqual([
      "qwen-qwq-32b",
      "meta-llama/llama-4-scout-17b-16e-instruct",
    ]);
    expect(
      groqReplacements("llama-3.2-11b-vision-preview llama-3.1-8b-instant (text-only workloads)"),
    ).toEqual(["llama-3.2-11b-vision-preview", "llama-3.1-8b-instant"]);
    expect(groqReplacements("—")).toEqual([]);
    expect(groqAnnouncement("On January 6th, we deprecated our preview versions")).toBeNull();
  });

  it("fails on a shutdown date that is not MM/DD/YY", () => {
    expectParseFailure(
      () =>
        deprecations(
          edit(input, (c) =>
            c.replace("| 08/16/26      | openai/gpt-oss-20b", "| soon          | openai/gpt-oss-20b"),
          ),
        ),
      'deprecations: llama-3.1-8b-instant: "soon" is not a MM/DD/YY shutdown date',
    );
  });

  it("fails when the deprecation tables lose their Shutdown Date column", () => {
    expectParseFailure(
      () => deprecations(edit(input, (c) => c.replaceAll("Shutdown Date", "Sunset"))),
      "deprecations: found no deprecation table (Deprecated Model | Shutdown Date | Recommended Replacement Model ID)",
    );
  });
});

describe("groq supported models", () => {
  it("gives every token model its context window, max completion tokens, prices and declared stage", () => {
    const out = ParseOutput.parse(models(modelsInput));
    expect(out.deployments.map((d) => d.provider_model_id)).toEqual([
      "llama-3.1-8b-instant",
      "llama-3.3-70b-versatile",
      "openai/gpt-oss-120b",
      "openai/gpt-oss-20b",
      "groq/compound",
      "groq/compound-mini",
      "meta-llama/llama-prompt-guard-2-22m",
      "meta-llama/llama-prompt-guard-2-86m",
      "minimaxai/minimax-m2.7",
      "openai/gpt-oss-safeguard-20b",
      "qwen/qwen3.6-27b",
      "qwen/qwen3.8-27b",
    ]);
    const byId = new Map(out.deployments.map((d) => [d.provider_model_id, d]));
    expect(byId.get("openai/gpt-oss-120b")).toMatchObject({
      id: "dep_groq_openai-gpt-oss-120b_api_global",
      model_id: "openai/gpt-oss-120b",
      context_tokens: 131_072,
      max_output_tokens: 65_536,
      status: "available",
      rate_card: {
        input_micro_usd: 150_000,
        cached_input_micro_usd: null,
        output_micro_usd: 600_000,
        source_url: "https://console.groq.com/docs/models.md",
        observed_at: "2026-06-17T00:00:00Z",
      },
    });
    expect(byId.get("openai/gpt-oss-safeguard-20b")).toMatchObject({
      context_tokens: 131_072,
      max_output_tokens: 65_536,
      status: "preview",
      rate_card: { input_micro_usd: 75_000, output_micro_usd: 300_000 },
    });
    expect(byId.get("qwen/qwen3.8-27b")).toMatchObject({
      context_tokens: 131_042,
      max_output_tokens: 16_384,
    });
    // "ContactSales" is no published price: the deployment has limits and no rate card.
    expect(byId.get("llama-3.3-70b-versatile")).toMatchObject({
      context_tokens: 131_072,
      max_output_tokens: 32_768,
    });
    expect(byId.get("llama-3.3-70b-versatile")?.rate_card).toBeUndefined();
    expect(out.skipped).toEqual([
      {
        reason: "priced per hour or per character (speech models), not per token",
        count: 4,
        examples: [
          "whisper-large-v3",
          "whisper-large-v3-turbo",
          "canopylabs/orpheus-arabic-saudi",
          "canopylabs/orpheus-v1-english",
        ],
      },
    ]);
    expect(out.lifecycle).toEqual([]);
  });

  it("reads the model id after the linked name and the Enterprise badge", () => {
    expect(
      groqRowModelId(
        "[![Meta](https://x/m.png)Llama 3.3 70B](/docs/model/llama-3.3-70b-versatile)Enterprisellama-3.3-70b-versatile",
      ),
    ).toBe("llama-3.3-70b-versatile");
    expect(
      groqRowModelId(
        "[Safety GPT OSS 20B](/docs/model/openai/gpt-oss-safeguard-20b)openai/gpt-oss-safeguard-20b",
      ),
    ).toBe("openai/gpt-oss-safeguard-20b");
    expect(groqRowModelId("qwen/qwen3.8-27b")).toBe("qwen/qwen3.8-27b");
    expect(groqRowModelId("Llama 3.3 70B")).toBeNull();
  });

  it("reads price cells exactly", () => {
    expect(groqTokenPrices(modelsInput, "$0.075 input$0.30 output")).toEqual({
      input: 75_000,
      cachedInput: null,
      output: 300_000,
    });
    expect(groqTokenPrices(modelsInput, "ContactSales")).toBeNull();
    expect(groqTokenPrices(modelsInput, "\\-")).toBeNull();
    expect(groqTokenPrices(modelsInput, "$0.111 per hour")).toBe("not-token");
    expect(groqTokenPrices(modelsInput, "$22.00 per 1M characters")).toBe("not-token");
    expectParseFailure(
      () => groqTokenPrices(modelsInput, "$0.15 per request"),
      'models: "$0.15 per request" is not a price the parser knows',
    );
  });

  it("fails when the tables lose their Context Window column", () => {
    expectParseFailure(
      () => models(edit(modelsInput, (c) => c.replaceAll("CONTEXT WINDOW (TOKENS)", "WINDOW"))),
      "models: found no models table (Model ID | ... | Context Window (tokens) | Max Completion Tokens | ...)",
    );
  });
});
