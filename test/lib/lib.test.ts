import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deploymentId, isDeploymentId, isModelId, modelId, slugPart } from "../../src/lib/ids.js";

describe("ids", () => {
  it("builds deployment ids from provider names", () => {
    expect(
      deploymentId({
        provider_id: "amazon-bedrock",
        provider_model_id: "anthropic.claude-3-5-sonnet-20240620-v1:0",
        api_surface: "bedrock",
        mode: "standard",
        region: "us-east-1",
      }),
    ).toBe("dep_amazon-bedrock_anthropic.claude-3-5-sonnet-20240620-v1-0_bedrock_us-east-1");
  });
  it("puts a non-default mode into the surface segment so modes never collide", () => {
    const base = { provider_id: "openai", provider_model_id: "gpt-4o", api_surface: "api", region: "global" };
    expect(deploymentId({ ...base, mode: "standard" })).toBe("dep_openai_gpt-4o_api_global");
    expect(deploymentId({ ...base, mode: "batch" })).toBe("dep_openai_gpt-4o_api-batch_global");
  });
  it("always produces ids that pass the validator", () => {
    fc.assert(
      fc.property(
        fc.record({
          provider_id: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
          provider_model_id: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9@:/_. -]{0,30}$/),
          api_surface: fc.constantFrom("api", "bedrock", "vertex", "openai"),
          mode: fc.constantFrom("standard", "batch", "global-standard"),
          region: fc.constantFrom("global", "eu", "us-east-1"),
        }),
        (identity) => {
          expect(isDeploymentId(deploymentId(identity))).toBe(true);
        },
      ),
    );
  });
  it("builds canonical model ids and rejects bad shapes", () => {
    expect(modelId("anthropic", "claude-sonnet-4-5@20250929")).toBe("anthropic/claude-sonnet-4-5-20250929");
    expect(isModelId("openai/gpt-4.1")).toBe(true);
    expect(isModelId("gpt-4.1")).toBe(false);
    expect(isModelId("OpenAI/gpt-4.1")).toBe(false);
  });
  it("refuses a name with no usable characters", () => {
    expect(() => slugPart("@@@")).toThrow(RangeError);
  });
});
