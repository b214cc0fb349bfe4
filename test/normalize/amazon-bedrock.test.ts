import { describe, expect, it } from "vitest";
import { bedrockCanonicalModelId, parsers } from "../../src/normalize/parsers/amazon-bedrock.js";
import { deriveStatus } from "../../src/release/status.js";
import { type LifecycleAssertion, ParseOutput, UNKNOWN_MILESTONE } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { expectParseFailure, withContent } from "../helpers/parsers.js";

const parse = parsers["amazon-bedrock-model-lifecycle"];
if (!parse) throw new Error("amazon-bedrock-model-lifecycle parser not exported");

function assertionFor(out: ParseOutput, providerModelId: string, region: string): LifecycleAssertion {
  const found = out.lifecycle.filter(
    (l) => l.target?.provider_model_id === providerModelId && l.target.region === region,
  );
  expect(found).toHaveLength(1);
  return found[0] as LifecycleAssertion;
}

/** The status the release stage derives from what the parser reported, on `today`. */
function statusOn(a: LifecycleAssertion, today: string): string {
  return deriveStatus({
    today,
    declared: a.status ?? null,
    deprecation: a.deprecation ?? UNKNOWN_MILESTONE,
    end_of_life: a.end_of_life ?? UNKNOWN_MILESTONE,
    deprecationStatus: a.deprecation_status,
    extendedAccess: a.extended_access,
    listed: false,
  }).status;
}

describe("bedrockCanonicalModelId", () => {
  it("maps Bedrock ids to the lab's own model id", () => {
    expect(bedrockCanonicalModelId("anthropic.claude-3-5-sonnet-20241022-v2:0")).toBe(
      "anthropic/claude-3-5-sonnet-20241022",
    );
    expect(bedrockCanonicalModelId("us.anthropic.claude-sonnet-4-20250514-v1:0")).toBe(
      "anthropic/claude-sonnet-4-20250514",
    );
    expect(bedrockCanonicalModelId("meta.llama3-2-11b-instruct-v1:0")).toBe("meta/llama-3.2-11b-instruct");
    expect(bedrockCanonicalModelId("meta.llama3-70b-instruct-v1:0")).toBe("meta/llama-3-70b-instruct");
    expect(bedrockCanonicalModelId("cohere.command-r-plus-v1:0")).toBe("cohere/command-r-plus");
    expect(bedrockCanonicalModelId("ai21.jamba-1-5-large-v1:0")).toBe("ai21/jamba-1.5-large");
    expect(bedrockCanonicalModelId("amazon.nova-reel-v1:0")).toBe("amazon/nova-reel-v1");
    expect(bedrockCanonicalModelId("amazon.nova-reel-v1:1")).toBe("amazon/nova-reel-v1-1");
    expect(() => bedrockCanonicalModelId("claude")).toThrow(RangeError);
  });
});

describe("amazon-bedrock model-lifecycle (bullet list layout)", () => {
  it("emits one deployment and assertion per model and Region listed", async () => {
    const out = ParseOutput.parse(parse(await recordedInput("amazon-bedrock", "model-lifecycle")));
    expect(out.deployments).toHaveLength(100);
    expect(out.lifecycle).toHaveLength(100);
    expect(new Set(out.deployments.map((d) => d.provider_model_id)).size).toBe(23);
    for (const d of out.deployments) {
      expect(d.api_surface).toBe("bedrock-runtime");
      expect(d.mode).toBe("standard");
      expect(d.rate_card).toBeUndefined();
    }
    const sonnet4 = out.deployments.filter(
      (d) => d.provider_model_id === "anthropic.claude-sonnet-4-20250514-v1:0",
    );
    expect(sonnet4).toHaveLength(24);
    expect(sonnet4[0]?.model_id).toBe("anthropic/claude-sonnet-4-20250514");
  });

  it("keeps per-Region dates apart (Claude 3.5 Sonnet in eu-central-2 vs ap-northeast-1)", async () => {
    const out = parse(await recordedInput("amazon-bedrock", "model-lifecycle"));
    const id = "anthropic.claude-3-5-sonnet-20240620-v1:0";
    const eu = assertionFor(out, id, "eu-central-2");
    expect(eu.deprecation).toMatchObject({
      state: "scheduled",
      date: "2025-08-25",
      precision: "day",
      date_type: "on",
    });
    expect(eu.end_of_life).toMatchObject({
      state: "scheduled",
      date: "2026-06-01",
      precision: "day",
      date_type: "on",
    });
    const ap = assertionFor(out, id, "ap-northeast-1");
    expect(ap.end_of_life?.date).toBe("2026-07-30");
    expect(ap.target).toEqual({
      provider_model_id: id,
      region: "ap-northeast-1",
      api_surface: "bedrock-runtime",
    });
  });

  it("reports Legacy, extended access and EOL dates without a status; the rule table dates them", async () => {
    const input = await recordedInput("amazon-bedrock", "model-lifecycle");
    const out = parse(input);
    // The parser never compares a date with its capture time: the same output at any observedAt.
    expect(parse({ ...input, observedAt: "2020-01-01T00:00:00Z" }).lifecycle.map((l) => l.status)).toEqual(
      out.lifecycle.map((l) => l.status),
    );
    // Opus 4: Legacy October 1, 2025, extended access March 1, 2026, EOL May 31, 2026.
    const opus4 = assertionFor(out, "anthropic.claude-opus-4-20250514-v1:0", "us-east-1");
    expect(opus4.status).toBeUndefined();
    expect(opus4.deprecation_status).toBe("legacy");
    expect(opus4.extended_access).toMatchObject({ date: "2026-03-01", date_type: "on" });
    expect(statusOn(opus4, "2026-05-01")).toBe("deprecated");
    expect(statusOn(opus4, "2026-05-31")).toBe("retired");
    // Sonnet 4: Legacy April 14, 2026, extended access July 14, 2026.
    expect(
      statusOn(assertionFor(out, "anthropic.claude-sonnet-4-20250514-v1:0", "us-west-2"), "2026-05-01"),
    ).toBe("legacy");
    // Jamba 1.5 Large: Legacy May 26, 2026 is still ahead on May 1 (an EOL day is announced).
    const jamba = assertionFor(out, "ai21.jamba-1-5-large-v1:0", "us-east-1");
    expect(statusOn(jamba, "2026-05-01")).toBe("deprecated");
    expect(statusOn(jamba, "2026-05-26")).toBe("legacy");
    // Claude 3 Sonnet has no extended access date in eu-west-1 ("—"), so it stays legacy until EOL.
    const sonnet3 = assertionFor(out, "anthropic.claude-3-sonnet-20240229-v1:0", "eu-west-1");
    expect(sonnet3.extended_access).toBeUndefined();
    expect(statusOn(sonnet3, "2026-05-01")).toBe("legacy");
    expect(statusOn(sonnet3, "2026-11-23")).toBe("retired");
  });

  it("maps Meta, Cohere and Amazon models to their canonical ids", async () => {
    const out = parse(await recordedInput("amazon-bedrock", "model-lifecycle"));
    const byId = new Map(out.deployments.map((d) => [d.provider_model_id, d]));
    expect(byId.get("meta.llama3-1-405b-instruct-v1:0")?.model_id).toBe("meta/llama-3.1-405b-instruct");
    expect(byId.get("cohere.command-r-plus-v1:0")?.display_name).toBe("Cohere Command R+");
    expect(byId.get("amazon.titan-image-generator-v2:0")?.model_id).toBe("amazon/titan-image-generator-v2");
  });
});

describe("amazon-bedrock model-lifecycle-legacy (table + reached-EOL list)", () => {
  it("reads the scheduled-EOL table and the reached-EOL list", async () => {
    const out = ParseOutput.parse(parse(await recordedInput("amazon-bedrock", "model-lifecycle-legacy")));
    expect(out.deployments).toHaveLength(87); // 62 scheduled + 25 reached EOL
    const sonnet45 = assertionFor(out, "anthropic.claude-sonnet-4-5-20250929-v1:0", "us-east-1");
    expect(statusOn(sonnet45, "2026-11-23")).toBe("legacy");
    expect(sonnet45.deprecation).toMatchObject({ date: "2026-10-08", date_type: "on" });
    expect(sonnet45.end_of_life).toMatchObject({ date: "2027-04-08", date_type: "on" });
    expect(
      out.lifecycle.filter((l) => l.target?.provider_model_id === sonnet45.target?.provider_model_id),
    ).toHaveLength(31);
    expect(
      statusOn(assertionFor(out, "anthropic.claude-opus-4-1-20250805-v1:0", "us-east-2"), "2026-11-23"),
    ).toBe("deprecated");
    const haikuGov = assertionFor(out, "anthropic.claude-3-haiku-20240307-v1:0", "us-gov-west-1");
    expect(statusOn(haikuGov, "2026-11-23")).toBe("retired");
    expect(haikuGov.end_of_life?.date).toBe("2026-09-10");
  });

  it("declares the models under 'Models that have reached EOL' retired, and nothing for scheduled ones", async () => {
    const out = parse(await recordedInput("amazon-bedrock", "model-lifecycle-legacy"));
    expect(assertionFor(out, "amazon.nova-canvas-v1:0", "eu-west-1").status).toBe("retired");
    const sonnet4 = assertionFor(out, "anthropic.claude-sonnet-4-20250514-v1:0", "us-east-1");
    expect(sonnet4.status).toBeUndefined();
    expect(statusOn(sonnet4, "2026-01-01")).toBe("deprecated");
  });
});

describe("amazon-bedrock broken pages", () => {
  it("fails instead of returning less when the page changed", async () => {
    const list = await recordedInput("amazon-bedrock", "model-lifecycle");
    const table = await recordedInput("amazon-bedrock", "model-lifecycle-legacy");
    expectParseFailure(
      () => parse(withContent(list, list.content.replace("  - **Model ID:** cohere.command-r-v1:0\n", ""))),
      'model-lifecycle: entry "Cohere Command R" has no valid model ID ("")',
    );
    expectParseFailure(
      () =>
        parse(
          withContent(
            list,
            list.content.replace("**EOL date:** July 7, 2026", "**EOL date:** sometime in 2026"),
          ),
        ),
      'model-lifecycle: "sometime in 2026" is not a lifecycle date',
    );
    expectParseFailure(
      () =>
        parse(
          withContent(
            list,
            list.content.replace("**Legacy date:** May 26, 2026", "**Sunset date:** May 26, 2026"),
          ),
        ),
      'model-lifecycle: unknown lifecycle field "**Sunset date:** May 26, 2026"',
    );
    expectParseFailure(
      () => parse(withContent(list, list.content.replace("us-east-1\n", "US East (N. Virginia)\n"))),
      'model-lifecycle: "US East (N. Virginia)" is not an AWS Region code',
    );
    expectParseFailure(
      () => parse(withContent(table, table.content.replace("| EOL date |", "| End of life |"))),
      "model-lifecycle-legacy: column ^eol date$ missing (headers: Model provider | Model name | Model ID",
    );
    expectParseFailure(
      () => parse(withContent(table, list.content.slice(0, list.content.indexOf("- **AI21 Labs**")))),
      "model-lifecycle-legacy: found no Legacy or EOL model rows",
    );
  });
});
