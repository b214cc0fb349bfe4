/**
 * Announcement dates from dated copies (docs/price-history.md, "Announcement dates"). Pure.
 *
 * A lifecycle whose sources state no announcement date, and whose deprecation or end-of-life
 * milestone comes from a source with dated copies, takes as `announced_at` the date of the first
 * dated copy of that source stating the milestone (scheduled, with a date). The announcement was
 * made on or before that day, and after the copy before it, which did not state it: so a copy is
 * counted only when an earlier dated copy of the same source exists and does not state the
 * milestone for that resource. A milestone stated since the source's first dated copy dates
 * nothing (it may have been announced long before), nor does a copy first stating it after a
 * milestone's date (the copy recorded it late).
 */
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import type { Evidence, LifecycleAssertion, LifecycleMilestone } from "../schema/index.js";

/** One dated copy of one source: the milestones it states (scheduled), by milestone and resource. */
export interface LifecycleObservation {
  source_id: string;
  observed_at: string;
  /** By milestone and lifecycleKey: the evidence of the assertion stating it (dated by this copy). */
  stated: ReadonlyMap<string, Evidence>;
}

/** Source id -> milestone and lifecycleKey -> the evidence of the first dated copy stating it. */
export type FirstAnnouncements = ReadonlyMap<string, ReadonlyMap<string, Evidence>>;

/**
 * The resource an assertion is about, as its parser targets it: the scope, the provider and the
 * model (model scope) or the target (deployment scope). Two copies of a source asserting about
 * the same resource give the same key.
 */
export function lifecycleKey(assertion: LifecycleAssertion): string {
  return canonicalJson({
    scope: assertion.scope,
    provider_id: assertion.provider_id,
    model_id: assertion.scope === "model" ? (assertion.model_id ?? null) : null,
    target: assertion.target ?? null,
  });
}

export type Milestone = "deprecation" | "end_of_life";
const MILESTONES: readonly Milestone[] = ["deprecation", "end_of_life"];

/** Whether an assertion states this milestone, scheduled with a date. */
export function statesMilestone(assertion: LifecycleAssertion, milestone: Milestone): boolean {
  const stated = assertion[milestone];
  return stated?.state === "scheduled" && stated.date !== null;
}

/** The key of one milestone of one resource. */
function milestoneKey(assertion: LifecycleAssertion, milestone: Milestone): string {
  return `${milestone} ${lifecycleKey(assertion)}`;
}

/**
 * The milestones (scheduled, with a date) a copy's lifecycle assertions state, each with the
 * evidence of the assertion stating it dated by the copy.
 */
export function statedMilestones(
  assertions: readonly LifecycleAssertion[],
  observedAt: string,
): Map<string, Evidence> {
  const stated = new Map<string, Evidence>();
  for (const assertion of assertions)
    for (const milestone of MILESTONES) {
      const key = milestoneKey(assertion, milestone);
      if (statesMilestone(assertion, milestone) && !stated.has(key))
        stated.set(key, { ...assertion.evidence, observed_at: observedAt });
    }
  return stated;
}

/**
 * Per source, per milestone of a resource: the first dated copy stating it, where an earlier copy
 * of the source did not. Copies are taken by observed_at (ties by their order given).
 */
export function firstAnnouncements(observations: readonly LifecycleObservation[]): FirstAnnouncements {
  const bySource = new Map<string, LifecycleObservation[]>();
  for (const observation of observations) {
    const list = bySource.get(observation.source_id) ?? [];
    list.push(observation);
    bySource.set(observation.source_id, list);
  }
  const result = new Map<string, Map<string, Evidence>>();
  for (const sourceId of [...bySource.keys()].sort(compareCodePoints)) {
    const copies = [...(bySource.get(sourceId) ?? [])].sort(
      (a, b) => Date.parse(a.observed_at) - Date.parse(b.observed_at),
    );
    const seen = new Set<string>();
    const first = new Map<string, Evidence>();
    copies.forEach((copy, i) => {
      for (const [key, evidence] of copy.stated) {
        if (seen.has(key)) continue;
        seen.add(key);
        if (i > 0) first.set(key, evidence);
      }
    });
    if (first.size > 0) result.set(sourceId, first);
  }
  return result;
}

/** The first dated copy of this source stating this assertion's milestone, if the dated copies show one. */
export function firstAnnouncement(
  firsts: FirstAnnouncements,
  sourceId: string,
  assertion: LifecycleAssertion,
  milestone: Milestone,
): Evidence | undefined {
  if (!statesMilestone(assertion, milestone)) return undefined;
  return firsts.get(sourceId)?.get(milestoneKey(assertion, milestone));
}

/**
 * The announced_at the first copies give a lifecycle: the earliest of them, unless its day is
 * after a scheduled milestone of the lifecycle (the last day its date can mean): a copy first
 * stating a milestone that had already passed recorded it late and dates no announcement.
 */
export function announcedFromFirstCopies(
  firstCopies: readonly (Evidence | undefined)[],
  milestones: readonly LifecycleMilestone[],
): string | null {
  const earliest = firstCopies
    .filter((e): e is Evidence => e !== undefined)
    .map((e) => e.observed_at)
    .sort((a, b) => Date.parse(a) - Date.parse(b))[0];
  if (earliest === undefined) return null;
  const day = earliest.slice(0, 10);
  const passed = milestones.some(
    (m) => m.state === "scheduled" && m.date !== null && day > lastDayOf(m.date, m.precision),
  );
  return passed ? null : earliest;
}

/** The last day a milestone date of this precision can mean (a month's date is its first day). */
export function lastDayOf(date: string, precision: LifecycleMilestone["precision"]): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const endOfMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  if (precision === "month") return endOfMonth(year, month);
  if (precision === "quarter") return endOfMonth(year, Math.ceil(month / 3) * 3);
  if (precision === "year") return `${year}-12-31`;
  return date;
}
