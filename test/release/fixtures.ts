/**
 * Small fixture builders for the release tests: sources, facts, assertions, states and
 * events from object literals, and one standard small world (OpenAI pricing + lifecycle pages
 * and a community catalog) that passes every check.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deploymentId } from "../../src/lib/ids.js";
import { gatherFacts } from "../../src/release/facts.js";
import { mergeCatalog } from "../../src/release/merge.js";
import type { ReleaseInput, SourceContribution } from "../../src/release/types.js";
import type {
  CatalogContent,
  DeploymentFact,
  Evidence,
  LifecycleAssertion,
  LifecycleMilestone,
  RateCard,
  SourceDefinition,
  SourceEvent,
  SourceState,
} from "../../src/schema/index.js";

export const NOW = "2026-11-22T00:00:00Z";
export const LATER = "2026-11-23T00:00:00Z";
export const OBSERVED = "2026-11-21T00:00:00Z";

export const PRICING_ID = "0b6d8a4e-5f6a-4c3e-9a1b-2c3d4e5f6a7b";
export const LIFECYCLE_ID = "1c7e9b5f-6a7b-4d4f-8b2c-3d4e5f6a7b8c";
export const COMMUNITY_ID = "2d8f0c6a-7b8c-4e5a-ac3d-4e5f6a7b8c9d";

export const PRICING_URL = "https://platform.openai.com/docs/pricing";
export const LIFECYCLE_URL = "https://platform.openai.com/docs/deprecations";
export const COMMUNITY_URL =
  "https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json";

export function source(kind: "pricing" | "lifecycle" | "community"): SourceDefinition {
  const base = { provider_id: "openai", format: "html" as const, allowed_hosts: [], offline_capture: true };
  if (kind === "pricing")
    return {
      ...base,
      source_id: PRICING_ID,
      name: "pricing",
      url: PRICING_URL,
      source_type: "official_pricing",
      parser: "openai-pricing",
    };
  if (kind === "lifecycle")
    return {
      ...base,
      source_id: LIFECYCLE_ID,
      name: "deprecations",
      url: LIFECYCLE_URL,
      source_type: "official_lifecycle",
      parser: "openai-deprecations",
    };
  return {
    ...base,
    source_id: COMMUNITY_ID,
    name: "litellm",
    url: COMMUNITY_URL,
    source_type: "community_catalog",
    format: "json",
    parser: "litellm",
  };
}

export function evidence(src: SourceDefinition, observedAt = OBSERVED): Evidence {
  return {
    source_url: src.url,
    source_type: src.source_type,
    observed_at: observedAt,
    verification_status: src.source_type === "community_catalog" ? "community_reported" : "official_declared",
  };
}

/** Prices in dollars per million tokens, converted to integer micro-USD. */
export function rateCard(
  src: SourceDefinition,
  input: number,
  cached: number | null,
  output: number | null,
  observedAt = OBSERVED,
): RateCard {
  const micro = (usd: number) => Math.round(usd * 1_000_000);
  return {
    currency: "USD",
    unit: "million_tokens",
    input_micro_usd: micro(input),
    cached_input_micro_usd: cached === null ? null : micro(cached),
    output_micro_usd: output === null ? null : micro(output),
    source_url: src.url,
    observed_at: observedAt,
  };
}

export function depId(
  providerModelId: string,
  mode = "standard",
  region = "global",
  provider = "openai",
  surface = "api",
): string {
  return deploymentId({
    provider_id: provider,
    provider_model_id: providerModelId,
    api_surface: surface,
    mode,
    region,
  });
}

export function fact(
  src: SourceDefinition,
  providerModelId: string,
  fields: Partial<DeploymentFact> = {},
  observedAt = OBSERVED,
): DeploymentFact {
  const mode = fields.mode ?? "standard";
  const region = fields.region ?? "global";
  const provider = fields.provider_id ?? "openai";
  const surface = fields.api_surface ?? "api";
  return {
    id: depId(providerModelId, mode, region, provider, surface),
    model_id: `openai/${providerModelId}`,
    provider_id: provider,
    provider_model_id: providerModelId,
    api_surface: surface,
    mode,
    region,
    evidence: evidence(src, observedAt),
    ...fields,
  };
}

export function scheduled(
  date: string,
  dateType: LifecycleMilestone["date_type"] = "on",
): LifecycleMilestone {
  return { state: "scheduled", date, precision: "day", date_type: dateType, evidence: [] };
}

export function notAnnounced(): LifecycleMilestone {
  return { state: "not_announced", date: null, precision: "unknown", date_type: "unknown", evidence: [] };
}

export function assertion(
  src: SourceDefinition,
  providerModelId: string,
  fields: Partial<LifecycleAssertion> = {},
  observedAt = OBSERVED,
): LifecycleAssertion {
  return {
    scope: "deployment",
    provider_id: "openai",
    target: { provider_model_id: providerModelId },
    evidence: evidence(src, observedAt),
    ...fields,
  };
}

export function state(src: SourceDefinition, checkedAt = NOW, status: "ok" | "failed" = "ok"): SourceState {
  return {
    source_id: src.source_id,
    provider_id: src.provider_id,
    source_url: src.url,
    status,
    http_status: status === "ok" ? 200 : 503,
    raw_sha256: status === "ok" ? "a".repeat(64) : null,
    monitored_sha256: status === "ok" ? "b".repeat(64) : null,
    checked_at: checkedAt,
    last_changed_at: OBSERVED,
    last_ok_at: status === "ok" ? checkedAt : OBSERVED,
    content_observed_at: OBSERVED,
    error: status === "ok" ? null : "HTTP 503",
  };
}

export function sourceEvent(
  src: SourceDefinition,
  type: SourceEvent["event_type"],
  detectedAt: string,
  id: string,
): SourceEvent {
  return {
    id,
    event_type: type,
    provider_id: src.provider_id,
    source_id: src.source_id,
    source_url: src.url,
    detected_at: detectedAt,
    previous_sha256: "b".repeat(64),
    current_sha256: type === "lifecycle.source_failed" ? null : "c".repeat(64),
    ...(type === "lifecycle.source_failed" ? { error: "HTTP 503" } : {}),
  };
}

export interface World {
  pricing: DeploymentFact[];
  lifecycleFacts: DeploymentFact[];
  lifecycle: LifecycleAssertion[];
  community: DeploymentFact[];
}

/** The standard small world: four OpenAI deployments, one deprecated with a replacement. */
export function standardWorld(): World {
  const pricing = source("pricing");
  const lifecycle = source("lifecycle");
  const community = source("community");
  return {
    pricing: [
      fact(pricing, "gpt-4o", { display_name: "GPT-4o", rate_card: rateCard(pricing, 2.5, 1.25, 10) }),
      fact(pricing, "gpt-4o", { mode: "batch", rate_card: rateCard(pricing, 1.25, null, 5) }),
      fact(pricing, "gpt-4.1", { rate_card: rateCard(pricing, 2, 0.5, 8), context_tokens: 1_047_576 }),
      fact(pricing, "gpt-4-turbo", { rate_card: rateCard(pricing, 10, null, 30) }),
    ],
    lifecycleFacts: [fact(lifecycle, "gpt-4-turbo"), fact(lifecycle, "gpt-4o")],
    lifecycle: [
      assertion(lifecycle, "gpt-4-turbo", {
        status: "deprecated",
        announced_at: "2026-06-01T00:00:00Z",
        deprecation: scheduled("2026-06-01"),
        end_of_life: scheduled("2027-01-15"),
        replacements: ["gpt-4.1"],
      }),
      assertion(lifecycle, "gpt-4o", {
        status: "available",
        deprecation: notAnnounced(),
        end_of_life: notAnnounced(),
      }),
    ],
    community: [
      fact(community, "gpt-4o", {
        rate_card: rateCard(community, 2.5, 1.25, 10),
        context_tokens: 128_000,
        max_output_tokens: 16_384,
        capabilities: { tool_calling: { status: "supported" } },
      }),
      fact(community, "gpt-4-turbo", {
        rate_card: rateCard(community, 10, null, 30),
        context_tokens: 128_000,
      }),
    ],
  };
}

export interface InputOptions {
  world?: World;
  now?: string;
  failed?: Array<"pricing" | "lifecycle" | "community">;
  newEvents?: SourceEvent[];
  reverse?: boolean;
}

export function contributionsFor(
  world: World,
  failed: ReadonlyArray<string> = [],
  now = NOW,
): {
  contributions: SourceContribution[];
  states: SourceState[];
} {
  const entries: Array<
    [kind: "pricing" | "lifecycle" | "community", DeploymentFact[], LifecycleAssertion[]]
  > = [
    ["pricing", world.pricing, []],
    ["lifecycle", world.lifecycleFacts, world.lifecycle],
    ["community", world.community, []],
  ];
  const contributions: SourceContribution[] = [];
  const states: SourceState[] = [];
  for (const [kind, deployments, lifecycle] of entries) {
    const src = source(kind);
    const isFailed = failed.includes(kind);
    contributions.push({
      source: src,
      output: isFailed ? null : { deployments, lifecycle, skipped: [] },
      failed: isFailed,
      observedAt: isFailed ? null : OBSERVED,
    });
    states.push(state(src, now, isFailed ? "failed" : "ok"));
  }
  return { contributions, states };
}

export function releaseInput(snapshotsDir: string, options: InputOptions = {}): ReleaseInput {
  const now = options.now ?? NOW;
  const { contributions, states } = contributionsFor(options.world ?? standardWorld(), options.failed, now);
  return {
    snapshotsDir,
    now,
    contributions: options.reverse ? [...contributions].reverse() : contributions,
    states: options.reverse ? [...states].reverse() : states,
    newEvents: options.newEvents ?? [],
  };
}

/** The merged catalog of a world, without DuckDB or disk: the base the check tests mutate. */
export function mergedCatalog(world: World = standardWorld(), now = NOW): CatalogContent {
  const { contributions, states } = contributionsFor(world, [], now);
  const { facts } = gatherFacts(contributions, null);
  const merged = mergeCatalog({ now, facts, states, previousCores: new Map() });
  return { deployments: merged.deployments, lifecycle: merged.lifecycle, events: [], sources: states };
}

export async function tempSnapshots(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "release-test-"));
  return { dir: join(dir, "snapshots"), cleanup: () => rm(dir, { recursive: true, force: true }) };
}
