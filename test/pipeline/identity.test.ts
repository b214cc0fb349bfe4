/**
 * Lifecycle truth over the offline build of the real recorded captures (the committed snapshot,
 * which build.test.ts holds to be that build): one record per model
 * (official parsers and the LiteLLM community map agree on identities), deployments only where
 * an availability source places them, replacements as canonical model ids, and upstream
 * corrections applied in the open.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { isModelId } from "../../src/lib/ids.js";
import { azureIdentity, bedrockIdentity } from "../../src/normalize/identity/index.js";
import type { FactsFile } from "../../src/release/facts.js";
import type { BuildReport } from "../../src/release/types.js";
import type { CatalogContent, Deployment } from "../../src/schema/index.js";
import { committedRelease } from "../helpers/committed-release.js";

let catalog: CatalogContent;
let facts: FactsFile;
let report: BuildReport;

beforeAll(async () => {
  ({ catalog, facts, report } = await committedRelease());
});

const communityFacts = () => facts.sources.filter((s) => s.source_type === "community_catalog");
/** Azure's price feeds (the official Retail Prices API and its community snapshot) place deployments too. */
const isPriceFeed = (url: string) =>
  url.startsWith("https://prices.azure.com/") || url.includes("/nikklavzar/azure-genai-prices/");
const byId = (id: string): Deployment | undefined => catalog.deployments.find((d) => d.id === id);

describe("one identity per model", () => {
  it("no provider has two deployments for one (model, surface, mode, region)", () => {
    const seen = new Map<string, string>();
    const twins: string[] = [];
    for (const d of catalog.deployments) {
      const key = [d.provider_id, d.model_id, d.api_surface, d.mode, d.region].join("|");
      const other = seen.get(key);
      if (other) twins.push(`${other} = ${d.id}`);
      seen.set(key, d.id);
    }
    expect(twins).toEqual([]);
    expect(report.errors.map((e) => e.check)).not.toContain("one_deployment_per_model_scope");
  });

  it("every LiteLLM Bedrock deployment has the model id the Bedrock parser gives the same model", () => {
    const bedrock = communityFacts().flatMap((s) =>
      s.output.deployments.filter((d) => d.provider_id === "amazon-bedrock"),
    );
    // 227 since LiteLLM's unqualified keys no longer place a deployment in us-east-1 by
    // convention (docs/provenance.md; 300 and more before)
    expect(bedrock.length).toBeGreaterThan(200);
    const split = bedrock.filter((d) => bedrockIdentity.canonicalModelId(d.provider_model_id) !== d.model_id);
    expect(split.map((d) => `${d.provider_model_id}: ${d.model_id}`)).toEqual([]);
    // One record per model: the model card's profile and the lifecycle page's EOL (stated for
    // the profile, whose every source Region it covers) meet in one deployment. The card offers
    // no In-Region endpoint, so the lifecycle page's us-east-1 is no deployment of its own.
    const llama = byId("dep_amazon-bedrock_meta.llama3-2-11b-instruct-v1-0_bedrock-runtime_us");
    expect(llama?.model_id).toBe("meta/llama-3.2-11b-instruct");
    expect(llama?.evidence_urls.some((u) => u.includes("docs.aws.amazon.com"))).toBe(true);
    expect(llama?.lifecycle.end_of_life.date).toBe("2026-07-07");
    // nor does LiteLLM's unqualified key place a price in us-east-1 by convention (docs/provenance.md)
    expect(
      byId("dep_amazon-bedrock_meta.llama3-2-11b-instruct-v1-0_bedrock-runtime_us-east-1"),
    ).toBeUndefined();
    expect(catalog.deployments.some((d) => d.model_id === "meta/llama3-2-11b-instruct")).toBe(false);
    expect(catalog.deployments.some((d) => d.model_id === "cohere/command-r-v1-0")).toBe(false);
  });

  it("a model's aliases and spellings at one provider are one deployment (Azure gpt-3.5 / gpt-35, Vertex mistralai/, Anthropic short names)", () => {
    const ids = new Set(catalog.deployments.map((d) => d.id));
    // LiteLLM names gpt-35-turbo-0125 only by its unqualified key, which places nothing now
    // (docs/provenance.md); test/normalize/litellm.test.ts holds the spelling to openai/gpt-3.5-turbo-0125
    expect(ids.has("dep_azure_gpt-35-turbo-0125_azure-openai-global-standard_global")).toBe(false);
    expect(ids.has("dep_azure_gpt-3.5-turbo-0125_azure-openai-global-standard_global")).toBe(false);
    expect(ids.has("dep_google-vertex_mistralai-codestral-2_vertex-ai_global")).toBe(false);
    expect(ids.has("dep_anthropic_claude-sonnet-4-5_api_global")).toBe(false);
    expect(byId("dep_anthropic_claude-sonnet-4-5-20250929_api_global")?.model_id).toBe(
      "anthropic/claude-sonnet-4-5-20250929",
    );
  });

  it("an open model served by several providers is one model, and Azure's Cohere and Mistral models are not OpenAI's", () => {
    const modelOf = (id: string) => byId(id)?.model_id;
    expect(modelOf("dep_google-vertex_openai-gpt-oss-120b-maas_vertex-ai_global")).toBe(
      "openai/gpt-oss-120b",
    );
    expect(modelOf("dep_groq_openai-gpt-oss-120b_api_global")).toBe("openai/gpt-oss-120b");
    const kimi = catalog.deployments.filter((d) => /kimi-k2-thinking/.test(d.provider_model_id));
    expect(kimi.length).toBeGreaterThan(1);
    expect(new Set(kimi.map((d) => d.model_id))).toEqual(new Set(["moonshot/kimi-k2-thinking"]));
    expect(catalog.deployments.filter((d) => d.model_id.endsWith("-maas")).map((d) => d.id)).toEqual([]);
    // (LiteLLM's azure/command-r-plus is unqualified and places nothing now; the identity module decides)
    expect(azureIdentity.canonicalModelId("command-r-plus")).toBe("cohere/command-r-plus");
    const azureNotOpenAi = catalog.deployments.filter(
      (d) => d.provider_id === "azure" && /^(command|mistral)/.test(d.provider_model_id),
    );
    expect(azureNotOpenAi.filter((d) => d.model_id.startsWith("openai/")).map((d) => d.id)).toEqual([]);
  });

  it("LiteLLM's bare Azure names are the one version Azure's tables place there, not deployments of their own", () => {
    const ids = new Set(catalog.deployments.map((d) => d.id));
    const litellm = communityFacts().flatMap((s) => s.output.deployments);
    // facts.json keeps LiteLLM's key as it is...
    expect(litellm.some((d) => d.id === "dep_azure_gpt-5.1_azure-openai-global-standard_global")).toBe(true);
    // ...and the catalog has one deployment for it: the version, listed, priced and dated
    expect(ids.has("dep_azure_gpt-5.1_azure-openai-global-standard_global")).toBe(false);
    const version = byId("dep_azure_gpt-5.1-2025-11-13_azure-openai-global-standard_global");
    expect(version?.lifecycle.coverage.source_ids).toContain("fcd51132-2127-4ab7-8d96-1dc88e7585bb");
    expect(version?.status).not.toBe("unknown");
    // gpt-4.1's only version is retired at Azure: no "unknown" gpt-4.1 stays behind looking alive
    expect(ids.has("dep_azure_gpt-4.1_azure-openai-global-standard_global")).toBe(false);
    // gpt-4o has three versions in the tables: the bare name is not guessed to be one of them,
    // and LiteLLM's unqualified azure/gpt-4o names no deployment type or region: nothing at all
    expect(ids.has("dep_azure_gpt-4o_azure-openai-global-standard_global")).toBe(false);
  });
});

describe("deployments only where the provider offers them", () => {
  const MATRIX = "/includes/model-matrix/";
  const LITELLM = "model_prices_and_context_window.json";

  it("no Azure deployment comes from a retirement page alone: a region table or a price-feed key places each", () => {
    const azure = catalog.deployments.filter((d) => d.provider_id === "azure");
    expect(azure.length).toBeGreaterThan(200);
    const unplaced = azure.filter(
      (d) => !d.evidence_urls.some((u) => u.includes(MATRIX) || u.includes(LITELLM) || isPriceFeed(u)),
    );
    expect(unplaced.map((d) => d.id)).toEqual([]);
    // Every deployment an official source places is in that deployment type's region table.
    const listed = new Set(
      facts.sources
        .filter((s) => s.provider_id === "azure" && s.source_url.includes(MATRIX))
        .flatMap((s) => s.output.deployments.map((d) => `${d.model_id}|${d.mode}`)),
    );
    const officialOnly = azure.filter(
      (d) => !d.evidence_urls.some((u) => u.includes(LITELLM) || isPriceFeed(u)),
    );
    expect(officialOnly.filter((d) => !listed.has(`${d.model_id}|${d.mode}`)).map((d) => d.id)).toEqual([]);
    expect(byId("dep_azure_text-embedding-ada-002-1_azure-openai-global-standard_global")).toBeUndefined();
  });

  it("the lifecycle of a model version no region table lists lives on its model's record", () => {
    // Azure's retirement page dates sora-2 2025-10-15; no region table lists that version (the
    // Global Standard matrix of January 2026 has sora-2 2025-10-06 only).
    expect(catalog.deployments.some((d) => d.provider_model_id === "sora-2-2025-10-15")).toBe(false);
    const record = catalog.lifecycle.find(
      (r) => r.resource_type === "model" && r.resource_id === "openai/sora-2-2025-10-15",
    );
    expect(record?.summary?.deployment_count).toBe(0);
    expect(record?.lifecycle.end_of_life).toMatchObject({ state: "scheduled", date: "2026-04-30" });
  });
});

describe("replacements", () => {
  it("are canonical model ids, never the resource's own model", () => {
    let count = 0;
    for (const r of catalog.lifecycle)
      for (const id of r.lifecycle.replacement_ids) {
        count++;
        expect(isModelId(id)).toBe(true);
        expect(id).not.toBe(r.resource_type === "deployment" ? r.model_id : r.resource_id);
      }
    expect(count).toBeGreaterThan(300);
    expect(
      byId("dep_openai_gpt-realtime-mini-2025-10-06_api_global")?.lifecycle.replacement_ids,
    ).not.toContain("openai/gpt-realtime-mini-2025-10-06");
  });

  it("resolve Mistral's -latest names through the model cards' own alias list", () => {
    // The cards of August 2026 point mistral-small-latest at 2603 and ministral-8b-latest at 2512.
    expect(byId("dep_mistral_mistral-saba-2502_api_global")?.lifecycle.replacement_ids).toEqual([
      "mistral/mistral-small-2603",
    ]);
    expect(byId("dep_mistral_open-mistral-7b_api_global")?.lifecycle.replacement_ids).toEqual([
      "mistral/ministral-8b-2512",
    ]);
  });
});

describe("upstream corrections", () => {
  it("none is recorded today, so none is applied or stale, and the superseded page's typos are gone", () => {
    // Mistral's overview page, whose two typos sources/mistral/corrections.yaml corrected, gave way
    // to its model cards; test/normalize/corrections.test.ts proves a build applies a corrections file.
    expect(report.corrections).toEqual([]);
    expect(report.warnings.map((w) => w.check)).not.toContain("correction_stale");
    expect(byId("dep_mistral_mistral-small-2506_api_global")).toBeDefined();
    expect(byId("dep_mistral_mistral-small-2509_api_global")).toBeUndefined();
  });
});
