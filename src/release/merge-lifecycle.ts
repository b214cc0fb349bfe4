/**
 * Merge steps for lifecycles: pick each lifecycle field from the best assertion that speaks
 * about it, derive the status (the rule table of ./status.ts at the build's day), the coverage
 * from the source states, and when the lifecycle last changed against the previous release.
 * Pure functions.
 */
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import {
  type Evidence,
  type Lifecycle,
  type LifecycleCoverage,
  type LifecycleMilestone,
  type LifecycleStatus,
  type SourceState,
  UNKNOWN_MILESTONE,
} from "../schema/index.js";
import { announcedFromFirstCopies, type FirstAnnouncements, firstAnnouncement } from "./announcements.js";
import type { SourceFacts } from "./facts.js";
import { lifecycleCoreText, type PreviousCore } from "./lifecycle-cores.js";
import type { RankedAssertion, RankedFact } from "./merge-candidates.js";
import { lifecycleCoverage } from "./shared-values.js";
import { deriveStatus } from "./status.js";

/** A lifecycle without its coverage and last_changed_at: what the assertions decide. */
export type LifecycleCore = Omit<Lifecycle, "coverage" | "last_changed_at">;

export interface PickedLifecycle {
  /** The status declared in words by the best assertion that declares one. */
  status: LifecycleStatus | null;
  statusFrom: RankedAssertion | null;
  announced_at: string | null;
  deprecation: LifecycleMilestone;
  deprecationStatus: "legacy" | "deprecated" | undefined;
  extendedAccess: LifecycleMilestone | undefined;
  end_of_life: LifecycleMilestone;
  replacements: { ids: string[]; from: RankedAssertion } | null;
}

const LISTING_SOURCE_TYPES = new Set(["official_pricing", "official_models_api"]);

export function uniqueSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodePoints);
}

function sortedEvidence(items: Evidence[]): Evidence[] {
  const byKey = new Map(items.map((e) => [canonicalJson(e), e]));
  return [...byKey].sort(([a], [b]) => compareCodePoints(a, b)).map(([, evidence]) => evidence);
}

function milestoneWithEvidence(
  milestone: LifecycleMilestone,
  evidence: Evidence,
  firstCopy?: Evidence,
): LifecycleMilestone {
  return {
    state: milestone.state,
    date: milestone.date,
    precision: milestone.precision,
    date_type: milestone.date_type,
    evidence: sortedEvidence([...milestone.evidence, evidence, ...(firstCopy ? [firstCopy] : [])]),
  };
}

/** The first dated copy of the assertion's source stating its milestone, if any. */
function firstCopy(
  firsts: FirstAnnouncements,
  from: RankedAssertion | undefined,
  milestone: "deprecation" | "end_of_life",
): Evidence | undefined {
  return from ? firstAnnouncement(firsts, from.source.source_id, from.assertion, milestone) : undefined;
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

/**
 * Merge lifecycle: each field from the best-ranked assertion that speaks about it. A status
 * `unknown`, a milestone of state `unknown`, a null announced_at and an empty replacement list
 * are silence.
 */
export function pickLifecycle(
  ranked: readonly RankedAssertion[],
  firsts: FirstAnnouncements = new Map(),
): PickedLifecycle {
  const statusFrom =
    ranked.find((r) => r.assertion.status !== undefined && r.assertion.status !== "unknown") ?? null;
  const announced = ranked.find((r) => r.assertion.announced_at != null);
  const deprecationFrom = ranked.find(
    (r) => r.assertion.deprecation && r.assertion.deprecation.state !== "unknown",
  );
  const endOfLifeFrom = ranked.find(
    (r) => r.assertion.end_of_life && r.assertion.end_of_life.state !== "unknown",
  );
  const replacementsFrom = ranked.find((r) => (r.assertion.replacements?.length ?? 0) > 0);
  const extendedFrom = ranked.find(
    (r) => r.assertion.extended_access && r.assertion.extended_access.state !== "unknown",
  );
  // No source states an announcement date: the first dated copy of the source a milestone comes
  // from that states it (announcements.ts), whose evidence the milestone then also lists.
  const stated = announced?.assertion.announced_at ?? null;
  const deprecation = deprecationFrom?.assertion.deprecation;
  const endOfLife = endOfLifeFrom?.assertion.end_of_life;
  const firstCopies =
    stated === null
      ? [firstCopy(firsts, deprecationFrom, "deprecation"), firstCopy(firsts, endOfLifeFrom, "end_of_life")]
      : [];
  const fromCopies = announcedFromFirstCopies(firstCopies, [deprecation, endOfLife].filter(isDefined));
  const [deprecationFirst, endOfLifeFirst] = fromCopies === null ? [] : firstCopies;
  // a milestone nothing dates is UNKNOWN_MILESTONE: one frozen value shared by every lifecycle
  return {
    status: statusFrom?.assertion.status ?? null,
    statusFrom,
    announced_at: stated ?? fromCopies,
    deprecation:
      deprecationFrom && deprecation
        ? milestoneWithEvidence(deprecation, deprecationFrom.assertion.evidence, deprecationFirst)
        : UNKNOWN_MILESTONE,
    deprecationStatus: deprecationFrom?.assertion.deprecation_status,
    extendedAccess: extendedFrom?.assertion.extended_access,
    end_of_life:
      endOfLifeFrom && endOfLife
        ? milestoneWithEvidence(endOfLife, endOfLifeFrom.assertion.evidence, endOfLifeFirst)
        : UNKNOWN_MILESTONE,
    replacements:
      replacementsFrom?.assertion.replacements !== undefined
        ? { ids: replacementsFrom.assertion.replacements, from: replacementsFrom }
        : null,
  };
}

/**
 * Derive a deployment's status: the status declared by the best lifecycle assertion (else by its
 * best deployment fact), the picked milestones, and whether an official pricing or models source
 * lists it in this build.
 */
export function deploymentStatus(
  picked: PickedLifecycle,
  ranked: readonly RankedFact[],
  today: string,
  modelListing?: ModelListing,
): LifecycleStatus {
  const factStatus = ranked.find((r) => r.fact.status !== undefined && r.fact.status !== "unknown")?.fact
    .status;
  const listedThisBuild = ranked.some(
    (r) => LISTING_SOURCE_TYPES.has(r.source.source_type) && !r.source.carried_forward,
  );
  return deriveStatus({
    today,
    declared: picked.status ?? factStatus ?? modelListing?.declared ?? null,
    deprecation: picked.deprecation,
    end_of_life: picked.end_of_life,
    deprecationStatus: picked.deprecationStatus,
    extendedAccess: picked.extendedAccess,
    listed: listedThisBuild || modelListing !== undefined,
  }).status;
}

/**
 * What an official current listing says of a provider model: it names the model (listed) and,
 * where it declares one in words, its status (available, preview or legacy).
 */
export interface ModelListing {
  declared: "available" | "preview" | "legacy" | null;
}

const LISTED_STATUSES = new Set(["available", "preview", "legacy"]);

/** An official source of this build that lists current models: not carried forward, not archived, not a lifecycle page. */
function isCurrentListing(source: SourceFacts, isOfficial: (source: SourceFacts) => boolean): boolean {
  return (
    isOfficial(source) &&
    !source.carried_forward &&
    source.archived !== true &&
    source.source_type !== "official_lifecycle"
  );
}

/**
 * provider|provider_model_id -> the model's official listing (docs/provenance.md "Status from
 * official listings"): every provider model that an official source of this build (not carried
 * forward, not archived, not a lifecycle source: those list shut-down models too) names in a
 * deployment fact or states a model fact about (official_declared: a fact a page only implies
 * for another provider's id does not list it there). Its deployments that no source of their own lists take the status the
 * listing declares (the first of available, preview, legacy that one of its official facts
 * states), or `available` by the `listed` rule; milestones still come first in the rule table.
 */
export function officialModelListings(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): Map<string, ModelListing> {
  const listings = new Map<string, ModelListing>();
  const note = (key: string, status: string | undefined) => {
    const known = listings.get(key) ?? { declared: null };
    if (status !== undefined && LISTED_STATUSES.has(status) && known.declared === null)
      known.declared = status as ModelListing["declared"];
    listings.set(key, known);
  };
  for (const source of sources) {
    if (!isCurrentListing(source, isOfficial)) continue;
    for (const d of source.output.deployments) note(`${d.provider_id}|${d.provider_model_id}`, d.status);
    for (const f of source.output.model_facts ?? [])
      if (f.evidence.verification_status === "official_declared")
        note(`${f.provider_id}|${f.provider_model_id}`, f.status);
  }
  return listings;
}

/** Derive a provider's or model's status from its own assertions (it is never "listed"). */
export function scopeStatus(picked: PickedLifecycle, today: string): LifecycleStatus {
  return deriveStatus({
    today,
    declared: picked.status,
    deprecation: picked.deprecation,
    end_of_life: picked.end_of_life,
    deprecationStatus: picked.deprecationStatus,
    extendedAccess: picked.extendedAccess,
    listed: false,
  }).status;
}

/**
 * Coverage of a lifecycle from the sources behind it: `monitored` when every one was checked
 * successfully this build and one is an official lifecycle source, `partial` when one failed,
 * was carried forward or has no state, or no official lifecycle source is among them,
 * `unmonitored` when none was checked.
 */
export function coverageFor(
  sourceIds: Iterable<string>,
  stateById: ReadonlyMap<string, SourceState>,
  sourceById: ReadonlyMap<string, SourceFacts>,
): LifecycleCoverage {
  const ids = uniqueSorted(sourceIds);
  let lastChecked: string | null = null;
  let checked = 0;
  let degraded = false;
  let officialLifecycle = false;
  for (const id of ids) {
    const state = stateById.get(id);
    const source = sourceById.get(id);
    if (source?.source_type === "official_lifecycle") officialLifecycle = true;
    if (source?.carried_forward) degraded = true;
    if (!state) {
      degraded = true;
      continue;
    }
    checked++;
    if (state.status === "failed") degraded = true;
    if (lastChecked === null || Date.parse(state.checked_at) > Date.parse(lastChecked))
      lastChecked = state.checked_at;
  }
  const status = checked === 0 ? "unmonitored" : degraded || !officialLifecycle ? "partial" : "monitored";
  return lifecycleCoverage(status, lastChecked, ids);
}

function isAllUnknown(lifecycle: LifecycleCore): boolean {
  return (
    lifecycle.status === "unknown" &&
    lifecycle.announced_at === null &&
    lifecycle.deprecation.state === "unknown" &&
    lifecycle.end_of_life.state === "unknown" &&
    lifecycle.replacement_ids.length === 0
  );
}

/**
 * When the lifecycle last changed: null while it says nothing; the previous release's time when
 * its core is unchanged since then; otherwise this build's `now`.
 */
export function lastChangedAt(
  previous: PreviousCore | undefined,
  core: LifecycleCore,
  now: string,
): string | null {
  if (isAllUnknown(core)) return null;
  if (previous && previous.core === lifecycleCoreText(core)) return previous.last_changed_at ?? now;
  return now;
}
