import { describe, expect, it } from "vitest";
import { parsers, togetherModelId } from "../../src/normalize/parsers/together-ai.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure, withContent } from "../helpers/parsers.js";

const models = defined(parsers["together-ai-models"], "parser together-ai-models");
const input = await recordedInput("together-ai", "serverless-models");

describe("together ai serverless models", () => {
  it("the serverless models page is Together AI's catalog of the models it serves (availability_list catalog)", () => {
    expect(ParseOutput.parse(models(input)).availability_list).toBe("catalog");
  });

  it("lists every chat model with its context length and the deprecated ones", () => {
    const out = ParseOutput.parse(models(input));
    expect(out.deployments).toHaveLength(50);
    expect(out.skipped).toEqual([]);
    expect(out.lifecycle).toEqual([]);
    expect(out.deployments.filter((d) => d.status === "available")).toHaveLength(48);
    expect(out.deployments.filter((d) => d.status === "deprecated").map((d) => d.provider_model_id)).toEqual([
      "google/gemma-2b-it",
      "Gryphe/MythoMax-L2-13b",
    ]);
    const llama = out.deployments.find(
      (d) => d.provider_model_id === "meta-llama/Llama-3.3-70B-Instruct-Turbo",
    );
    expect(llama).toMatchObject({
      id: "dep_together-ai_meta-llama-llama-3.3-70b-instruct-turbo_api_global",
      model_id: "meta/llama-3.3-70b-instruct",
      display_name: "Llama 3.3 70B Instruct Turbo",
      context_tokens: 131_072,
    });
    expect(llama?.rate_card).toBeUndefined();
    expect(
      out.deployments.find((d) => d.provider_model_id === "deepseek-ai/DeepSeek-V3")?.context_tokens,
    ).toBe(163_839);
    expect(
      out.deployments.find(
        (d) => d.provider_model_id === "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8",
      ),
    ).toMatchObject({
      display_name: "Llama 4 Maverick (17Bx128E)",
      model_id: "meta/llama-4-maverick-17b-128e-instruct",
    });
  });

  it("reads prices and capabilities when the table has them", () => {
    const markdown = [
      "## Chat models",
      "",
      "| Organization | Model Name | API Model String | Context length | Input pricing (per 1M tokens) | Cached input pricing (per 1M tokens) | Output pricing (per 1M tokens) | Quantization | Function Calling | Structured Outputs |",
      "| :- | :- | :- | :- | :- | :- | :- | :- | :- | :- |",
      "| Minimax | Minimax M2.7 | MiniMaxAI/MiniMax-M2.7 | 202752 | \\$0.30 | \\$0.06 | \\$1.20 | FP4 | Yes | Yes |",
      "| Deep Cogito | Cogito v2.1 671B | deepcogito/cogito-v2-1-671b | 32768 | \\$1.25 | - | \\$1.25 | FP8 | - | Yes |",
    ].join("\n");
    const out = ParseOutput.parse(models(withContent(input, markdown)));
    expect(out.deployments[0]).toMatchObject({
      model_id: "minimax/minimax-m2.7",
      rate_card: { input_micro_usd: 300_000, cached_input_micro_usd: 60_000, output_micro_usd: 1_200_000 },
      capabilities: {
        tool_calling: { status: "supported", verification_status: "official_declared" },
        structured_output: { status: "supported", verification_status: "official_declared" },
      },
    });
    expect(out.deployments[1]?.rate_card?.cached_input_micro_usd).toBeNull();
    expect(out.deployments[1]?.capabilities).toEqual({
      structured_output: { status: "supported", verification_status: "official_declared" },
    });
  });

  it("names models by their maker without Together's serving variants", () => {
    expect(togetherModelId("meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo")).toBe("meta/llama-3.1-8b-instruct");
    expect(togetherModelId("meta-llama/Llama-3.3-70B-Instruct-Turbo-Free")).toBe(
      "meta/llama-3.3-70b-instruct",
    );
    expect(togetherModelId("Qwen/Qwen3-235B-A22B-fp8-tput")).toBe("qwen/qwen3-235b-a22b");
    expect(togetherModelId("zai-org/GLM-4.5-Air-FP8")).toBe("zai/glm-4.5-air");
    expect(togetherModelId("arcee-ai/caller")).toBe("arcee-ai/caller");
    expect(togetherModelId("no-publisher")).toBeNull();
  });

  it("fails on an unreadable context length", () => {
    expectParseFailure(
      () =>
        models(
          edit(input, (c) =>
            c.replace("| 262144         | FP8          |", "| long           | FP8          |"),
          ),
        ),
      'serverless-models: "long" is not a positive token count',
    );
  });

  it("fails when the Chat models table is gone", () => {
    expectParseFailure(
      () => models(edit(input, (c) => c.replace("## Chat models", "## Chat"))),
      "serverless-models: no Chat models table (Organization | Model Name | API Model String ...)",
    );
  });
});

const features = defined(parsers["together-ai-feature-models"], "parser together-ai-feature-models");
const functionCalling = await recordedInput("together-ai", "function-calling");
const structuredOutputs = await recordedInput("together-ai", "structured-outputs");
const vision = await recordedInput("together-ai", "vision");

describe("together ai feature pages (function calling, structured outputs, vision)", () => {
  it("reads every model the Function Calling page lists as supporting tool calling, as model facts", () => {
    const out = ParseOutput.parse(features(functionCalling));
    expect(out.deployments).toEqual([]);
    expect(out.model_facts).toHaveLength(22);
    expect(out.model_facts?.[0]).toMatchObject({
      provider_id: "together-ai",
      provider_model_id: "openai/gpt-oss-120b",
      capabilities: { tool_calling: { status: "supported", verification_status: "official_declared" } },
      evidence: { observed_at: "2025-11-08T01:49:03Z" },
    });
    expect(out.model_facts?.map((f) => f.provider_model_id)).toContain("arcee-ai/virtuoso-large");
  });

  it("reads both JSON mode lists of the Structured Outputs page as structured output", () => {
    const out = ParseOutput.parse(features(structuredOutputs));
    const ids = out.model_facts?.map((f) => f.provider_model_id) ?? [];
    expect(ids).toContain("Qwen/Qwen2.5-VL-72B-Instruct");
    expect(ids).toContain("marin-community/marin-8b-instruct");
    expect(new Set(out.model_facts?.map((f) => Object.keys(f.capabilities ?? {}).join()))).toEqual(
      new Set(["structured_output"]),
    );
  });

  it("reads the Vision page's playground links as the vision models", () => {
    const out = ParseOutput.parse(features(vision));
    expect(out.model_facts?.map((f) => f.provider_model_id)).toEqual([
      "meta-llama/Llama-4-Scout-17B-16E-Instruct",
      "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8",
      "Qwen/Qwen2.5-VL-72B-Instruct",
    ]);
  });

  it("fails on a page whose feature it does not know, and on a bullet it cannot read", () => {
    expectParseFailure(
      () => features(edit(vision, (c) => c.replace("# Vision", "# Audio"))),
      'vision: no feature page this parser knows ("# Audio")',
    );
    expectParseFailure(
      () => features(edit(functionCalling, (c) => c.replace("* `openai/gpt-oss-20b`", "* gpt-oss 20b"))),
      'function-calling: unreadable model bullet "* gpt-oss 20b"',
    );
  });
});

describe("together ai available models page (2026)", () => {
  it("lists the Chat models with context length, prices per 1M tokens and the Yes / - feature cells", async () => {
    const out = ParseOutput.parse(models(await recordedInput("together-ai", "serverless-catalog")));
    expect(out.deployments).toHaveLength(19);
    expect(out.skipped).toEqual([]);
    const pro = out.deployments.find((d) => d.provider_model_id === "deepseek-ai/DeepSeek-V4-Pro-0813");
    expect(pro).toMatchObject({
      context_tokens: 1_048_576,
      status: "available",
      rate_card: {
        input_micro_usd: 1_320_000,
        cached_input_micro_usd: 130_000,
        output_micro_usd: 3_960_000,
        observed_at: "2026-08-13T00:00:00Z",
      },
      capabilities: {
        tool_calling: { status: "supported", verification_status: "official_declared" },
        structured_output: { status: "supported", verification_status: "official_declared" },
      },
    });
    // "-" is not stated: no context length, no capability; "Free" is no price, never zero.
    const max = out.deployments.find((d) => d.provider_model_id === "Qwen/Qwen3.7-Max");
    expect(max?.context_tokens).toBeNull();
    expect(max?.capabilities).toBeUndefined();
    const bonsai = out.deployments.find((d) => d.provider_model_id === "Prism-ML/Ternary-Bonsai-27B");
    expect(bonsai?.rate_card).toBeUndefined();
  });
});
