import { describe, expect, it } from "vitest";
import { parsers } from "../../src/normalize/parsers/google-vertex-maas.js";
import { type ModelFact, ParseOutput } from "../../src/schema/index.js";
import { conditional, supported, textOnly, unsupported } from "../helpers/capabilities.js";
import { loadDefinition, recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { recordedModelPages } from "../helpers/model-pages.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const page = defined(parsers["google-vertex-maas-page"], "parser google-vertex-maas-page");

async function parsed(name: string): Promise<ParseOutput> {
  return ParseOutput.parse(page(await recordedInput("google-vertex", name)));
}

async function factOf(name: string, id: string): Promise<ModelFact> {
  const facts = (await parsed(name)).model_facts ?? [];
  return defined(
    facts.find((f) => f.provider_model_id === id),
    id,
  );
}

const day = (date: string) => ({ state: "scheduled", date, precision: "day", date_type: "on" });

describe("Vertex AI MaaS model pages", () => {
  it("every recorded maas page yields official model facts of google-vertex, no deployments", async () => {
    const pages = await recordedModelPages("google-vertex", /^maas-/, { lifecycle: "allowed" });
    expect(pages.size).toBe(13);
    const ids: string[] = [];
    for (const [name, out] of pages) {
      expect((await loadDefinition("google-vertex", name)).parser).toBe("google-vertex-maas-page");
      const facts = out.model_facts ?? [];
      ids.push(...facts.map((f) => f.provider_model_id));
      for (const assertion of out.lifecycle) {
        expect(assertion.scope).toBe("deployment");
        expect(facts.map((f) => f.provider_model_id)).toContain(assertion.target?.provider_model_id);
      }
    }
    expect(ids.sort()).toEqual([
      "codestral-2",
      "deepseek-ai/deepseek-v3.1-maas",
      "meta/llama-3.3-70b-instruct-maas",
      "meta/llama-4-maverick-17b-128e-instruct-maas",
      "meta/llama-4-scout-17b-16e-instruct-maas",
      "minimaxai/minimax-m2-maas",
      "moonshotai/kimi-k2-thinking-maas",
      "openai/gpt-oss-120b-maas",
      "openai/gpt-oss-20b-maas",
      "qwen/qwen3-235b-a22b-instruct-2507-maas",
      "qwen/qwen3-coder-480b-a35b-instruct-maas",
      "qwen/qwen3-next-80b-a3b-instruct-maas",
      "xai/grok-4.1-fast-non-reasoning",
      "xai/grok-4.1-fast-reasoning",
    ]);
  });

  it("reads each block's Versions row Release date as released_at, in the HTML table and the text rendering", async () => {
    const pages = await recordedModelPages("google-vertex", /^maas-/, { lifecycle: "allowed" });
    const released = Object.fromEntries(
      [...pages.values()].flatMap((out) =>
        (out.model_facts ?? []).map((f) => [f.provider_model_id, f.released_at ?? null]),
      ),
    );
    expect(released).toEqual({
      "codestral-2": "2025-10-16",
      "deepseek-ai/deepseek-v3.1-maas": "2025-08-28",
      "meta/llama-3.3-70b-instruct-maas": "2025-04-29",
      "meta/llama-4-maverick-17b-128e-instruct-maas": "2025-04-29",
      "meta/llama-4-scout-17b-16e-instruct-maas": "2025-04-29",
      "minimaxai/minimax-m2-maas": "2025-11-04",
      "moonshotai/kimi-k2-thinking-maas": "2025-11-13",
      "openai/gpt-oss-120b-maas": "2025-08-13",
      "openai/gpt-oss-20b-maas": "2025-08-13",
      "qwen/qwen3-235b-a22b-instruct-2507-maas": "2025-08-13",
      "qwen/qwen3-coder-480b-a35b-instruct-maas": "2025-08-13",
      "qwen/qwen3-next-80b-a3b-instruct-maas": "2025-09-15",
      "xai/grok-4.1-fast-non-reasoning": "2026-04-07",
      "xai/grok-4.1-fast-reasoning": "2026-04-07",
    });
  });

  it("a Versions row without a release date, or with two, states no released_at", async () => {
    const input = await recordedInput("google-vertex", "maas-qwen3-coder");
    for (const change of [
      (c: string) => c.replace("<li>Release date: August 13, 2025</li>", ""),
      (c: string) =>
        c.replace(
          "<li>Release date: August 13, 2025</li>",
          "<li>Release date: August 13, 2025</li><li>Release date: May 1, 2026</li>",
        ),
    ]) {
      const [fact] = ParseOutput.parse(page(edit(input, change))).model_facts ?? [];
      expect(fact?.provider_model_id).toBe("qwen/qwen3-coder-480b-a35b-instruct-maas");
      expect(fact?.released_at).toBeUndefined();
    }
  });

  it("Qwen3 Coder (HTML table): the global quota, the capability list, batch, and the Caution banner's dates", async () => {
    const out = await parsed("maas-qwen3-coder");
    expect(out.model_facts).toHaveLength(1);
    const fact = defined(out.model_facts?.[0], "qwen3-coder fact");
    expect(fact.provider_model_id).toBe("qwen/qwen3-coder-480b-a35b-instruct-maas");
    expect(fact.context_tokens).toBe(262_144);
    expect(fact.max_output_tokens).toBe(65_536);
    expect(fact.capabilities).toEqual({
      ...textOnly,
      tool_calling: supported,
      structured_output: supported,
      // "Thinking Not supported": Vertex's thinking feature, not whether the model reasons
      batch: supported,
    });
    expect(out.lifecycle).toEqual([
      {
        scope: "deployment",
        provider_id: "google-vertex",
        target: { provider_model_id: "qwen/qwen3-coder-480b-a35b-instruct-maas", api_surface: "vertex-ai" },
        deprecation: { ...day("2026-07-21"), evidence: [fact.evidence] },
        end_of_life: { ...day("2026-10-21"), evidence: [fact.evidence] },
        evidence: fact.evidence,
      },
    ]);
  });

  it("the Caution banner gives each deprecated endpoint its deprecation and retirement day, no status and no model_id", async () => {
    for (const [name, id] of [
      ["maas-qwen3-next-instruct", "qwen/qwen3-next-80b-a3b-instruct-maas"],
      ["maas-llama3-3", "meta/llama-3.3-70b-instruct-maas"],
      ["maas-kimi-k2-thinking", "moonshotai/kimi-k2-thinking-maas"],
      ["maas-minimax-m2", "minimaxai/minimax-m2-maas"],
      ["maas-deepseek-v31", "deepseek-ai/deepseek-v3.1-maas"],
    ] as const) {
      const [assertion, ...rest] = (await parsed(name)).lifecycle;
      expect(rest).toEqual([]);
      expect(assertion).toMatchObject({
        scope: "deployment",
        target: { provider_model_id: id, api_surface: "vertex-ai" },
        deprecation: day("2026-07-21"),
        end_of_life: day("2026-10-21"),
      });
      // Vertex retires its endpoint, not the lab's model: the assertion never becomes a model's lifecycle
      expect(assertion && "model_id" in assertion).toBe(false);
      expect(assertion?.status).toBeUndefined();
    }
    for (const name of ["maas-qwen3-235b", "maas-gpt-oss-120b", "maas-gpt-oss-20b", "maas-llama4-scout"])
      expect((await parsed(name)).lifecycle).toEqual([]);
  });

  it("the text rendering of the table reads the same rows (Qwen3 235B, gpt-oss 120B / 20B)", async () => {
    const qwen = await factOf("maas-qwen3-235b", "qwen/qwen3-235b-a22b-instruct-2507-maas");
    expect([qwen.context_tokens, qwen.max_output_tokens]).toEqual([262_144, 16_384]);
    expect(qwen.capabilities).toEqual({
      ...textOnly,
      tool_calling: supported,
      structured_output: supported,
      // "Thinking Not supported": Vertex's thinking feature, not whether the model reasons
      batch: supported,
    });
    const big = await factOf("maas-gpt-oss-120b", "openai/gpt-oss-120b-maas");
    expect([big.context_tokens, big.max_output_tokens]).toEqual([131_072, 131_072]);
    // a reasoning model whose page says "Thinking Not supported" (Vertex's thinking feature): unknown, not unsupported
    expect(big.capabilities?.reasoning).toBeUndefined();
    expect(big.capabilities?.tool_calling).toEqual(supported);
    // only us-central1 is listed
    const small = await factOf("maas-gpt-oss-20b", "openai/gpt-oss-20b-maas");
    expect([small.context_tokens, small.max_output_tokens]).toEqual([131_072, 32_768]);
    expect(small.capabilities?.batch).toEqual(supported);
    const next = await factOf("maas-qwen3-next-instruct", "qwen/qwen3-next-80b-a3b-instruct-maas");
    expect([next.context_tokens, next.max_output_tokens, next.capabilities?.batch]).toEqual([
      262_144,
      262_144,
      unsupported,
    ]);
  });

  it("Kimi K2 Thinking: Thinking supported is reasoning; batch inference not supported", async () => {
    const fact = await factOf("maas-kimi-k2-thinking", "moonshotai/kimi-k2-thinking-maas");
    expect([fact.context_tokens, fact.max_output_tokens]).toEqual([262_144, 262_144]);
    expect(fact.capabilities?.reasoning).toEqual(supported);
    expect(fact.capabilities?.batch).toEqual(unsupported);
    const deepseek = await factOf("maas-deepseek-v31", "deepseek-ai/deepseek-v3.1-maas");
    expect([deepseek.context_tokens, deepseek.max_output_tokens]).toEqual([163_840, 32_768]);
    const minimax = await factOf("maas-minimax-m2", "minimaxai/minimax-m2-maas");
    expect([minimax.context_tokens, minimax.max_output_tokens]).toEqual([196_608, 196_608]);
  });

  it("the older layout: inputs & outputs, Supported / Not supported lists, per-region quota limits", async () => {
    const maverick = await factOf("maas-llama4-maverick", "meta/llama-4-maverick-17b-128e-instruct-maas");
    expect([maverick.context_tokens, maverick.max_output_tokens]).toEqual([524_288, 8_192]);
    // the table lists Batch predictions as supported, the Considerations say they are not: unread
    expect(maverick.capabilities).toEqual({
      vision: supported,
      image_output: unsupported,
      audio_input: unsupported,
      audio_output: unsupported,
      video_input: unsupported,
      tool_calling: supported,
      structured_output: supported,
    });
    const scout = await factOf("maas-llama4-scout", "meta/llama-4-scout-17b-16e-instruct-maas");
    expect([scout.context_tokens, scout.max_output_tokens]).toEqual([1_310_720, 8_192]);
    const llama33 = await factOf("maas-llama3-3", "meta/llama-3.3-70b-instruct-maas");
    expect([llama33.context_tokens, llama33.max_output_tokens]).toEqual([128_000, 8_192]);
    expect(llama33.capabilities).toEqual({
      ...textOnly,
      batch: supported,
      tool_calling: supported,
      structured_output: supported,
    });
  });

  it("Codestral 2 (publisher mistralai): the bare Model ID, as Vertex addresses Mistral's models; context only, two regions", async () => {
    const fact = await factOf("maas-codestral-2", "codestral-2");
    expect([fact.context_tokens, fact.max_output_tokens]).toEqual([128_000, undefined]);
    expect(fact.capabilities).toEqual({ ...textOnly, video_input: unsupported });
    expect(fact.released_at).toBe("2025-10-16");
  });

  it("Grok 4.1 Fast: one table per model, preview features conditional, no max output, the Deprecated banner", async () => {
    const out = await parsed("maas-grok-4-1-fast");
    const [reasoning, nonReasoning] = out.model_facts ?? [];
    expect(reasoning?.provider_model_id).toBe("xai/grok-4.1-fast-reasoning");
    expect(nonReasoning?.provider_model_id).toBe("xai/grok-4.1-fast-non-reasoning");
    for (const fact of [reasoning, nonReasoning]) {
      expect(fact?.context_tokens).toBe(128_000);
      expect(fact && "max_output_tokens" in fact).toBe(false);
      expect(fact?.capabilities).toMatchObject({
        vision: supported,
        tool_calling: conditional,
        structured_output: conditional,
        batch: unsupported,
      });
    }
    expect(reasoning?.capabilities?.reasoning).toEqual(conditional);
    expect(nonReasoning?.capabilities?.reasoning).toEqual(unsupported);
    expect(out.lifecycle.map((a) => [a.target?.provider_model_id, a.status, a.end_of_life?.date])).toEqual([
      ["xai/grok-4.1-fast-reasoning", "deprecated", "2026-08-20"],
      ["xai/grok-4.1-fast-non-reasoning", "deprecated", "2026-08-20"],
    ]);
    for (const a of out.lifecycle) {
      expect(a.end_of_life).toMatchObject(day("2026-08-20"));
      expect(a.deprecation).toBeUndefined();
    }
  });

  it("limits: global when listed, else the only region, else the smallest of each limit", async () => {
    const input = await recordedInput("google-vertex", "maas-qwen3-coder");
    const limits = (content: string) => {
      const fact = page({ ...input, content }).model_facts?.[0];
      return [fact?.context_tokens, fact?.max_output_tokens];
    };
    const smaller = input.content.replace(
      "<code>us-south1</code></strong> : 65,536 maximum output, 262,144 context length",
      "<code>us-south1</code></strong> : 8,192 maximum output, 131,072 context length",
    );
    expect(smaller).not.toBe(input.content);
    expect(limits(smaller)).toEqual([262_144, 65_536]);
    const noGlobal = smaller.replace("<code>global</code></strong> :", "<code>us-east5</code></strong> :");
    expect(noGlobal).not.toBe(smaller);
    expect(limits(noGlobal)).toEqual([131_072, 8_192]);
  });

  it("a page without the table, its Model ID, limits, modalities or a publisher, or with an unread banner, fails to parse", async () => {
    const html = await recordedInput("google-vertex", "maas-qwen3-coder");
    const text = await recordedInput("google-vertex", "maas-qwen3-235b");
    const older = await recordedInput("google-vertex", "maas-llama4-maverick");
    const grok = await recordedInput("google-vertex", "maas-grok-4-1-fast");
    const fails = (input: typeof html, change: (c: string) => string, expected: string) =>
      expectParseFailure(() => page(edit(input, change)), expected);
    // no specifications table
    fails(
      html,
      (c) => c.replace("<th>Model ID</th>", "<th>Model</th>"),
      'maas-qwen3-coder: no specifications table (an HTML table or a "## Managed API (MaaS)',
    );
    fails(
      text,
      (c) => c.replace("## Managed API (MaaS) specifications", "## Specifications"),
      'maas-qwen3-235b: no specifications table (an HTML table or a "## Managed API (MaaS) specifications"',
    );
    fails(
      text,
      (c) => c.replace("\nModel ID\n", "\nModel\n"),
      'maas-qwen3-235b: no specifications table (an HTML table or a "## Managed API (MaaS) specifications"',
    );
    // a Model ID that is not an id
    fails(
      html,
      (c) => c.replace("<td><code>qwen3-coder-480b-a35b-instruct-maas</code></td>", "<td>Qwen3 Coder</td>"),
      'maas-qwen3-coder: "Qwen3 Coder" is not a model id',
    );
    // limits
    fails(
      html,
      (c) => c.replace("<th>Quotas</th>", "<th>Throughput</th>"),
      "maas-qwen3-coder: qwen/qwen3-coder-480b-a35b-instruct-maas: no Quotas / Quota limits / Limits row",
    );
    fails(
      html,
      (c) => c.replace(/262,144 context length/g, "256K tokens of context"),
      'maas-qwen3-coder: qwen/qwen3-coder-480b-a35b-instruct-maas: quota "global : 65,536 maximum output,',
    );
    fails(
      text,
      (c) => c.replace(/262,144 context length/g, "large context length"),
      'maas-qwen3-235b: qwen/qwen3-235b-a22b-instruct-2507-maas: quota "global : 16,384 maximum output,',
    );
    fails(
      older,
      (c) => c.replace("Context length: 524,288", "Context: 524,288"),
      "maas-llama4-maverick: meta/llama-4-maverick-17b-128e-instruct-maas: no context length",
    );
    // modalities
    fails(
      html,
      (c) => c.replace("<th>Modalities</th>", "<th>Media</th>"),
      "maas-qwen3-coder: qwen/qwen3-coder-480b-a35b-instruct-maas: no Modalities or Supported inputs & outputs row",
    );
    fails(
      older,
      (c) => c.replace("Inputs:\nText , Code , Images", "In: Text , Code , Images"),
      'maas-llama4-maverick: meta/llama-4-maverick-17b-128e-instruct-maas: Supported inputs & outputs "In:',
    );
    // a capability item without a status
    fails(
      html,
      (c) => c.replace("Function calling</a><br />\nSupported", "Function calling</a><br />\nSee docs"),
      'maas-qwen3-coder: qwen/qwen3-coder-480b-a35b-instruct-maas: "Function calling See docs" has no',
    );
    // publisher
    fails(
      html,
      (c) => c.replaceAll("/publishers/qwen/", "/models/qwen/"),
      "maas-qwen3-coder: no Model Garden link (…/publishers/<publisher>/model-garden/…) names the publisher",
    );
    fails(
      html,
      (c) =>
        c.replace(
          "[Pricing](",
          "[Card](https://console.cloud.google.com/agent-platform/publishers/alibaba/model-garden/qwen3-coder) [Pricing](",
        ),
      "maas-qwen3-coder: the Model Garden links name several publishers: alibaba, qwen",
    );
    // banners
    fails(
      html,
      (c) => c.replace("endpoint is deprecated and will be retired on", "endpoint will be turned off on"),
      'maas-qwen3-coder: a deprecation banner is not read: "> **Caution:** As of July 21, 2026, the',
    );
    fails(
      html,
      (c) =>
        c.replace(
          "the `qwen3-coder-480b-a35b-instruct-maas` endpoint",
          "the `qwen3-coder-plus-maas` endpoint",
        ),
      "maas-qwen3-coder: the banner names `qwen3-coder-plus-maas`, not a Model ID of the page",
    );
    fails(
      grok,
      (c) => c.replace("will be shut down on August 20, 2026", "will be shut down later this year"),
      'maas-grok-4-1-fast: a deprecation banner is not read: "> **Deprecated:** The Grok 4.1 model family',
    );
    fails(
      grok,
      (c) => c.replace("`xai/grok-4.1-fast-reasoning` and ", "`xai/grok-4-fast` and "),
      "maas-grok-4-1-fast: the banner names `xai/grok-4-fast`, not a Model ID of the page",
    );
  });
});
