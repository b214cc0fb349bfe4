import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeSource } from "../../src/normalize/index.js";
import { parsers } from "../../src/normalize/parsers/openai-model-facts.js";
import { type ModelFact, ParseOutput } from "../../src/schema/index.js";
import { supported, unsupported } from "../helpers/capabilities.js";
import { loadDefinition, recordedInput, SOURCES_DIR } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const page = defined(parsers["openai-model-page"], "parser openai-model-page");

async function factsOf(name: string): Promise<Map<string, ModelFact>> {
  const out = ParseOutput.parse(page(await recordedInput("openai", name)));
  return new Map((out.model_facts ?? []).map((f) => [f.provider_model_id, f]));
}

/** The model-page sources with a committed capture (the others are live-only: the nightly fetches them). */
async function modelPageSources(): Promise<string[]> {
  const names = (await readdir(join(SOURCES_DIR, "openai")))
    .filter((n) => /^model-.*\.yaml$/.test(n))
    .map((n) => n.replace(/\.yaml$/, ""));
  const recorded: string[] = [];
  for (const name of names) if ((await loadDefinition("openai", name)).offline_capture) recorded.push(name);
  return recorded;
}

describe("OpenAI model pages", () => {
  it("every recorded model page yields model facts of provider openai with official evidence and no deployments", async () => {
    const names = await modelPageSources();
    expect(names.length).toBe(35);
    for (const name of names) {
      const input = await recordedInput("openai", name);
      const out = normalizeSource(input);
      expect(out.deployments).toEqual([]);
      expect(out.lifecycle).toEqual([]);
      expect(out.model_facts?.length).toBeGreaterThan(0);
      for (const fact of out.model_facts ?? []) {
        expect(fact.provider_id).toBe("openai");
        // a bare fact only lists a further snapshot of the Snapshots list (tested below)
        if (fact.context_tokens === undefined) {
          expect(Object.keys(fact).sort()).toEqual(["evidence", "provider_id", "provider_model_id"]);
          continue;
        }
        expect(fact.context_tokens).toBeGreaterThan(0);
        expect(fact.max_output_tokens).toBeGreaterThan(0);
        expect(fact.evidence).toEqual({
          source_url: input.source.url,
          source_type: "official_docs",
          observed_at: input.observedAt,
          verification_status: "official_declared",
        });
      }
    }
  });

  it("GPT-4.1: the context window and max output of the details, for the model id and its default snapshot only", async () => {
    const facts = await factsOf("model-gpt-4-1");
    expect([...facts.keys()].sort()).toEqual(["gpt-4.1", "gpt-4.1-2025-04-14"]);
    const fact = defined(facts.get("gpt-4.1"), "facts of gpt-4.1");
    expect(fact.context_tokens).toBe(1_047_576);
    expect(fact.max_output_tokens).toBe(32_768);
    expect(fact.capabilities).toEqual({
      vision: supported,
      audio_input: unsupported,
      image_output: unsupported,
      audio_output: unsupported,
      batch: supported,
      tool_calling: supported,
      structured_output: supported,
      prompt_caching: supported,
      web_search: supported,
      code_execution: supported,
    });
    expect(facts.get("gpt-4.1-2025-04-14")?.capabilities).toEqual(fact.capabilities);
  });

  it("the pro and GPT-5.6 Sol pages recorded from stored copies: limits and features for the Model ID and its default snapshot", async () => {
    const o3pro = await factsOf("model-o3-pro");
    expect([...o3pro.keys()].sort()).toEqual(["o3-pro", "o3-pro-2025-06-10"]);
    const o3 = defined(o3pro.get("o3-pro-2025-06-10"), "facts of o3-pro-2025-06-10");
    expect([o3.context_tokens, o3.max_output_tokens]).toEqual([200_000, 100_000]);
    expect(o3.capabilities).toEqual({
      vision: supported,
      audio_input: unsupported,
      image_output: unsupported,
      audio_output: unsupported,
      reasoning: supported,
      batch: supported,
      tool_calling: supported,
      structured_output: supported,
      web_search: supported,
    });
    const pro = defined(
      (await factsOf("model-gpt-5-pro")).get("gpt-5-pro-2025-10-06"),
      "gpt-5-pro-2025-10-06",
    );
    expect([pro.context_tokens, pro.max_output_tokens]).toEqual([400_000, 272_000]);
    // its prose says it has no code interpreter; no Supported list names it, so it stays unknown
    expect(pro.capabilities?.code_execution).toBeUndefined();
    const pro55 = defined(
      (await factsOf("model-gpt-5-5-pro")).get("gpt-5.5-pro-2026-04-23"),
      "gpt-5.5-pro-2026-04-23",
    );
    expect([pro55.context_tokens, pro55.max_output_tokens]).toEqual([1_050_000, 128_000]);
    expect(pro55.capabilities?.code_execution).toEqual(supported);
    // the default snapshot is the Model ID itself: one fact; the window, not "Maximum input tokens: 922,000"
    const sol = await factsOf("model-gpt-5-6-sol");
    expect([...sol.keys()]).toEqual(["gpt-5.6-sol"]);
    const fact = defined(sol.get("gpt-5.6-sol"), "facts of gpt-5.6-sol");
    expect([fact.context_tokens, fact.max_output_tokens]).toEqual([1_050_000, 128_000]);
    expect(fact.capabilities?.computer_use).toEqual(supported);
    expect(fact.capabilities?.prompt_caching).toEqual(supported);
  });

  it("GPT-5.6 Sol declares `gpt-5.6` its alias; no other recorded page declares one, and an alias that is no model id fails", async () => {
    const input = await recordedInput("openai", "model-gpt-5-6-sol");
    const out = ParseOutput.parse(page(input));
    expect(out.aliases).toEqual([
      {
        provider_id: "openai",
        alias: "gpt-5.6",
        provider_model_id: "gpt-5.6-sol",
        evidence: {
          source_url: input.source.url,
          source_type: "official_docs",
          observed_at: input.observedAt,
          verification_status: "official_declared",
        },
      },
    ]);
    for (const name of await modelPageSources())
      if (name !== "model-gpt-5-6-sol")
        expect(page(await recordedInput("openai", name)).aliases).toBeUndefined();
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("The `gpt-5.6` alias", "The `GPT 5.6!` alias"))),
      'model-gpt-5-6-sol: gpt-5.6-sol: the alias "GPT 5.6!" is not a model id',
    );
  });

  it("GPT-5.5, GPT-5.4 nano and GPT-4o mini (recorded from stored copies): limits for the Model ID and its default snapshot", async () => {
    const expected: [string, string, string, number, number][] = [
      ["model-gpt-5-5", "gpt-5.5", "gpt-5.5-2026-04-23", 1_050_000, 128_000],
      ["model-gpt-5-4-nano", "gpt-5.4-nano", "gpt-5.4-nano-2026-03-17", 400_000, 128_000],
      ["model-gpt-4o-mini", "gpt-4o-mini", "gpt-4o-mini-2024-07-18", 128_000, 16_384],
    ];
    for (const [name, id, snapshot, context, output] of expected) {
      const facts = await factsOf(name);
      expect([...facts.keys()].sort()).toEqual([id, snapshot]);
      for (const fact of facts.values()) {
        expect([fact.context_tokens, fact.max_output_tokens]).toEqual([context, output]);
        expect(fact.capabilities?.batch).toEqual(supported);
        expect(fact.capabilities?.tool_calling).toEqual(supported);
      }
    }
  });

  it("GPT-4o: the other listed snapshots get a bare listing fact, no limits or capabilities (the details describe the default snapshot)", async () => {
    const facts = await factsOf("model-gpt-4o");
    expect([...facts.keys()].sort()).toEqual([
      "gpt-4o",
      "gpt-4o-2024-05-13",
      "gpt-4o-2024-08-06",
      "gpt-4o-2024-11-20",
    ]);
    expect(facts.get("gpt-4o")?.context_tokens).toBe(128_000);
    expect(facts.get("gpt-4o")?.max_output_tokens).toBe(16_384);
    expect(facts.get("gpt-4o-2024-08-06")?.context_tokens).toBe(128_000);
    for (const listed of ["gpt-4o-2024-05-13", "gpt-4o-2024-11-20"]) {
      const fact = facts.get(listed);
      expect(fact?.context_tokens).toBeUndefined();
      expect(fact?.max_output_tokens).toBeUndefined();
      expect(fact?.capabilities).toBeUndefined();
      expect(fact?.evidence.verification_status).toBe("official_declared");
    }
  });

  it("the Snapshots list: a listed entry that is no model id fails; a page without the section lists nothing more", async () => {
    const input = await recordedInput("openai", "model-gpt-4o");
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("- `gpt-4o-2024-11-20`", "- `GPT 4o (Nov)`"))),
      'the Snapshots list names "GPT 4o (Nov)"',
    );
    const cut = ParseOutput.parse(page(edit(input, (c) => c.replace(/## Snapshots[\s\S]*$/, ""))));
    expect((cut.model_facts ?? []).map((f) => f.provider_model_id).sort()).toEqual([
      "gpt-4o",
      "gpt-4o-2024-08-06",
    ]);
  });

  it("reasoning comes from 'Reasoning token support'; a page without it leaves reasoning unknown", async () => {
    expect((await factsOf("model-o4-mini")).get("o4-mini")?.capabilities?.reasoning).toEqual(supported);
    expect((await factsOf("model-gpt-4o")).get("gpt-4o")?.capabilities?.reasoning).toBeUndefined();
  });

  it("GPT-5 mini: the context window (400,000), not the 'Maximum input tokens' bullet (272,000)", async () => {
    const fact = defined((await factsOf("model-gpt-5-mini")).get("gpt-5-mini"), "facts of gpt-5-mini");
    expect(fact.context_tokens).toBe(400_000);
    expect(fact.max_output_tokens).toBe(128_000);
  });

  it("batch follows the Endpoints table: GPT-5.4 Pro says Not supported, o3-mini Supported", async () => {
    expect((await factsOf("model-gpt-5-4-pro")).get("gpt-5.4-pro")?.capabilities?.batch).toEqual(unsupported);
    expect((await factsOf("model-o3-mini")).get("o3-mini")?.capabilities?.batch).toEqual(supported);
  });

  it("a text-only model is stated without vision; a name the Supported lists leave out stays unknown", async () => {
    const fact = defined(
      (await factsOf("model-o3-mini")).get("o3-mini-2025-01-31"),
      "facts of o3-mini-2025-01-31",
    );
    expect(fact.capabilities?.vision).toEqual(unsupported);
    expect(fact.capabilities?.web_search).toBeUndefined();
    expect(fact.capabilities?.prompt_caching).toBeUndefined();
  });

  it("the audio models (copies cut before the Endpoints table): audio in and out, no vision, the default snapshot too, batch unknown", async () => {
    for (const [name, id, snapshot] of [
      [
        "model-gpt-4o-mini-audio-preview",
        "gpt-4o-mini-audio-preview",
        "gpt-4o-mini-audio-preview-2024-12-17",
      ],
      ["model-gpt-4o-audio-preview", "gpt-4o-audio-preview", "gpt-4o-audio-preview-2025-06-03"],
      ["model-gpt-audio-mini", "gpt-audio-mini", "gpt-audio-mini-2025-12-15"],
      ["model-gpt-audio", "gpt-audio", "gpt-audio-2025-08-28"],
    ] as const) {
      const facts = await factsOf(name);
      expect([...facts.keys()].sort()).toEqual([id, snapshot]);
      const fact = defined(facts.get(snapshot), `facts of ${snapshot}`);
      expect(fact.context_tokens).toBe(128_000);
      expect(fact.max_output_tokens).toBe(16_384);
      expect(fact.capabilities).toEqual({
        vision: unsupported,
        audio_input: supported,
        image_output: unsupported,
        audio_output: supported,
      });
    }
  });

  it("the truncated GPT-5.4 copy (no Endpoints or Supported sections) gives limits, modalities and reasoning only", async () => {
    const fact = defined(
      (await factsOf("model-gpt-5-4")).get("gpt-5.4-2026-03-05"),
      "facts of gpt-5.4-2026-03-05",
    );
    expect(fact.context_tokens).toBe(1_050_000);
    expect(fact.max_output_tokens).toBe(128_000);
    expect(Object.keys(fact.capabilities ?? {}).sort()).toEqual([
      "audio_input",
      "audio_output",
      "image_output",
      "reasoning",
      "vision",
    ]);
  });

  it("the GPT-5.6 Terra copy (only the top of the page, cut before Pricing) gives limits, modalities and reasoning for its Model ID", async () => {
    const facts = await factsOf("model-gpt-5-6-terra");
    expect([...facts.keys()]).toEqual(["gpt-5.6-terra"]);
    const fact = defined(facts.get("gpt-5.6-terra"), "facts of gpt-5.6-terra");
    expect(fact.context_tokens).toBe(1_050_000);
    expect(fact.max_output_tokens).toBe(128_000);
    expect(fact.capabilities?.vision).toEqual(supported);
    expect(fact.capabilities?.batch).toBeUndefined();
    expect(Object.keys(fact.capabilities ?? {}).sort()).toEqual([
      "audio_input",
      "audio_output",
      "image_output",
      "reasoning",
      "vision",
    ]);
  });

  it("the pages recorded from renderings of the HTML page (GPT-5.6 Luna, GPT-5.4 mini): limits, modalities, reasoning and the Features / Tools items, batch unknown", async () => {
    for (const [name, id, context] of [
      ["model-gpt-5-6-luna", "gpt-5.6-luna", 1_050_000],
      ["model-gpt-5-4-mini", "gpt-5.4-mini", 400_000],
    ] as const) {
      const fact = defined((await factsOf(name)).get(id), `facts of ${id}`);
      expect(fact.context_tokens).toBe(context);
      expect(fact.max_output_tokens).toBe(128_000);
      expect(fact.capabilities).toEqual({
        vision: supported,
        image_output: unsupported,
        audio_input: unsupported,
        audio_output: unsupported,
        reasoning: supported,
        tool_calling: supported,
        structured_output: supported,
        web_search: supported,
        code_execution: supported,
        computer_use: supported,
      });
    }
    // the model id's Snapshots group names the snapshot its alias points to (the Default
    // snapshot of the Markdown form): the page's facts are that snapshot's too
    const mini = await factsOf("model-gpt-5-4-mini");
    expect([...mini.keys()]).toEqual(["gpt-5.4-mini", "gpt-5.4-mini-2026-03-17"]);
    const snapshot = defined(mini.get("gpt-5.4-mini-2026-03-17"), "default snapshot");
    expect([snapshot.context_tokens, snapshot.max_output_tokens]).toEqual([400_000, 128_000]);
    expect(snapshot.capabilities).toEqual(defined(mini.get("gpt-5.4-mini"), "alias").capabilities);
    // GPT-5.6 Luna's alias points to itself: one id
    expect([...(await factsOf("model-gpt-5-6-luna")).keys()]).toEqual(["gpt-5.6-luna"]);
  });

  it("the pages recorded from a 2025 crawl of platform.openai.com (o3, o1, GPT-5, GPT-4.1 nano, GPT-4o mini Search Preview): the same rendered layout with the older icon path", async () => {
    const o3 = defined((await factsOf("model-o3")).get("o3"), "o3");
    expect(o3.context_tokens).toBe(200_000);
    expect(o3.max_output_tokens).toBe(100_000);
    expect(o3.capabilities).toEqual({
      vision: supported,
      image_output: unsupported,
      audio_input: unsupported,
      audio_output: unsupported,
      reasoning: supported,
      tool_calling: supported,
      structured_output: supported,
    });
    const gpt5 = defined((await factsOf("model-gpt-5")).get("gpt-5"), "gpt-5");
    expect([gpt5.context_tokens, gpt5.max_output_tokens]).toEqual([400_000, 128_000]);
    expect(gpt5.capabilities?.web_search).toEqual(supported);
    expect(gpt5.capabilities?.code_execution).toEqual(supported);
    expect(gpt5.capabilities?.computer_use).toEqual(unsupported); // "Computer use" / "Not supported"
    const nano = defined((await factsOf("model-gpt-4-1-nano")).get("gpt-4.1-nano"), "gpt-4.1-nano");
    expect([nano.context_tokens, nano.max_output_tokens]).toEqual([1_047_576, 32_768]);
    expect(nano.capabilities?.reasoning).toBeUndefined(); // no "Reasoning token support" line
    const search = defined(
      (await factsOf("model-gpt-4o-mini-search-preview")).get("gpt-4o-mini-search-preview"),
      "gpt-4o-mini-search-preview",
    );
    expect([search.context_tokens, search.max_output_tokens]).toEqual([128_000, 16_384]);
    expect(search.capabilities?.vision).toEqual(unsupported); // Image / Not supported
    expect(search.capabilities?.tool_calling).toEqual(unsupported);
    // o1's Snapshots list an o1-preview group marked Deprecated: nothing from it is listed
    expect([...(await factsOf("model-o1")).keys()]).toEqual(["o1", "o1-2024-12-17"]);
    const o3Facts = await factsOf("model-o3");
    expect([...o3Facts.keys()]).toEqual(["o3", "o3-2025-04-16"]);
    // each page's own group: the alias, then its Default snapshot, which has the page's facts
    for (const [name, alias, snapshot] of [
      ["model-o3", "o3", "o3-2025-04-16"],
      ["model-o1", "o1", "o1-2024-12-17"],
      ["model-gpt-5", "gpt-5", "gpt-5-2025-08-07"],
      ["model-gpt-4-1-nano", "gpt-4.1-nano", "gpt-4.1-nano-2025-04-14"],
      [
        "model-gpt-4o-mini-search-preview",
        "gpt-4o-mini-search-preview",
        "gpt-4o-mini-search-preview-2025-03-11",
      ],
    ] as const) {
      const facts = await factsOf(name);
      const { provider_model_id: _a, only_snapshot: _o, ...aliasFacts } = defined(facts.get(alias), alias);
      const { provider_model_id: _s, ...snapshotFacts } = defined(facts.get(snapshot), snapshot);
      expect(snapshotFacts).toEqual(aliasFacts);
    }
    expect(defined(o3Facts.get("o3-2025-04-16"), "o3 snapshot").context_tokens).toBe(200_000);
  });

  it("names a model id's Default snapshot as its only snapshot where the Snapshots list names no other, in both forms of the page", async () => {
    const only = async (name: string, id: string) => (await factsOf(name)).get(id)?.only_snapshot;
    // the Markdown form: one listed snapshot, the Default snapshot
    expect(await only("model-o3-pro", "o3-pro")).toBe("o3-pro-2025-06-10");
    expect(await only("model-gpt-4-1", "gpt-4.1")).toBe("gpt-4.1-2025-04-14");
    // the rendering: the model id's group names it second, and lists it alone
    expect(await only("model-gpt-5", "gpt-5")).toBe("gpt-5-2025-08-07");
    expect(await only("model-gpt-4o-search-preview", "gpt-4o-search-preview")).toBe(
      "gpt-4o-search-preview-2025-03-11",
    );
    // o1's page also lists a Deprecated o1-preview group: its own group still has one snapshot
    expect(await only("model-o1", "o1")).toBe("o1-2024-12-17");
    // GPT-4o lists three snapshots: it may point to another, so none is its only one
    expect(await only("model-gpt-4o", "gpt-4o")).toBeUndefined();
    // GPT-5.6 Luna points to itself: no snapshot
    expect(await only("model-gpt-5-6-luna", "gpt-5.6-luna")).toBeUndefined();
    // the snapshot's own fact names none
    expect(await only("model-o3-pro", "o3-pro-2025-06-10")).toBeUndefined();
  });

  it("a rendered page: a Features item marked Not supported is unsupported; the icon must name the URL's model; limits are required", async () => {
    const input = await recordedInput("openai", "model-gpt-5-4-mini");
    const out = ParseOutput.parse(
      page(
        edit(input, (c) => c.replace("Function calling\n\nSupported", "Function calling\n\nNot supported")),
      ),
    );
    expect(out.model_facts?.[0]?.capabilities?.tool_calling).toEqual(unsupported);
    expectParseFailure(
      () =>
        page(
          edit(input, (c) =>
            c
              .replaceAll("icons/gpt-5.4-mini.png", "icons/gpt-5.4-nano.png")
              .replaceAll("![gpt-5.4-mini]", "![gpt-5.4-nano]"),
          ),
        ),
      "model-gpt-5-4-mini: the page's model icon names gpt-5.4-nano, its URL gpt-5.4-mini",
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("400,000 context window", "400K context"))),
      'model-gpt-5-4-mini: gpt-5.4-mini: no "N context window" and "N max output tokens" lines',
    );
  });

  it("fails on a page without a Model ID line, without a context window, or with an unreadable Batch row", async () => {
    const input = await recordedInput("openai", "model-gpt-4-1");
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("Model ID: `gpt-4.1`", "Model: gpt-4.1"))),
      'model-gpt-4-1: no "Model ID: `<model>`" line',
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("1,047,576 context window", "1M context"))),
      'model-gpt-4-1: gpt-4.1: the details give no "N context window" and "N max output tokens"',
    );
    expectParseFailure(
      () =>
        page(
          edit(input, (c) =>
            c.replace("| Batch | `v1/batch` | Supported |", "| Batch | `v1/batch` | Soon |"),
          ),
        ),
      "model-gpt-4-1: gpt-4.1: the Endpoints table has no Batch row saying Supported / Not supported",
    );
  });
});
