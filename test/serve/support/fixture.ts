/**
 * A small catalog for the server tests, from object literals: six deployments of three
 * providers (one without a rate card, one without a cached-input price), provider / model /
 * deployment lifecycle records with summaries, four source events and their source states.
 * `publishFixture` publishes it with the real publishRelease into a snapshots directory.
 */
import { canonicalJson } from "../../../src/lib/canonical-json.js";
import { deploymentId } from "../../../src/lib/ids.js";
import { CATALOG_FILE, catalogReleaseFiles, publishRelease } from "../../../src/release/artifact.js";
import {
  CatalogContent,
  type Deployment,
  type Evidence,
  type Lifecycle,
  type LifecycleMilestone,
  type LifecycleRecord,
  type RateCard,
  type SourceEvent,
  type SourceState,
  type VerificationStatus,
} from "../../../src/schema/index.js";
import { deploymentLifecycleRecord } from "../../../src/snapshot/index.js";

export const OBSERVED = "2026-11-21T00:00:00Z";
export const CREATED = "2026-11-22T00:00:00Z";

export const SOURCES = {
  openaiPricing: "0b6d8a4e-5f6a-4c3e-9a1b-2c3d4e5f6a7b",
  openaiLifecycle: "1c7e9b5f-6a7b-4d4f-8b2c-3d4e5f6a7b8c",
  anthropicLifecycle: "2d8f0c6a-7b8c-4e5a-ac3d-4e5f6a7b8c9d",
  bedrockPricing: "3e9a1d7b-8c9d-4f6b-bd4e-5f6a7b8c9d0e",
} as const;

const URLS: Record<keyof typeof SOURCES, string> = {
  openaiPricing: "https://platform.openai.com/docs/pricing",
  openaiLifecycle: "https://platform.openai.com/docs/deprecations",
  anthropicLifecycle: "https://docs.anthropic.com/en/docs/about-claude/model-deprecations",
  bedrockPricing: "https://aws.amazon.com/bedrock/pricing/",
};

const PROVIDER_OF: Record<keyof typeof SOURCES, string> = {
  openaiPricing: "openai",
  openaiLifecycle: "openai",
  anthropicLifecycle: "anthropic",
  bedrockPricing: "amazon-bedrock",
};

function evidence(source: keyof typeof SOURCES): Evidence {
  return {
    source_url: URLS[source],
    source_type: source.endsWith("Pricing") ? "official_pricing" : "official_lifecycle",
    observed_at: OBSERVED,
    verification_status: "official_declared",
  };
}

const UNKNOWN: LifecycleMilestone = {
  state: "unknown",
  date: null,
  precision: "unknown",
  date_type: "unknown",
  evidence: [],
};
const NOT_ANNOUNCED: LifecycleMilestone = { ...UNKNOWN, state: "not_announced" };

function scheduled(date: string, dateType: LifecycleMilestone["date_type"], source: keyof typeof SOURCES) {
  return {
    state: "scheduled",
    date,
    precision: "day",
    date_type: dateType,
    evidence: [evidence(source)],
  } satisfies LifecycleMilestone;
}

function lifecycle(fields: Partial<Lifecycle>, sources: Array<keyof typeof SOURCES>): Lifecycle {
  return {
    status: "available",
    announced_at: null,
    deprecation: UNKNOWN,
    end_of_life: UNKNOWN,
    replacement_ids: [],
    coverage: {
      status: sources.length > 0 ? "monitored" : "unmonitored",
      last_checked_at: sources.length > 0 ? CREATED : null,
      source_count: sources.length,
      source_ids: sources.map((s) => SOURCES[s]),
    },
    last_changed_at: null,
    ...fields,
  };
}

function card(
  source: keyof typeof SOURCES,
  input: number,
  cached: number | null,
  output: number | null,
): RateCard {
  return {
    currency: "USD",
    unit: "million_tokens",
    input_micro_usd: input,
    cached_input_micro_usd: cached,
    output_micro_usd: output,
    source_url: URLS[source],
    observed_at: OBSERVED,
  };
}

interface DeploymentSpec {
  provider: string;
  providerModelId: string;
  model: string;
  surface: string;
  mode?: string;
  region: string;
  lifecycle: Lifecycle;
  capabilities: Deployment["capabilities"];
  rateCard: RateCard | null;
  context: number | null;
  /** The listing's level (default official_declared); the rate card's unless `rateLevel` says. */
  listing?: VerificationStatus;
  rateLevel?: VerificationStatus;
}

function provenanceOf(spec: DeploymentSpec, urls: string[]): Deployment["provenance"] {
  const listing = spec.listing ?? "official_declared";
  const fact = (verification_status: VerificationStatus) => ({
    verification_status,
    source_urls: urls.length > 0 ? urls : [URLS.openaiLifecycle],
    observed_at: OBSERVED,
  });
  return {
    listing: fact(listing),
    rate_card: spec.rateCard ? fact(spec.rateLevel ?? listing) : null,
    context_tokens: spec.context === null ? null : fact(listing),
    max_output_tokens: spec.context === null ? null : fact(listing),
  };
}

function deployment(spec: DeploymentSpec): Deployment {
  const mode = spec.mode ?? "standard";
  return {
    id: deploymentId({
      provider_id: spec.provider,
      provider_model_id: spec.providerModelId,
      api_surface: spec.surface,
      mode,
      region: spec.region,
    }),
    model_id: spec.model,
    provider_id: spec.provider,
    provider_model_id: spec.providerModelId,
    api_surface: spec.surface,
    mode,
    region: spec.region,
    status: spec.lifecycle.status,
    lifecycle: spec.lifecycle,
    context_tokens: spec.context,
    max_output_tokens: spec.context === null ? null : 16_384,
    capabilities: spec.capabilities,
    rate_card: spec.rateCard,
    evidence_urls: spec.rateCard ? [spec.rateCard.source_url] : [],
    provenance: provenanceOf(spec, spec.rateCard ? [spec.rateCard.source_url] : []),
  };
}

const GPT4O_LIFECYCLE = lifecycle(
  { deprecation: NOT_ANNOUNCED, end_of_life: NOT_ANNOUNCED, last_changed_at: "2026-05-01T00:00:00Z" },
  ["openaiPricing", "openaiLifecycle"],
);

export const DEPLOYMENTS: Deployment[] = [
  deployment({
    provider: "openai",
    providerModelId: "gpt-4o",
    model: "openai/gpt-4o",
    surface: "api",
    region: "global",
    lifecycle: GPT4O_LIFECYCLE,
    capabilities: {
      tool_calling: { status: "supported", verification_status: "official_declared" },
      structured_output: { status: "supported", verification_status: "official_declared" },
    },
    rateCard: card("openaiPricing", 2_500_000, 1_250_000, 10_000_000),
    context: 128_000,
  }),
  deployment({
    provider: "openai",
    providerModelId: "gpt-4o",
    model: "openai/gpt-4o",
    surface: "api",
    mode: "batch",
    region: "global",
    lifecycle: GPT4O_LIFECYCLE,
    capabilities: {
      tool_calling: { status: "conditional", verification_status: "official_inferred" },
    },
    // batch has no cached-input price: unknown, not zero
    rateCard: card("openaiPricing", 1_250_000, null, 5_000_000),
    context: 128_000,
    rateLevel: "community_corroborated",
  }),
  deployment({
    provider: "openai",
    providerModelId: "gpt-3.5-turbo",
    model: "openai/gpt-3.5-turbo",
    surface: "api",
    region: "global",
    lifecycle: lifecycle(
      {
        status: "deprecated",
        announced_at: "2026-01-10T00:00:00Z",
        deprecation: scheduled("2026-03-01", "on", "openaiLifecycle"),
        end_of_life: scheduled("2026-09-30", "not_before", "openaiLifecycle"),
        replacement_ids: ["dep_openai_gpt-4o_api_global"],
        last_changed_at: "2026-01-10T00:00:00Z",
      },
      ["openaiLifecycle"],
    ),
    capabilities: { tool_calling: { status: "supported", verification_status: "official_declared" } },
    rateCard: null,
    context: null,
  }),
  deployment({
    provider: "anthropic",
    providerModelId: "claude-sonnet-4",
    model: "anthropic/claude-sonnet-4",
    surface: "api",
    region: "global",
    lifecycle: lifecycle(
      {
        status: "legacy",
        deprecation: scheduled("2027-02-01", "on", "anthropicLifecycle"),
        end_of_life: scheduled("2027-05-14", "on", "anthropicLifecycle"),
        last_changed_at: "2026-08-01T00:00:00Z",
      },
      ["anthropicLifecycle"],
    ),
    capabilities: {
      tool_calling: { status: "supported", verification_status: "official_declared" },
      structured_output: { status: "conditional", verification_status: "official_declared" },
    },
    rateCard: card("anthropicLifecycle", 3_000_000, 300_000, 15_000_000),
    context: 200_000,
  }),
  deployment({
    provider: "amazon-bedrock",
    providerModelId: "anthropic.claude-sonnet-4-v1:0",
    model: "anthropic/claude-sonnet-4",
    surface: "bedrock",
    region: "eu-central-1",
    lifecycle: lifecycle({ status: "unknown" }, []),
    capabilities: { tool_calling: { status: "supported", verification_status: "community_reported" } },
    rateCard: card("bedrockPricing", 3_300_000, null, 16_500_000),
    context: 200_000,
    listing: "community_reported",
  }),
  deployment({
    provider: "amazon-bedrock",
    providerModelId: "anthropic.claude-sonnet-4-v1:0",
    model: "anthropic/claude-sonnet-4",
    surface: "bedrock",
    region: "us-east-1",
    lifecycle: lifecycle(
      {
        status: "available",
        end_of_life: scheduled("2026-12-31", "not_after", "bedrockPricing"),
        last_changed_at: "2026-10-01T00:00:00Z",
      },
      ["bedrockPricing"],
    ),
    capabilities: {},
    rateCard: card("bedrockPricing", 3_000_000, 300_000, 15_000_000),
    context: 200_000,
  }),
].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

export function dep(providerModelId: string, region = "global", mode = "standard"): Deployment {
  const found = DEPLOYMENTS.find(
    (d) => d.provider_model_id === providerModelId && d.region === region && d.mode === mode,
  );
  if (!found) throw new Error(`fixture has no ${providerModelId} ${region} ${mode}`);
  return found;
}

function summary(deployments: Deployment[]): LifecycleRecord["summary"] {
  const statusCounts: Record<string, number> = {};
  let known = 0;
  let unknown = 0;
  for (const d of deployments) {
    statusCounts[d.status] = (statusCounts[d.status] ?? 0) + 1;
    for (const m of [d.lifecycle.deprecation, d.lifecycle.end_of_life])
      if (m.state === "unknown") unknown++;
      else known++;
  }
  const next = deployments
    .filter((d) => d.lifecycle.end_of_life.state === "scheduled")
    .sort((a, b) =>
      (a.lifecycle.end_of_life.date as string) < (b.lifecycle.end_of_life.date as string) ? -1 : 1,
    )[0];
  return {
    deployment_count: deployments.length,
    status_counts: statusCounts,
    known_milestone_count: known,
    unknown_milestone_count: unknown,
    next_end_of_life: next
      ? {
          date: next.lifecycle.end_of_life.date as string,
          date_type: next.lifecycle.end_of_life.date_type,
          precision: next.lifecycle.end_of_life.precision,
          deployment_id: next.id,
        }
      : null,
  };
}

const providerIds = [...new Set(DEPLOYMENTS.map((d) => d.provider_id))].sort();
const modelIds = [...new Set(DEPLOYMENTS.map((d) => d.model_id))].sort();

export const LIFECYCLE: LifecycleRecord[] = [
  ...DEPLOYMENTS.map(
    (d): LifecycleRecord => ({
      resource_type: "deployment",
      resource_id: d.id,
      provider_id: d.provider_id,
      model_id: d.model_id,
      lifecycle: d.lifecycle,
    }),
  ),
  ...modelIds.map(
    (m): LifecycleRecord => ({
      resource_type: "model",
      resource_id: m,
      model_id: m,
      lifecycle: lifecycle({ status: "unknown" }, []),
      summary: summary(DEPLOYMENTS.filter((d) => d.model_id === m)),
    }),
  ),
  ...providerIds.map(
    (p): LifecycleRecord => ({
      resource_type: "provider",
      resource_id: p,
      provider_id: p,
      // the openai provider record states a provider-wide status; the others know nothing
      lifecycle: lifecycle(
        { status: p === "openai" ? "available" : "unknown" },
        p === "openai" ? ["openaiLifecycle"] : [],
      ),
      summary: summary(DEPLOYMENTS.filter((d) => d.provider_id === p)),
    }),
  ),
].sort((a, b) =>
  a.resource_type !== b.resource_type
    ? a.resource_type < b.resource_type
      ? -1
      : 1
    : a.resource_id < b.resource_id
      ? -1
      : a.resource_id > b.resource_id
        ? 1
        : 0,
);

function event(
  id: string,
  source: keyof typeof SOURCES,
  type: SourceEvent["event_type"],
  detectedAt: string,
): SourceEvent {
  return {
    id,
    event_type: type,
    provider_id: PROVIDER_OF[source],
    source_id: SOURCES[source],
    source_url: URLS[source],
    detected_at: detectedAt,
    previous_sha256: "b".repeat(64),
    current_sha256: type === "lifecycle.source_failed" ? null : "c".repeat(64),
    ...(type === "lifecycle.source_failed" ? { error: "HTTP 503" } : {}),
  };
}

export const EVENTS: SourceEvent[] = [
  event("evt_0001", "openaiLifecycle", "lifecycle.source_changed", "2026-11-01T00:00:00Z"),
  event("evt_0002", "anthropicLifecycle", "lifecycle.source_failed", "2026-11-10T12:00:00Z"),
  event("evt_0003", "anthropicLifecycle", "lifecycle.source_recovered", "2026-11-11T00:00:00Z"),
  // same detection time as evt_0003: ordered by id
  event("evt_0000", "bedrockPricing", "lifecycle.source_changed", "2026-11-11T00:00:00Z"),
  event("evt_0004", "openaiPricing", "lifecycle.source_changed", "2026-11-21T23:59:59Z"),
];

export const SOURCE_STATES: SourceState[] = (Object.keys(SOURCES) as Array<keyof typeof SOURCES>)
  .map((key) => ({
    source_id: SOURCES[key],
    provider_id: PROVIDER_OF[key],
    source_url: URLS[key],
    status: "ok" as const,
    http_status: 200,
    raw_sha256: "a".repeat(64),
    monitored_sha256: "c".repeat(64),
    checked_at: CREATED,
    last_changed_at: OBSERVED,
    last_ok_at: CREATED,
    content_observed_at: OBSERVED,
    error: null,
  }))
  .sort((a, b) => (a.source_id < b.source_id ? -1 : 1));

export function fixtureCatalog(overrides: Partial<CatalogContent> = {}): CatalogContent {
  return asMerged(
    CatalogContent.parse({
      deployments: DEPLOYMENTS,
      lifecycle: LIFECYCLE,
      events: [...EVENTS].sort((a, b) =>
        a.detected_at !== b.detected_at ? (a.detected_at < b.detected_at ? -1 : 1) : a.id < b.id ? -1 : 1,
      ),
      sources: SOURCE_STATES,
      ...overrides,
    }),
  );
}

/**
 * A parsed catalog as the merge makes it: a deployment's lifecycle record that says what the
 * deployment says holds the deployment's own lifecycle object, so a release publishes it once
 * (src/snapshot/deployment-lifecycles.ts). (Parsing copies every object.)
 */
function asMerged(catalog: CatalogContent): CatalogContent {
  const byId = new Map(catalog.deployments.map((d) => [d.id, d]));
  return {
    ...catalog,
    lifecycle: catalog.lifecycle.map((r) => {
      const d = r.resource_type === "deployment" ? byId.get(r.resource_id) : undefined;
      return d && canonicalJson(deploymentLifecycleRecord(d)) === canonicalJson(r)
        ? deploymentLifecycleRecord(d)
        : r;
    }),
  };
}

/**
 * Publishes a catalog into `snapshotsDir` (LATEST moves to it); returns the release id. By
 * default as the build publishes it (catalog.json and serve-index.json); `catalog-only` is a
 * release from before serve-index.json (catalog.json alone, canonical JSON as the build wrote it).
 */
export async function publishFixture(
  snapshotsDir: string,
  catalog: CatalogContent = fixtureCatalog(),
  previousReleaseId: string | null = null,
  format: "indexed" | "catalog-only" = "indexed",
): Promise<string> {
  const result = await publishRelease(snapshotsDir, {
    files:
      format === "indexed"
        ? catalogReleaseFiles(catalog)
        : { [CATALOG_FILE]: Buffer.from(canonicalJson(catalog)) },
    createdAt: CREATED,
    previousReleaseId,
    counts: { deployments: catalog.deployments.length, lifecycle: catalog.lifecycle.length },
  });
  return result.releaseId;
}
