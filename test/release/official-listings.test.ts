/**
 * Status from official listings and stale alias prices (src/release/merge-lifecycle.ts
 * officialModelListings, src/release/listing-gate.ts), on the committed release: the offline
 * build of the recorded captures (test/pipeline/build.test.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { isMovingAlias } from "../../src/release/listing-gate.js";
import { isOfficial } from "../../src/release/merge-candidates.js";
import { officialModelListings } from "../../src/release/merge-lifecycle.js";
import type { BuildReport } from "../../src/release/types.js";
import type { Deployment } from "../../src/schema/index.js";
import { type CommittedRelease, committedRelease } from "../helpers/committed-release.js";

let release: CommittedRelease;
let report: BuildReport;
let byId: Map<string, Deployment>;

beforeAll(async () => {
  release = await committedRelease();
  report = release.report;
  byId = new Map(release.catalog.deployments.map((d) => [d.id, d]));
});

function deployment(id: string): Deployment {
  const d = byId.get(id);
  if (!d) throw new Error(`the committed release has no ${id}`);
  return d;
}

describe("status from official listings", () => {
  it("a model page's Versions label is the status it lists the version with (every labelled version of the build)", () => {
    // Gemini API models page: "Preview: `gemini-2.5-flash-native-audio-preview-09-2025`", a
    // version LiteLLM alone places (a blind check found it served `available`: docs/fact-check.md)
    const preview = deployment("dep_google_gemini-2.5-flash-native-audio-preview-09-2025_gemini-api_global");
    expect(preview.provenance.listing.verification_status).toBe("community_reported");
    expect(preview.status).toBe("preview");
    // every version a current official page labels, wherever only the listing gives its status
    const labelled = new Map<string, string>();
    for (const s of release.facts.sources)
      if (isOfficial(s))
        for (const f of s.output.model_facts ?? []) if (f.status) labelled.set(f.provider_model_id, f.status);
    expect(labelled.size).toBeGreaterThanOrEqual(15);
    let checked = 0;
    for (const d of release.catalog.deployments) {
      const declared = labelled.get(d.provider_model_id);
      if (
        declared === undefined ||
        d.provider_id !== "google" ||
        d.status === "deprecated" ||
        d.status === "retired"
      )
        continue;
      checked++;
      expect(d.status, d.id).toBe(declared);
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it("a community-placed deployment of a model an official current page lists is available, not unknown", () => {
    // LiteLLM's vertex_ai/codestral-2; Vertex AI's Codestral 2 MaaS page (recorded) names the model
    const codestral = deployment("dep_google-vertex_codestral-2_vertex-ai_global");
    expect(codestral.provenance.listing.verification_status).toBe("community_reported");
    expect(codestral.status).toBe("available");
    // LiteLLM's batch price of Llama 4 Maverick through the `us` profile: its Bedrock card names
    // the model and says "Model lifecycle: Legacy", EOL March 30, 2027, for every Region and mode
    const batch = deployment(
      "dep_amazon-bedrock_meta.llama4-maverick-17b-instruct-v1-0_bedrock-runtime-batch_us",
    );
    expect(batch.provenance.listing.verification_status).toBe("community_reported");
    expect(batch.status).toBe("legacy");
    expect(batch.lifecycle.end_of_life).toMatchObject({ date: "2027-03-30", date_type: "on" });
    // LiteLLM's gpt-4o-2024-11-20; the GPT-4o model page's Snapshots list names it
    const snapshot = deployment("dep_openai_gpt-4o-2024-11-20_api_global");
    expect(snapshot.provenance.listing.verification_status).toBe("community_reported");
    expect(snapshot.status).toBe("available");
    // LiteLLM's batch price of gpt-4.1-2025-04-14; OpenAI's model page lists the snapshot
    expect(deployment("dep_openai_gpt-4.1-2025-04-14_api-batch_global").status).toBe("available");
  });

  it("an archived page or a page that only implies the model for another provider's id lists nothing", () => {
    // Claude 3 Opus on Vertex AI: the archived 2024 overview speaks of it there (official_inferred)
    // and lists nothing; Vertex's own partner model deprecations page retires it (shut down
    // 2025-08-01), which is no listing either
    const opus = deployment("dep_google-vertex_claude-3-opus-20240229_vertex-ai_global");
    expect(opus.status).toBe("retired");
    expect(opus.provenance.listing.verification_status).toBe("community_reported");
    const listings = officialModelListings(release.facts.sources, isOfficial);
    expect(listings.has("google-vertex|claude-3-opus-20240229")).toBe(false);
    expect(listings.get("amazon-bedrock|amazon.nova-2-lite-v1:0")).toEqual({ declared: null });
  });

  it("an official listing's declared status is the status of the model's unlisted deployments", () => {
    const listings = officialModelListings(release.facts.sources, isOfficial);
    const preview = [...listings.values()].filter((l) => l.declared === "preview").length;
    expect(preview).toBeGreaterThan(0);
    // Gemini 3.1 Pro Preview custom tools: Google's pricing page lists it in preview; LiteLLM adds priority
    expect(
      deployment("dep_google_gemini-3.1-pro-preview-customtools_gemini-api-priority_global").status,
    ).toBe("preview");
  });

  it("at most 10% of the deployments not retired are of unknown status (was 510 of 1,287, then 313 of 1,157, then 95 of 1,460, 95 of 1,421, 91 of 1,417, 85 of 1,417, 85 of 1,410 and 83 of 1,408)", () => {
    const live = release.catalog.deployments.filter((d) => d.status !== "retired");
    const unknown = live.filter((d) => d.status === "unknown");
    expect(unknown.length).toBe(81);
    expect(live.length).toBe(1403);
    expect(unknown.length / live.length).toBeLessThanOrEqual(0.1);
    // unknown only where nothing official lists the model: every one is placed by community data
    for (const d of unknown) expect(d.provenance.listing.verification_status, d.id).toMatch(/^community_/);
  });
});

describe("aliases", () => {
  it("a community price of an alias no official source resolves is dropped as stale", () => {
    // LiteLLM's gemini/gemini-pro-latest kept the price of the model the alias named when it was written
    const alias = deployment("dep_google_gemini-pro-latest_gemini-api_global");
    expect(alias.rate_card).toBeNull();
    expect(alias.provenance.rate_card).toBeNull();
    expect(report.stale_alias_prices).toContainEqual(
      expect.objectContaining({ deployment_id: "dep_google_gemini-pro-latest_gemini-api_global" }),
    );
    for (const d of release.catalog.deployments)
      if (isMovingAlias(d.provider_model_id) && d.rate_card)
        expect(d.provenance.rate_card?.verification_status, d.id).toMatch(/^official_/);
  });

  it("knows a moving alias by its name", () => {
    expect(isMovingAlias("gemini-flash-latest")).toBe(true);
    expect(isMovingAlias("codestral@latest")).toBe(true);
    expect(isMovingAlias("gpt-4o-2024-08-06")).toBe(false);
    expect(isMovingAlias("latest-model")).toBe(false);
  });
});

describe("official sources that disagree on batch", () => {
  it("every deployment at an officially batch-priced offering whose model officially lacks batch is reported, and nothing else", () => {
    // OpenAI's pricing page prices gpt-5.4-pro in Batch; its model page says "Batch: Not
    // supported" (a blind check found both served: docs/fact-check.md)
    const offering = (d: Deployment) =>
      `${d.provider_id}|${d.provider_model_id}|${d.api_surface}|${d.region}`;
    const batchPriced = new Set(
      release.catalog.deployments
        .filter(
          (d) => d.mode === "batch" && d.provenance.rate_card?.verification_status.startsWith("official_"),
        )
        .map(offering),
    );
    const expected = release.catalog.deployments
      .filter(
        (d) =>
          batchPriced.has(offering(d)) &&
          d.capabilities.batch?.status === "unsupported" &&
          d.capabilities.batch.verification_status?.startsWith("official_"),
      )
      .map((d) => d.id)
      .sort();
    const reported = (report.official_disagreements ?? []).filter(
      (x) => x.field === "capabilities.batch" && x.other.value === "supported",
    );
    expect(reported.map((x) => x.deployment_id).sort()).toEqual(expected);
    expect(expected).toContain("dep_openai_gpt-5.4-pro_api-batch_global");
    expect(expected).toContain("dep_openai_gpt-5.2-pro_api-batch_global");
    expect(expected.length).toBeGreaterThanOrEqual(4);
    for (const x of reported) {
      expect(x.kept.value).toBe("unsupported");
      expect(x.kept.source_id).not.toBe(x.other.source_id);
    }
  });
});
