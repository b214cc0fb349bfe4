/**
 * Pure queries over a ServedRelease: each takes a validated query (defaults applied) and
 * returns the matching record positions in the response order plus the page envelope as
 * bytes, concatenated from the records' pre-serialized JSON.
 */

import type {
  LifecycleStatus,
  ListDeploymentsQuery,
  ListEventsQuery,
  ListLifecycleQuery,
  VerificationStatus,
} from "../schema/index.js";
import { meetsVerification } from "../schema/index.js";
import { sortDeployments } from "./browse.js";
import { type ServedRelease, supportsCapability } from "./catalog-index.js";
import { type PageResult, paginate } from "./page.js";

function smallest(lists: number[][]): number[] {
  let best = lists[0] as number[];
  for (const list of lists) if (list.length < best.length) best = list;
  return best;
}

const EMPTY: number[] = [];

/** A minimum keeps only known values at least that (docs/finding-deployments.md): unknown never passes. */
function atLeast(value: number | null | undefined, minimum: number | undefined): boolean {
  return minimum === undefined || (value !== null && value !== undefined && value >= minimum);
}

/** A price ceiling keeps only known prices at or under it: an unknown price is never cheap. */
function atMost(value: number | null | undefined, maximum: number | undefined): boolean {
  return maximum === undefined || (value !== null && value !== undefined && value <= maximum);
}

export function listDeployments(release: ServedRelease, query: ListDeploymentsQuery): PageResult {
  // Candidates come from the smallest exact-match index; every filter is then checked on
  // each candidate. Index lists hold positions in id order, so the result is in id order.
  const lists: number[][] = [release.allDeployments];
  if (query.provider !== undefined) lists.push(release.byProvider.get(query.provider) ?? EMPTY);
  if (query.model !== undefined) lists.push(release.byModel.get(query.model) ?? EMPTY);
  if (query.region !== undefined) lists.push(release.byRegion.get(query.region) ?? EMPTY);
  if (query.mode !== undefined) lists.push(release.byMode.get(query.mode) ?? EMPTY);
  for (const name of query.capability ?? []) lists.push(release.bySupportedCapability.get(name) ?? EMPTY);
  if (query.has_pricing !== undefined) lists.push(query.has_pricing ? release.priced : release.unpriced);
  if (query.max_input_price !== undefined || query.max_output_price !== undefined) lists.push(release.priced);
  const candidates = smallest(lists);

  // Free text: every whitespace-separated term must occur, case-insensitively.
  const terms = query.q === undefined ? [] : query.q.toLowerCase().split(/\s+/).filter(Boolean);
  const matches: number[] = [];
  const d = release.deploymentFields;
  for (const i of candidates) {
    if (query.provider !== undefined && d.provider_id[i] !== query.provider) continue;
    if (query.model !== undefined && d.model_id[i] !== query.model) continue;
    if (query.region !== undefined && d.region[i] !== query.region) continue;
    if (query.mode !== undefined && d.mode[i] !== query.mode) continue;
    if (query.capability !== undefined && !query.capability.every((name) => supportsCapability(d, i, name)))
      continue;
    if (!atLeast(d.context_tokens[i], query.min_context_tokens)) continue;
    if (
      query.min_max_output_tokens !== undefined &&
      !atLeast(release.maxOutputTokens[i], query.min_max_output_tokens)
    )
      continue;
    if (!atMost(d.input_micro_usd[i], query.max_input_price)) continue;
    if (!atMost(d.output_micro_usd[i], query.max_output_price)) continue;
    if (query.has_pricing !== undefined && (d.priced[i] === 1) !== query.has_pricing) continue;
    if (query.status !== undefined && !query.status.includes(d.status[i] as LifecycleStatus)) continue;
    if (
      query.verification !== undefined &&
      !meetsVerification(d.verification[i] as VerificationStatus, query.verification)
    )
      continue;
    if (terms.length > 0) {
      const text = release.deploymentSearch[i];
      if (text === undefined || !terms.every((t) => text.includes(t))) continue; // one text per deployment
    }
    matches.push(i);
  }
  return paginate(sortDeployments(release, matches, query.sort), query.limit, query.offset);
}

/**
 * A lifecycle date boundary compared with day-precision milestone dates: a date-time
 * boundary is reduced to its UTC calendar date, and both ends are inclusive.
 */
export function boundaryDate(boundary: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(boundary)) return boundary;
  return new Date(boundary).toISOString().slice(0, 10);
}

function withinDates(date: string | null, after: string | null, before: string | null): boolean {
  if (after === null && before === null) return true;
  // spec 4.4 rule 1: records with unknown dates are excluded by any date filter
  if (date === null) return false;
  if (after !== null && date < after) return false;
  if (before !== null && date > before) return false;
  return true;
}

export function listLifecycle(release: ServedRelease, query: ListLifecycleQuery): PageResult {
  const order = release.lifecycleOrders[query.sort][query.order];
  const depAfter = query.deprecation_after === undefined ? null : boundaryDate(query.deprecation_after);
  const depBefore = query.deprecation_before === undefined ? null : boundaryDate(query.deprecation_before);
  const eolAfter = query.end_of_life_after === undefined ? null : boundaryDate(query.end_of_life_after);
  const eolBefore = query.end_of_life_before === undefined ? null : boundaryDate(query.end_of_life_before);
  const matches: number[] = [];
  const r = release.lifecycleFields;
  for (const i of order) {
    if (query.resource_type !== undefined && r.resource_type[i] !== query.resource_type) continue;
    if (query.resource_id !== undefined && r.resource_id[i] !== query.resource_id) continue;
    if (query.provider !== undefined && r.provider_id[i] !== query.provider) continue;
    if (query.model !== undefined && r.model_id[i] !== query.model) continue;
    if (query.status !== undefined && r.status[i] !== query.status) continue;
    if (query.deprecation_state !== undefined && r.deprecation_state[i] !== query.deprecation_state) continue;
    if (query.end_of_life_state !== undefined && r.end_of_life_state[i] !== query.end_of_life_state) continue;
    if (query.coverage_status !== undefined && r.coverage_status[i] !== query.coverage_status) continue;
    // spec 4.4: include_unknown=false omits records whose status and both milestones are all unknown
    if (
      !query.include_unknown &&
      r.status[i] === "unknown" &&
      r.deprecation_state[i] === "unknown" &&
      r.end_of_life_state[i] === "unknown"
    )
      continue;
    if (!withinDates(r.deprecation_date[i] ?? null, depAfter, depBefore)) continue;
    if (!withinDates(r.end_of_life_date[i] ?? null, eolAfter, eolBefore)) continue;
    matches.push(i);
  }
  return paginate(matches, query.limit, query.offset);
}

const DAY_MS = 86_400_000;

/** since: a date means its first instant (00:00:00Z); both boundaries are inclusive. */
export function sinceInstant(boundary: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(boundary) ? Date.parse(`${boundary}T00:00:00Z`) : Date.parse(boundary);
}

/** until: a date means the whole UTC day (up to 23:59:59.999Z). */
export function untilInstant(boundary: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(boundary)
    ? Date.parse(`${boundary}T00:00:00Z`) + DAY_MS - 1
    : Date.parse(boundary);
}

/** First position whose time is >= t (events are sorted by detected_at). */
function lowerBound(times: Float64Array, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function listEvents(release: ServedRelease, query: ListEventsQuery): PageResult {
  const times = release.eventTimes;
  const start = query.since === undefined ? 0 : lowerBound(times, sinceInstant(query.since));
  const end = query.until === undefined ? times.length : lowerBound(times, untilInstant(query.until) + 1);
  const matches: number[] = [];
  for (let i = start; i < end; i++) {
    const e = release.events[i];
    if (!e) continue;
    if (query.provider !== undefined && e.provider_id !== query.provider) continue;
    if (query.source_id !== undefined && e.source_id !== query.source_id.toLowerCase()) continue;
    if (query.event_type !== undefined && e.event_type !== query.event_type) continue;
    matches.push(i);
  }
  return paginate(matches, query.limit, query.offset);
}
