/**
 * The typed values the release stage takes from the build orchestrator and hands back:
 * source contributions in, the outcome (checks, report, diff) out.
 */

import type {
  CorrectionOutcome,
  ModelIdentityReport,
  SourceEvent,
  SourceState,
  VerificationStatus,
} from "../schema/index.js";
import type { LifecycleObservation } from "./announcements.js";
import type { PublishHook } from "./artifact.js";
import type { SourceContribution } from "./contribution.js";
import type { PreviousRelease } from "./previous-release.js";
import type { PriceObservation } from "./price-history.js";

export type { SourceContribution };

export interface ReleaseThresholds {
  /** A price that moved by more than this fraction since the previous release is a warning (default 0.5). */
  priceChangeRatio?: number;
  /** A deprecation / end-of-life date that moved by more than this many days is a warning (default 30). */
  dateMoveDays?: number;
}

export interface ReleaseInput {
  snapshotsDir: string;
  /** ISO instant, the build clock (--now). */
  now: string;
  contributions: SourceContribution[];
  /** This build's source states. */
  states: SourceState[];
  /** Events detected by this build. */
  newEvents: SourceEvent[];
  thresholds?: ReleaseThresholds;
  /** Crash injection for tests. */
  hook?: PublishHook;
  /**
   * The latest release as `readPreviousRelease` returned it, when the caller has read it
   * already (null: there is none); absent, runRelease reads it. runRelease only reads it.
   */
  previous?: PreviousRelease | null;
  /** What became of each reviewed upstream correction in this build (listed in the report). */
  corrections?: CorrectionOutcome[];
  /** The prices the sources' dated captures show (price-history.ts); absent: none. */
  datedPrices?: PriceObservation[];
  /** The lifecycle milestones the sources' dated captures state (announcements.ts); absent: none. */
  datedLifecycle?: LifecycleObservation[];
}

export type CheckSeverity = "error" | "warning";

/** One violating row of a check: plain JSON values (bigints are converted). */
export type CheckRow = Record<string, unknown>;

export interface CheckResult {
  name: string;
  severity: CheckSeverity;
  message: string;
  /** Number of violating rows (rows may list fewer). */
  violations: number;
  /** The first violating rows (at most 50), in a deterministic order. */
  rows: CheckRow[];
}

/** An official and a community source disagree about a fact; the official value won. */
export interface SourceConflict {
  resource_id: string;
  provider_id: string;
  field: string;
  official: { source_id: string; value: string | number };
  community: { source_id: string; value: string | number };
}

/**
 * Community datasets that disagree about a deployment's field where no official source gives
 * it (a rate card's price, a limit, a capability's status): the value the merge kept (the
 * corroborated one where two datasets agree, else the first in precedence) and another
 * dataset's (precedence.ts corroborate).
 */
export interface CommunityDisagreement {
  resource_id: string;
  provider_id: string;
  field: string;
  kept: { source_id: string; value: string | number | null; observed_at: string };
  other: { source_id: string; value: string | number | null; observed_at: string };
}

/**
 * Official model facts about the same provider model that disagree on a limit
 * (`context_tokens`, `max_output_tokens`) or a capability (`capabilities.<name>`, its status):
 * the value the merge kept and another official source's value (model-facts.ts).
 */
export interface OfficialDisagreement {
  provider_id: string;
  provider_model_id: string;
  /**
   * Present when the kept value is an official fact about this deployment and the other an
   * official fact about its provider model; absent when both are model facts.
   */
  deployment_id?: string;
  /** The deployment modes both facts name (a fact for some modes only); absent = every mode. */
  modes?: string[];
  field: string;
  kept: { source_id: string; value: string | number | null; observed_at: string };
  other: { source_id: string; value: string | number | null; observed_at: string };
}

/**
 * Why a replacement was dropped: it matches no model (`no_match`), it names the resource's own
 * model (`self`), or a name without its version has several current versions (`ambiguous`).
 */
export type UnresolvedReason = "no_match" | "self" | "ambiguous";

export interface UnresolvedReplacement {
  resource_type: "provider" | "model" | "deployment";
  resource_id: string;
  replacement: string;
  reason: UnresolvedReason;
  source_id: string;
}

export interface CoverageCounts {
  monitored: number;
  partial: number;
  unmonitored: number;
}

export interface ProviderReport {
  provider_id: string;
  deployments: number;
  priced: number;
  scheduled_end_of_life: number;
  coverage: CoverageCounts;
  /** Absent in reports of releases published before it was stored. */
  official_specs?: OfficialSpecCounts;
  /** Absent in reports of releases published before it was stored. */
  verification?: VerificationCounts;
}

/** A community deployment fact the listing gate dropped (listing-gate.ts). */
export interface UnlistedOffering {
  source_id: string;
  provider_id: string;
  deployment_id: string;
  /** The URL of the official list or page that excludes it. */
  excluded_by: string;
  reason: string;
}

/** A community rate card whose zero prices became unknown (listing-gate.ts). */
export interface CommunityZeroPrice {
  source_id: string;
  provider_id: string;
  deployment_id: string;
  /** The price fields that were 0 (an input price of 0 drops the whole card). */
  fields: string[];
}

/** A community context window another community dataset states is the input limit (input-limits.ts). */
export interface InputLimitContext {
  source_id: string;
  provider_id: string;
  deployment_id: string;
  /** The value the source gave as the context window. */
  context_tokens: number;
  /** The community source that states this value as the model's input limit. */
  input_limit_source_id: string;
}

/** A community price of a moving alias (`…-latest`) that no official source resolves (listing-gate.ts). */
export interface StaleAliasPrice {
  source_id: string;
  provider_id: string;
  deployment_id: string;
}

/** How many facts of each verification level (docs/provenance.md). */
export type LevelCounts = Record<VerificationStatus, number>;

/**
 * Facts by verification level: listings (one per deployment), prices (one per rate card),
 * limits (each known context window and max output) and capabilities (each stated entry).
 */
export interface VerificationCounts {
  listings: LevelCounts;
  prices: LevelCounts;
  limits: LevelCounts;
  capabilities: LevelCounts;
}

/**
 * The deployments not retired, and how many of them have each spec from an official source:
 * a context window or a max output an official fact states (not null), and at least one
 * capability whose verification status is official_*. What LiteLLM alone gives does not count.
 */
export interface OfficialSpecCounts {
  non_retired: number;
  context_tokens: number;
  max_output_tokens: number;
  capability: number;
}

export interface ReportIssue {
  check: string;
  message: string;
  count: number;
  examples: CheckRow[];
}

export interface CarriedForwardSource {
  source_id: string;
  provider_id: string;
  source_url: string;
  observed_at: string | null;
  deployments: number;
  lifecycle_assertions: number;
}

export interface BuildReport {
  now: string;
  previous_release_id: string | null;
  providers: ProviderReport[];
  totals: {
    deployments: number;
    priced: number;
    scheduled_end_of_life: number;
    lifecycle_records: number;
    events: number;
    sources: number;
    coverage: CoverageCounts;
    official_specs?: OfficialSpecCounts;
    verification?: VerificationCounts;
  };
  errors: ReportIssue[];
  warnings: ReportIssue[];
  conflicts: SourceConflict[];
  /** Official model facts that contradict each other (declared over inferred, then the newest won). */
  official_disagreements: OfficialDisagreement[];
  /** Community deployment facts an official availability list excludes; absent in older reports. */
  unlisted_offerings?: UnlistedOffering[];
  /** Community zero prices read as unknown; absent in older reports. */
  community_zero_prices?: CommunityZeroPrice[];
  input_limit_contexts?: InputLimitContext[];
  /** Community prices of unresolved moving aliases, dropped; absent in older reports. */
  stale_alias_prices?: StaleAliasPrice[];
  /** Names official sources use differently for one model: folded, or kept apart (model-identity-fold.ts). */
  model_identity?: ModelIdentityReport;
  /** Community datasets that disagree where no official source speaks (the kept value and the other). */
  community_disagreements?: CommunityDisagreement[];
  carried_forward: CarriedForwardSource[];
  /** Failed sources that had no earlier facts to carry forward. */
  failed_without_facts: Array<{ source_id: string; provider_id: string; source_url: string }>;
  /** Every reviewed upstream correction of the parsed sources and what became of it. */
  corrections: CorrectionOutcome[];
  /** What "unchanged" compares (fingerprint.ts), stored so the next build need not recompute it. */
  content_fingerprint?: string;
}

import type { LifecycleChangeKind, RateComponent } from "../schema/index.js";

export type PriceComponent = RateComponent;

export interface DeploymentRef {
  id: string;
  provider_id: string;
  model_id: string;
  status: string;
}

export interface PriceChange {
  deployment_id: string;
  provider_id: string;
  component: PriceComponent;
  /** Integer micro-USD per million tokens; null = no such price. */
  old: number | null;
  new: number | null;
  /** (new - old) / old in percent, two decimals; null when old or new is null or old is 0. */
  percent: number | null;
}

export interface LimitChange {
  deployment_id: string;
  provider_id: string;
  field: "context_tokens" | "max_output_tokens";
  old: number | null;
  new: number | null;
}

export interface CapabilityChange {
  deployment_id: string;
  provider_id: string;
  capability: string;
  old: string | null;
  new: string | null;
}

/** A deployment that stayed but is now attributed to another canonical model. */
export interface ModelChange {
  deployment_id: string;
  provider_id: string;
  old: string;
  new: string;
}

export interface StatusChange {
  deployment_id: string;
  provider_id: string;
  old: string;
  new: string;
}

/** The kinds of a lifecycle change: declared once, with the diff's schema (src/schema/history.ts). */
export type { LifecycleChangeKind };

export interface LifecycleChange {
  resource_type: "provider" | "model" | "deployment";
  resource_id: string;
  /** Provider of the record; null for model records (a model spans providers). */
  provider_id: string | null;
  kind: LifecycleChangeKind;
  /** Dates (YYYY-MM-DD) for milestone changes, replacement ids for replacement changes. */
  old: string | null;
  new: string | null;
  /** new - old in days when both dates are known. */
  days: number | null;
}

export interface SourceEventChange {
  event_id: string;
  event_type: string;
  provider_id: string;
  source_id: string;
  source_url: string;
  detected_at: string;
  /** Monitored-content hashes before and after (null where none exists). */
  previous_sha256: string | null;
  current_sha256: string | null;
  /** Why the source failed (source_failed only). */
  error: string | null;
}

export interface ReleaseDiff {
  /** null when there is no earlier release. */
  from_release_id: string | null;
  /** null inside a release's own diff.json (the release that holds it). */
  to_release_id: string | null;
  counts: {
    deployments_added: number;
    deployments_removed: number;
    price_changes: number;
    price_increases: number;
    limit_changes: number;
    capability_changes: number;
    model_changes: number;
    status_changes: number;
    lifecycle_changes: number;
    end_of_life_earlier: number;
    source_events: number;
  };
  deployments_added: DeploymentRef[];
  deployments_removed: DeploymentRef[];
  price_changes: PriceChange[];
  limit_changes: LimitChange[];
  capability_changes: CapabilityChange[];
  model_changes: ModelChange[];
  status_changes: StatusChange[];
  lifecycle_changes: LifecycleChange[];
  source_events: SourceEventChange[];
}

export interface ReleaseOutcome {
  status: "published" | "unchanged" | "validation_failed";
  /** The published release; for "unchanged" the latest release (which serves the same content); null when validation failed. */
  releaseId: string | null;
  previousReleaseId: string | null;
  checks: CheckResult[];
  report: BuildReport;
  diff: ReleaseDiff | null;
  markdownDiff: string | null;
}
