import { describe, expect, it } from "vitest";
import { parsers } from "../../src/normalize/parsers/google-vertex-partner-models.js";
import { ParseOutput } from "../../src/schema/index.js";
import { supported } from "../helpers/capabilities.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const page = defined(parsers["google-vertex-partner-models"], "parser google-vertex-partner-models");

async function parsed(name: string): Promise<ParseOutput> {
  return ParseOutput.parse(page(await recordedInput("google-vertex", name)));
}

describe("Vertex AI Partner models and Open models overviews", () => {
  it("Partner models: a model fact per non-Anthropic row, for the id its Model card link names; vision only where stated", async () => {
    const input = await recordedInput("google-vertex", "partner-models");
    const out = ParseOutput.parse(page(input));
    expect(out.deployments).toEqual([]);
    const facts = new Map((out.model_facts ?? []).map((f) => [f.provider_model_id, f]));
    expect([...facts.keys()].sort()).toEqual([
      "codestral-2",
      "jamba-1.5-large",
      "jamba-1.5-mini",
      "mistral-medium-3",
      "mistral-ocr-2505",
      "mistral-small-2503",
      "xai/grok-4.1-fast-non-reasoning",
      "xai/grok-4.1-fast-reasoning",
      "xai/grok-4.20-non-reasoning",
      "xai/grok-4.20-reasoning",
      "xai/grok-4.3",
    ]);
    for (const fact of facts.values()) {
      expect(fact.provider_id).toBe("google-vertex");
      expect(fact.context_tokens).toBeUndefined();
      expect(fact.evidence).toEqual({
        source_url: input.source.url,
        source_type: "official_docs",
        observed_at: input.observedAt,
        verification_status: "official_declared",
      });
    }
    expect(facts.get("mistral-ocr-2505")?.capabilities).toEqual({ vision: supported });
    expect(facts.get("mistral-small-2503")?.capabilities).toBeUndefined();
    expect(out.skipped).toEqual([
      {
        reason: "anthropic rows are left to their own source",
        count: 14,
        examples: [
          "Claude Sonnet 5",
          "Claude Fable 5",
          "Claude Opus 4.8",
          "Claude Opus 4.7",
          "Claude Sonnet 4.6",
        ],
      },
    ]);
  });

  it("a (Preview) mark gives a vertex-ai deployment assertion with status preview, no dates", async () => {
    const out = await parsed("partner-models");
    expect(
      out.lifecycle.map((a) => [a.target?.provider_model_id, a.target?.api_surface, a.status]).sort(),
    ).toEqual([
      ["jamba-1.5-large", "vertex-ai", "preview"],
      ["jamba-1.5-mini", "vertex-ai", "preview"],
      ["xai/grok-4.1-fast-non-reasoning", "vertex-ai", "preview"],
      ["xai/grok-4.1-fast-reasoning", "vertex-ai", "preview"],
      ["xai/grok-4.20-non-reasoning", "vertex-ai", "preview"],
      ["xai/grok-4.20-reasoning", "vertex-ai", "preview"],
      ["xai/grok-4.3", "vertex-ai", "preview"],
    ]);
    for (const a of out.lifecycle) {
      expect(a.scope).toBe("deployment");
      expect(a.model_id).toBeUndefined();
      expect(a.deprecation).toBeUndefined();
      expect(a.end_of_life).toBeUndefined();
    }
  });

  it("Open models: rows whose Model card link names another model are skipped; the embedding table is not read", async () => {
    const out = await parsed("open-models");
    expect((out.model_facts ?? []).map((f) => f.provider_model_id).sort()).toEqual([
      "deepseek-ai/deepseek-ocr-maas",
      "deepseek-ai/deepseek-r1-0528-maas",
      "deepseek-ai/deepseek-v3.1-maas",
      "deepseek-ai/deepseek-v3.2-maas",
      "google/gemma-4-26b-a4b-it-maas",
      "meta/llama-3.3-70b-instruct-maas",
      "meta/llama-4-maverick-17b-128e-instruct-maas",
      "minimaxai/minimax-m2-maas",
      "moonshotai/kimi-k2-thinking-maas",
      "openai/gpt-oss-120b-maas",
      "openai/gpt-oss-20b-maas",
      "qwen/qwen3-235b-a22b-instruct-2507-maas",
      "qwen/qwen3-coder-480b-a35b-instruct-maas",
      "zai-org/glm-4.7-maas",
      "zai-org/glm-5-maas",
    ]);
    expect(out.lifecycle).toEqual([]);
    expect(out.skipped).toEqual([
      {
        reason: "the row's Model card link names another model",
        count: 3,
        examples: [
          "Llama 4 Scout 17B-16E -> llama-4-maverick-17b-128e-instruct-maas",
          "Qwen3-Next-80B Instruct -> qwen3-coder-480b-a35b-instruct-maas",
          "Qwen3-Next-80B Thinking -> qwen3-coder-480b-a35b-instruct-maas",
        ],
      },
    ]);
  });

  it("no table, a row without its Model card link, an unknown modality or a model named twice fails to parse", async () => {
    const input = await recordedInput("google-vertex", "partner-models");
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("## Partner models", "## Models"))),
      'partner-models: no Modality table under "## Partner models" or "## Open models"',
    );
    expectParseFailure(
      () =>
        page(
          edit(input, (c) =>
            c.replace("/publishers/mistralai/model-garden/mistral-medium-3)", "/mistral-medium-3)"),
          ),
        ),
      'partner-models: "Mistral Medium 3": not one Model card link (…/publishers/<publisher>/model-garden/<model>)',
    );
    expectParseFailure(
      () =>
        page(
          edit(input, (c) =>
            c.replace("| Mistral Medium 3 | Language |", "| Mistral Medium 3 | Language, Audio |"),
          ),
        ),
      'partner-models: mistral-medium-3: unknown modality "audio"',
    );
    const codestral = defined(
      input.content.split("\n").find((l) => l.startsWith("| Codestral 2 |")),
      "the Codestral 2 row",
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace(codestral, `${codestral}\n${codestral}`))),
      "partner-models: codestral-2 is named twice",
    );
  });
});
