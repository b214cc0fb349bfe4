import { describe, expect, it } from "vitest";
import { parsers } from "../../src/normalize/parsers/amazon-bedrock-features.js";
import { parserRegistry } from "../../src/normalize/registry.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const promptCaching = defined(
  parsers["amazon-bedrock-prompt-caching"],
  "parser amazon-bedrock-prompt-caching",
);

describe("Amazon Bedrock prompt caching page", () => {
  it("is registered under its parser id", () => {
    expect(parserRegistry["amazon-bedrock-prompt-caching"]).toBe(promptCaching);
  });

  it("gives every Model ID of the supported-models table prompt caching on its on-demand deployments, and not in batch", async () => {
    const out = ParseOutput.parse(promptCaching(await recordedInput("amazon-bedrock", "prompt-caching")));
    expect(out.deployments).toEqual([]);
    expect(out.lifecycle).toEqual([]);
    const facts = out.model_facts ?? [];
    const onDemand = facts.filter((f) => f.modes?.join() === "standard,global");
    const batch = facts.filter((f) => f.modes?.join() === "batch");
    expect(onDemand.length + batch.length).toBe(facts.length);
    expect(onDemand.map((f) => f.provider_model_id)).toEqual([
      "anthropic.claude-haiku-5-5",
      "anthropic.claude-sonnet-5-5",
      "anthropic.claude-opus-5-5",
      "anthropic.claude-fable-5-1",
      "anthropic.claude-mythos-5-1",
      "anthropic.claude-fable-5",
      "anthropic.claude-mythos-5",
      "anthropic.claude-opus-5",
      "anthropic.claude-opus-4-8",
      "anthropic.claude-opus-4-7",
      "anthropic.claude-opus-4-6-v1",
      "anthropic.claude-opus-4-5-20251101-v1:0",
      "anthropic.claude-sonnet-5",
      "anthropic.claude-sonnet-4-6",
      "anthropic.claude-sonnet-4-5-20250929-v1:0",
      "anthropic.claude-3-7-sonnet-20250219-v1:0",
      "anthropic.claude-3-5-sonnet-20241022-v2:0",
      "anthropic.claude-haiku-4-5-20251001-v1:0",
      "openai.gpt-6.1-sol",
      "openai.gpt-5.6-sol",
      "openai.gpt-5.6-terra",
      "openai.gpt-5.6-luna",
      "amazon.nova-2-lite-v1:0",
      "amazon.nova-pro-v1:0",
      "amazon.nova-lite-v1:0",
      "amazon.nova-micro-v1:0",
    ]);
    expect(batch.map((f) => f.provider_model_id)).toEqual(onDemand.map((f) => f.provider_model_id));
    for (const f of onDemand) {
      expect(f.provider_id).toBe("amazon-bedrock");
      expect(f.capabilities).toEqual({
        prompt_caching: { status: "supported", verification_status: "official_declared" },
      });
      expect(f.evidence.verification_status).toBe("official_declared");
      expect(f.context_tokens).toBeUndefined();
    }
    for (const f of batch)
      expect(f.capabilities).toEqual({
        prompt_caching: { status: "unsupported", verification_status: "official_declared" },
      });
  });

  it("a Preview or Gated Release Type is still supported", async () => {
    const out = promptCaching(await recordedInput("amazon-bedrock", "prompt-caching"));
    for (const id of ["anthropic.claude-3-5-sonnet-20241022-v2:0", "anthropic.claude-mythos-5"])
      expect(
        out.model_facts?.find((f) => f.provider_model_id === id && f.modes?.includes("standard"))
          ?.capabilities?.prompt_caching?.status,
      ).toBe("supported");
  });

  it("reads the table under its earlier heading, and states nothing about batch where the page does not", async () => {
    const input = await recordedInput("amazon-bedrock", "prompt-caching");
    const older = edit(input, (c) =>
      c
        .replace(
          "## Supported models, Regions, and explicit caching limits",
          "## Supported models, Regions, and limits",
        )
        .replace(" It is not supported with the batch inference API.", ""),
    );
    const facts = promptCaching(older).model_facts ?? [];
    expect(facts).toHaveLength(26);
    expect(facts.every((f) => f.modes?.join() === "standard,global")).toBe(true);
  });

  it("fails without the table, on a Model ID that is no Bedrock model id, and on a model listed twice", async () => {
    const input = await recordedInput("amazon-bedrock", "prompt-caching");
    expectParseFailure(
      () =>
        promptCaching(
          edit(input, (c) => c.replace("| Model name | Model ID |", "| Model name | Identifier |")),
        ),
      'prompt-caching: no table with a Model ID column under "Supported models, Regions, and explicit caching limits"',
    );
    expectParseFailure(
      () =>
        promptCaching(
          edit(input, (c) =>
            c.replace(
              "| Claude Opus 4.8 | anthropic.claude-opus-4-8 |",
              "| Claude Opus 4.8 | Claude Opus 4.8 |",
            ),
          ),
        ),
      'prompt caching table: Model ID "Claude Opus 4.8" is no Bedrock model id',
    );
    expectParseFailure(
      () =>
        promptCaching(
          edit(input, (c) =>
            c.replace(
              "| Claude Opus 4.8 | anthropic.claude-opus-4-8 |",
              "| Claude Opus 4.8 | anthropic.claude-opus-4-7 |",
            ),
          ),
        ),
      "prompt caching table: anthropic.claude-opus-4-7 is listed twice",
    );
  });
});
