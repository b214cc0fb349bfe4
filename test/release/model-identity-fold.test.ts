import { beforeAll, describe, expect, test } from "vitest";
import { parserFor } from "../../src/normalize/index.js";
import { parseGeminiDeprecations, parseGeminiPricing } from "../../src/normalize/parsers/google.js";
import { parseOpenaiDeprecations, parseOpenaiPricing } from "../../src/normalize/parsers/openai.js";
import { mergeCatalog } from "../../src/release/merge.js";
import { isOfficial } from "../../src/release/merge-candidates.js";
import {
  brandWord,
  foldModelIdentities,
  nameShape,
  relationOf,
} from "../../src/release/model-identity-fold.js";
import { modelIdentityLines } from "../../src/release/report.js";
import type { DeploymentFact, LifecycleAssertion, SourceFacts } from "../../src/schema/index.js";
import { recordedInput, recordedSourceFacts as sourceFacts } from "../helpers/captures.js";

const NOW = "2026-11-23T00:00:00Z";

/** OpenAI's real pricing and deprecations captures, parsed by their parsers. */
let pricing: SourceFacts;
let deprecations: SourceFacts;
/** Google's real Gemini API pricing and deprecations captures, parsed by their parsers. */
let geminiPricing: SourceFacts;
let geminiDeprecations: SourceFacts;
beforeAll(async () => {
  const p = await recordedInput("openai", "pricing");
  const d = await recordedInput("openai", "deprecations");
  pricing = sourceFacts(p, parseOpenaiPricing(p));
  deprecations = sourceFacts(d, parseOpenaiDeprecations(d));
  const gp = await recordedInput("google", "pricing");
  const gd = await recordedInput("google", "deprecations");
  geminiPricing = sourceFacts(gp, parseGeminiPricing(gp));
  geminiDeprecations = sourceFacts(gd, parseGeminiDeprecations(gd));
});

const names = (s: SourceFacts) => new Set(s.output.deployments.map((d) => d.provider_model_id));

describe("the names rules", () => {
  test("a name's shape: vendor prefix, words, an ISO date as one word, the snapshot tag", () => {
    expect(nameShape("moonshotai/Kimi-K2-Instruct-0905")).toEqual({
      prefix: "moonshotai",
      words: ["kimi", "k2", "instruct", "0905"],
      tag: "0905",
    });
    expect(nameShape("gpt-4o-2024-08-06")).toEqual({
      prefix: null,
      words: ["gpt", "4o", "20240806"],
      tag: "20240806",
    });
    expect(nameShape("text-davinci-001").tag).toBeNull(); // three digits are no snapshot tag
  });

  test("spellings, abbreviations and near names", () => {
    expect(relationOf("gpt-35-turbo-0613", "gpt-3.5-turbo-0613")).toBe("spelling");
    expect(relationOf("moonshotai/kimi-k2-instruct", "Kimi-K2-Instruct")).toBe("spelling");
    expect(relationOf("gpt-3.5-0301", "gpt-3.5-turbo-0301")).toBe("abbreviation");
    expect(relationOf("gpt-5", "gpt-5-2025-08-07")).toBe("alias_or_snapshot");
    expect(relationOf("codestral-latest", "codestral-2508")).toBe("alias_or_snapshot");
    // two snapshots, another vendor's prefix, another family: unrelated
    expect(relationOf("gpt-4o-2024-05-13", "gpt-4o-2024-08-06")).toBeNull();
    expect(relationOf("meta-llama/llama-3-8b", "nvidia/llama-3-8b")).toBeNull();
    expect(relationOf("o3-0301", "gpt-3.5-turbo-0301")).toBeNull();
    expect(relationOf("gpt-4o", "gpt-4o-mini")).toBeNull(); // no snapshot tag: no abbreviation
    // the brand word in front, only with the provider's brand word and a short name of two words or more
    expect(relationOf("embedding-2-preview", "gemini-embedding-2-preview", "gemini")).toBe("brand_word");
    expect(relationOf("embedding-2-preview", "gemini-embedding-2-preview")).toBeNull();
    expect(relationOf("embedding", "gemini-embedding", "gemini")).toBeNull();
  });

  test("the brand word is the first word of at least half of the provider's names", () => {
    const shapes = (...names: string[]) => names.map(nameShape);
    expect(brandWord(shapes("gemini-2.5-pro", "gemini-2.5-flash", "veo-3", "imagen-4"))).toBe("gemini");
    expect(brandWord(shapes("gemini-2.5-pro", "veo-3", "imagen-4"))).toBeNull();
    expect(brandWord(shapes("gemini-2.5-pro"))).toBeNull(); // one name is no brand
  });
});

describe("OpenAI's pricing page and deprecations page (real captures)", () => {
  test("the two pages name the 0301 snapshot differently and neither names the other's name", () => {
    expect(names(pricing).has("gpt-3.5-0301")).toBe(true);
    expect(names(pricing).has("gpt-3.5-turbo-0301")).toBe(false);
    expect(names(deprecations).has("gpt-3.5-turbo-0301")).toBe(true);
    expect(names(deprecations).has("gpt-3.5-0301")).toBe(false);
  });

  test("gpt-3.5-0301 folds into gpt-3.5-turbo-0301, with its evidence", () => {
    const { report } = foldModelIdentities([pricing, deprecations], isOfficial);
    expect(report.folds).toEqual([
      {
        provider_id: "openai",
        relation: "abbreviation",
        kept: {
          provider_model_id: "gpt-3.5-turbo-0301",
          sources: [
            {
              source_id: deprecations.source_id,
              source_type: "official_lifecycle",
              source_url: deprecations.source_url,
            },
          ],
        },
        folded: {
          provider_model_id: "gpt-3.5-0301",
          sources: [
            { source_id: pricing.source_id, source_type: "official_pricing", source_url: pricing.source_url },
          ],
        },
        evidence: [
          "gpt-3.5-0301 is gpt-3.5-turbo-0301 with turbo left out, the same snapshot tag 0301",
          "no official source names both",
          "no other official name of the provider has the words of gpt-3.5-0301 without its tag",
          "no official price, limit or date is given for both names, so none contradicts",
        ],
      },
    ]);
  });

  test("near names stay apart, each with its reason", () => {
    const { report } = foldModelIdentities([pricing, deprecations], isOfficial);
    const apart = (a: string, b: string) =>
      report.kept_apart.find((k) => k.names[0].provider_model_id === a && k.names[1].provider_model_id === b);
    // the deprecations page lists both: two models (the 32k one is not gpt-4-0314 abbreviated)
    expect(apart("gpt-4-0314", "gpt-4-32k-0314")).toMatchObject({
      relation: "abbreviation",
      reason: "named_together",
    });
    expect(apart("gpt-4o-mini-search-preview-2025-03-11", "gpt-4o-search-preview-2025-03-11")).toMatchObject({
      reason: "named_together",
    });
    // the pricing page's moving name and the deprecations page's snapshot
    expect(apart("gpt-5", "gpt-5-2025-08-07")).toMatchObject({
      relation: "alias_or_snapshot",
      reason: "moving_name",
    });
    expect(report.kept_apart.every((k) => k.provider_id === "openai")).toBe(true);
  });

  test("the merge makes one deployment of the 0301 snapshot: the deprecations page's, retired, with the pricing page's price", () => {
    const merged = mergeCatalog({
      now: NOW,
      facts: { format: 1, sources: [pricing, deprecations] },
      states: [],
      previousCores: new Map(),
    });
    const ids = merged.deployments.map((d) => d.id);
    expect(ids.filter((id) => id.includes("gpt-3.5-0301"))).toEqual([]);
    const standard = merged.deployments.find((d) => d.id === "dep_openai_gpt-3.5-turbo-0301_api_global");
    expect(standard).toMatchObject({ status: "retired", model_id: "openai/gpt-3.5-turbo-0301" });
    expect(standard?.rate_card).toMatchObject({ input_micro_usd: 1_500_000, output_micro_usd: 2_000_000 });
    expect(standard?.lifecycle.end_of_life).toMatchObject({ state: "scheduled", date: "2024-09-13" });
    const batch = merged.deployments.find((d) => d.id === "dep_openai_gpt-3.5-turbo-0301_api-batch_global");
    expect(batch?.status).toBe("retired");
    // the moving name and its snapshot stay two deployments
    expect(ids).toContain("dep_openai_gpt-5_api_global");
    expect(ids).toContain("dep_openai_gpt-5-2025-08-07_api_global");
    expect(merged.modelIdentity.folds).toHaveLength(1);
  });

  test("the build log names every fold and counts the pairs kept apart by reason", () => {
    const { report } = foldModelIdentities([pricing, deprecations], isOfficial);
    const counts = new Map<string, number>();
    for (const k of report.kept_apart) counts.set(k.reason, (counts.get(k.reason) ?? 0) + 1);
    expect(modelIdentityLines(report)).toEqual([
      `model names folded into one identity: 1; near names kept apart: ${report.kept_apart.length} (moving_name ${counts.get("moving_name")}, named_together ${counts.get("named_together")})`,
      "  openai: gpt-3.5-0301 -> gpt-3.5-turbo-0301 (abbreviation)",
    ]);
    expect(modelIdentityLines(undefined)).toEqual([]);
  });

  test("facts.json's sources are left as each source said", () => {
    const before = JSON.stringify(pricing);
    foldModelIdentities([pricing, deprecations], isOfficial);
    expect(JSON.stringify(pricing)).toBe(before);
  });
});

describe("Google's Gemini API pricing page and deprecations page (real captures)", () => {
  test("the deprecations page's short name embedding-2-preview folds into the pricing page's model code gemini-embedding-2-preview", () => {
    expect(names(geminiDeprecations).has("embedding-2-preview")).toBe(true);
    expect(names(geminiPricing).has("gemini-embedding-2-preview")).toBe(true);
    const { report } = foldModelIdentities([geminiPricing, geminiDeprecations], isOfficial);
    expect(
      report.folds.map((f) => [f.relation, f.folded.provider_model_id, f.kept.provider_model_id]),
    ).toEqual([["brand_word", "embedding-2-preview", "gemini-embedding-2-preview"]]);
    // the deprecations page lists the old embedding-001 beside gemini-embedding-001: two models
    expect(
      report.kept_apart.find(
        (k) =>
          k.names[0].provider_model_id === "embedding-001" &&
          k.names[1].provider_model_id === "gemini-embedding-001",
      ),
    ).toMatchObject({ relation: "brand_word", reason: "named_together" });
  });

  test("the merge makes one deployment of the preview: the pricing page's, with the deprecations page's shutdown", () => {
    const merged = mergeCatalog({
      now: NOW,
      facts: { format: 1, sources: [geminiPricing, geminiDeprecations] },
      states: [],
      previousCores: new Map(),
    });
    const ids = merged.deployments.map((d) => d.id);
    expect(ids).not.toContain("dep_google_embedding-2-preview_gemini-api_global");
    const preview = merged.deployments.find(
      (d) => d.id === "dep_google_gemini-embedding-2-preview_gemini-api_global",
    );
    // the deprecations page gives earliest possible shutdown dates
    expect(preview?.lifecycle.end_of_life).toMatchObject({
      state: "scheduled",
      date: "2026-08-10",
      date_type: "not_before",
    });
    expect(preview?.rate_card).toMatchObject({ input_micro_usd: 200_000 });
    expect(preview?.status).toBe("deprecated"); // was `preview` beside a deprecated embedding-2-preview
    // embedding-001 and gemini-embedding-001 stay two deployments
    expect(ids).toContain("dep_google_embedding-001_gemini-api_global");
    expect(ids).toContain("dep_google_gemini-embedding-001_gemini-api_global");
  });
});

/** The pricing page's 0301 row, as another official source would state it, with `change` applied. */
function otherOfficial(
  change: (fact: DeploymentFact) => DeploymentFact,
  lifecycle: LifecycleAssertion[] = [],
): SourceFacts {
  const rows = pricing.output.deployments.filter((d) => d.provider_model_id === "gpt-3.5-0301");
  return {
    ...pricing,
    source_id: "00000000-0000-4000-8000-000000000001",
    output: { ...pricing.output, deployments: rows.map(change), lifecycle },
  };
}

describe("what keeps two related names apart", () => {
  test("an official price of the same deployment that differs", () => {
    const renamed = (d: DeploymentFact) => ({
      ...d,
      provider_model_id: "gpt-3.5-turbo-0301",
      model_id: "openai/gpt-3.5-turbo-0301",
      id: d.id.replace("gpt-3.5-0301", "gpt-3.5-turbo-0301"),
      rate_card: d.rate_card ? { ...d.rate_card, output_micro_usd: 20_000_000 } : d.rate_card,
    });
    const { report, sources } = foldModelIdentities(
      [pricing, deprecations, otherOfficial(renamed)],
      isOfficial,
    );
    expect(report.folds).toEqual([]);
    expect(report.kept_apart.find((k) => k.names[0].provider_model_id === "gpt-3.5-0301")).toMatchObject({
      reason: "prices_differ",
      detail:
        "rate_card.output_micro_usd on api|standard|global: gpt-3.5-turbo-0301 20000000 vs gpt-3.5-0301 2000000",
    });
    expect(sources[0]).toBe(pricing);
  });

  test("another official name with the short name's words (gpt-3.5 is then a model of its own)", () => {
    const other = otherOfficial((d) => ({
      ...d,
      provider_model_id: "gpt-3.5-0613",
      model_id: "openai/gpt-3.5-0613",
      id: d.id.replace("gpt-3.5-0301", "gpt-3.5-0613"),
    }));
    const { report } = foldModelIdentities([pricing, deprecations, other], isOfficial);
    expect(report.folds.map((f) => f.folded.provider_model_id)).not.toContain("gpt-3.5-0301");
    expect(report.kept_apart.find((k) => k.names[0].provider_model_id === "gpt-3.5-0301")).toMatchObject({
      reason: "words_name_another_model",
    });
  });

  test("a short name two longer official names abbreviate is ambiguous", () => {
    const other = otherOfficial((d) => ({
      ...d,
      provider_model_id: "gpt-3.5-turbo-16k-0301",
      model_id: "openai/gpt-3.5-turbo-16k-0301",
      id: d.id.replace("gpt-3.5-0301", "gpt-3.5-turbo-16k-0301"),
      rate_card: null,
    }));
    const { report } = foldModelIdentities([pricing, deprecations, other], isOfficial);
    expect(report.folds).toEqual([]);
    // each of the three related pairs is reported
    expect(
      report.kept_apart
        .filter((k) => k.reason === "ambiguous")
        .map((k) => k.names.map((n) => n.provider_model_id)),
    ).toEqual([
      ["gpt-3.5-0301", "gpt-3.5-turbo-0301"],
      ["gpt-3.5-0301", "gpt-3.5-turbo-16k-0301"],
      ["gpt-3.5-turbo-0301", "gpt-3.5-turbo-16k-0301"],
    ]);
  });

  test("different scheduled end-of-life dates", () => {
    const shutdown = deprecations.output.lifecycle.find(
      (a) => a.target?.provider_model_id === "gpt-3.5-turbo-0301",
    );
    if (!shutdown?.end_of_life || !shutdown.target) throw new Error("the capture's 0301 shutdown is missing");
    const other = otherOfficial(
      (d) => d,
      [
        {
          ...shutdown,
          model_id: "openai/gpt-3.5-0301",
          target: { ...shutdown.target, provider_model_id: "gpt-3.5-0301" },
          end_of_life: { ...shutdown.end_of_life, date: "2025-01-01" },
        },
      ],
    );
    const { report } = foldModelIdentities([deprecations, other], isOfficial);
    expect(report.folds).toEqual([]);
    expect(report.kept_apart[0]).toMatchObject({
      reason: "dates_differ",
      detail: "end_of_life dates: gpt-3.5-turbo-0301 2024-09-13 vs gpt-3.5-0301 2025-01-01",
    });
  });

  test("a community source alone never makes a name a candidate", () => {
    const community = { ...pricing, source_type: "community_catalog" as const };
    const { report } = foldModelIdentities([community, deprecations], isOfficial);
    expect(report.folds).toEqual([]);
  });
});

describe("Together AI's serverless models page and deprecations page (real captures)", () => {
  test("a fold that changes only the case keeps the deployment: Marin 8B Instruct, retired on the deprecations page's day", async () => {
    const m = await recordedInput("together-ai", "serverless-models");
    const d = await recordedInput("together-ai", "deprecations");
    const models = sourceFacts(m, parserFor(m.source)(m));
    const removals = sourceFacts(d, parserFor(d.source)(d));
    const { report, sources } = foldModelIdentities([models, removals], isOfficial);
    expect(
      report.folds
        .filter((f) => /marin/i.test(f.kept.provider_model_id))
        .map((f) => [f.folded.provider_model_id, f.kept.provider_model_id]),
    ).toEqual([["marin-community/marin-8b-instruct", "marin-community/Marin-8B-Instruct"]]);
    const id = "dep_together-ai_marin-community-marin-8b-instruct_api_global";
    expect(sources[0]?.output.deployments.filter((x) => x.id === id)).toHaveLength(1);
    const merged = mergeCatalog({
      now: NOW,
      facts: { format: 1, sources: [models, removals] },
      states: [],
      previousCores: new Map(),
    });
    const marin = merged.deployments.find((x) => x.id === id);
    expect(marin?.lifecycle.end_of_life).toMatchObject({ date: "2026-02-25", date_type: "on" });
    expect(marin?.status).toBe("retired");
  });
});
