/**
 * models-sold-by-azure-2026-09: the Learn page "Foundry Models sold by Azure" as a stored copy
 * of its processed Markdown had it (ms.date 09/21/2026), read by azure-model-facts: the GPT-6.1,
 * GPT-6 and GPT-5.6 rows and the newer gpt-chat-latest versions the June 2026 file lacks.
 */
import { describe, expect, it } from "vitest";
import {
  parsers as azureParsers,
  describedCapabilities,
} from "../../src/normalize/parsers/azure-model-facts.js";
import { type ModelFact, ParseOutput } from "../../src/schema/index.js";
import { conditional, supported } from "../helpers/capabilities.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const azure = defined(azureParsers["azure-model-facts"], "parser azure-model-facts");
const inferred = { status: "supported", verification_status: "official_inferred" };

function byId(facts: readonly ModelFact[] | undefined): Map<string, ModelFact> {
  return new Map((facts ?? []).filter((f) => f.modes === undefined).map((f) => [f.provider_model_id, f]));
}

const NEWEST = {
  reasoning: supported,
  structured_output: supported,
  vision: supported,
  tool_calling: supported,
  parallel_tool_calling: supported,
  computer_use: supported,
};

describe("azure/models-sold-by-azure-2026-09", () => {
  it("is the Learn page of September 2026, archived (never fetched), observed at its ms.date", async () => {
    const input = await recordedInput("azure", "models-sold-by-azure-2026-09");
    expect(input.source.archived).toBe(true);
    expect(input.source.url).toBe(
      "https://learn.microsoft.com/azure/foundry/foundry-models/concepts/models-sold-directly-by-azure",
    );
    expect(input.observedAt).toBe("2026-09-21T00:00:00Z");
    expect(input.content).toContain("ms.date: 09/21/2026");
    // the other-models pivot (Model | Type | Capabilities tables) is not recorded
    expect(input.content).not.toContain("azure-direct-others");
  });

  it("reads GPT-5.6 and GPT-6: 1,050,000 tokens, 128,000 out, reasoning, structured output, vision, tools", async () => {
    const input = await recordedInput("azure", "models-sold-by-azure-2026-09");
    const out = ParseOutput.parse(azure(input));
    const facts = byId(out.model_facts);
    expect(facts.get("gpt-5.6-sol-2026-07-09")).toEqual({
      provider_id: "azure",
      provider_model_id: "gpt-5.6-sol-2026-07-09",
      context_tokens: 1_050_000,
      max_output_tokens: 128_000,
      capabilities: NEWEST,
      evidence: {
        source_url: input.source.url,
        source_type: "official_docs",
        observed_at: "2026-09-21T00:00:00Z",
        verification_status: "official_declared",
      },
    });
    for (const id of [
      "gpt-5.6-terra-2026-07-09",
      "gpt-5.6-luna-2026-07-09",
      "gpt-6-astra-2026-09-03",
      "gpt-6-luna-2026-09-22",
      "gpt-6-sol-2026-09-22",
    ])
      expect(facts.get(id)).toMatchObject({
        context_tokens: 1_050_000,
        max_output_tokens: 128_000,
        capabilities: NEWEST,
      });
    // "Functions, tools, and parallel tool calling (Responses API only)": conditional
    expect(facts.get("gpt-6.1-sol-2026-09-29")).toMatchObject({
      context_tokens: 1_050_000,
      max_output_tokens: 128_000,
      capabilities: { ...NEWEST, tool_calling: conditional, parallel_tool_calling: conditional },
    });
  });

  it("reads the four gpt-chat-latest versions, the newest with a 400,000-token window", async () => {
    const facts = byId(azure(await recordedInput("azure", "models-sold-by-azure-2026-09")).model_facts);
    expect(facts.get("gpt-chat-latest-2026-08-06")).toMatchObject({
      context_tokens: 400_000,
      max_output_tokens: 128_000,
      capabilities: {
        reasoning: supported,
        structured_output: supported,
        tool_calling: supported,
        parallel_tool_calling: supported,
      },
    });
    for (const id of [
      "gpt-chat-latest-2026-06-24",
      "gpt-chat-latest-2026-05-28",
      "gpt-chat-latest-2026-05-05",
    ])
      expect(facts.get(id)).toMatchObject({ context_tokens: 128_000, max_output_tokens: 16_384 });
    // no vision bullet: unknown, not unsupported
    expect(facts.get("gpt-chat-latest-2026-08-06")?.capabilities?.vision).toBeUndefined();
  });

  it("reads the newer audio, transcription and image models, and gpt-audio's input limit as printed", async () => {
    const out = azure(await recordedInput("azure", "models-sold-by-azure-2026-09"));
    const facts = byId(out.model_facts);
    // descriptions the parser does not read as a capability: limits only
    for (const id of [
      "gpt-realtime-translate-2026-05-06",
      "gpt-realtime-whisper-2026-05-06",
      "gpt-live-transcribe-2026-07-29",
    ])
      expect(facts.get(id)).toMatchObject({ context_tokens: 32_000, max_output_tokens: 4_096 });
    expect(facts.get("gpt-live-transcribe-2026-07-29")?.capabilities).toBeUndefined();
    expect(facts.get("gpt-transcribe")).toMatchObject({
      capabilities: { audio_input: inferred },
      version_unstated: true,
    });
    for (const id of ["gpt-image-2", "gpt-image-2.5-flare", "gpt-image-2.5-sunburst"])
      expect(facts.get(id)).toMatchObject({
        capabilities: { image_output: inferred },
        version_unstated: true,
      });
    expect(facts.get("sora-2")).toMatchObject({
      capabilities: { video_output: inferred },
      version_unstated: true,
    });
    // June 2026 printed "Input: 128,00" (unknown there); this copy prints 128,000
    for (const id of ["gpt-audio-2025-08-28", "gpt-audio-mini-2025-10-06"])
      expect(facts.get(id)).toMatchObject({ context_tokens: 128_000, max_output_tokens: 16_384 });
    expect(out.skipped).toEqual([
      {
        reason: "context window for provisioned managed deployments (no such deployments)",
        count: 3,
        examples: ["gpt-4.1-2025-04-14", "gpt-4.1-nano-2025-04-14", "gpt-4.1-mini-2025-04-14"],
      },
    ]);
    expect(facts.size).toBe(92);
  });

  it("fails on a tool-calling bullet with a qualifier it does not know, never reading it as plain support", async () => {
    const input = await recordedInput("azure", "models-sold-by-azure-2026-09");
    expectParseFailure(
      () =>
        azure(
          edit(input, (c) =>
            c.replace("parallel tool calling (Responses API only)", "parallel tool calling (Batch API only)"),
          ),
        ),
      'models-sold-by-azure-2026-09: gpt-6.1-sol-2026-09-29: tool calling bullet "Functions, tools, and',
    );
    expect(describedCapabilities("- Function calling (Responses API only)")).toEqual({
      tool_calling: conditional,
    });
    expect(() => describedCapabilities("- Functions and tools (preview)")).toThrow(/unknown qualifier/);
  });
});
