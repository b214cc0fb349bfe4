/**
 * The listing gate and the community zero rule (src/release/listing-gate.ts) on the recorded
 * captures: the committed release is their offline build (test/pipeline/build.test.ts), so its
 * catalog, facts and report show what the merge did with the real community records.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { deploymentId } from "../../src/lib/ids.js";
import { identityOf } from "../../src/normalize/identity/index.js";
import { resolveDeclaredAliases } from "../../src/release/declared-aliases.js";
import type { SourceFacts } from "../../src/release/facts.js";
import { gateCommunityFacts, withoutZeroPrices } from "../../src/release/listing-gate.js";
import { isOfficial } from "../../src/release/merge-candidates.js";
import { unversionedName } from "../../src/release/model-facts.js";
import { foldModelIdentities } from "../../src/release/model-identity-fold.js";
import type { BuildReport } from "../../src/release/types.js";
import { resolveUnversionedNames } from "../../src/release/unversioned-names.js";
import type {
  CatalogContent,
  Deployment,
  DeploymentFact,
  LifecycleAssertion,
  RateCard,
} from "../../src/schema/index.js";
import { type CommittedRelease, committedRelease } from "../helpers/committed-release.js";

const AZURE_STANDARD_TABLE =
  "https://raw.githubusercontent.com/MicrosoftDocs/azure-ai-docs/main/articles/foundry/foundry-models/includes/model-matrix/deployments-standard.md";
const GPT4O_SEARCH_PAGE = "https://developers.openai.com/api/docs/models/gpt-4o-search-preview.md";
// azure/eu/gpt-5-pro-2025-10-06 in LiteLLM's map: a Data Zone price for a model that Azure's
// tables list only as Global Standard
const DATA_ZONE_GPT5_PRO = "dep_azure_gpt-5-pro-2025-10-06_azure-openai-data-zone-standard_eu";
// openai/gpt-4o-search-preview's `*_batches` price in LiteLLM's map; the model page: batch not supported
const SEARCH_BATCH = "dep_openai_gpt-4o-search-preview_api-batch_global";

let release: CommittedRelease;
let catalog: CatalogContent;
let report: BuildReport;
let byId: Map<string, Deployment>;

beforeAll(async () => {
  release = await committedRelease();
  catalog = release.catalog;
  report = release.report;
  byId = new Map(catalog.deployments.map((d) => [d.id, d]));
});

describe("the listing gate", () => {
  it("creates no deployment that an official availability list excludes, and names it with the list", () => {
    expect(byId.has(DATA_ZONE_GPT5_PRO)).toBe(false);
    // the model itself stays where the tables list it
    expect(byId.has("dep_azure_gpt-5-pro-2025-10-06_azure-openai-global-standard_global")).toBe(true);
    expect(report.unlisted_offerings).toContainEqual(
      expect.objectContaining({ deployment_id: DATA_ZONE_GPT5_PRO, excluded_by: AZURE_STANDARD_TABLE }),
    );
  });

  it("creates no deployment of a bare model name where the list places none of its versions", () => {
    // azure/eu/gpt-5.1-codex-mini in LiteLLM's map; Azure's tables list gpt-5.1-codex-mini
    // version 2025-11-13 in Global Standard only (a blind check found it served: docs/fact-check.md #17)
    for (const zone of ["eu", "us"]) {
      const id = `dep_azure_gpt-5.1-codex-mini_azure-openai-data-zone-standard_${zone}`;
      expect(byId.has(id)).toBe(false);
      expect(report.unlisted_offerings).toContainEqual(
        expect.objectContaining({ deployment_id: id, excluded_by: AZURE_STANDARD_TABLE }),
      );
    }
    expect(byId.has("dep_azure_gpt-5.1-codex-mini-2025-11-13_azure-openai-global-standard_global")).toBe(
      true,
    );
  });

  it("creates no batch deployment for a model whose official page says batch is not supported", () => {
    expect(byId.has(SEARCH_BATCH)).toBe(false);
    expect(report.unlisted_offerings).toContainEqual(
      expect.objectContaining({ deployment_id: SEARCH_BATCH, excluded_by: GPT4O_SEARCH_PAGE }),
    );
  });

  it("creates no deployment of a model a provider's catalog does not name at a place it covers", () => {
    // LiteLLM's azure/us/o1-preview (Data Zone US): Azure retired o1-preview in 2025 and its
    // tables name it nowhere; xAI's models page names no grok-2 (docs/fact-check.md)
    for (const id of [
      "dep_azure_o1-preview-2024-09-12_azure-openai-data-zone-standard_us",
      "dep_xai_grok-2_api_global",
    ]) {
      expect(byId.has(id), id).toBe(false);
      expect(report.unlisted_offerings).toContainEqual(
        expect.objectContaining({
          deployment_id: id,
          reason: "the provider's own list of the models it serves here does not name the model",
        }),
      );
    }
  });

  it("creates no Bedrock deployment in a Region the model's card does not list", () => {
    // LiteLLM's bedrock/sa-east-1/meta.llama3-8b-instruct-v1:0; the Llama 3 8B Instruct card's
    // Regional Availability lists six Regions, not sa-east-1 (docs/fact-check.md)
    const id = "dep_amazon-bedrock_meta.llama3-8b-instruct-v1-0_bedrock-runtime_sa-east-1";
    expect(byId.has(id)).toBe(false);
    expect(report.unlisted_offerings).toContainEqual(
      expect.objectContaining({
        deployment_id: id,
        excluded_by:
          "https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-meta-llama-3-8b-instruct.md",
      }),
    );
    expect(
      byId.get("dep_amazon-bedrock_meta.llama3-8b-instruct-v1-0_bedrock-runtime_us-east-1")?.provenance
        .listing.verification_status,
    ).toBe("official_declared");
  });

  it("every deployment at a place a current official catalog covers is placed there by an official source", () => {
    const columns = new Set<string>();
    const placed = new Set<string>();
    for (const s of release.facts.sources.filter(isOfficial)) {
      for (const d of s.output.deployments) {
        placed.add(d.id);
        // a record of the bare name is a record of the model a version of it is, at a provider
        // that deploys a model only at a version (Azure; listing-gate.ts)
        const bare = unversionedName(d.provider_model_id);
        if (bare !== undefined && identityOf(d.provider_id)?.versionedDeployments === true)
          placed.add(deploymentId({ ...d, provider_model_id: bare }));
      }
      const kind = s.output.availability_list;
      if ((kind === "catalog" || kind === true) && s.archived !== true) {
        for (const d of s.output.deployments)
          columns.add(`${d.provider_id}|${d.api_surface}|${d.mode}|${d.region}`);
        // and the places it declares it speaks for, where it lists no model
        for (const p of s.output.availability_covers ?? [])
          columns.add(`${s.provider_id}|${p.api_surface}|${p.mode}|${p.region}`);
      }
    }
    expect(columns.size).toBeGreaterThan(0);
    let checked = 0;
    for (const d of catalog.deployments)
      if (columns.has(`${d.provider_id}|${d.api_surface}|${d.mode}|${d.region}`)) {
        checked++;
        expect(placed.has(d.id), d.id).toBe(true);
      }
    expect(checked).toBeGreaterThan(300);
  });

  it("creates no Azure Standard/Regional deployment in a region the page names but its Regional tables leave out (northeurope)", () => {
    // the Global Standard and Data Zone tables have a northeurope column, the Regional ones do
    // not: LiteLLM's azure/eu/… Regional keys there name offerings Azure does not have (a blind
    // check found gpt-4o 2024-08-06 priced there: docs/fact-check.md)
    const standard = release.facts.sources.find((s) => s.source_url.includes("deployments-standard"));
    expect(standard?.output.availability_covers).toContainEqual({
      api_surface: "azure-openai",
      mode: "standard",
      region: "northeurope",
    });
    expect(
      catalog.deployments.filter(
        (d) => d.provider_id === "azure" && d.mode === "standard" && d.region === "northeurope",
      ),
    ).toEqual([]);
    const vetoed = (report.unlisted_offerings ?? []).filter((u) =>
      u.deployment_id.endsWith("_azure-openai_northeurope"),
    );
    expect(vetoed.map((u) => u.deployment_id)).toContain(
      "dep_azure_gpt-4o-2024-08-06_azure-openai_northeurope",
    );
    for (const u of vetoed)
      expect(u.reason, u.deployment_id).toMatch(/not in this mode and region|does not name the model/);
  });

  it("lists a bare name with its versions only where deployments are always a name at a version (Azure, not Mistral)", () => {
    // Mistral's cards name mistral-medium-2312, -2505 and -2508, never `mistral-medium`, which
    // LiteLLM keys with the 2023 model's price: an old alias, not a record of one of them
    for (const name of ["mistral-medium", "mistral-small"]) {
      const id = `dep_mistral_${name}_api_global`;
      expect(byId.has(id), id).toBe(false);
      expect(report.unlisted_offerings?.map((u) => u.deployment_id)).toContain(id);
    }
    // Azure's bare names still resolve to their one version where the tables place it
    expect(byId.has("dep_azure_gpt-4.1-2025-04-14_azure-openai_eastus")).toBe(true);
  });

  it("leaves a place the list has no column for (Azure Government) to the community, marked as such", () => {
    const gov = byId.get("dep_azure_gpt-4.1-2025-04-14_azure-openai_usgovvirginia");
    expect(gov?.provenance.listing.verification_status).toBe("community_reported");
    expect(report.unlisted_offerings?.some((u) => u.deployment_id.includes("usgov"))).toBe(false);
  });

  it("reports exactly the facts the gate dropped, each absent from the catalog", () => {
    // the merge gates the facts after it has folded and resolved names (merge.ts mergeCatalog)
    const folded = foldModelIdentities(release.facts.sources, isOfficial).sources;
    const resolved = resolveDeclaredAliases(resolveUnversionedNames(folded, isOfficial), isOfficial);
    const gated = gateCommunityFacts(resolved, isOfficial);
    expect(report.unlisted_offerings).toEqual(gated.unlistedOfferings);
    expect(gated.unlistedOfferings.length).toBeGreaterThan(0);
    const listed = new Set(
      release.facts.sources
        .filter((s) => isOfficial(s) && s.output.availability_list)
        .flatMap((s) => s.output.deployments.map((d) => d.id)),
    );
    for (const u of gated.unlistedOfferings) {
      // an availability list never places what the gate dropped, so no deployment exists
      expect(listed.has(u.deployment_id), u.deployment_id).toBe(false);
      expect(byId.has(u.deployment_id), u.deployment_id).toBe(false);
    }
  });

  it("never drops an availability list's fact, and another official source's only where a list excludes it", () => {
    const gated = gateCommunityFacts(release.facts.sources, isOfficial);
    const dropped = new Set(gated.unlistedOfferings.map((u) => `${u.source_id}|${u.deployment_id}`));
    release.facts.sources.forEach((source, i) => {
      if (!isOfficial(source)) return;
      if (source.output.availability_list) {
        expect(gated.sources[i]).toBe(source);
        return;
      }
      const kept = new Set(gated.sources[i]?.output.deployments.map((d) => d.id));
      for (const d of source.output.deployments)
        expect(kept.has(d.id) || dropped.has(`${source.source_id}|${d.id}`), d.id).toBe(true);
    });
  });

  it("places no In-Region deployment where the model's Bedrock card marks In-Region unsupported, whatever source names the Region", () => {
    // Bedrock's lifecycle pages list "the Regions covered by a model's announced EOL date", and
    // its price lists price requests made from a Region; neither is an In-Region endpoint. Every
    // card of the build, every place it covers, every deployment there: an availability list
    // places it (the card, or Anthropic's Claude-on-Bedrock table, a per-model list too).
    const cards = release.facts.sources.filter(
      (s) => s.output.availability_list === "per_model" && s.source_url.includes("/model-card-"),
    );
    const listed = new Set(
      release.facts.sources
        .filter((s) => isOfficial(s) && s.output.availability_list && !s.archived)
        .flatMap((s) => s.output.deployments.map((d) => d.id)),
    );
    expect(cards.length).toBeGreaterThan(70);
    let checked = 0;
    let vetoed = 0;
    for (const card of cards) {
      const covered = new Set((card.output.availability_covers ?? []).map((p) => p.region));
      const model = card.output.model_facts?.[0]?.provider_model_id;
      for (const d of catalog.deployments) {
        if (d.provider_id !== "amazon-bedrock" || d.provider_model_id !== model) continue;
        if (d.api_surface !== "bedrock-runtime" || d.mode !== "standard" || !covered.has(d.region)) continue;
        checked++;
        expect(listed.has(d.id), d.id).toBe(true);
      }
      for (const u of report.unlisted_offerings ?? [])
        if (u.excluded_by === card.source_url && !u.source_id.startsWith(card.source_id)) vetoed++;
    }
    expect(checked).toBeGreaterThan(500);
    // the official statements the cards vetoed: Claude Sonnet 4.5's 31 Regions of the legacy
    // lifecycle page among them (a blind check found them served: docs/fact-check.md)
    const sonnet45 = (report.unlisted_offerings ?? []).filter(
      (u) =>
        u.deployment_id.startsWith(
          "dep_amazon-bedrock_anthropic.claude-sonnet-4-5-20250929-v1-0_bedrock-runtime_",
        ) && u.reason.startsWith("an official page"),
    );
    expect(sonnet45.length).toBeGreaterThanOrEqual(31);
    expect(vetoed).toBeGreaterThan(80);
  });
});

describe("community zero prices", () => {
  it("publishes no community price of zero: the cards LiteLLM priced at 0 are unknown", () => {
    for (const d of catalog.deployments) {
      const card = d.rate_card;
      if (!card || d.provenance.rate_card?.verification_status.startsWith("official_")) continue;
      const prices = [card.input_micro_usd, card.cached_input_micro_usd, card.output_micro_usd];
      expect(prices.includes(0), d.id).toBe(false);
    }
    // gemini/gemma-3-27b-it: input and output 0 in LiteLLM's map
    const gemma = byId.get("dep_google_gemma-3-27b-it_gemini-api_global");
    expect(gemma?.rate_card).toBeNull();
    expect(gemma?.provenance.rate_card).toBeNull();
    expect(report.community_zero_prices).toContainEqual(
      expect.objectContaining({
        deployment_id: "dep_google_gemma-3-27b-it_gemini-api_global",
        fields: ["input_micro_usd"],
      }),
    );
  });

  it("keeps an official zero: Mistral's models page prices Leanstral at 0", () => {
    const leanstral = byId.get("dep_mistral_labs-leanstral-1-5_api_global");
    expect(leanstral?.rate_card?.input_micro_usd).toBe(0);
    expect(leanstral?.provenance.rate_card?.verification_status).toBe("official_declared");
  });

  it("nulls a zero price beside a known one and drops a card whose input is zero", () => {
    const card: RateCard = {
      currency: "USD",
      unit: "million_tokens",
      input_micro_usd: 1_000_000,
      cached_input_micro_usd: 0,
      output_micro_usd: 4_000_000,
      source_url: "https://example.com/map.json",
      observed_at: "2026-01-01T00:00:00Z",
    };
    expect(withoutZeroPrices(card)).toEqual({
      card: { ...card, cached_input_micro_usd: null },
      zeros: ["cached_input_micro_usd"],
    });
    expect(withoutZeroPrices({ ...card, input_micro_usd: 0 })).toEqual({
      card: undefined,
      zeros: ["input_micro_usd"],
    });
  });
});

describe("the gate's lifecycle side", () => {
  const evidence = (official: boolean) => ({
    source_url: official ? "https://learn.microsoft.com/tables.md" : "https://example.com/map.json",
    source_type: official ? ("official_docs" as const) : ("community_catalog" as const),
    observed_at: "2026-10-01T00:00:00Z",
    verification_status: official ? ("official_declared" as const) : ("community_reported" as const),
  });
  const fact = (
    mode: string,
    region: string,
    official: boolean,
    model = "gpt-x-2026-01-01",
  ): DeploymentFact => {
    const identity = {
      provider_id: "azure",
      provider_model_id: model,
      api_surface: "azure-openai",
      mode,
      region,
    };
    return {
      id: deploymentId(identity),
      model_id: "openai/gpt-x-2026-01-01",
      ...identity,
      evidence: evidence(official),
    };
  };
  const eol = (region: string): LifecycleAssertion => ({
    scope: "deployment",
    provider_id: "azure",
    target: { provider_model_id: "gpt-x-2026-01-01", region, api_surface: "azure-openai" },
    end_of_life: { state: "scheduled", date: "2027-01-01", precision: "day", date_type: "on", evidence: [] },
    evidence: evidence(false),
  });
  const sources = (): SourceFacts[] => [
    {
      source_id: "00000000-0000-4000-8000-000000000001",
      provider_id: "azure",
      source_type: "official_docs",
      source_url: "https://learn.microsoft.com/tables.md",
      observed_at: "2026-10-01T00:00:00Z",
      carried_forward: false,
      output: {
        // the tables have an EU Data Zone column (gpt-y is there), and gpt-x is not in it
        deployments: [
          fact("global-standard", "global", true),
          fact("data-zone-standard", "eu", true, "gpt-y-2026-01-01"),
        ],
        lifecycle: [],
        availability_list: true,
        skipped: [],
      },
    },
    {
      source_id: "00000000-0000-4000-8000-000000000002",
      provider_id: "azure",
      source_type: "community_catalog",
      source_url: "https://example.com/map.json",
      observed_at: "2026-10-01T00:00:00Z",
      carried_forward: false,
      output: {
        deployments: [fact("global-standard", "global", false), fact("data-zone-standard", "eu", false)],
        lifecycle: [eol("global"), eol("eu")],
        skipped: [],
      },
    },
  ];

  it("drops a community assertion about a place the gate vetoed, so it never dates the model's other deployments", () => {
    const gated = gateCommunityFacts(sources(), isOfficial);
    expect(gated.unlistedOfferings.map((u) => u.deployment_id)).toEqual([
      "dep_azure_gpt-x-2026-01-01_azure-openai-data-zone-standard_eu",
    ]);
    const community = gated.sources[1]?.output;
    expect(community?.deployments.map((d) => d.region)).toEqual(["global"]);
    expect(community?.lifecycle.map((a) => a.target?.region)).toEqual(["global"]);
  });
});

/** A deployment fact of a fixture source: official (a page of `sourceType`) or community. */
function gateFact(
  place: Pick<DeploymentFact, "provider_id" | "provider_model_id" | "api_surface" | "mode" | "region">,
  url: string,
  official: boolean,
  sourceType: "official_docs" | "official_pricing" = "official_docs",
): DeploymentFact {
  return {
    id: deploymentId(place),
    model_id: `lab/${place.provider_model_id}`,
    ...place,
    evidence: {
      source_url: url,
      source_type: official ? sourceType : "community_catalog",
      observed_at: "2026-10-01T00:00:00Z",
      verification_status: official ? "official_declared" : "community_reported",
    },
  };
}

/** A fixture source of `provider` whose facts come from `url`. */
function gateSource(
  n: number,
  provider: string,
  url: string,
  official: boolean,
  output: SourceFacts["output"],
  options: { sourceType?: "official_docs" | "official_pricing"; archived?: true } = {},
): SourceFacts {
  return {
    source_id: `00000000-0000-4000-8000-00000000000${n}`,
    provider_id: provider,
    source_type: official ? (options.sourceType ?? "official_docs") : "community_catalog",
    source_url: url,
    observed_at: "2026-10-01T00:00:00Z",
    carried_forward: false,
    ...(options.archived ? { archived: true as const } : {}),
    output,
  };
}

describe("per-model availability lists", () => {
  const CARD = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-x.md";
  const TABLE = "https://platform.claude.com/docs/en/build-with-claude/claude-on-amazon-bedrock-legacy.md";
  const fact = (model: string, region: string, url: string, official: boolean) =>
    gateFact(
      {
        provider_id: "amazon-bedrock",
        provider_model_id: model,
        api_surface: "bedrock-runtime",
        mode: "standard",
        region,
      },
      url,
      official,
    );
  const place = (region: string) => ({ api_surface: "bedrock-runtime", mode: "standard", region });
  const source = (n: number, url: string, official: boolean, output: SourceFacts["output"]) =>
    gateSource(n, "amazon-bedrock", url, official, output);
  const community = (...facts: Array<[string, string]>) =>
    source(9, "https://example.com/map.json", false, {
      deployments: facts.map(([m, r]) => fact(m, r, "https://example.com/map.json", false)),
      lifecycle: [],
      skipped: [],
    });

  it("excludes a model only at the places its own list speaks for, never another model there", () => {
    const sources = [
      // a card: model a through us and eu; it speaks for every profile (us, eu, au, apac)
      source(1, CARD, true, {
        deployments: [fact("a", "us", CARD, true), fact("a", "eu", CARD, true)],
        lifecycle: [],
        availability_list: "per_model",
        availability_covers: ["us", "eu", "au", "apac"].map(place),
        skipped: [],
      }),
      // a table with us and eu columns only: model b through us
      source(2, TABLE, true, {
        deployments: [fact("b", "us", TABLE, true)],
        lifecycle: [],
        availability_list: "per_model",
        availability_covers: ["us", "eu"].map(place),
        skipped: [],
      }),
      community(["a", "apac"], ["a", "us"], ["b", "eu"], ["b", "au"], ["c", "apac"]),
    ];
    const gated = gateCommunityFacts(sources, isOfficial);
    expect(gated.unlistedOfferings.map((u) => [u.deployment_id, u.excluded_by])).toEqual([
      ["dep_amazon-bedrock_a_bedrock-runtime_apac", CARD],
      ["dep_amazon-bedrock_b_bedrock-runtime_eu", TABLE],
    ]);
    // b through au: the card speaks for au, but only about a; the table has no au column.
    // c: no list names it.
    expect(gated.sources[2]?.output.deployments.map((d) => d.id).sort()).toEqual([
      "dep_amazon-bedrock_a_bedrock-runtime_us",
      "dep_amazon-bedrock_b_bedrock-runtime_au",
      "dep_amazon-bedrock_c_bedrock-runtime_apac",
    ]);
  });

  it("a place another list places the model in is not excluded by a list that leaves it out", () => {
    const sources = [
      source(1, CARD, true, {
        deployments: [fact("a", "jp", CARD, true)],
        lifecycle: [],
        availability_list: "per_model",
        availability_covers: ["us", "jp"].map(place),
        skipped: [],
      }),
      source(2, TABLE, true, {
        deployments: [fact("a", "us", TABLE, true)],
        lifecycle: [],
        availability_list: "per_model",
        availability_covers: ["us", "jp"].map(place),
        skipped: [],
      }),
      community(["a", "jp"], ["a", "us"]),
    ];
    expect(gateCommunityFacts(sources, isOfficial).unlistedOfferings).toEqual([]);
  });
});

describe("a provider's catalog of its models", () => {
  const MODELS = "https://docs.x.ai/developers/models.md";
  const OLD_MODELS = "https://docs.x.ai/docs/models";
  const fact = (model: string, url: string, official: boolean) =>
    gateFact(
      {
        provider_id: "xai",
        provider_model_id: model,
        api_surface: "api",
        mode: "standard",
        region: "global",
      },
      url,
      official,
      "official_pricing",
    );
  const source = (
    n: number,
    url: string,
    official: boolean,
    output: SourceFacts["output"],
    archived = false,
  ) =>
    gateSource(n, "xai", url, official, output, {
      sourceType: "official_pricing",
      ...(archived ? { archived: true } : {}),
    });

  it("drops a community model the provider's current list does not name, whatever an archived copy listed", () => {
    const sources = [
      source(1, MODELS, true, {
        deployments: [fact("grok-5", MODELS, true)],
        lifecycle: [],
        availability_list: "catalog",
        skipped: [],
      }),
      // the 2025 copy listed grok-2: an old list is not the provider's list now
      source(
        2,
        OLD_MODELS,
        true,
        {
          deployments: [fact("grok-2", OLD_MODELS, true)],
          lifecycle: [],
          availability_list: "catalog",
          skipped: [],
        },
        true,
      ),
      source(9, "https://example.com/map.json", false, {
        deployments: ["grok-5", "grok-2", "grok-2-vision"].map((m) =>
          fact(m, "https://example.com/map.json", false),
        ),
        lifecycle: [],
        skipped: [],
      }),
    ];
    const gated = gateCommunityFacts(sources, isOfficial);
    expect(gated.unlistedOfferings.map((u) => [u.deployment_id, u.excluded_by])).toEqual([
      // grok-2 is officially placed (by the archived copy): a community fact about it may still speak
      ["dep_xai_grok-2-vision_api_global", MODELS],
    ]);
    expect(gated.sources[2]?.output.deployments.map((d) => d.provider_model_id)).toEqual([
      "grok-5",
      "grok-2",
    ]);
  });

  it("without a catalog, a model no list names stays, marked community_reported", () => {
    const sources = [
      source(9, "https://example.com/map.json", false, {
        deployments: [fact("grok-2-vision", "https://example.com/map.json", false)],
        lifecycle: [],
        skipped: [],
      }),
    ];
    expect(gateCommunityFacts(sources, isOfficial).unlistedOfferings).toEqual([]);
  });
});
