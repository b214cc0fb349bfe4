import { describe, expect, it } from "vitest";
import { bedrockIdentity } from "../../src/normalize/identity/index.js";
import {
  azureCanonicalModelId,
  azureProviderModelId,
  azureTables,
  MATRIX_FILES,
  matrixDeploymentType,
  parseReplacements,
  parsers,
  withoutFrontMatter,
} from "../../src/normalize/parsers/azure.js";
import type { Parser, ParserInput } from "../../src/normalize/types.js";
import { type DeploymentFact, type LifecycleAssertion, ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { edit, expectParseFailure, withContent } from "../helpers/parsers.js";

function parser(id: string): Parser {
  const found = parsers[id];
  if (!found) throw new Error(`azure parser ${id} not exported`);
  return found;
}
const parseRetirements = parser("azure-model-retirements");
const parseModels = parser("azure-models");

const MODEL_SOURCES = [
  "models-global-standard",
  "models-data-zone-standard",
  "models-global-batch",
  "models-standard",
] as const;

async function allModels(): Promise<DeploymentFact[]> {
  const out: DeploymentFact[] = [];
  for (const name of MODEL_SOURCES)
    out.push(...ParseOutput.parse(parseModels(await recordedInput("azure", name))).deployments);
  return out;
}

function withUrl(input: ParserInput, url: string): ParserInput {
  return { ...input, source: { ...input.source, url } };
}

function assertionFor(out: ParseOutput, providerModelId: string, mode?: string): LifecycleAssertion {
  const found = out.lifecycle.filter(
    (l) => l.target?.provider_model_id === providerModelId && l.target?.mode === mode,
  );
  expect(found).toHaveLength(1);
  return found[0] as LifecycleAssertion;
}

describe("azure identity helpers", () => {
  it("joins model name and version into Azure's deployable id", () => {
    expect(azureProviderModelId("gpt-4o", "2024-08-06")).toBe("gpt-4o-2024-08-06");
    expect(azureProviderModelId("gpt-35-turbo", "0125")).toBe("gpt-35-turbo-0125");
    expect(azureProviderModelId("gpt-realtime-mini-2025-12-15", "2025-12-15")).toBe(
      "gpt-realtime-mini-2025-12-15",
    );
    expect(azureProviderModelId("o1-preview", null)).toBe("o1-preview");
    // "3.0" in the region matrices and "3" in the retirement table are one version.
    expect(azureProviderModelId("dall-e-3", "3.0")).toBe(azureProviderModelId("dall-e-3", "3"));
    expect(azureProviderModelId("text-embedding-ada-002", "2")).toBe("text-embedding-ada-002-2");
  });

  it("maps Azure model versions to the OpenAI API model id", () => {
    expect(azureCanonicalModelId("gpt-4o", "2024-08-06")).toBe("openai/gpt-4o-2024-08-06");
    expect(azureCanonicalModelId("gpt-35-turbo", "0125")).toBe("openai/gpt-3.5-turbo-0125");
    expect(azureCanonicalModelId("gpt-4", "turbo-2024-04-09")).toBe("openai/gpt-4-turbo-2024-04-09");
    expect(azureCanonicalModelId("text-embedding-ada-002", "2")).toBe("openai/text-embedding-ada-002");
    expect(azureCanonicalModelId("tts-hd", "001")).toBe("openai/tts-hd");
    expect(azureCanonicalModelId("model-router", "2025-11-18")).toBe("microsoft/model-router-2025-11-18");
  });

  it("gives other labs' models on Azure their lab's canonical id, not OpenAI's", () => {
    expect(azureCanonicalModelId("command-r-plus", null)).toBe("cohere/command-r-plus");
    expect(azureCanonicalModelId("mistral-large-2402", null)).toBe("mistral/mistral-large-2402");
    expect(azureCanonicalModelId("Llama-3.3-70B-Instruct", null)).toBe("meta/llama-3.3-70b-instruct");
    // the same model at Bedrock and at Azure is one canonical model
    expect(azureCanonicalModelId("command-r-plus", null)).toBe(
      bedrockIdentity.canonicalModelId("cohere.command-r-plus-v1:0"),
    );
    expect(azureCanonicalModelId("gpt-4o-mini", null)).toBe("openai/gpt-4o-mini");
  });

  it("reads replacement cells with versions, line breaks and alternatives", () => {
    const source = { name: "t", url: "https://example.com" } as ParserInput["source"];
    expect(parseReplacements(source, "`gpt-4.1` version: `2025-04-14`")).toEqual(["gpt-4.1-2025-04-14"]);
    expect(parseReplacements(source, "`gpt-35-turbo` (0125) <br><br> `gpt-4o-mini`")).toEqual([
      "gpt-35-turbo-0125",
      "gpt-4o-mini",
    ]);
    expect(
      parseReplacements(
        source,
        "`gpt-4o-realtime-preview` (version 2024-12-17) or `gpt-4o-mini-realtime-preview` (version 2024-12-17)",
      ),
    ).toEqual(["gpt-4o-realtime-preview-2024-12-17", "gpt-4o-mini-realtime-preview-2024-12-17"]);
    expect(parseReplacements(source, "n/a")).toEqual([]);
    expectParseFailure(() => parseReplacements(source, "see the announcement blog post"));
  });

  it("reads pipe tables with their heading, keeping raw cells", () => {
    const tables = azureTables("## A\n\n| **X** | Y<sup>1</sup> |\n|:--|:-:|\n| `a`<br>`b` | - |\n\ntext\n");
    expect(tables).toEqual([
      { heading: "A", headings: { 2: "A" }, headers: ["X", "Y"], rows: [["`a`<br>`b`", "-"]] },
    ]);
  });

  it("skips a leading front matter block, and only a leading one", () => {
    const doc =
      "---\ntitle: T\n# not a heading\n---\n\n# [Tab](#tab/t)\n\n| A |\n|---|\n| 1 |\n\n---\n\nend\n";
    expect(withoutFrontMatter(doc)).toBe("\n# [Tab](#tab/t)\n\n| A |\n|---|\n| 1 |\n\n---\n\nend\n");
    expect(withoutFrontMatter("| A |\n|---|\n")).toBe("| A |\n|---|\n");
    expect(azureTables(doc)).toEqual([
      { heading: "[Tab](#tab/t)", headings: { 1: "[Tab](#tab/t)" }, headers: ["A"], rows: [["1"]] },
    ]);
  });
});

describe("azure model-retirements (current-models table file)", () => {
  it("reads the raw repository file: front matter, tab markers and notes are ignored", async () => {
    const input = await recordedInput("azure", "model-retirements-current");
    expect(input.content.startsWith("---\ntitle:")).toBe(true);
    expect(input.content).toContain("# [Audio](#tab/audio)");
    const out = ParseOutput.parse(parseRetirements(input));
    // 56 model versions; gpt-4o 2024-05-13 / 2024-08-06 and gpt-4o-mini also date Standard apart.
    expect(out.lifecycle).toHaveLength(59);
    expect(out.lifecycle.filter((l) => l.target?.mode === "standard")).toHaveLength(3);
    // A retirement page says when a version retires, not where it is offered: no deployments.
    expect(out.deployments).toEqual([]);
    for (const a of out.lifecycle) {
      expect(a.scope).toBe("deployment");
      expect(a.target?.api_surface).toBe("azure-openai");
      expect(a.model_id).toMatch(/^(openai|microsoft)\//);
    }
    // Fine-tuned schedules are relative to the base model; the default-versions table is not read.
    expect(out.skipped).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/fine-tuned/), count: 6 }),
    ]);
    expect(out.lifecycle.every((l) => l.status !== "retired" || l.end_of_life?.state === "scheduled")).toBe(
      true,
    );
  });

  it("reads gpt-4o 2024-08-06: deprecation, a retirement per deployment type, replacement and its declared status", async () => {
    const out = parseRetirements(await recordedInput("azure", "model-retirements-current"));
    const a = assertionFor(out, "gpt-4o-2024-08-06");
    expect(a.deprecation).toMatchObject({
      state: "scheduled",
      date: "2025-08-06",
      precision: "day",
      date_type: "on",
    });
    // "Standard deployment type retires on 2026-03-31 ... For other deployment types ... moved to 2026-10-01."
    expect(a.end_of_life).toMatchObject({
      state: "scheduled",
      date: "2026-10-01",
      precision: "day",
      date_type: "on",
    });
    expect(a.replacements).toEqual(["gpt-5.1"]);
    // The Lifecycle status column as declared; the release stage retires it after 2026-03-31.
    expect(a.status).toBe("available");
    expect(a.model_id).toBe("openai/gpt-4o-2024-08-06");
    expect(a.target).toEqual({ provider_model_id: "gpt-4o-2024-08-06", api_surface: "azure-openai" });
    const standard = assertionFor(out, "gpt-4o-2024-08-06", "standard");
    expect(standard.target).toEqual({
      provider_model_id: "gpt-4o-2024-08-06",
      api_surface: "azure-openai",
      mode: "standard",
    });
    expect(standard.model_id).toBe("openai/gpt-4o-2024-08-06");
    expect(standard.end_of_life).toMatchObject({ date: "2026-03-31", date_type: "on" });
    expect(standard.status).toBeUndefined(); // the row's status stands; the narrower assertion only dates
    expect(standard.replacements).toEqual(["gpt-5.1"]);
  });

  it("reports the declared status column, fixed dates and 'No earlier than' phrases, whatever the capture time", async () => {
    const input = await recordedInput("azure", "model-retirements-current");
    const out = parseRetirements(input);
    expect(
      parseRetirements({ ...input, observedAt: "2030-01-01T00:00:00Z" }).lifecycle.map((l) => l.status),
    ).toEqual(out.lifecycle.map((l) => l.status));
    const o3pro = assertionFor(out, "o3-pro-2025-06-10");
    expect(o3pro.status).toBe("available");
    expect(o3pro.deprecation).toMatchObject({ date_type: "on", state: "scheduled" });
    expect(o3pro.deprecation?.date).toBe("2026-06-10");
    expect(o3pro.end_of_life?.date).toBe("2026-12-10");
    const gpt52 = assertionFor(out, "gpt-5.2-2025-12-11");
    expect(gpt52.status).toBe("available");
    expect(gpt52.deprecation).toMatchObject({ date: "2026-12-12", date_type: "not_before" });
    expect(gpt52.end_of_life).toMatchObject({ date: "2027-05-12", date_type: "not_before" });
    const tts = assertionFor(out, "gpt-4o-mini-tts-2025-03-20");
    expect(tts.status).toBe("preview");
    expect(tts.deprecation?.state).toBe("not_announced");
    expect(tts.end_of_life).toMatchObject({ date: "2026-02-28", precision: "day", date_type: "not_before" });
    const whisper = assertionFor(out, "whisper-001");
    expect(whisper.end_of_life?.state).toBe("unknown");
    const embedding = assertionFor(out, "text-embedding-3-large-1");
    // "No retirement scheduled. Will not retire before April 15, 2027"
    expect(embedding.end_of_life).toMatchObject({ date: "2027-04-15", date_type: "not_before" });
  });

  it("fails on a file whose tables changed instead of returning less", async () => {
    const input = await recordedInput("azure", "model-retirements-current");
    const c = input.content;
    expectParseFailure(() =>
      parseRetirements(edit(input, (x) => x.replaceAll("| Retirement Date |", "| Sunset |"))),
    );
    expectParseFailure(() =>
      parseRetirements(edit(input, (x) => x.replace("| 2026-10-01 |", "| 2026-13-45 |"))),
    );
    expectParseFailure(() =>
      parseRetirements(
        edit(input, (x) => x.replace("| `Generally Available` | 2025-08-06", "| `Beta` | 2025-08-06")),
      ),
    );
    const headersOnly = c
      .split("\n")
      .filter((line) => !/^\| `/.test(line))
      .join("\n");
    expectParseFailure(() => parseRetirements(withContent(input, headersOnly)));
  });
});

describe("azure model-retirements (retired-models page)", () => {
  it("reads the retired-models table, splitting multi-model rows", async () => {
    const input = await recordedInput("azure", "model-retirements-retired");
    expect(input.content.startsWith("---\ntitle:")).toBe(true);
    const out = ParseOutput.parse(parseRetirements(input));
    expect(out.lifecycle).toHaveLength(40);
    expect(out.skipped).toEqual([]);
    for (const l of out.lifecycle) expect(l.status).toBe("retired");
    for (const id of ["gpt-4-0613", "gpt-4-32k-0613"]) {
      const a = assertionFor(out, id);
      expect(a.end_of_life).toMatchObject({ date: "2025-06-06", date_type: "on" });
      expect(a.replacements).toEqual(["gpt-4o-2024-11-20"]);
    }
    const turbo = assertionFor(out, "gpt-35-turbo-0301");
    expect(turbo.replacements).toEqual(["gpt-35-turbo-0125", "gpt-4o-mini"]);
    expect(turbo.model_id).toBe("openai/gpt-3.5-turbo-0301");
    const davinci = assertionFor(out, "text-davinci-003");
    expect(davinci.deprecation).toMatchObject({ date: "2023-07-06" });
    expect(davinci.end_of_life).toMatchObject({ date: "2024-06-14" });
    expect(davinci.replacements).toEqual(["gpt-35-turbo-instruct"]);
  });

  it("fails when the retired table is gone or a row has no retirement date", async () => {
    const input = await recordedInput("azure", "model-retirements-retired");
    const c = input.content;
    expectParseFailure(() =>
      parseRetirements(withContent(input, c.slice(0, c.indexOf("## Retired models")))),
    );
    expectParseFailure(() =>
      parseRetirements(
        edit(input, (x) => x.replace("| `ada` | July 6, 2023 | June 14, 2024 |", "| `ada` | | |")),
      ),
    );
    expectParseFailure(() =>
      parseRetirements(edit(input, (x) => x.replace("| `dall-e-2`|", "| dall-e 2 (legacy) |"))),
    );
  });

  it("reads both kinds of table when one document holds them", async () => {
    const current = await recordedInput("azure", "model-retirements-current");
    const retired = await recordedInput("azure", "model-retirements-retired");
    const out = parseRetirements(withContent(current, `${current.content}\n${retired.content}`));
    expect(out.lifecycle).toHaveLength(99);
    // A model version listed twice is a page error, not two assertions.
    expectParseFailure(() =>
      parseRetirements(withContent(retired, `${retired.content}\n${retired.content}`)),
    );
  });
});

describe("azure models (availability per deployment type, one matrix file each)", () => {
  it("takes each source's deployment type from its matrix file name", async () => {
    expect(Object.keys(MATRIX_FILES).sort()).toEqual([
      "datazone-standard.md",
      "global-batch.md",
      "standard-global.md",
      "standard-models.md",
    ]);
    const expected: Record<string, [string, RegExp]> = {
      "models-global-standard": ["global-standard", /^global$/],
      "models-data-zone-standard": ["data-zone-standard", /^(us|eu)$/],
      "models-global-batch": ["global-batch", /^global$/],
      "models-standard": ["standard", /^[a-z]+[0-9]*$/],
    };
    for (const name of MODEL_SOURCES) {
      const input = await recordedInput("azure", name);
      expect(input.content.startsWith("---\ntitle:")).toBe(true);
      const [mode, region] = expected[name] as [string, RegExp];
      expect(matrixDeploymentType(input.source).mode).toBe(mode);
      const out = ParseOutput.parse(parseModels(input));
      expect(out.lifecycle).toEqual([]);
      expect(out.deployments.length).toBeGreaterThan(0);
      for (const d of out.deployments) {
        expect(d.mode).toBe(mode);
        expect(d.region).toMatch(region);
      }
    }
  });

  it("emits one deployment per model version and deployment type (data zones per zone)", async () => {
    const deployments = await allModels();
    expect(deployments).toHaveLength(252);
    const ids = new Set(deployments.map((d) => d.id));
    expect(ids.size).toBe(deployments.length);
    for (const id of [
      "dep_azure_gpt-4o-2024-08-06_azure-openai-global-standard_global",
      "dep_azure_gpt-4o-2024-08-06_azure-openai-data-zone-standard_us",
      "dep_azure_gpt-4o-2024-08-06_azure-openai-data-zone-standard_eu",
      "dep_azure_gpt-4o-mini-2024-07-18_azure-openai-global-batch_global",
      "dep_azure_o3-deep-research-2025-06-26_azure-openai-global-standard_global",
      // Columns the Global Standard table gained by commit 9489a6e3 (gpt-5.2 only in eastus2,
      // southcentralus and swedencentral; gpt-5.1 in eight regions; all of them one "global" deployment).
      "dep_azure_gpt-5.2-2025-12-11_azure-openai-global-standard_global",
      "dep_azure_gpt-5.2-codex-2026-01-14_azure-openai-global-standard_global",
      "dep_azure_gpt-5.1-2025-11-13_azure-openai-global-standard_global",
      "dep_azure_gpt-5.1-codex-max-2025-12-04_azure-openai-global-standard_global",
      // Data Zone Standard by commit 8f2b68ee: gpt-5.1 in eastus, eastus2, francecentral and
      // swedencentral (both zones), model-router 2025-11-18 in eastus2 and swedencentral.
      "dep_azure_gpt-5.1-2025-11-13_azure-openai-data-zone-standard_us",
      "dep_azure_gpt-5.1-2025-11-13_azure-openai-data-zone-standard_eu",
      "dep_azure_model-router-2025-11-18_azure-openai-data-zone-standard_eu",
      "dep_azure_gpt-5-nano-2025-08-07_azure-openai-data-zone-standard_eu",
      // Global Batch by commit 31c50ba1: gpt-5.1 in all 22 regions.
      "dep_azure_gpt-5.1-2025-11-13_azure-openai-global-batch_global",
      // Standard by commit 43dc14ea: the gpt-4.1 family and o4-mini, and the new centralus row.
      "dep_azure_gpt-4.1-2025-04-14_azure-openai_switzerlandnorth",
      "dep_azure_gpt-4.1-nano-2025-04-14_azure-openai_northcentralus",
      "dep_azure_o4-mini-2025-04-16_azure-openai_westus3",
      "dep_azure_gpt-4o-2024-11-20_azure-openai_centralus",
    ])
      expect(ids).toContain(id);
    // Data Zone gpt-5.2 (centralus, eastus2) and its text-embedding columns are US-only.
    expect(ids).not.toContain("dep_azure_gpt-5.2-2025-12-11_azure-openai-data-zone-standard_eu");
    expect(ids).toContain("dep_azure_text-embedding-3-large-1_azure-openai-data-zone-standard_us");
    expect(ids).not.toContain("dep_azure_text-embedding-3-large-1_azure-openai-data-zone-standard_eu");
    // No table lists gpt-4 turbo-2024-04-09, o1-mini or gpt-35-turbo any more (Standard dropped
    // them by 43dc14ea, Global Standard by 9489a6e3).
    expect(ids).not.toContain("dep_azure_gpt-4-turbo-2024-04-09_azure-openai-global-standard_global");
    for (const gone of ["_o1-mini-", "_gpt-4-turbo-", "_gpt-35-turbo"])
      expect([...ids].filter((id) => id.includes(gone))).toEqual([]);
    // Standard (regional): text-embedding-3-large is offered even in koreacentral.
    expect(ids).toContain("dep_azure_text-embedding-3-large-1_azure-openai_koreacentral");
    expect(ids).not.toContain("dep_azure_text-embedding-3-large-1_azure-openai_brazilsouth");
  });

  it("names GPT-3.5 and 'gpt-4, turbo-2024-04-09' columns as Azure deploys them", async () => {
    // Three columns and two rows of Azure's Standard chat-completions matrix
    // (includes/model-matrix/standard-chat-completions.md, commit 43dc14ea): the current Standard
    // table no longer has these columns.
    const table = [
      "| **Region**   | **gpt-4**, **turbo-2024-04-09**   | **gpt-35-turbo**, **1106**   | **gpt-35-turbo**, **0125**   |",
      "|:-----------------|:-------------------------------:|:--------------------------:|:--------------------------:|",
      "| australiaeast    | -                           | ✅                       | ✅                       |",
      "| eastus           | ✅                            | -                      | ✅                       |",
    ].join("\n");
    const standard = await recordedInput("azure", "models-standard");
    const out = ParseOutput.parse(parseModels(withContent(standard, `${table}\n`)));
    expect(out.deployments.map((d) => d.id)).toEqual([
      "dep_azure_gpt-35-turbo-0125_azure-openai_australiaeast",
      "dep_azure_gpt-35-turbo-0125_azure-openai_eastus",
      "dep_azure_gpt-35-turbo-1106_azure-openai_australiaeast",
      "dep_azure_gpt-4-turbo-2024-04-09_azure-openai_eastus",
    ]);
    expect(out.deployments.find((d) => d.provider_model_id === "gpt-35-turbo-0125")?.model_id).toBe(
      "openai/gpt-3.5-turbo-0125",
    );
    const gpt4turbo = out.deployments.find((d) => d.provider_model_id === "gpt-4-turbo-2024-04-09");
    expect(gpt4turbo?.model_id).toBe("openai/gpt-4-turbo-2024-04-09");
    expect(gpt4turbo?.display_name).toBe("gpt-4 turbo-2024-04-09");
  });

  it("ignores headings, [!INCLUDE] lines and tab markers: the file name decides", async () => {
    const input = await recordedInput("azure", "models-global-batch");
    const before = parseModels(input).deployments.map((d) => d.id);
    const decorated = input.content.replace(
      "\n| **Region**",
      "\n# [Standard](#tab/standard)\n\n## Standard deployment model availability\n\n[!INCLUDE [other](../includes/model-matrix/standard-models.md)]\n\n| **Region**",
    );
    expect(parseModels(withContent(input, `${decorated}\n---\n`)).deployments.map((d) => d.id)).toEqual(
      before,
    );
    // The same table under another matrix file's URL is that file's deployment type.
    const asGlobal = parseModels(
      withUrl(input, input.source.url.replace("global-batch.md", "standard-global.md")),
    );
    expect(new Set(asGlobal.deployments.map((d) => d.mode))).toEqual(new Set(["global-standard"]));
    expectParseFailure(() =>
      parseModels(withUrl(input, input.source.url.replace("global-batch.md", "provisioned-global.md"))),
    );
  });

  it("fails when an availability table changes shape", async () => {
    const global = await recordedInput("azure", "models-global-standard");
    const g = global.content;
    expectParseFailure(() => parseModels(edit(global, (x) => x.replace(/(\| eastus2 +\| )✅/, "$1✔"))));
    expectParseFailure(() =>
      parseModels(edit(global, (x) => x.replaceAll("| **Region**", "| **Location**"))),
    );
    expectParseFailure(() =>
      parseModels(edit(global, (x) => x.replace("| **gpt-5**, **2025-08-07**", "| **GPT 5 (preview)**"))),
    );
    expectParseFailure(() => parseModels(withContent(global, g.slice(0, g.indexOf("| **Region**")))));
    const zone = await recordedInput("azure", "models-data-zone-standard");
    expectParseFailure(() =>
      parseModels(edit(zone, (x) => x.replace("| eastus             |", "| brazilsouth        |"))),
    );
    const standard = await recordedInput("azure", "models-standard");
    const headersOnly = standard.content
      .split("\n")
      .filter((line) => !/^\| [a-z]+[0-9]* +\|/.test(line))
      .join("\n");
    expectParseFailure(() => parseModels(withContent(standard, headersOnly)));
  });
});
