/**
 * An official assertion about a model named without its `@<version>` speaks for the provider's
 * only deployed version of it (src/release/merge-candidates.ts applyToOnlyVersion).
 */
import { describe, expect, it } from "vitest";
import { deploymentId } from "../../src/lib/ids.js";
import type { SourceFacts } from "../../src/release/facts.js";
import { gatherCandidates } from "../../src/release/merge-candidates.js";
import { onlyVersion, versionKey, versionsByName } from "../../src/release/model-facts.js";
import type { DeploymentFact, LifecycleAssertion } from "../../src/schema/index.js";

const PAGE =
  "https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/deprecations/partner-models";
const MAP = "https://example.com/map.json";

const evidence = (official: boolean) => ({
  source_url: official ? PAGE : MAP,
  source_type: official ? ("official_lifecycle" as const) : ("community_catalog" as const),
  observed_at: "2026-10-01T00:00:00Z",
  verification_status: official ? ("official_declared" as const) : ("community_reported" as const),
});

function deployment(name: string): DeploymentFact {
  const identity = {
    provider_id: "google-vertex",
    provider_model_id: name,
    api_surface: "vertex-ai",
    mode: "standard",
    region: "global",
  };
  return {
    id: deploymentId(identity),
    model_id: `lab/${name.replace("@", "-")}`,
    ...identity,
    evidence: evidence(false),
  };
}

function shutdown(name: string, official: boolean): LifecycleAssertion {
  return {
    scope: "deployment",
    provider_id: "google-vertex",
    target: { provider_model_id: name, api_surface: "vertex-ai" },
    end_of_life: {
      state: "scheduled",
      date: "2026-08-23",
      precision: "day",
      date_type: "on",
      evidence: [evidence(official)],
    },
    evidence: evidence(official),
  };
}

function source(n: number, official: boolean, output: SourceFacts["output"]): SourceFacts {
  return {
    source_id: `00000000-0000-4000-8000-00000000000${n}`,
    provider_id: "google-vertex",
    source_type: official ? "official_lifecycle" : "community_catalog",
    source_url: official ? PAGE : MAP,
    observed_at: "2026-10-01T00:00:00Z",
    carried_forward: false,
    output,
  };
}

describe("an assertion about a name without its @version", () => {
  const sources = [
    source(1, true, {
      deployments: [],
      lifecycle: [shutdown("claude-3-haiku", true), shutdown("mistral-large", true)],
      skipped: [],
    }),
    source(2, false, {
      deployments: [
        "claude-3-haiku@20240307",
        "mistral-large@2407",
        "mistral-large@2411-001",
        "codestral@2405",
      ].map(deployment),
      lifecycle: [shutdown("codestral", false)],
      skipped: [],
    }),
  ];
  const { deploymentAssertions } = gatherCandidates(sources);

  it("speaks for the only deployed version, official_inferred", () => {
    const [inferred, ...more] = deploymentAssertions.get("google-vertex|claude-3-haiku@20240307") ?? [];
    expect(more).toEqual([]);
    expect(inferred?.verification).toBe("official_inferred");
    expect(inferred?.assertion.target?.provider_model_id).toBe("claude-3-haiku@20240307");
    expect(inferred?.assertion.evidence.verification_status).toBe("official_inferred");
    expect(inferred?.assertion.end_of_life?.evidence.map((e) => e.verification_status)).toEqual([
      "official_inferred",
    ]);
    expect(inferred?.assertion.end_of_life?.date).toBe("2026-08-23");
    // the assertion about the name itself is unchanged
    expect(deploymentAssertions.get("google-vertex|claude-3-haiku")?.[0]?.verification).toBe(
      "official_declared",
    );
  });

  it("never guesses among two versions, and a community assertion never speaks for another name", () => {
    expect(deploymentAssertions.has("google-vertex|mistral-large@2407")).toBe(false);
    expect(deploymentAssertions.has("google-vertex|mistral-large@2411-001")).toBe(false);
    expect(deploymentAssertions.has("google-vertex|codestral@2405")).toBe(false);
  });
});

describe("versionsByName and onlyVersion: the one 'only version' mechanism", () => {
  const facts = [
    deployment("claude-3-haiku@20240307"),
    deployment("mistral-large@2407"),
    deployment("mistral-large@2411-001"),
    { ...deployment("mistral-large@2411-001"), region: "us-east5", id: "dep_other_region" },
  ];
  const sources = [source(1, false, { deployments: facts, lifecycle: [], skipped: [] })];
  const name = (d: DeploymentFact) => d.provider_model_id.split("@")[0];

  it("finds the one version of a name, and none where two are named", () => {
    const versions = versionsByName(sources, () => true, name);
    expect(onlyVersion(versions, versionKey("google-vertex", "claude-3-haiku"))?.provider_model_id).toBe(
      "claude-3-haiku@20240307",
    );
    expect(onlyVersion(versions, versionKey("google-vertex", "mistral-large"))).toBeUndefined();
    expect(onlyVersion(versions, versionKey("google-vertex", "gemini-2.5-pro"))).toBeUndefined();
  });

  it("counts per scope when asked: one version in one region is the only one there", () => {
    const versions = versionsByName(
      sources,
      () => true,
      name,
      (d) => d.region,
    );
    expect(
      onlyVersion(versions, versionKey("google-vertex", "mistral-large", "us-east5"))?.provider_model_id,
    ).toBe("mistral-large@2411-001");
    expect(onlyVersion(versions, versionKey("google-vertex", "mistral-large", "global"))).toBeUndefined();
  });

  it("leaves out the sources not included and the facts that name no version", () => {
    expect(versionsByName(sources, () => false, name).size).toBe(0);
    expect(
      versionsByName(
        sources,
        () => true,
        () => undefined,
      ).size,
    ).toBe(0);
  });
});
