/**
 * Cross-Region inference profiles dated by the Region-scoped lifecycle statements that cover
 * every Region sending requests into them (src/release/profile-lifecycle.ts): on the committed
 * release (the offline build of the recorded captures) and on small facts built from its shapes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { BEDROCK_GEOGRAPHIES as GEOGRAPHIES, geographyIncludes } from "../../src/normalize/identity/index.js";
import type { SourceFacts } from "../../src/release/facts.js";
import { isOfficial } from "../../src/release/merge-candidates.js";
import { withProfileStatements } from "../../src/release/profile-lifecycle.js";
import type { Deployment, DeploymentFact, LifecycleAssertion } from "../../src/schema/index.js";
import { type CommittedRelease, committedRelease } from "../helpers/committed-release.js";

const LIFECYCLE = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-lifecycle";
const SONNET_4 = "dep_amazon-bedrock_anthropic.claude-sonnet-4-20250514-v1-0_bedrock-runtime_";
const SONNET_45 = "dep_amazon-bedrock_anthropic.claude-sonnet-4-5-20250929-v1-0_bedrock-runtime_";

let release: CommittedRelease;
let byId: Map<string, Deployment>;

beforeAll(async () => {
  release = await committedRelease();
  byId = new Map(release.catalog.deployments.map((d) => [d.id, d]));
});

function datedByLifecyclePage(d: Deployment | undefined): boolean {
  return (d?.lifecycle.end_of_life.evidence ?? []).some(
    (e) => e.source_url.startsWith(LIFECYCLE) && e.verification_status === "official_inferred",
  );
}

/** provider_model_id|EOL date -> the Regions the Bedrock lifecycle pages end the model in on that date. */
function regionsEndedOn(): Map<string, Set<string>> {
  const regions = new Map<string, Set<string>>();
  for (const s of release.facts.sources)
    if (s.source_url.startsWith(LIFECYCLE))
      for (const a of s.output.lifecycle)
        if (a.target?.region && a.end_of_life?.date) {
          const key = `${a.target.provider_model_id}|${a.end_of_life.date}`;
          regions.set(key, (regions.get(key) ?? new Set()).add(a.target.region));
        }
  return regions;
}

describe("profiles dated by Region-scoped lifecycle statements", () => {
  it("retires Claude Sonnet 4's profiles with its EOL in every Region they serve, and puts Sonnet 4.5's geo profiles in Legacy", () => {
    for (const geo of ["us", "eu", "apac", "global"]) {
      const d = byId.get(`${SONNET_4}${geo}`);
      expect(d?.status, geo).toBe("retired");
      expect(d?.lifecycle.end_of_life.date, geo).toBe("2026-10-14");
      expect(datedByLifecyclePage(d), geo).toBe(true);
    }
    for (const geo of ["us", "eu", "jp", "au"]) {
      const d = byId.get(`${SONNET_45}${geo}`);
      expect(d?.status, geo).toBe("legacy");
      expect(d?.lifecycle.deprecation.date, geo).toBe("2026-10-08");
      expect(d?.lifecycle.end_of_life.date, geo).toBe("2027-04-08");
    }
    // the legacy page leaves out me-central-1 and me-south-1, which send requests into Sonnet
    // 4.5's global profile: the model may stay Active there, so the page dates no global profile
    expect(datedByLifecyclePage(byId.get(`${SONNET_45}global`))).toBe(false);
  });

  it("dates a profile only where one statement covers every Region its card sends into it (every case of the build)", () => {
    const profiles = new Map<string, DeploymentFact>();
    for (const s of release.facts.sources)
      for (const d of s.output.deployments) if (d.source_regions) profiles.set(d.id, d);
    const regionsSaid = regionsEndedOn();
    let dated = 0;
    for (const [id, fact] of profiles) {
      const d = byId.get(id);
      if (!datedByLifecyclePage(d)) continue;
      dated++;
      const said = regionsSaid.get(`${fact.provider_model_id}|${d?.lifecycle.end_of_life.date}`);
      for (const region of fact.source_regions ?? []) expect(said?.has(region), `${id} ${region}`).toBe(true);
    }
    expect(dated).toBeGreaterThanOrEqual(10);
  });
});

describe("profiles no card describes, ended with their model in every official place of their geography", () => {
  const SONNET_3 = "dep_amazon-bedrock_anthropic.claude-3-sonnet-20240229-v1-0_bedrock-runtime_";

  it("retires Claude 3 Sonnet's community us, eu and apac profiles with its EOL (a blind check found `us` served unknown)", () => {
    for (const geo of ["us", "eu", "apac"]) {
      const d = byId.get(`${SONNET_3}${geo}`);
      expect(d?.provenance.listing.verification_status, geo).toBe("community_reported");
      expect(d?.status, geo).toBe("retired");
      expect(d?.lifecycle.end_of_life.date, geo).toBe("2026-07-30");
      expect(d?.lifecycle.deprecation.date, geo).toBe("2026-01-30");
      expect(datedByLifecyclePage(d), geo).toBe(true);
    }
  });

  it("dates such a profile only where the page's one EOL covers every official place of the model in its geography (every case of the build)", () => {
    const described = new Set<string>();
    const officialPlaces = new Map<string, Set<string>>();
    for (const s of release.facts.sources)
      for (const d of s.output.deployments) {
        if (d.source_regions) described.add(d.id);
        if (!isOfficial(s) || d.provider_id !== "amazon-bedrock") continue;
        const places = officialPlaces.get(d.provider_model_id) ?? new Set<string>();
        if (!GEOGRAPHIES.includes(d.region)) places.add(d.region);
        for (const r of d.source_regions ?? []) places.add(r);
        officialPlaces.set(d.provider_model_id, places);
      }
    const eolRegions = regionsEndedOn();
    let dated = 0;
    for (const d of release.catalog.deployments) {
      if (d.provider_id !== "amazon-bedrock" || !GEOGRAPHIES.includes(d.region) || described.has(d.id))
        continue;
      if (!datedByLifecyclePage(d)) continue;
      dated++;
      const said = eolRegions.get(`${d.provider_model_id}|${d.lifecycle.end_of_life.date}`) ?? new Set();
      const inGeography = (r: string) => geographyIncludes(d.region, r) === true;
      expect([...said].some(inGeography), d.id).toBe(true);
      for (const r of officialPlaces.get(d.provider_model_id) ?? [])
        if (inGeography(r)) expect(said.has(r), `${d.id} ${r}`).toBe(true);
    }
    expect(dated).toBeGreaterThanOrEqual(4);
  });
});

describe("withProfileStatements", () => {
  const evidence = (url: string) => ({
    source_url: url,
    source_type: "official_lifecycle" as const,
    observed_at: "2026-10-01T00:00:00Z",
    verification_status: "official_declared" as const,
  });
  const profile: DeploymentFact = {
    id: "dep_amazon-bedrock_x.model-v1-0_bedrock-runtime_us",
    model_id: "x/model-v1",
    provider_id: "amazon-bedrock",
    provider_model_id: "x.model-v1:0",
    api_surface: "bedrock-runtime",
    mode: "standard",
    region: "us",
    source_regions: ["us-east-1", "us-west-2"],
    evidence: evidence("https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-x.md"),
  };
  const card = (): SourceFacts => ({
    source_id: "00000000-0000-4000-8000-000000000001",
    provider_id: "amazon-bedrock",
    source_type: "official_docs",
    source_url: profile.evidence.source_url,
    observed_at: "2026-10-01T00:00:00Z",
    carried_forward: false,
    output: { deployments: [profile], lifecycle: [], availability_list: "per_model", skipped: [] },
  });
  const eol = (region: string, date = "2027-01-08"): LifecycleAssertion => ({
    scope: "deployment",
    provider_id: "amazon-bedrock",
    target: { provider_model_id: "x.model-v1:0", region, api_surface: "bedrock-runtime" },
    end_of_life: {
      state: "scheduled",
      date,
      precision: "day",
      date_type: "on",
      evidence: [evidence(LIFECYCLE)],
    },
    evidence: evidence(LIFECYCLE),
  });
  const page = (lifecycle: LifecycleAssertion[]): SourceFacts => ({
    ...card(),
    source_id: "00000000-0000-4000-8000-000000000002",
    source_type: "official_lifecycle",
    source_url: LIFECYCLE,
    output: { deployments: [], lifecycle, skipped: [] },
  });
  const added = (sources: SourceFacts[]) =>
    withProfileStatements(sources, isOfficial)[1]?.output.lifecycle.filter(
      (a) => a.target?.region === "us",
    ) ?? [];

  it("states the page's milestones for the profile, official_inferred, where they cover all its source Regions", () => {
    const [statement] = added([card(), page([eol("us-east-1"), eol("us-west-2"), eol("eu-west-1")])]);
    expect(statement?.end_of_life?.date).toBe("2027-01-08");
    expect(statement?.evidence.verification_status).toBe("official_inferred");
    expect(statement?.end_of_life?.evidence[0]?.verification_status).toBe("official_inferred");
  });

  it("states nothing when one source Region is left out or given other dates, or when the statement is a list's own", () => {
    expect(added([card(), page([eol("us-east-1")])])).toEqual([]);
    expect(added([card(), page([eol("us-east-1"), eol("us-west-2", "2027-02-01")])])).toEqual([]);
    const list = {
      ...page([eol("us-east-1"), eol("us-west-2")]),
      output: { ...page([]).output, availability_list: "per_model" as const },
    };
    list.output.lifecycle = [eol("us-east-1"), eol("us-west-2")];
    expect(added([card(), list])).toEqual([]);
  });
  const community = (region: string): SourceFacts => ({
    ...card(),
    source_id: "00000000-0000-4000-8000-000000000003",
    source_type: "community_catalog",
    source_url: "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json",
    output: {
      deployments: [
        {
          ...profile,
          id: `dep_amazon-bedrock_x.model-v1-0_bedrock-runtime_${region}`,
          region,
          source_regions: undefined,
          evidence: {
            ...profile.evidence,
            source_url:
              "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json",
            source_type: "community_catalog",
            verification_status: "community_reported",
          },
        },
      ],
      lifecycle: [],
      skipped: [],
    },
  });
  const stated = (sources: SourceFacts[], region: string) =>
    withProfileStatements(sources, isOfficial)
      .find((s) => s.source_url === LIFECYCLE)
      ?.output.lifecycle.filter((a) => a.target?.region === region) ?? [];

  it("ends a profile no card describes where the page's one EOL covers every official place of the model in its geography", () => {
    const [statement] = stated(
      [community("eu"), page([eol("eu-west-1"), eol("eu-west-3"), eol("us-east-1")])],
      "eu",
    );
    expect(statement?.end_of_life?.date).toBe("2027-01-08");
    expect(statement?.evidence.verification_status).toBe("official_inferred");
    expect(statement?.target).toEqual({
      provider_model_id: "x.model-v1:0",
      region: "eu",
      api_surface: "bedrock-runtime",
    });
  });

  it("ends no such profile when an official place in its geography is left out, no Region is in it, or the dates differ", () => {
    const card = (region: string): SourceFacts => ({
      ...page([]),
      source_id: "00000000-0000-4000-8000-000000000004",
      source_type: "official_docs",
      source_url: "https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-x.md",
      output: {
        deployments: [
          {
            ...profile,
            id: `dep_amazon-bedrock_x.model-v1-0_bedrock-runtime_${region}`,
            region,
            source_regions: undefined,
          },
        ],
        lifecycle: [],
        availability_list: "per_model",
        skipped: [],
      },
    });
    // a card places the model in eu-central-1, which the page does not end
    expect(stated([community("eu"), card("eu-central-1"), page([eol("eu-west-1")])], "eu")).toEqual([]);
    // the page names no European Region
    expect(stated([community("eu"), page([eol("us-east-1"), eol("us-west-2")])], "eu")).toEqual([]);
    // two EOL dates: the model ends at different times in different Regions
    expect(stated([community("eu"), page([eol("eu-west-1"), eol("us-east-1", "2027-02-01")])], "eu")).toEqual(
      [],
    );
  });
});
