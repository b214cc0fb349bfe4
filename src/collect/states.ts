/**
 * Source state and source events (pure). Each build compares what it learnt about every checked
 * source with the previous release's state:
 *
 * | previous            | now                 | events                                   |
 * |---------------------|---------------------|------------------------------------------|
 * | none                | ok                  | none (nothing to compare with)           |
 * | none                | failed              | source_failed (previous hash null)       |
 * | ok, same hash       | ok                  | none                                     |
 * | ok, other hash      | ok                  | source_changed                           |
 * | ok                  | failed              | source_failed                            |
 * | failed              | failed              | none (the failure was already announced) |
 * | failed              | ok                  | source_recovered, plus source_changed    |
 * |                     |                     | when the last good hash differs          |
 *
 * A failed source keeps its last good hashes, last_changed_at, last_ok_at and content_observed_at
 * (when the content behind them was seen upstream): the facts it last
 * gave are carried forward by the release stage. Sources not checked in a build (skipped) keep
 * their previous state unchanged. A source whose definition is gone (`defined`: every source id
 * the build's definitions name, checked or not) loses its state: nothing monitors it any more,
 * and the release reads no facts of it either. Event ids hash what identifies the event, so the
 * same build gives the same ids.
 */
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import { sha256Hex } from "../lib/hash.js";
import type { SourceDefinition, SourceEvent, SourceEventType, SourceState } from "../schema/index.js";
import type { CollectResult } from "./collect.js";

/** What one build concluded about one checked source (after parsing: a parse failure is a failure). */
export interface SourceOutcome {
  source: SourceDefinition;
  ok: boolean;
  httpStatus: number | null;
  rawSha256: string | null;
  monitoredSha256: string | null;
  /** When the parsed content was seen upstream (the capture's fetched_at); null when none was read. */
  observedAt: string | null;
  error: string | null;
}

export function deriveSourceStates(
  previous: readonly SourceState[],
  outcomes: readonly SourceOutcome[],
  now: string,
  defined?: ReadonlySet<string>,
): { states: SourceState[]; events: SourceEvent[] } {
  const byId = new Map(
    previous.filter((s) => defined === undefined || defined.has(s.source_id)).map((s) => [s.source_id, s]),
  );
  const events: SourceEvent[] = [];
  for (const outcome of outcomes) {
    const { source } = outcome;
    const before = byId.get(source.source_id);
    const event = (
      type: SourceEventType,
      previousSha: string | null,
      currentSha: string | null,
      error?: string,
    ) => {
      events.push({
        id: sourceEventId({
          type,
          source_id: source.source_id,
          detected_at: now,
          previous_sha256: previousSha,
          current_sha256: currentSha,
        }),
        event_type: type,
        provider_id: source.provider_id,
        source_id: source.source_id,
        source_url: source.url,
        detected_at: now,
        previous_sha256: previousSha,
        current_sha256: currentSha,
        ...(error === undefined ? {} : { error }),
      });
    };
    if (outcome.ok) {
      const current = outcome.monitoredSha256;
      const lastGood = before?.monitored_sha256 ?? null;
      const changed = lastGood !== null && current !== lastGood;
      if (before?.status === "failed") event("lifecycle.source_recovered", lastGood, current);
      if (changed) event("lifecycle.source_changed", lastGood, current);
      byId.set(source.source_id, {
        source_id: source.source_id,
        provider_id: source.provider_id,
        source_url: source.url,
        status: "ok",
        http_status: outcome.httpStatus,
        raw_sha256: outcome.rawSha256,
        monitored_sha256: current,
        checked_at: now,
        last_changed_at: !before || changed || lastGood === null ? now : before.last_changed_at,
        last_ok_at: now,
        content_observed_at: outcome.observedAt,
        error: null,
      });
    } else {
      const error = outcome.error ?? "failed";
      if (before?.status !== "failed")
        event("lifecycle.source_failed", before?.monitored_sha256 ?? null, null, error);
      byId.set(source.source_id, {
        source_id: source.source_id,
        provider_id: source.provider_id,
        source_url: source.url,
        status: "failed",
        http_status: outcome.httpStatus,
        raw_sha256: before?.raw_sha256 ?? null,
        monitored_sha256: before?.monitored_sha256 ?? null,
        checked_at: now,
        last_changed_at: before?.last_changed_at ?? null,
        last_ok_at: before?.last_ok_at ?? null,
        content_observed_at: before?.content_observed_at ?? null,
        error,
      });
    }
  }
  const states = [...byId.values()].sort((a, b) => compareCodePoints(a.source_id, b.source_id));
  events.sort((a, b) => compareCodePoints(a.detected_at, b.detected_at) || compareCodePoints(a.id, b.id));
  return { states, events };
}

/** `evt_` + the first 24 hex digits of the SHA-256 of the event's identifying fields. */
export function sourceEventId(identity: {
  type: SourceEventType;
  source_id: string;
  detected_at: string;
  previous_sha256: string | null;
  current_sha256: string | null;
}): string {
  return `evt_${sha256Hex(canonicalJson(identity)).slice(0, 24)}`;
}

/** How many checked (not skipped) sources failed. */
export interface FailureCount {
  failed: number;
  checked: number;
}

/**
 * True when more than `threshold` (a fraction, 0..1) of the checked sources failed. Accepts
 * - SourceOutcome[] (preferred: computed after parsing, so parse failures count),
 * - CollectResult[] (fetch failures only; skipped sources are not checked), or
 * - `{ failed, checked }` counted by the caller.
 * No checked source at all is not a refusal.
 */
export function refusesToPublish(
  input: readonly SourceOutcome[] | readonly CollectResult[] | FailureCount,
  threshold: number,
): boolean {
  const { failed, checked } = countFailures(input);
  return checked > 0 && failed / checked > threshold;
}

export function countFailures(
  input: readonly SourceOutcome[] | readonly CollectResult[] | FailureCount,
): FailureCount {
  if (!Array.isArray(input)) return input as FailureCount;
  let failed = 0;
  let checked = 0;
  for (const item of input as ReadonlyArray<SourceOutcome | CollectResult>) {
    if ("ok" in item) {
      checked += 1;
      if (!item.ok) failed += 1;
    } else if (item.status !== "skipped") {
      checked += 1;
      if (item.status === "failed") failed += 1;
    }
  }
  return { failed, checked };
}
