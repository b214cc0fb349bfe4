import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonRecursive } from "../../src/lib/canonical-json.js";
import { deploymentId, isDeploymentId, isModelId, modelId, slugPart } from "../../src/lib/ids.js";

describe("canonical JSON", () => {
  it("the native fast path and the recursive reference give the same bytes for any JSON value", () => {
    const key = fc.oneof(fc.string(), fc.constantFrom("0", "1", "10", "9", "01", "__proto__", "a", "B", "é"));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.string(),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(key, fc.oneof(tie("value"), fc.constant(undefined)), { maxKeys: 5 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(canonicalJsonRecursive(value));
      }),
      { numRuns: 500 },
    );
    expect(canonicalJson({ 10: "a", 9: "b", x: 1 })).toBe('{"10":"a","9":"b","x":1}');
  });

  it("sorts keys and drops undefined members, whatever the insertion order", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, undefined], c: "x" }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[1,null]},"b":1}',
    );
  });
  it("gives the same bytes for any key order", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
        expect(JSON.parse(canonicalJson(record))).toEqual(JSON.parse(JSON.stringify(record)));
      }),
    );
  });
  it("refuses non-finite numbers", () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/non-finite/);
  });
});

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
