import { describe, expect, it } from "vitest";
import { normalizeSource } from "../../src/normalize/index.js";
import { mistralAliasTable, mistralCards, parsers } from "../../src/normalize/parsers/mistral-models.js";
import { ParseOutput } from "../../src/schema/index.js";
import { datedInput, recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const parse = defined(parsers["mistral-model-cards"], "parser mistral-model-cards");
const input = () => recordedInput("mistral", "model-cards");

/** The capture with one file's text changed. */
function editFile(content: string, file: string, change: (text: string) => string): string {
  const bundle = JSON.parse(content) as { files: { name: string; content: string }[] };
  const entry = bundle.files.find((f) => f.name.endsWith(`/${file}`));
  if (!entry) throw new Error(`no ${file} in the capture`);
  entry.content = change(entry.content);
  return JSON.stringify(bundle);
}

describe("mistral model cards", () => {
  it("the model cards are Mistral's catalog of the models it serves (availability_list catalog)", async () => {
    expect(ParseOutput.parse(parse(await input())).availability_list).toBe("catalog");
  });

  it("reads all 65 cards of the capture: one deployment per API model name, 41 with token prices", async () => {
    const recorded = await input();
    expect(mistralCards(recorded)).toHaveLength(65);
    const out = ParseOutput.parse(parse(recorded));
    expect(out.deployments).toHaveLength(59);
    expect(out.deployments.filter((d) => d.rate_card)).toHaveLength(41);
    expect(out.deployments.filter((d) => d.context_tokens)).toHaveLength(51);
    expect(new Set(out.deployments.map((d) => d.id)).size).toBe(59);
    const skipped = Object.fromEntries(out.skipped.map((s) => [s.reason, s.count]));
    expect(skipped["no API model name (weights only, not served by the API)"]).toBe(4);
    expect(skipped["API model name owned by a newer card"]).toBe(2);
    expect(skipped["alias of another API model name (not a deployment)"]).toBeUndefined();
    expect(out.aliases).toHaveLength(24);
    expect(skipped["price per Min (not a token price)"]).toBe(4);
  });

  it("prices Mistral Medium 3.5 exactly in micro-USD with its limits, capabilities and status", async () => {
    const out = parse(await input());
    const medium = out.deployments.find((d) => d.id === "dep_mistral_mistral-medium-3-5_api_global");
    expect(medium).toMatchObject({
      model_id: "mistral/mistral-medium-3-5",
      display_name: "Mistral Medium 3.5",
      context_tokens: 256_000,
      status: "available",
      rate_card: {
        currency: "USD",
        unit: "million_tokens",
        input_micro_usd: 1_500_000,
        cached_input_micro_usd: null,
        output_micro_usd: 7_500_000,
      },
    });
    expect(medium?.capabilities).toMatchObject({
      tool_calling: { status: "supported" },
      structured_output: { status: "supported" },
      vision: { status: "supported" },
      web_search: { status: "conditional" },
    });
  });

  it("states each deployed card's releaseDate as a model fact's released_at for its API model name", async () => {
    const out = ParseOutput.parse(parse(await input()));
    // one per deployment: every card with an API name of its own gives a whole-day releaseDate
    expect(out.model_facts).toHaveLength(59);
    expect(new Set(out.model_facts?.map((f) => f.provider_model_id))).toEqual(
      new Set(out.deployments.map((d) => d.provider_model_id)),
    );
    expect(out.model_facts?.find((f) => f.provider_model_id === "mistral-medium-3-5")).toEqual({
      provider_id: "mistral",
      provider_model_id: "mistral-medium-3-5",
      released_at: "2026-04-28",
      evidence: out.deployments[0]?.evidence,
    });
    // a card whose releaseDate is not a day states none
    const edited = ParseOutput.parse(
      parse(
        edit(await input(), (c) =>
          editFile(c, "mistral-medium-3-5-26-04.ts", (t) => t.replace("'2026-04-28'", "'2026-04'")),
        ),
      ),
    );
    expect(edited.model_facts?.some((f) => f.provider_model_id === "mistral-medium-3-5")).toBe(false);
  });

  it("reads a cached-input price and an output token limit where the card gives them (Z.ai GLM 5.2)", async () => {
    const out = parse(await input());
    const glm = out.deployments.find((d) => d.provider_model_id === "zai-glm-5-2");
    expect(glm).toMatchObject({
      status: "preview",
      context_tokens: 1_000_000,
      max_output_tokens: 128_000,
      rate_card: { input_micro_usd: 1_400_000, cached_input_micro_usd: 140_000, output_micro_usd: 4_400_000 },
    });
    expect(glm?.capabilities?.prompt_caching).toEqual({ status: "supported" });
    expect(glm?.capabilities?.reasoning).toEqual({ status: "supported" });
  });

  it("reads the Batch API, transcription and speech features as batch / audio_input / audio_output", async () => {
    const out = parse(await input());
    const byName = (name: string) => out.deployments.find((d) => d.provider_model_id === name);
    // features 'embeddings', 'batching': batch is the embedding model's only catalog capability.
    expect(byName("mistral-embed-2312")?.capabilities).toEqual({ batch: { status: "supported" } });
    expect(byName("mistral-moderation-2603")?.capabilities?.batch).toEqual({ status: "supported" });
    // features 'timestamps', 'transcriptions' (no 'batching'): batch stays unknown.
    const transcribe = byName("voxtral-mini-2602");
    expect(transcribe?.capabilities?.audio_input).toEqual({ status: "supported" });
    expect(transcribe?.capabilities?.batch).toBeUndefined();
    expect(byName("voxtral-mini-tts-2603")?.capabilities?.audio_output).toEqual({ status: "supported" });
  });

  it("keeps only the token prices of a card that also prices audio minutes", async () => {
    const out = parse(await input());
    const voxtral = out.deployments.find((d) => d.provider_model_id === "voxtral-mini-2507");
    expect(voxtral?.display_name).toBe("Voxtral Mini");
    expect(voxtral?.rate_card).toMatchObject({ input_micro_usd: 40_000, output_micro_usd: 40_000 });
    const ocr = out.deployments.find((d) => d.provider_model_id === "mistral-ocr-2512");
    expect(ocr?.rate_card).toBeUndefined();
  });

  it("reports declared deprecation and retirement dates with the replacement resolved to its API name", async () => {
    const out = parse(await input());
    const large = out.lifecycle.find((l) => l.target?.provider_model_id === "mistral-large-2411");
    expect(large).toMatchObject({
      status: "deprecated",
      deprecation: { state: "scheduled", date: "2026-02-27", date_type: "on", precision: "day" },
      end_of_life: { state: "scheduled", date: "2026-05-31", date_type: "on", precision: "day" },
      replacements: ["mistral-medium-3-5"],
    });
    // "April 30, 2026" in one card, ISO in the others.
    const magistral = out.lifecycle.find((l) => l.target?.provider_model_id === "magistral-small-2509");
    expect(magistral?.deprecation?.date).toBe("2026-04-30");
    expect(magistral?.end_of_life?.date).toBe("2026-07-31");
    expect(magistral?.replacements).toEqual(["mistral-small-2603"]);
    // A retired card's status is the card's, whatever the dates.
    const nemo7b = out.lifecycle.find((l) => l.target?.provider_model_id === "open-mistral-7b");
    expect(nemo7b).toMatchObject({ status: "retired", replacements: ["ministral-8b-2512"] });
    const codestral = out.lifecycle.find((l) => l.target?.provider_model_id === "codestral-2508");
    expect(codestral?.end_of_life?.state).toBe("unknown");
  });

  it("resolves -latest and undated names as aliases, the newest card winning a shared name", async () => {
    const { aliases, owners } = mistralAliasTable(mistralCards(await input()));
    expect(aliases.get("codestral-latest")).toBe("codestral-2508");
    expect(aliases.get("mistral-medium-3")).toBe("mistral-medium-3-5");
    expect(aliases.get("voxtral-mini-latest")).toBe("voxtral-mini-2602");
    expect(owners.get("open-mistral-7b")?.slug).toBe("mistral-7b-0-3");
    expect(owners.has("codestral-latest")).toBe(false);
  });

  it("declares the capture's aliases with the cards' evidence, each naming a deployment of the source", async () => {
    const out = ParseOutput.parse(parse(await input()));
    const declared = new Map((out.aliases ?? []).map((a) => [a.alias, a.provider_model_id]));
    expect(declared.get("mistral-large-latest")).toBe("mistral-large-2512");
    expect(declared.get("codestral-latest")).toBe("codestral-2508");
    expect(declared.get("devstral-medium-latest")).toBe("devstral-2512");
    expect(declared.get("open-mistral-nemo")).toBe("open-mistral-nemo-2407");
    const own = new Set(out.deployments.map((d) => d.provider_model_id));
    for (const a of out.aliases ?? []) {
      expect(a.provider_id).toBe("mistral");
      expect(own.has(a.provider_model_id)).toBe(true);
      expect(own.has(a.alias)).toBe(false);
      expect(a.evidence).toEqual(out.deployments[0]?.evidence);
    }
  });

  it("declares a small inline card's other API names and aliases as aliases of its first API name", async () => {
    const recorded = await input();
    const card = (slug: string, release: string, identifiers: string) => `export default {
  name: 'Model ${slug}',
  slug: '${slug}',
  releaseDate: '${release}',
  status: 'GA',
  contextLength: '128k',
  pricing: { type: 'range', free: false, input: 0.3, output: 0.9, denominator: '/M Tokens' },
  identifiers: ${identifiers},
  capabilities: { input: ['text'], output: ['text'], features: [] },
} as const;`;
    const bundle = {
      files: [
        {
          name: "src/schema/models/models/tiny-26-01.ts",
          sha: null,
          content: card(
            "tiny-26-01",
            "2026-01-15",
            "{ apiNames: ['tiny-2601', 'tiny-latest'], aliases: ['tiny'] }",
          ),
        },
        {
          name: "src/schema/models/models/tiny-25-01.ts",
          sha: null,
          content: card("tiny-25-01", "2025-01-15", "{ apiNames: ['tiny-2501', 'tiny-latest'] }"),
        },
      ],
    };
    const out = ParseOutput.parse(parse({ ...recorded, content: JSON.stringify(bundle) }));
    expect(out.deployments.map((d) => d.provider_model_id).sort()).toEqual(["tiny-2501", "tiny-2601"]);
    const evidence = out.deployments[0]?.evidence;
    expect(evidence?.verification_status).toBe("official_declared");
    // the newest card owns the shared -latest name
    expect(out.aliases).toEqual([
      { provider_id: "mistral", alias: "tiny-latest", provider_model_id: "tiny-2601", evidence },
      { provider_id: "mistral", alias: "tiny", provider_model_id: "tiny-2601", evidence },
    ]);
  });

  it("passes the normalize stage only with aliases of its own provider, each naming another model", async () => {
    const recorded = await input();
    const out = parse(recorded);
    const registry = (aliases: NonNullable<typeof out.aliases>) => ({
      [recorded.source.parser]: () => ({ ...out, aliases }),
    });
    const [first] = out.aliases ?? [];
    if (!first) throw new Error("no alias in the capture");
    expect(normalizeSource(recorded, registry([first])).aliases).toEqual([first]);
    expectParseFailure(
      () => normalizeSource(recorded, registry([{ ...first, provider_id: "xai" }])),
      "model-cards: declared xai/mistral-ocr-4 an alias, a name of another provider",
    );
    expectParseFailure(
      () => normalizeSource(recorded, registry([{ ...first, alias: first.provider_model_id }])),
      "mistral/model-cards: output fails the schema (aliases.0.alias: an alias names another provider model id)",
    );
  });

  it("fails on a card whose shape it does not understand", async () => {
    const recorded = await input();
    // each change and the failure it must raise
    const cases: Array<[string, (text: string) => string, string]> = [
      [
        "codestral-25-08.ts",
        (t) => t.replace("price: 0.3,", "price: basePrice,"),
        'codestral-25-08.ts: line 29: "basePrice" is code, not data',
      ],
      [
        "codestral-25-08.ts",
        (t) => t.replace("status: 'GA'", "status: 'Beta'"),
        "codestral-25-08.ts: not a model card (status: Invalid option",
      ],
      [
        "codestral-25-08.ts",
        (t) => t.replace("type: 'custom'", "type: 'tiered'"),
        "codestral-25-08.ts: not a model card (pricing.type: Invalid discriminator value",
      ],
      [
        "codestral-25-08.ts",
        (t) => t.replace("contextLength: '128k'", "contextLength: 'lots'"),
        '"lots" is not a token count',
      ],
      [
        "zai-glm-5-2.ts",
        (t) => t.replace("label: 'Cached input'", "label: 'Cache write'"),
        'zai-glm-5-2.ts: unknown input price label "Cache write"',
      ],
      [
        "mistral-large-2-1-24-11.ts",
        (t) => t.replace("2026-05-31", "end of spring"),
        'mistral-large-2-1-24-11.ts retirementDate: "end of spring" is not a lifecycle date',
      ],
      [
        "codestral-25-08.ts",
        (t) => t.replace("identifiers:", "ids:"),
        "codestral-25-08.ts: not a model card (identifiers: Invalid input",
      ],
    ];
    for (const [file, change, expected] of cases)
      expectParseFailure(() => parse(edit(recorded, (c) => editFile(c, file, change))), expected);
    expectParseFailure(
      () => parse(edit(recorded, () => '{"files":[]}')),
      "model-cards: found no model card files",
    );
    expectParseFailure(
      () => parse(edit(recorded, () => "not json")),
      "model-cards: not a bundle of model files: Unexpected token 'o', \"not json\" is not valid JSON",
    );
  });
});

describe("mistral model cards before August 2026 (the dated capture of 2025-10-20)", () => {
  // mistralai/platform-docs-public at 4422b455 (2025-10-20): status 'Active' where later cards
  // say 'GA', no pricing.free, no priceEur, release dates written 'July 10, 2025'
  const october = () => datedInput("mistral", "model-cards", "2025-10-20T13:09:31Z");

  it("reads every card: 'Active' is available, prices without free or EUR", async () => {
    const recorded = await october();
    expect(mistralCards(recorded)).toHaveLength(45);
    const out = ParseOutput.parse(parse(recorded));
    const devstral = out.deployments.find((d) => d.id === "dep_mistral_devstral-medium-2507_api_global");
    expect(devstral?.status).toBe("available");
    expect(devstral?.rate_card).toMatchObject({ input_micro_usd: 400_000, output_micro_usd: 2_000_000 });
    expect(devstral?.rate_card?.observed_at).toBe("2025-10-20T13:09:31Z");
  });

  it("still fails a card whose status is none of the words either format uses", async () => {
    const recorded = await october();
    const content = editFile(recorded.content, "devstral-medium-1-0-25-07.ts", (t) =>
      t.replace("status: 'Active'", "status: 'Live'"),
    );
    expectParseFailure(
      () => parse({ ...recorded, content }),
      /devstral-medium-1-0-25-07\.ts: not a model card \(status/,
    );
  });
});
