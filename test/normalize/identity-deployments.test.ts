/**
 * The deployment half of the identity modules (docs/identity.md): each provider's vocabulary
 * and the deployments its module builds, with ids as the committed release spells them.
 */
import { describe, expect, it } from "vitest";
import {
  AZURE,
  AZURE_SCOPES,
  azureDataZone,
  azureDeployment,
  azureMode,
  BEDROCK,
  BEDROCK_GEOGRAPHIES,
  bedrockDeployment,
  DEPLOYMENT_VOCABULARIES,
  OPENAI,
  openaiDeployment,
  PROVIDER_IDENTITIES,
  togetherDeployment,
  vertexDeployment,
} from "../../src/normalize/identity/index.js";

describe("deployment vocabularies", () => {
  it("every provider with an identity module has a vocabulary, and no other provider does", () => {
    expect(Object.keys(DEPLOYMENT_VOCABULARIES).sort()).toEqual(Object.keys(PROVIDER_IDENTITIES).sort());
  });

  it("a vocabulary is frozen, so no parser can add a name to it", () => {
    expect(Object.isFrozen(AZURE.modes)).toBe(true);
    expect(() => {
      (OPENAI.modes as Record<string, string>)["turbo"] = "turbo";
    }).toThrow(TypeError);
  });

  it("Bedrock's inference profile geographies are its region names for community keys", () => {
    expect(BEDROCK_GEOGRAPHIES).toEqual(["us", "eu", "apac", "jp", "au", "ca", "us-gov", "global"]);
    for (const geography of BEDROCK_GEOGRAPHIES) expect(Object.values(BEDROCK.regions)).toContain(geography);
  });
});

describe("Azure deployment types", () => {
  it("names the mode of each scope, standard and batch", () => {
    expect(azureMode(AZURE_SCOPES.global, false)).toBe("global-standard");
    expect(azureMode(AZURE_SCOPES.global, true)).toBe("global-batch");
    expect(azureMode(AZURE_SCOPES.dataZone, false)).toBe("data-zone-standard");
    expect(azureMode(AZURE_SCOPES.dataZone, true)).toBe("data-zone-batch");
    expect(azureMode(AZURE_SCOPES.regional, false)).toBe("standard");
    expect(azureMode(AZURE_SCOPES.regional, true)).toBe("batch");
  });

  it("places a resource region in its data zone, and a region in no named zone nowhere", () => {
    expect(azureDataZone("eastus2")).toBe("us");
    expect(azureDataZone("swedencentral")).toBe("eu");
    expect(azureDataZone("japaneast")).toBeNull();
    expect(azureDataZone("toString")).toBeNull();
  });
});

describe("deployments built by the identity modules", () => {
  it("OpenAI: a processing tier is the mode, appended to the surface segment", () => {
    expect(openaiDeployment("gpt-4-0613", OPENAI.modes.batch)).toEqual({
      id: "dep_openai_gpt-4-0613_api-batch_global",
      model_id: "openai/gpt-4-0613",
      provider_id: "openai",
      provider_model_id: "gpt-4-0613",
      api_surface: "api",
      mode: "batch",
      region: "global",
    });
  });

  it("Azure: the deployable name joins model and version; the canonical model is OpenAI's", () => {
    const d = azureDeployment("gpt-4.1", "2025-04-14", AZURE.modes.dataZoneBatch, "us");
    expect(d.id).toBe("dep_azure_gpt-4.1-2025-04-14_azure-openai-data-zone-batch_us");
    expect(d.model_id).toBe("openai/gpt-4.1-2025-04-14");
  });

  it("Bedrock: in-Region on demand by default, the lab's model as canonical", () => {
    const d = bedrockDeployment("ai21.jamba-1-5-large-v1:0", BEDROCK.regions.usEast1);
    expect(d.id).toBe("dep_amazon-bedrock_ai21.jamba-1-5-large-v1-0_bedrock-runtime_us-east-1");
    expect(d.model_id).toBe("ai21/jamba-1.5-large");
  });

  it("Vertex and Together: the global endpoint; Together's free tier is its own mode", () => {
    expect(vertexDeployment("claude-3-5-haiku@20241022").model_id).toBe(
      "anthropic/claude-3-5-haiku-20241022",
    );
    expect(togetherDeployment("meta-llama/Llama-3.3-70B-Instruct-Turbo-Free").mode).toBe("free");
    expect(togetherDeployment("meta-llama/Llama-3.3-70B-Instruct-Turbo").mode).toBe("standard");
  });
});
