import { describe, expect, it } from "vitest";
import { bedrockIdentity } from "../../src/normalize/identity/index.js";
import { withoutFrontMatter } from "../../src/normalize/markdown.js";
import {
  azureCanonicalModelId,
  azureProviderModelId,
  azureTables,
  parseReplacements,
  parsers,
  SECTION_TYPES,
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

const MODEL_SOURCES = ["deployments-standard", "deployments-batch"] as const;

async function allModels(): Promise<DeploymentFact[]> {
  const out: DeploymentFact[] = [];
  for (const name of MODEL_SOURCES)
    out.push(...ParseOutput.parse(parseModels(await recordedInput("azure", name))).deployments);
  return out;
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
    expectParseFailure(
      () => parseReplacements(source, "see the announcement blog post"),
      't: replacement "see the announcement blog post" is not a model name',
    );
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

describe("azure model-retirements (retirement schedule, October 2026)", () => {
  it("reads the Azure OpenAI table and model-router, and skips other publishers", async () => {
    const input = await recordedInput("azure", "model-retirements-current");
    expect(input.content).toContain("ms.date: 10/05/2026");
    const out = ParseOutput.parse(parseRetirements(input));
    expect(out.deployments).toEqual([]);
    expect(out.lifecycle).toHaveLength(78);
    const gpt55 = assertionFor(out, "gpt-5.5-2026-04-24");
    expect(gpt55.status).toBe("available");
    expect(gpt55.model_id).toBe("openai/gpt-5.5-2026-04-24");
    expect(gpt55.end_of_life).toMatchObject({ state: "scheduled", date: "2027-10-26", date_type: "on" });
    expect(gpt55.deprecation?.state ?? "unknown").toBe("unknown");
    const gpt4o = assertionFor(out, "gpt-4o-2024-05-13");
    expect(gpt4o).toMatchObject({ status: "deprecated", replacements: ["gpt-5.6-sol"] });
    expect(gpt4o.end_of_life).toMatchObject({ date: "2026-12-09", date_type: "on" });
    expect(assertionFor(out, "gpt-4o-2024-08-06").end_of_life).toMatchObject({ date: "2027-04-14" });
    expect(assertionFor(out, "gpt-4o-2024-11-20").status).toBe("legacy");
    expect(assertionFor(out, "gpt-4o-mini-2024-07-18").end_of_life).toMatchObject({ date: "2027-04-14" });
    for (const id of ["o1-2024-12-17", "o3-2025-04-16", "o4-mini-2025-04-16"])
      expect(assertionFor(out, id).end_of_life).toMatchObject({ date: "2026-11-19", date_type: "on" });
    for (const id of ["text-embedding-3-large-1", "text-embedding-3-small-1", "text-embedding-ada-002-2"])
      expect(assertionFor(out, id).end_of_life).toMatchObject({ date: "2028-02-09" });
    const chat = assertionFor(out, "gpt-5-chat-2025-08-07");
    expect(chat).toMatchObject({ status: "retired", replacements: ["gpt-chat-latest"] });
    expect(chat.end_of_life).toMatchObject({ date: "2026-06-29" });
    // A preview's retirement date is a "not sooner than" date.
    const latest = assertionFor(out, "gpt-chat-latest-2026-05-05");
    expect(latest.status).toBe("preview");
    expect(latest.end_of_life).toMatchObject({ date: "2026-08-05", date_type: "not_before" });
    expect(assertionFor(out, "sora-2-2025-10-06").replacements).toEqual(["sora-2-2025-12-08"]);
    const rt2 = assertionFor(out, "gpt-realtime-2-2026-05-06");
    expect(rt2.end_of_life?.state).toBe("not_announced");
    expect(rt2.replacements).toEqual(["gpt-realtime-2.1"]);
    expect(assertionFor(out, "model-router-2025-11-18").end_of_life).toMatchObject({ date: "2027-05-20" });
    // other publishers' models are not Azure OpenAI deployments
    const ids = out.lifecycle.map((l) => l.target?.provider_model_id);
    expect(ids.some((id) => /^(MAI|grok|DeepSeek|claude)/i.test(id ?? ""))).toBe(false);
    expect(out.skipped).toContainEqual(
      expect.objectContaining({
        reason: "retirement-schedule rows of other publishers' models (not Azure OpenAI)",
        count: 102,
      }),
    );
    // gpt-realtime-mini versions listed twice with different dates: neither row is read
    expect(ids).not.toContain("gpt-realtime-mini-2025-10-06");
    expect(out.skipped).toContainEqual({
      reason: "model version listed more than once with different lifecycle rows (none is read)",
      count: 2,
      examples: ["gpt-realtime-mini-2025-10-06", "gpt-realtime-mini-2025-12-15"],
    });
    expect(out.skipped.find((s) => s.reason.startsWith("fine-tuned"))?.count).toBe(6);
  });

  it("reads a row listed twice alike once", async () => {
    const input = await recordedInput("azure", "model-retirements-current");
    const row = "| gpt-5.5 | 2026-04-24 | GA | 2027-10-26 | — |";
    const out = parseRetirements(edit(input, (x) => x.replace(row, `${row}\n${row}`)));
    expect(out.lifecycle).toHaveLength(78);
  });

  it("fails on a schedule whose table or values changed instead of returning less", async () => {
    const input = await recordedInput("azure", "model-retirements-current");
    expectParseFailure(
      () =>
        parseRetirements(
          edit(input, (x) => x.replace("| gpt-5.5 | 2026-04-24 | GA |", "| gpt-5.5 | 2026-04-24 | Sunset |")),
        ),
      'model-retirements-current: unknown lifecycle "Sunset" for gpt-5.5 2026-04-24',
    );
    expectParseFailure(
      () =>
        parseRetirements(
          edit(input, (x) =>
            x.replace("| gpt-5.5 | 2026-04-24 | GA | 2027-10-26 |", "| gpt-5.5 | 2026-04-24 | GA | soon |"),
          ),
        ),
      'model-retirements-current: "soon" is not a lifecycle date',
    );
    expectParseFailure(
      () => parseRetirements(edit(input, (x) => x.replace("### Azure OpenAI", "### OpenAI"))),
      'model-retirements-current: no "Azure OpenAI" retirement-schedule table under "Foundry Models sold by Azure"',
    );
    expectParseFailure(
      () =>
        parseRetirements(
          edit(input, (x) => x.replaceAll("| Retirement date | Replacement |", "| Sunset | Replacement |")),
        ),
      "model-retirements-current: no retirement-schedule table (columns ^model$, ^version$, ^lifecycle$,",
    );
  });
});

describe("azure model-retirements (archived December 2025 table file)", () => {
  it("reads the old current-models format for the versions the schedule no longer lists", async () => {
    const input = await recordedInput("azure", "model-retirements-2025-12");
    expect(input.source.archived).toBe(true);
    const out = ParseOutput.parse(parseRetirements(input));
    expect(out.lifecycle.map((l) => l.target?.provider_model_id).sort()).toEqual([
      "computer-use-preview-2025-03-11",
      "dall-e-3",
      "gpt-4o-audio-preview-2024-12-17",
      "gpt-4o-mini-audio-preview-2024-12-17",
      "gpt-4o-mini-realtime-preview-2024-12-17",
      "gpt-4o-realtime-preview-2024-12-17",
      "sora-2-2025-10-15",
      "sora-2025-05-02",
    ]);
    const audio = assertionFor(out, "gpt-4o-audio-preview-2024-12-17");
    expect(audio).toMatchObject({ status: "preview", replacements: ["gpt-audio"] });
    expect(audio.end_of_life).toMatchObject({ date: "2026-02-02", date_type: "on" });
    expect(assertionFor(out, "dall-e-3").end_of_life).toMatchObject({ date: "2026-02-18" });
    expect(assertionFor(out, "computer-use-preview-2025-03-11").end_of_life).toMatchObject({
      date: "2026-04-14",
      date_type: "not_before",
    });
    // the old format's Standard-only retirement date still parses
    const split = parseRetirements(
      edit(input, (x) =>
        x.replace(
          "| `dall-e-3` | 3 | `Generally Available` | n/a | 2026-02-18 |",
          "| `dall-e-3` | 3 | `Generally Available` | n/a | Standard deployment type retires on **2026-03-31**, with auto-upgrades scheduled to start on **2026-03-09**. For other deployment types, including ALL Provisioned, Global Standard, and Data Zone Standard, the retirement date has been moved to **2026-10-01**. |",
        ),
      ),
    );
    expect(assertionFor(split, "dall-e-3", "standard").end_of_life).toMatchObject({ date: "2026-03-31" });
    expect(assertionFor(split, "dall-e-3").end_of_life).toMatchObject({ date: "2026-10-01" });
  });
});

describe("azure model-retirements (retired models, April 2026)", () => {
  it("reads the Azure OpenAI retired table, splitting multi-model rows", async () => {
    const input = await recordedInput("azure", "model-retirements-retired");
    expect(input.content.startsWith("---\ntitle:")).toBe(true);
    const out = ParseOutput.parse(parseRetirements(input));
    expect(out.lifecycle).toHaveLength(40);
    expect(out.skipped).toEqual([
      expect.objectContaining({ reason: "retired models of other publishers (not Azure OpenAI)", count: 37 }),
    ]);
    for (const l of out.lifecycle) expect(l.status).toBe("retired");
    for (const id of ["gpt-4-0613", "gpt-4-32k-0613"]) {
      const a = assertionFor(out, id);
      expect(a.end_of_life).toMatchObject({ date: "2025-06-06", date_type: "on" });
      expect(a.replacements).toEqual(["gpt-4o-2024-11-20"]);
    }
    const turbo = assertionFor(out, "gpt-35-turbo-0301");
    expect(turbo.replacements).toEqual(["gpt-35-turbo-0125", "gpt-4o-mini"]);
    expect(turbo.model_id).toBe("openai/gpt-3.5-turbo-0301");
    expect(assertionFor(out, "dall-e-2").replacements).toEqual(["gpt-image-1"]);
    const davinci = assertionFor(out, "text-davinci-003");
    expect(davinci.deprecation).toMatchObject({ date: "2023-07-06" });
    expect(davinci.end_of_life).toMatchObject({ date: "2024-06-14" });
  });

  it("fails when the retired table is gone or a row has no retirement date", async () => {
    const input = await recordedInput("azure", "model-retirements-retired");
    const c = input.content;
    expectParseFailure(
      () => parseRetirements(withContent(input, c.slice(0, c.indexOf("## Azure OpenAI")))),
      "model-retirements-retired: no retirement-schedule table (columns ^model$, ^version$, ^lifecycle$,",
    );
    expectParseFailure(
      () =>
        parseRetirements(
          edit(input, (x) => x.replace("| `ada` | July 6, 2023 | June 14, 2024 |", "| `ada` | | |")),
        ),
      'model-retirements-retired: retired model "`ada`" has no retirement date',
    );
    expectParseFailure(
      () => parseRetirements(edit(input, (x) => x.replace("| `dall-e-2`|", "| dall-e 2 (legacy) |"))),
      'model-retirements-retired: retired model cell "dall-e 2 (legacy)" is not a model list',
    );
  });

  it("reads every kind of table when one document holds them; a version twice is a page error", async () => {
    const current = await recordedInput("azure", "model-retirements-current");
    const retired = await recordedInput("azure", "model-retirements-retired");
    const out = parseRetirements(withContent(current, `${current.content}\n${retired.content}`));
    expect(out.lifecycle).toHaveLength(118);
    expectParseFailure(
      () => parseRetirements(withContent(retired, `${retired.content}\n${retired.content}`)),
      "model-retirements-retired: model version o1-preview is listed twice",
    );
  });
});

describe("azure models (region availability, one section per deployment type)", () => {
  it("maps each section heading to its deployment type", () => {
    expect(SECTION_TYPES.map(([re, t]) => [re.source, t.mode])).toEqual([
      ["^global standard$", "global-standard"],
      ["^data zone standard$", "data-zone-standard"],
      ["^standard\\/regional$", "standard"],
      ["^global batch$", "global-batch"],
      ["^data zone batch$", "data-zone-batch"],
    ]);
  });

  it("reads the October 2026 standard file: Global Standard, Data Zone Standard, Standard/Regional", async () => {
    const input = await recordedInput("azure", "deployments-standard");
    const out = ParseOutput.parse(parseModels(input));
    const byMode = (mode: string) => out.deployments.filter((d) => d.mode === mode);
    expect(byMode("global-standard")).toHaveLength(75);
    expect(byMode("data-zone-standard")).toHaveLength(67);
    expect(byMode("standard")).toHaveLength(145);
    for (const d of out.deployments) expect(d.status).toBe("available");
    const regionsOf = (id: string, mode: string) =>
      out.deployments
        .filter((d) => d.provider_model_id === id && d.mode === mode)
        .map((d) => d.region)
        .sort();
    expect(regionsOf("gpt-5.5-2026-04-24", "global-standard")).toEqual(["global"]);
    expect(regionsOf("gpt-5.5-2026-04-24", "data-zone-standard")).toEqual(["eu", "us"]);
    expect(regionsOf("gpt-5.5-2026-04-24", "standard")).toEqual([]);
    expect(regionsOf("gpt-5.1-2025-11-13", "standard")).toEqual([
      "centralus",
      "eastus",
      "eastus2",
      "northcentralus",
      "southcentralus",
      "swedencentral",
      "westus",
      "westus3",
    ]);
    expect(regionsOf("gpt-4o-2024-11-20", "standard")).toEqual([
      "australiaeast",
      "canadaeast",
      "centralus",
      "eastus",
      "eastus2",
      "francecentral",
      "japaneast",
      "northcentralus",
      "norwayeast",
      "southcentralus",
      "southindia",
      "swedencentral",
      "switzerlandnorth",
      "uksouth",
      "westus",
      "westus3",
    ]);
    expect(regionsOf("gpt-image-1.5-2025-12-16", "data-zone-standard")).toEqual(["eu", "us"]);
    const gpt55 = out.deployments.find(
      (d) => d.id.includes("gpt-5.5-2026-04-24") && d.mode === "global-standard",
    );
    expect(gpt55?.model_id).toBe("openai/gpt-5.5-2026-04-24");
    // retired versions are gone from the tables
    expect(out.deployments.some((d) => d.provider_model_id.startsWith("gpt-5-chat"))).toBe(false);
    // other Foundry Models and Data Zone regions outside the US and EU zones are counted, not placed
    expect(out.deployments.some((d) => /^(DeepSeek|grok|Phi|MAI)/i.test(d.provider_model_id))).toBe(false);
    expect(out.skipped).toEqual([
      expect.objectContaining({
        reason: "other Foundry Models sold by Azure (not Azure OpenAI)",
        count: 213,
      }),
      expect.objectContaining({
        reason: "Data Zone cell whose region is in no data zone the catalog names (US, EU)",
        count: 54,
      }),
    ]);
  });

  it("reads the batch file: Global Batch and Data Zone Batch", async () => {
    const out = ParseOutput.parse(parseModels(await recordedInput("azure", "deployments-batch")));
    expect(out.deployments.filter((d) => d.mode === "global-batch")).toHaveLength(14);
    const zone = (id: string) =>
      out.deployments
        .filter((d) => d.provider_model_id === id && d.mode === "data-zone-batch")
        .map((d) => d.region)
        .sort();
    expect(zone("gpt-5.4-2026-03-05")).toEqual(["us"]);
    expect(zone("o3-2025-04-16")).toEqual(["eu", "us"]);
    expect(zone("gpt-4o-2024-05-13")).toEqual([]);
    expect(out.skipped).toEqual([]);
  });

  it("emits deployments that all recorded matrices agree on in shape", async () => {
    const all = await allModels();
    expect(new Set(all.map((d) => d.mode))).toEqual(
      new Set(["global-standard", "data-zone-standard", "standard", "global-batch", "data-zone-batch"]),
    );
    for (const d of all) expect(d.api_surface).toBe("azure-openai");
  });

  it("fails when a section, part, column or cell changes shape", async () => {
    const input = await recordedInput("azure", "deployments-standard");
    expectParseFailure(
      () => parseModels(edit(input, (x) => x.replace("## Data Zone Standard", "## Data Zone Premium"))),
      'deployments-standard: section "Data Zone Premium" names no known deployment type (^global',
    );
    expectParseFailure(
      () =>
        parseModels(
          edit(input, (x) => x.replace("| gpt-5.5 | 2026-04-24 | ✅ |", "| gpt-5.5 | 2026-04-24 | ✔ |")),
        ),
      'deployments-standard: availability cell "✔" is neither ✅ nor -',
    );
    expectParseFailure(
      () => parseModels(edit(input, (x) => x.replace("| **brazilsouth** |", "| **Brazil South** |"))),
      'deployments-standard: column "Brazil South" is not an Azure region',
    );
    expectParseFailure(
      () =>
        parseModels(
          edit(input, (x) =>
            x.replace("#### Availability for Azure OpenAI in Foundry Models", "#### Models"),
          ),
        ),
      'deployments-standard: table under "Models" is in no known part of section "Global Standard"',
    );
    expectParseFailure(
      () => parseModels(edit(input, (x) => x.replaceAll("| **Version** |", "| **Release** |"))),
      'deployments-standard: table "Model | Release | brazilsouth | canadacentral | canadaeast | centralus',
    );
    expectParseFailure(
      () => parseModels(withContent(input, "---\ntitle: x\n---\n\nNo tables.\n")),
      "deployments-standard: no region availability table",
    );
  });
});
