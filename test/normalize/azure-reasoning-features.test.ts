import { describe, expect, it } from "vitest";
import { normalizeSource } from "../../src/normalize/index.js";
import { modelVersions } from "../../src/normalize/parsers/azure-model-facts.js";
import {
  columnModel,
  parsers as reasoningParsers,
} from "../../src/normalize/parsers/azure-reasoning-features.js";
import { indexModelFacts, modelFactKey } from "../../src/release/model-facts.js";
import { type ModelFact, ParseOutput, type SourceFacts } from "../../src/schema/index.js";
import { supported, unsupported } from "../helpers/capabilities.js";
import { recordedInput, recordedSourceFacts } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const parse = defined(reasoningParsers["azure-reasoning-features"], "parser azure-reasoning-features");

/** reasoning: every column of the reasoning models page, by the page's structure */
const reasoning = { status: "supported", verification_status: "official_inferred" };

function byId(facts: readonly ModelFact[] | undefined): Map<string, ModelFact> {
  return new Map((facts ?? []).map((f) => [f.provider_model_id, f]));
}

async function recordedFacts(name: string): Promise<Map<string, ModelFact>> {
  const input = await recordedInput("azure", name);
  const out = ParseOutput.parse(normalizeSource(input));
  expect(out.deployments).toEqual([]);
  expect(out.lifecycle).toEqual([]);
  for (const fact of out.model_facts ?? []) {
    expect(fact.provider_id).toBe("azure");
    expect(fact.evidence).toEqual({
      source_url: input.source.url,
      source_type: "official_docs",
      observed_at: input.observedAt,
      verification_status: "official_declared",
    });
    expect(fact.capabilities?.reasoning).toEqual(reasoning);
  }
  return byId(out.model_facts);
}

describe("Azure OpenAI reasoning models page, API & feature support (January 2026)", () => {
  it("gives every column of the GPT-5 and o-series tables its limits and capabilities", async () => {
    const facts = await recordedFacts("reasoning-models-2026-01");
    expect([...facts.keys()]).toEqual([
      "gpt-5.2-codex",
      "gpt-5.2",
      "gpt-5.1-codex-max",
      "gpt-5.1-2025-11-13",
      "gpt-5.1-chat-2025-11-13",
      "gpt-5.1-codex-2025-11-13",
      "gpt-5.1-codex-mini-2025-11-13",
      "gpt-5-pro-2025-10-06",
      "gpt-5-codex",
      "gpt-5-2025-08-07",
      "gpt-5-mini-2025-08-07",
      "gpt-5-nano-2025-08-07",
      "codex-mini-2025-05-16",
      "o3-pro-2025-06-10",
      "o4-mini-2025-04-16",
      "o3-2025-04-16",
      "o3-mini-2025-01-31",
      "o1-2024-12-17",
    ]);
    // "400,000 <br><br>Input: 272,000 <br> Output: 128,000": the window and the output limit
    expect(facts.get("gpt-5-2025-08-07")).toEqual({
      provider_id: "azure",
      provider_model_id: "gpt-5-2025-08-07",
      context_tokens: 400_000,
      max_output_tokens: 128_000,
      capabilities: {
        reasoning,
        structured_output: supported,
        vision: supported,
        tool_calling: supported,
        parallel_tool_calling: supported,
      },
      evidence: expect.anything(),
    });
    // "128,000 <br><br>Input: 111,616 <br> Output: 16,384"
    expect(facts.get("gpt-5.1-chat-2025-11-13")).toMatchObject({
      context_tokens: 128_000,
      max_output_tokens: 16_384,
    });
    // gpt-5-pro's Parallel Tool Calls cell is "-"
    expect(facts.get("gpt-5-pro-2025-10-06")?.capabilities).toMatchObject({
      tool_calling: supported,
      parallel_tool_calling: unsupported,
    });
    // "Input: 200,000 <br> Output: 100,000" alone: the maximum input is the context
    expect(facts.get("o3-2025-04-16")).toMatchObject({
      context_tokens: 200_000,
      max_output_tokens: 100_000,
      capabilities: { vision: supported, tool_calling: supported, parallel_tool_calling: unsupported },
    });
    // o3-mini's Image input cell is "-"
    expect(facts.get("o3-mini-2025-01-31")?.capabilities).toMatchObject({
      structured_output: supported,
      vision: unsupported,
    });
  });

  it("marks a column without a readable version version_unstated, under the bare model name", async () => {
    const input = await recordedInput("azure", "reasoning-models-2026-01");
    const out = parse(input);
    const facts = byId(out.model_facts);
    for (const bare of ["gpt-5.2", "gpt-5.2-codex", "gpt-5.1-codex-max"])
      expect(facts.get(bare)).toMatchObject({
        context_tokens: 400_000,
        max_output_tokens: 128_000,
        version_unstated: true,
      });
    // "**gpt-5-codex**, **2025-09-011**": not a version, so no id is made of it
    expect(facts.get("gpt-5-codex")).toMatchObject({ context_tokens: 400_000, version_unstated: true });
    expect([...facts.keys()].filter((id) => id.startsWith("gpt-5-codex-"))).toEqual([]);
    expect(out.skipped).toContainEqual({
      reason: "column version is not an Azure version (fact for the bare name)",
      count: 1,
      examples: ["gpt-5-codex, 2025-09-011"],
    });
    expect(facts.get("gpt-5.1-2025-11-13")?.version_unstated).toBeUndefined();
    // the rows with no catalog capability are counted, and so is the Feature | Description table
    expect(out.skipped).toContainEqual({
      reason: "table other than a feature table",
      count: 1,
      examples: ["Feature | Description"],
    });
    expect(out.skipped.find((s) => s.reason === "feature row without a catalog capability")?.count).toBe(18);
    expect(out.skipped.some((s) => s.reason === "feature row not recognised")).toBe(false);
  });

  it("applies a version_unstated column to the one version the region tables list", async () => {
    const sourceFacts = async (name: string): Promise<SourceFacts> => {
      const input = await recordedInput("azure", name);
      return recordedSourceFacts(input, normalizeSource(input));
    };
    const index = indexModelFacts(
      [await sourceFacts("reasoning-models-2026-01"), await sourceFacts("deployments-standard")],
      () => true,
    );
    // Global Standard lists gpt-5-codex 2025-09-15 only (the page's column says "2025-09-011")
    const codex = index.get(modelFactKey("azure", "gpt-5-codex-2025-09-15"));
    expect(codex?.map((c) => c.fact)).toEqual([
      expect.objectContaining({
        context_tokens: 400_000,
        max_output_tokens: 128_000,
        capabilities: expect.objectContaining({
          tool_calling: { status: "supported", verification_status: "official_inferred" },
        }),
      }),
    ]);
    expect(index.get(modelFactKey("azure", "gpt-5.2-2025-12-11"))?.[0]?.fact.context_tokens).toBe(400_000);
  });

  it("reads an empty cell as unknown: no entry, no limit", async () => {
    const input = await recordedInput("azure", "reasoning-models-2026-01");
    const facts = byId(
      parse(
        edit(input, (c) =>
          c
            .replace(
              "| **[Image input](./gpt-with-vision.md)** | ✅ | ✅ | ✅ | ✅ | - | ✅ |",
              "| **[Image input](./gpt-with-vision.md)** | ✅ | ✅ | ✅ | ✅ |  | ✅ |",
            )
            .replace("| Input: 200,000 <br> Output: 100,000  |", "|  |"),
        ),
      ).model_facts,
    );
    const o3mini = defined(facts.get("o3-mini-2025-01-31"), "o3-mini-2025-01-31");
    expect(o3mini.capabilities?.vision).toBeUndefined();
    expect(o3mini.capabilities?.structured_output).toEqual(supported);
    const o1 = defined(facts.get("o1-2024-12-17"), "o1-2024-12-17");
    expect(o1.context_tokens).toBeUndefined();
    expect(o1.max_output_tokens).toBeUndefined();
    expect(o1.capabilities?.vision).toEqual(supported);
  });

  it("reads a cell with a footnote mark as the mark's cell", async () => {
    const input = await recordedInput("azure", "reasoning-models-2026-01");
    const facts = byId(
      parse(
        edit(input, (c) =>
          c.replace("| Functions/Tools | ✅ | ✅ |✅ |", "| Functions/Tools | ✅<sup>9</sup> | ✅ |✅ |"),
        ),
      ).model_facts,
    );
    expect(facts.get("codex-mini-2025-05-16")?.capabilities?.tool_calling).toEqual(supported);
  });
});

describe("Azure OpenAI reasoning models page at its new path (February 2026)", () => {
  it("adds gpt-5.3-codex 2026-02-24 and versions for every GPT-5 column", async () => {
    const facts = await recordedFacts("reasoning-models");
    expect([...facts.keys()]).toEqual([
      "gpt-5.3-codex-2026-02-24",
      "gpt-5.2-codex-2026-01-14",
      "gpt-5.2-2025-12-11",
      "gpt-5.1-codex-max-2025-12-04",
      "gpt-5.1-2025-11-13",
      "gpt-5.1-chat-2025-11-13",
      "gpt-5.1-codex-2025-11-13",
      "gpt-5.1-codex-mini-2025-11-13",
      "gpt-5-pro-2025-10-06",
      "gpt-5-codex",
      "gpt-5-2025-08-07",
      "gpt-5-mini-2025-08-07",
      "gpt-5-nano-2025-08-07",
      "codex-mini-2025-05-16",
      "o3-pro-2025-06-10",
      "o4-mini-2025-04-16",
      "o3-2025-04-16",
      "o3-mini-2025-01-31",
      "o1-2024-12-17",
    ]);
    // its Image input rows are commented out: no vision anywhere
    expect(facts.get("gpt-5.3-codex-2026-02-24")).toMatchObject({
      context_tokens: 400_000,
      max_output_tokens: 128_000,
      capabilities: {
        reasoning,
        structured_output: supported,
        tool_calling: supported,
        parallel_tool_calling: supported,
      },
    });
    for (const fact of facts.values()) expect(fact.capabilities?.vision).toBeUndefined();
    expect(facts.get("gpt-5.2-codex-2026-01-14")?.version_unstated).toBeUndefined();
    expect(facts.get("gpt-5-pro-2025-10-06")?.capabilities?.parallel_tool_calling).toEqual(unsupported);
    expect(facts.get("o3-mini-2025-01-31")).toMatchObject({
      context_tokens: 200_000,
      max_output_tokens: 100_000,
    });
  });

  it("never reads a row inside an HTML comment, and a comment between rows does not end the table", async () => {
    const input = await recordedInput("azure", "reasoning-models");
    const commented =
      "<!-- CLASSIC-ONLY: Table row(s) removed. To restore, update links and uncomment:\n| **[Image input](./gpt-with-vision.md)** | - | - | - | - | - | - |\n-->\n";
    const out = parse(
      edit(input, (c) =>
        c
          // a comment of several lines between the o-series rows
          .replace(
            "| Chat Completions API | - | - | ✅ | ✅ | ✅ | ✅ |",
            `${commented}| Chat Completions API | - | - | ✅ | ✅ | ✅ | ✅ |`,
          )
          // and one on a line of its own in the GPT-5 table
          .replace(
            "| Chat Completions API | - | - | ✅ | - |",
            "<!-- | **[Image input](./gpt-with-vision.md)** | - | - | - | - | - | - | - | - | - | - | - | - | - | -->\n| Chat Completions API | - | - | ✅ | - |",
          ),
      ),
    );
    const facts = byId(out.model_facts);
    for (const id of ["o3-2025-04-16", "gpt-5.3-codex-2026-02-24"]) {
      expect(facts.get(id)?.capabilities?.vision).toBeUndefined();
      // rows after the comment are still read
      expect(facts.get(id)?.capabilities?.tool_calling).toEqual(supported);
    }
    expect(facts.get("o3-2025-04-16")?.capabilities?.parallel_tool_calling).toEqual(unsupported);
  });

  it("fails on a July 2026 shape: a row of ✅ one cell short, where the missing model cannot be told", async () => {
    const input = await recordedInput("azure", "reasoning-models");
    expectParseFailure(
      () =>
        parse(
          edit(input, (c) =>
            c.replace(
              "| **[Structured Outputs](./structured-outputs.md)** | ✅ | ✅ | ✅ | ✅| ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ |",
              "| **[Structured Outputs](./structured-outputs.md)** | ✅ | ✅ | ✅ | ✅| ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ | ✅ |",
            ),
          ),
        ),
      'reasoning-models: feature row "Structured Outputs" has 12 cells for 13 model columns',
    );
  });
});

describe("Azure OpenAI reasoning models page, archived versions", () => {
  it("August 2025: o1-mini 2024-09-12, which the January 2026 page no longer lists", async () => {
    const facts = await recordedFacts("reasoning-models-2025-08");
    expect(facts.size).toBe(10);
    expect(facts.get("o1-mini-2024-09-12")).toEqual({
      provider_id: "azure",
      provider_model_id: "o1-mini-2024-09-12",
      context_tokens: 128_000,
      max_output_tokens: 65_536,
      capabilities: {
        reasoning,
        structured_output: unsupported,
        vision: unsupported,
        tool_calling: unsupported,
        parallel_tool_calling: unsupported,
      },
      evidence: expect.objectContaining({ observed_at: "2025-08-15T00:00:00Z" }),
    });
    // the GPT-5 tab had three columns then
    expect(facts.get("gpt-5-nano-2025-08-07")).toMatchObject({
      context_tokens: 400_000,
      max_output_tokens: 128_000,
    });
    expect(facts.has("gpt-5.1-2025-11-13")).toBe(false);
  });

  it("June 2025: o1-preview 2024-09-12, with the Vision Support row read as vision", async () => {
    const facts = await recordedFacts("reasoning-models-2025-06");
    expect([...facts.keys()]).toEqual([
      "codex-mini-2025-05-16",
      "o3-pro-2025-06-10",
      "o4-mini-2025-04-16",
      "o3-2025-04-16",
      "o3-mini-2025-01-31",
      "o1-2024-12-17",
      "o1-preview-2024-09-12",
      "o1-mini-2024-09-12",
    ]);
    expect(facts.get("o1-preview-2024-09-12")).toMatchObject({
      context_tokens: 128_000,
      max_output_tokens: 32_768,
      capabilities: {
        reasoning,
        structured_output: unsupported,
        vision: unsupported,
        tool_calling: unsupported,
        parallel_tool_calling: unsupported,
      },
    });
    expect(facts.get("o3-mini-2025-01-31")?.capabilities?.vision).toEqual(unsupported);
    expect(facts.get("o4-mini-2025-04-16")?.capabilities?.vision).toEqual(supported);
  });
});

describe("Azure OpenAI reasoning models page: a page of another shape fails", () => {
  const broken = async (
    change: (content: string) => string,
    expected: string | RegExp,
    name = "reasoning-models-2026-01",
  ) => {
    const input = await recordedInput("azure", name);
    expectParseFailure(() => parse(edit(input, change)), expected);
  };

  it("fails without the API & feature support section", async () => {
    await broken(
      (c) => c.replace("## API & feature support", "## API support"),
      'no "## API & feature support" section',
    );
  });

  it("fails when no table has the **Feature** header", async () => {
    await broken((c) => c.replaceAll("| **Feature**  |", "| Capability |"), "found no feature table");
  });

  it("fails when a model column is not **<model>**, **<version>**", async () => {
    await broken(
      (c) => c.replace("| **o3**, **2025-04-16** |", "| **o3** (2025-04-16) |"),
      'feature table column "**o3** (2025-04-16)" is not "**<model>**, **<version>**"',
    );
  });

  it("fails when a read row lacks a cell, rather than guess its alignment", async () => {
    await broken(
      (c) =>
        c.replace(
          "| Parallel Tool Calls<sup>1</sup> | ✅| ✅ | ✅  | ✅ | ✅ | ✅ | ✅ |- |",
          "| Parallel Tool Calls<sup>1</sup> | ✅| ✅ | ✅  | ✅ | ✅ | ✅ |- |",
        ),
      'feature row "Parallel Tool Calls" has 11 cells for 12 model columns',
    );
  });

  it("fails on a feature cell other than ✅, - or empty", async () => {
    await broken(
      (c) => c.replace("| Parallel Tool Calls | - | - |", "| Parallel Tool Calls | Preview | - |"),
      'codex-mini-2025-05-16 Parallel Tool Calls: feature cell "Preview" is not ✅, - or empty',
    );
  });

  it("fails when a context window item is not a size, or a size is given twice", async () => {
    await broken(
      (c) => c.replace("128,000 <br><br>Input: 111,616", "128K <br><br>Input: 111,616"),
      'gpt-5.1-chat-2025-11-13 Context Window: context window item "128K" is not a size',
    );
    await broken(
      (c) =>
        c.replace("128,000 <br><br>Input: 111,616", "128,000 <br><br>Input: 111,616 <br> Input: 100,000"),
      "gives two input sizes",
    );
  });

  it("fails when a feature table has no Context Window row", async () => {
    await broken(
      (c) => c.replaceAll("**[Context Window]", "**[Token limits]"),
      /^reasoning-models-2025-06: feature table \(codex-mini-2025-05-16, .*\) has no Context Window row$/,
      "reasoning-models-2025-06",
    );
  });

  it("fails when a model is listed twice", async () => {
    await broken(
      (c) => c.replace("| **o3**, **2025-04-16** |", "| **o4-mini**, **2025-04-16** |"),
      "model o4-mini-2025-04-16 is listed twice",
    );
  });
});

describe("columnModel", () => {
  it("reads the versions azure-model-facts reads, and nothing else", () => {
    expect(columnModel("**gpt-5.1**, **2025-11-13**")).toEqual({ name: "gpt-5.1", version: "2025-11-13" });
    expect(columnModel("**gpt-5.2**")).toEqual({ name: "gpt-5.2", version: null });
    expect(columnModel("**gpt-5-codex**, **2025-09-011**")).toEqual({
      name: "gpt-5-codex",
      version: null,
      unreadVersion: "2025-09-011",
    });
    expect(columnModel("Description")).toBeNull();
    expect(columnModel("**Region**, **gpt-5**, **2025-08-07**")).toBeNull();
    // the same version rule as the models page's parser
    for (const version of ["2025-11-13", "0914", "2", "turbo-2024-04-09", "2025-09-011", "Preview", "v1"])
      expect(columnModel(`**m**, **${version}**`)?.version ?? null).toBe(
        modelVersions(`\`m\` (${version})`)[0]?.version ?? null,
      );
  });
});
