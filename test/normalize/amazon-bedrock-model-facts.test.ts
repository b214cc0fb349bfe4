import { describe, expect, it } from "vitest";
import { parsers } from "../../src/normalize/parsers/amazon-bedrock-model-facts.js";
import { type ModelFact, ParseOutput } from "../../src/schema/index.js";
import { supported, unsupported } from "../helpers/capabilities.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { recordedModelPageFacts } from "../helpers/model-pages.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const card = defined(parsers["amazon-bedrock-model-card"], "parser amazon-bedrock-model-card");

async function factOf(name: string): Promise<ModelFact> {
  const out = ParseOutput.parse(card(await recordedInput("amazon-bedrock", name)));
  expect(out.model_facts).toHaveLength(1);
  return defined(out.model_facts?.[0], `the model fact of ${name}`);
}

describe("Amazon Bedrock model cards", () => {
  it("every recorded model card yields one model fact of provider amazon-bedrock with official evidence, and deployments only of its model", async () => {
    const byCard = await recordedModelPageFacts("amazon-bedrock", /^model-card-/, {
      deployments: "of-its-model",
      lifecycle: "allowed",
    });
    expect(byCard.size).toBe(77);
    for (const facts of byCard.values()) {
      expect(facts).toHaveLength(1);
      // The two Voxtral speech cards print no "Max output tokens" bullet.
      if (!facts[0]?.provider_model_id.startsWith("mistral.voxtral-"))
        expect(facts[0]?.max_output_tokens).toBeGreaterThan(0);
    }
    expect([...byCard.values()].flatMap((f) => f.map((x) => x.provider_model_id)).sort()).toEqual([
      "ai21.jamba-1-5-large-v1:0",
      "ai21.jamba-1-5-mini-v1:0",
      "amazon.nova-2-lite-v1:0",
      "amazon.nova-lite-v1:0",
      "amazon.nova-micro-v1:0",
      "amazon.nova-premier-v1:0",
      "amazon.nova-pro-v1:0",
      "anthropic.claude-3-5-haiku-20241022-v1:0",
      "anthropic.claude-3-haiku-20240307-v1:0",
      "anthropic.claude-fable-5",
      "anthropic.claude-haiku-4-5-20251001-v1:0",
      "anthropic.claude-opus-4-1-20250805-v1:0",
      "anthropic.claude-opus-4-5-20251101-v1:0",
      "anthropic.claude-opus-4-6-v1",
      "anthropic.claude-opus-4-7",
      "anthropic.claude-opus-4-8",
      "anthropic.claude-opus-5",
      "anthropic.claude-sonnet-4-20250514-v1:0",
      "anthropic.claude-sonnet-4-5-20250929-v1:0",
      "anthropic.claude-sonnet-4-6",
      "anthropic.claude-sonnet-5",
      "deepseek.r1-v1:0",
      "deepseek.v3-v1:0",
      "deepseek.v3.2",
      "google.gemma-3-12b-it",
      "google.gemma-3-27b-it",
      "google.gemma-3-4b-it",
      "meta.llama3-1-405b-instruct-v1:0",
      "meta.llama3-1-70b-instruct-v1:0",
      "meta.llama3-1-8b-instruct-v1:0",
      "meta.llama3-2-11b-instruct-v1:0",
      "meta.llama3-2-1b-instruct-v1:0",
      "meta.llama3-2-3b-instruct-v1:0",
      "meta.llama3-2-90b-instruct-v1:0",
      "meta.llama3-3-70b-instruct-v1:0",
      "meta.llama3-70b-instruct-v1:0",
      "meta.llama3-8b-instruct-v1:0",
      "meta.llama4-maverick-17b-instruct-v1:0",
      "meta.llama4-scout-17b-instruct-v1:0",
      "minimax.minimax-m2",
      "minimax.minimax-m2.1",
      "minimax.minimax-m2.5",
      "mistral.devstral-2-123b",
      "mistral.magistral-small-2509",
      "mistral.ministral-3-14b-instruct",
      "mistral.ministral-3-3b-instruct",
      "mistral.ministral-3-8b-instruct",
      "mistral.mistral-7b-instruct-v0:2",
      "mistral.mistral-large-2402-v1:0",
      "mistral.mistral-large-3-675b-instruct",
      "mistral.mistral-small-2402-v1:0",
      "mistral.mixtral-8x7b-instruct-v0:1",
      "mistral.pixtral-large-2502-v1:0",
      "mistral.voxtral-mini-3b-2507",
      "mistral.voxtral-small-24b-2507",
      "moonshot.kimi-k2-thinking",
      "moonshotai.kimi-k2.5",
      "nvidia.nemotron-nano-12b-v2",
      "nvidia.nemotron-nano-3-30b",
      "nvidia.nemotron-nano-9b-v2",
      "nvidia.nemotron-super-3-120b",
      "openai.gpt-oss-120b-1:0",
      "openai.gpt-oss-20b-1:0",
      "openai.gpt-oss-safeguard-120b",
      "openai.gpt-oss-safeguard-20b",
      "qwen.qwen3-235b-a22b-2507-v1:0",
      "qwen.qwen3-32b-v1:0",
      "qwen.qwen3-coder-30b-a3b-v1:0",
      "qwen.qwen3-coder-480b-a35b-v1:0",
      "qwen.qwen3-coder-next",
      "qwen.qwen3-next-80b-a3b",
      "qwen.qwen3-vl-235b-a22b",
      "writer.palmyra-x4-v1:0",
      "writer.palmyra-x5-v1:0",
      "zai.glm-4.7",
      "zai.glm-4.7-flash",
      "zai.glm-5",
    ]);
  });

  it("reads each card's Model launch date as released_at, the day as printed", async () => {
    const byCard = await recordedModelPageFacts("amazon-bedrock", /^model-card-/, {
      deployments: "of-its-model",
      lifecycle: "allowed",
    });
    const released = Object.fromEntries(
      [...byCard.values()].flatMap((facts) => facts.map((f) => [f.provider_model_id, f.released_at])),
    );
    expect(released).toEqual({
      "ai21.jamba-1-5-large-v1:0": "2024-08-22",
      "ai21.jamba-1-5-mini-v1:0": "2024-08-22",
      "amazon.nova-2-lite-v1:0": "2025-12-02",
      "amazon.nova-lite-v1:0": "2024-12-05",
      "amazon.nova-micro-v1:0": "2024-12-05",
      "amazon.nova-premier-v1:0": "2025-10-31",
      "amazon.nova-pro-v1:0": "2024-12-05",
      "anthropic.claude-3-5-haiku-20241022-v1:0": "2024-11-04",
      "anthropic.claude-3-haiku-20240307-v1:0": "2024-03-13",
      "anthropic.claude-fable-5": "2026-06-09",
      "anthropic.claude-haiku-4-5-20251001-v1:0": "2025-10-16",
      "anthropic.claude-opus-4-1-20250805-v1:0": "2025-08-05",
      "anthropic.claude-opus-4-5-20251101-v1:0": "2025-11-24",
      "anthropic.claude-opus-4-6-v1": "2026-02-05",
      "anthropic.claude-opus-4-7": "2026-04-16",
      "anthropic.claude-opus-4-8": "2026-05-28",
      "anthropic.claude-opus-5": "2026-07-24",
      "anthropic.claude-sonnet-4-20250514-v1:0": "2025-05-23",
      "anthropic.claude-sonnet-4-5-20250929-v1:0": "2025-09-30",
      "anthropic.claude-sonnet-4-6": "2026-02-17",
      "anthropic.claude-sonnet-5": "2026-06-30",
      "deepseek.r1-v1:0": "2025-01-20",
      "deepseek.v3-v1:0": "2025-08-21",
      "deepseek.v3.2": "2025-12-01",
      "google.gemma-3-12b-it": "2025-03-12",
      "google.gemma-3-27b-it": "2025-03-12",
      "google.gemma-3-4b-it": "2025-03-12",
      "meta.llama3-1-405b-instruct-v1:0": "2024-07-23",
      "meta.llama3-1-70b-instruct-v1:0": "2024-07-23",
      "meta.llama3-1-8b-instruct-v1:0": "2024-07-23",
      "meta.llama3-2-11b-instruct-v1:0": "2024-09-25",
      "meta.llama3-2-1b-instruct-v1:0": "2024-09-25",
      "meta.llama3-2-3b-instruct-v1:0": "2024-09-25",
      "meta.llama3-2-90b-instruct-v1:0": "2024-09-25",
      "meta.llama3-3-70b-instruct-v1:0": "2024-12-06",
      "meta.llama3-70b-instruct-v1:0": "2024-04-18",
      "meta.llama3-8b-instruct-v1:0": "2024-04-18",
      "meta.llama4-maverick-17b-instruct-v1:0": "2025-04-05",
      "meta.llama4-scout-17b-instruct-v1:0": "2025-04-05",
      "minimax.minimax-m2": "2025-10-23",
      "minimax.minimax-m2.1": "2025-12-23",
      "minimax.minimax-m2.5": "2026-02-12",
      "mistral.ministral-3-14b-instruct": "2025-12-02",
      "mistral.ministral-3-3b-instruct": "2025-12-02",
      "mistral.ministral-3-8b-instruct": "2025-12-02",
      "mistral.mistral-7b-instruct-v0:2": "2023-09-28",
      "mistral.mistral-large-2402-v1:0": "2024-02-26",
      "mistral.mistral-large-3-675b-instruct": "2025-12-02",
      "mistral.mistral-small-2402-v1:0": "2025-12-16",
      "mistral.mixtral-8x7b-instruct-v0:1": "2023-12-10",
      "mistral.pixtral-large-2502-v1:0": "2024-11-19",
      "mistral.voxtral-small-24b-2507": "2025-10-30",
      "moonshot.kimi-k2-thinking": "2025-11-06",
      "moonshotai.kimi-k2.5": "2026-01-27",
      "nvidia.nemotron-nano-12b-v2": "2025-10-28",
      "nvidia.nemotron-nano-3-30b": "2025-12-15",
      "nvidia.nemotron-nano-9b-v2": "2025-08-18",
      "nvidia.nemotron-super-3-120b": "2026-03-11",
      "openai.gpt-oss-120b-1:0": "2025-08-05",
      "openai.gpt-oss-20b-1:0": "2025-08-05",
      "openai.gpt-oss-safeguard-120b": "2025-10-29",
      "openai.gpt-oss-safeguard-20b": "2025-10-29",
      "qwen.qwen3-235b-a22b-2507-v1:0": "2025-04-28",
      "qwen.qwen3-32b-v1:0": "2025-04-29",
      "qwen.qwen3-coder-30b-a3b-v1:0": "2025-07-31",
      "qwen.qwen3-coder-480b-a35b-v1:0": "2025-07-23",
      "qwen.qwen3-coder-next": "2026-02-04",
      "qwen.qwen3-next-80b-a3b": "2025-09-11",
      "qwen.qwen3-vl-235b-a22b": "2025-09-23",
      "writer.palmyra-x5-v1:0": "2026-01-21",
      "zai.glm-4.7": "2025-12-22",
      "zai.glm-4.7-flash": "2026-01-19",
      "zai.glm-5": "2026-02-11",
    });
  });

  it("lists the bedrock-runtime row's Geo and Global inference IDs as the model's profile deployments, an availability list", async () => {
    const profiles = async (name: string) => {
      const out = ParseOutput.parse(card(await recordedInput("amazon-bedrock", name)));
      expect(out.availability_list).toBe("per_model");
      for (const d of out.deployments)
        expect(d).toMatchObject({
          api_surface: "bedrock-runtime",
          mode: "standard",
          display_name: expect.any(String),
        });
      return out.deployments
        .filter((d) => /^(?:us|eu|apac|jp|au|ca|us-gov|global)$/.test(d.region))
        .map((d) => d.id)
        .sort();
    };
    // `us.…`<br />`eu.…`<br />`au.…`<br />`jp.…` and global.…, as the card prints them
    expect(await profiles("model-card-claude-haiku-4-5")).toEqual(
      ["au", "eu", "global", "jp", "us"].map(
        (r) => `dep_amazon-bedrock_anthropic.claude-haiku-4-5-20251001-v1-0_bedrock-runtime_${r}`,
      ),
    );
    // one plain geo id, Global "Not supported"
    expect(await profiles("model-card-llama-3-3-70b-instruct")).toEqual([
      "dep_amazon-bedrock_meta.llama3-3-70b-instruct-v1-0_bedrock-runtime_us",
    ]);
    // "Not supported" in both: no profile, and the mantle row's id is never read
    expect(await profiles("model-card-qwen3-235b-a22b-2507")).toEqual([]);
    expect(await profiles("model-card-jamba-1-5-large")).toEqual([]);
  });

  it("gives each profile the Regions its Geo or Global column sends into it (Geo: the profile's partition)", async () => {
    const out = ParseOutput.parse(
      card(await recordedInput("amazon-bedrock", "model-card-claude-sonnet-4-5")),
    );
    const sources = (region: string) =>
      out.deployments.find((d) => d.id.endsWith(`_bedrock-runtime_${region}`))?.source_regions ?? [];
    // 33 Regions tick Global; 20 tick Geo, two of them GovCloud, which no commercial profile serves
    expect(sources("global")).toHaveLength(33);
    expect(sources("global")).toContain("me-central-1");
    expect(sources("us")).toHaveLength(18);
    expect(sources("us")).toEqual(sources("eu"));
    expect(sources("us")).toEqual(
      expect.arrayContaining(["us-east-1", "eu-west-1", "ap-northeast-1", "ca-central-1"]),
    );
    expect(sources("us").some((r) => r.startsWith("us-gov-"))).toBe(false);
    expect(sources("us")).not.toContain("ap-northeast-2");
    // an In-Region deployment carries none, and a card without the table gives none
    for (const d of out.deployments)
      if (!/_(?:us|eu|jp|au|global)$/.test(d.id)) expect(d.source_regions).toBeUndefined();
    const noTable = ParseOutput.parse(
      card(await recordedInput("amazon-bedrock", "model-card-jamba-1-5-large")),
    );
    expect(noTable.deployments.every((d) => d.source_regions === undefined)).toBe(true);
  });

  it("fails on a Geo inference ID that is not a known prefix and the card's own model id", async () => {
    const input = await recordedInput("amazon-bedrock", "model-card-llama-3-3-70b-instruct");
    expectParseFailure(
      () =>
        card(
          edit(input, (c) =>
            c.replace("| us.meta.llama3-3-70b-instruct-v1:0 |", "| us.meta.llama3-2-90b-instruct-v1:0 |"),
          ),
        ),
      'the Geo inference ID cell "us.meta.llama3-2-90b-instruct-v1:0" names no inference profile of meta.llama3-3-70b-instruct-v1:0',
    );
    expectParseFailure(
      () =>
        card(
          edit(input, (c) =>
            c.replace("| us.meta.llama3-3-70b-instruct-v1:0 |", "| mars.meta.llama3-3-70b-instruct-v1:0 |"),
          ),
        ),
      'the Geo inference ID cell "mars.meta.llama3-3-70b-instruct-v1:0" names no inference profile',
    );
  });

  it("a card without a launch date, or with N/A, states no released_at", async () => {
    const input = await recordedInput("amazon-bedrock", "model-card-claude-haiku-4-5");
    for (const replacement of ["", "+ **Model launch date:** N/A"]) {
      const out = ParseOutput.parse(
        card(edit(input, (c) => c.replace(/^\+ \*\*Model launch date:\*\*.*$/m, replacement))),
      );
      expect(out.model_facts?.[0]?.released_at, replacement).toBeUndefined();
      expect(out.model_facts?.[0]?.context_tokens).toBe(200_000);
    }
  });

  it("Claude Haiku 4.5 (four-column modalities table): 200K context, 64K output, image input, reasoning, for the bedrock-runtime model ID only", async () => {
    const fact = await factOf("model-card-claude-haiku-4-5");
    expect(fact.provider_model_id).toBe("anthropic.claude-haiku-4-5-20251001-v1:0");
    expect(fact.context_tokens).toBe(200_000);
    expect(fact.max_output_tokens).toBe(64_000);
    expect(fact.capabilities).toEqual({
      reasoning: supported,
      vision: supported,
      audio_input: unsupported,
      video_input: unsupported,
      image_output: unsupported,
      audio_output: unsupported,
    });
  });

  it("Claude Opus 4.7 (two-column modalities table): 1M context and 128K output; a qualified Reasoning bullet still says supported", async () => {
    const fact = await factOf("model-card-claude-opus-4-7");
    expect(fact.provider_model_id).toBe("anthropic.claude-opus-4-7");
    expect(fact.context_tokens).toBe(1_000_000);
    expect(fact.max_output_tokens).toBe(128_000);
    expect(fact.capabilities?.reasoning).toEqual(supported);
    expect(fact.capabilities?.vision).toEqual(supported);
  });

  it("Nova 2 Lite takes video input; a card without a Reasoning bullet leaves reasoning unknown", async () => {
    const fact = await factOf("model-card-nova-2-lite");
    expect(fact.provider_model_id).toBe("amazon.nova-2-lite-v1:0");
    expect(fact.context_tokens).toBe(1_000_000);
    expect(fact.max_output_tokens).toBe(64_000);
    expect(fact.capabilities?.video_input).toEqual(supported);
    expect(fact.capabilities?.vision).toEqual(supported);
    expect(fact.capabilities && "reasoning" in fact.capabilities).toBe(false);
  });

  it("Llama 3.3 70B is text only: 128K context, 4K output, no image input", async () => {
    const fact = await factOf("model-card-llama-3-3-70b-instruct");
    expect(fact.provider_model_id).toBe("meta.llama3-3-70b-instruct-v1:0");
    expect(fact.context_tokens).toBe(128_000);
    expect(fact.max_output_tokens).toBe(4_000);
    expect(fact.capabilities?.vision).toEqual(unsupported);
  });

  it("the bedrock-mantle model ID is not the catalog's id: Qwen3's facts go to its bedrock-runtime id", async () => {
    const fact = await factOf("model-card-qwen3-235b-a22b-2507");
    expect(fact.provider_model_id).toBe("qwen.qwen3-235b-a22b-2507-v1:0");
    expect(fact.context_tokens).toBe(256_000);
    expect(fact.max_output_tokens).toBe(8_000);
  });

  it("Voxtral Mini (a speech-to-text card): no Max output tokens bullet leaves the output limit unknown; the ticked Speech input row makes audio input supported though the Audio row is crossed", async () => {
    const fact = await factOf("model-card-voxtral-mini-3b-2507");
    expect(fact.provider_model_id).toBe("mistral.voxtral-mini-3b-2507");
    expect(fact.context_tokens).toBe(32_000);
    expect(fact.max_output_tokens).toBeUndefined();
    expect(fact.released_at).toBeUndefined(); // "Jul 2025": a month, not a day
    expect(fact.capabilities?.audio_input).toEqual(supported);
    expect(fact.capabilities?.audio_output).toEqual(unsupported);
  });

  it("a crossed Speech input row does not override a ticked Audio row", async () => {
    const input = await recordedInput("amazon-bedrock", "model-card-llama-3-3-70b-instruct");
    const audioRow = /^\| !\[[^\]]*\]\([^)]*icon-no\.png\) Audio \|/m;
    const ticked = edit(input, (c) =>
      c.replace(
        audioRow,
        "| ![Green circle with white checkmark icon.](https://docs.aws.amazon.com/bedrock/latest/userguide/images/icons/icon-yes.png) Audio |",
      ),
    );
    const out = ParseOutput.parse(card(ticked));
    expect(out.model_facts?.[0]?.capabilities?.audio_input).toEqual(supported);
  });

  it("a card without a context window, a max output, a modalities table or a bedrock-runtime model ID fails to parse", async () => {
    const input = await recordedInput("amazon-bedrock", "model-card-claude-sonnet-4-6");
    expectParseFailure(
      () => card(edit(input, (c) => c.replace(/^\+ \*\*Context window:\*\*.*$/m, ""))),
      'model-card-claude-sonnet-4-6: Claude Sonnet 4.6: no "context window" token count in the model details',
    );
    expectParseFailure(
      () =>
        card(
          edit(input, (c) => c.replace("+ **Max output tokens:** 64K", "+ **Max output tokens:** varies")),
        ),
      'model-card-claude-sonnet-4-6: Claude Sonnet 4.6: no "max output tokens" token count in the model details',
    );
    expectParseFailure(
      () => card(edit(input, (c) => c.replace("| **Input Modalities** |", "| **Inputs** |"))),
      "model-card-claude-sonnet-4-6: Claude Sonnet 4.6: no Input / Output Modalities table",
    );
    expectParseFailure(
      () =>
        card(
          edit(input, (c) =>
            c.replace("| bedrock-runtime | anthropic.claude-sonnet-4-6 |", "| bedrock-runtime | N/A |"),
          ),
        ),
      "model-card-claude-sonnet-4-6: Claude Sonnet 4.6: the Programmatic Access table gives no",
    );
  });
});

describe("Amazon Bedrock model cards: Regional Availability", () => {
  const parse = async (name: string) => ParseOutput.parse(card(await recordedInput("amazon-bedrock", name)));
  const inRegion = (out: ParseOutput) =>
    out.deployments
      .filter((d) => !/^(?:us|eu|apac|jp|au|ca|us-gov|global)$/.test(d.region))
      .map((d) => d.region)
      .sort();

  it("places the model in each Region whose In-Region cell is a yes, and speaks for every AWS Region", async () => {
    // Llama 3 8B Instruct's table: six Regions, each In-Region yes, no Geo or Global
    const out = await parse("model-card-llama-3-8b-instruct");
    expect(inRegion(out)).toEqual([
      "ap-south-1",
      "ca-central-1",
      "eu-west-2",
      "us-east-1",
      "us-gov-west-1",
      "us-west-2",
    ]);
    for (const d of out.deployments)
      expect(d).toMatchObject({
        provider_model_id: "meta.llama3-8b-instruct-v1:0",
        api_surface: "bedrock-runtime",
        mode: "standard",
      });
    const covered = new Set(out.availability_covers?.map((c) => c.region));
    expect(covered.has("sa-east-1")).toBe(true); // listed nowhere in the table: not offered there
    expect(covered.has("us")).toBe(true);
    // the card's "Model lifecycle: Legacy" line speaks for every Region: no per-Region assertion
    expect(out.lifecycle.map((a) => a.target)).toEqual([
      { provider_model_id: "meta.llama3-8b-instruct-v1:0", api_surface: "bedrock-runtime" },
    ]);
  });

  it('a "Legacy (EOL: <day>)" In-Region cell places the model there, legacy, with that end of life', async () => {
    // Jamba 1.5 Large's card marks us-east-1 In-Region with a yes icon; Bedrock's "Regional
    // availability by models" page prints that cell "Legacy (EOL: 2026-11-26)" (a stored copy in
    // c2hans/aws-docs, models-region-compatibility.md); the card in that wording:
    const input = await recordedInput("amazon-bedrock", "model-card-jamba-1-5-large");
    const legacy = edit(input, (c) =>
      c.replace(/^(\| us-east-1 \(N\. Virginia\) \| )!\[[^\]]*\]\([^)]*\)/m, "$1Legacy (EOL: 2026-11-26)"),
    );
    expect(legacy.content).not.toBe(input.content);
    const out = ParseOutput.parse(card(legacy));
    expect(inRegion(out)).toEqual(["us-east-1"]);
    // the Region's own assertion, then the card's model-wide Legacy line (EOL November 26, 2026)
    expect(out.lifecycle).toEqual([
      expect.objectContaining({
        scope: "deployment",
        target: {
          provider_model_id: "ai21.jamba-1-5-large-v1:0",
          region: "us-east-1",
          api_surface: "bedrock-runtime",
        },
        status: "legacy",
        end_of_life: expect.objectContaining({ state: "scheduled", date: "2026-11-26", date_type: "on" }),
      }),
      expect.objectContaining({
        target: { provider_model_id: "ai21.jamba-1-5-large-v1:0", api_surface: "bedrock-runtime" },
        status: "legacy",
        end_of_life: expect.objectContaining({ date: "2026-11-26", date_type: "on" }),
      }),
    ]);
    // as recorded: in-Region (a yes icon)
    expect(inRegion(await parse("model-card-jamba-1-5-large"))).toEqual(["us-east-1"]);
  });

  it("reads the bedrock-runtime table where the section has one per endpoint (Opus 4.7: no In-Region on bedrock-runtime)", async () => {
    const out = await parse("model-card-claude-opus-4-7");
    expect(inRegion(out)).toEqual([]);
    expect(new Set(out.availability_covers?.map((c) => c.region)).has("us-east-1")).toBe(true);
  });

  it("fails on a Region cell that names no AWS Region or an In-Region cell of another shape", async () => {
    const input = await recordedInput("amazon-bedrock", "model-card-llama-3-8b-instruct");
    expectParseFailure(
      () => card(edit(input, (c) => c.replace("| us-east-1 (N. Virginia) |", "| N. Virginia |"))),
      'Regional Availability row "N. Virginia" names no AWS Region',
    );
    expectParseFailure(
      () =>
        card(
          edit(input, (c) =>
            c.replace(
              /\| us-east-1 \(N\. Virginia\) \| !\[[^\]]*\]\([^)]*\) \|/,
              "| us-east-1 (N. Virginia) | Coming soon |",
            ),
          ),
        ),
      'the In-Region cell of us-east-1 is neither a yes / no icon nor "Legacy (EOL: <day>)"',
    );
  });
});

describe("Amazon Bedrock model cards: the Legacy line", () => {
  const parse = async (name: string) => ParseOutput.parse(card(await recordedInput("amazon-bedrock", name)));

  it('"Model lifecycle: Legacy" with a Model EOL date: legacy, end of life on that day, for the model on bedrock-runtime', async () => {
    // NVIDIA Nemotron Nano 9B v2: "Model lifecycle: Legacy", "Model EOL date: March 30, 2027"
    const out = await parse("model-card-nvidia-nemotron-nano-9b-v2");
    expect(out.lifecycle).toEqual([
      expect.objectContaining({
        scope: "deployment",
        target: { provider_model_id: "nvidia.nemotron-nano-9b-v2", api_surface: "bedrock-runtime" },
        status: "legacy",
        end_of_life: expect.objectContaining({ state: "scheduled", date: "2027-03-30", date_type: "on" }),
      }),
    ]);
  });

  it("states nothing model-wide for an Active card, a Legacy card of certain Regions, or an EOL date that is no day", async () => {
    // Claude Haiku 4.5: Active, "No sooner than 10/1/2026"; Claude 3 Haiku: "Legacy (certain regions)"
    expect((await parse("model-card-claude-haiku-4-5")).lifecycle).toEqual([]);
    expect((await parse("model-card-claude-3-haiku")).lifecycle).toEqual([]);
    // Llama 3.1 405B: "Model EOL date: Legacy: July 7, 2026"
    const llama = await parse("model-card-llama-3-1-405b-instruct");
    expect(llama.lifecycle).toEqual([]);
    expect(llama.skipped).toEqual([
      {
        reason: "a Legacy card whose Model EOL date is not a day",
        count: 1,
        examples: ['Llama 3.1 405B Instruct: "Legacy: July 7, 2026"'],
      },
    ]);
  });
});

describe("Amazon Bedrock model cards: Capabilities and Features", () => {
  const capabilitiesOf = async (name: string) => (await factOf(name)).capabilities ?? {};

  it("reads structured outputs, computer use and client-side tool calling from the bedrock-runtime features table, by the column each stands in", async () => {
    // Claude Opus 4.5: both in Supported; no Client-side tool calling item
    const opus45 = await capabilitiesOf("model-card-claude-opus-4-5");
    expect(opus45.structured_output).toEqual(supported);
    expect(opus45.computer_use).toEqual(supported);
    expect("tool_calling" in opus45).toBe(false);
    // Claude Opus 5: Structured outputs in Not Supported (the bedrock-mantle table, also Not Supported, is not kept)
    const opus5 = await capabilitiesOf("model-card-claude-opus-5");
    expect(opus5.structured_output).toEqual(unsupported);
    expect(opus5.computer_use).toEqual(supported);
    // Amazon Nova Lite: Client-side tool calling supported, Structured outputs not, no Computer use item
    const novaLite = await capabilitiesOf("model-card-nova-lite");
    expect(novaLite.tool_calling).toEqual(supported);
    expect(novaLite.structured_output).toEqual(unsupported);
    expect("computer_use" in novaLite).toBe(false);
    // Claude Sonnet 4.6 lists all three as supported
    const sonnet46 = await capabilitiesOf("model-card-claude-sonnet-4-6");
    expect([sonnet46.structured_output, sonnet46.computer_use, sonnet46.tool_calling]).toEqual([
      supported,
      supported,
      supported,
    ]);
  });

  it("reads the bedrock-runtime table where the copy prints the bedrock-mantle one first (Opus 4.8), and leaves every feature unknown on a card without the section", async () => {
    const opus48 = await capabilitiesOf("model-card-claude-opus-4-8");
    expect(opus48.structured_output).toEqual(unsupported);
    expect(opus48.computer_use).toEqual(supported);
    const input = await recordedInput("amazon-bedrock", "model-card-claude-opus-4-8");
    // with the runtime label renamed to mantle, the only table left is another endpoint's
    expectParseFailure(
      () =>
        card(
          edit(input, (c) =>
            c.replace(
              "**Features supported using `bedrock-runtime` endpoint**",
              "**Features supported using `bedrock-mantle` endpoint**",
            ),
          ),
        ),
      "Claude Opus 4.8: the Capabilities and Features section has no bedrock-runtime features table",
    );
    // MiniMax M2.5: Structured outputs supported on bedrock-runtime; Client-side tool calling
    // only in the bedrock-mantle table, another endpoint: unknown here
    const minimax = await capabilitiesOf("model-card-minimax-m2-5");
    expect(minimax.structured_output).toEqual(supported);
    expect("tool_calling" in minimax).toBe(false);
    const llama = await capabilitiesOf("model-card-llama-3-3-70b-instruct");
    for (const name of ["structured_output", "computer_use", "tool_calling"])
      expect(name in llama).toBe(false);
  });

  it("a feature printed without an icon takes its column's status; an icon contradicting its column fails", async () => {
    const input = await recordedInput("amazon-bedrock", "model-card-claude-opus-5");
    const noIcons = ParseOutput.parse(
      card(
        edit(input, (c) =>
          c.replace(/!\[(?:Green|Red) circle[^\]]*\]\([^)]*icon-(?:yes|no)\.png\) \[/g, "["),
        ),
      ),
    );
    expect(noIcons.model_facts?.[0]?.capabilities?.structured_output).toEqual(unsupported);
    expect(noIcons.model_facts?.[0]?.capabilities?.computer_use).toEqual(supported);
    expectParseFailure(
      () =>
        card(
          edit(input, (c) => c.replace(/icon-yes\.png\) \[Computer use\]/, "icon-no.png) [Computer use]")),
        ),
      'Claude Opus 5: the feature "computer use" stands in the Supported column with another icon',
    );
  });
});
