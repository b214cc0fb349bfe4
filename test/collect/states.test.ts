import { describe, expect, it } from "vitest";
import {
  type CollectResult,
  deriveSourceStates,
  refusesToPublish,
  type SourceOutcome,
  sourceEventId,
} from "../../src/collect/index.js";
import { SourceEvent, SourceState } from "../../src/schema/index.js";
import { definition } from "./fixtures.js";

const source = definition({ name: "pricing" });
const other = definition({ name: "lifecycle" });
const H1 = "1".repeat(64);
const H2 = "2".repeat(64);
const R1 = "a".repeat(64);
const R2 = "b".repeat(64);
const T0 = "2026-11-20T00:00:00Z";
const T1 = "2026-11-21T00:00:00Z";
const NOW = "2026-11-22T00:00:00Z";

function okState(hash: string, raw = R1): SourceState {
  return {
    source_id: source.source_id,
    provider_id: source.provider_id,
    source_url: source.url,
    status: "ok",
    http_status: 200,
    raw_sha256: raw,
    monitored_sha256: hash,
    checked_at: T1,
    last_changed_at: T0,
    last_ok_at: T1,
    content_observed_at: T0,
    error: null,
  };
}

function failedState(lastGood: string | null): SourceState {
  return {
    ...okState(lastGood ?? H1),
    status: "failed",
    http_status: 503,
    raw_sha256: lastGood ? R1 : null,
    monitored_sha256: lastGood,
    last_changed_at: lastGood ? T0 : null,
    last_ok_at: lastGood ? T0 : null,
    error: "HTTP 503",
  };
}

const ok = (hash: string, raw = R2): SourceOutcome => ({
  source,
  ok: true,
  httpStatus: 200,
  rawSha256: raw,
  monitoredSha256: hash,
  observedAt: T1,
  error: null,
});
const failed = (error = "fetch https://acme.example/pricing failed: HTTP 500"): SourceOutcome => ({
  source,
  ok: false,
  httpStatus: 500,
  rawSha256: null,
  monitoredSha256: null,
  observedAt: null,
  error,
});

function derive(previous: SourceState[], outcome: SourceOutcome) {
  const result = deriveSourceStates(previous, [outcome], NOW);
  for (const state of result.states) SourceState.parse(state);
  for (const event of result.events) SourceEvent.parse(event);
  const state = result.states.find((s) => s.source_id === source.source_id);
  if (!state) throw new Error("no state");
  return { state, events: result.events.map((e) => [e.event_type, e.previous_sha256, e.current_sha256]) };
}

describe("source state transitions", () => {
  it("first success: ok state with the content's upstream date, no event", () => {
    const { state, events } = derive([], ok(H1));
    expect(events).toEqual([]);
    expect(state).toMatchObject({
      status: "ok",
      monitored_sha256: H1,
      raw_sha256: R2,
      last_changed_at: NOW,
      last_ok_at: NOW,
      checked_at: NOW,
      content_observed_at: T1,
      error: null,
    });
  });

  it("first failure: failed event without a previous hash", () => {
    const { state, events } = derive([], failed());
    expect(events).toEqual([["lifecycle.source_failed", null, null]]);
    expect(state).toMatchObject({
      status: "failed",
      monitored_sha256: null,
      last_ok_at: null,
      http_status: 500,
    });
  });

  it("ok -> ok with the same hash: no event, last change kept", () => {
    const { state, events } = derive([okState(H1)], ok(H1));
    expect(events).toEqual([]);
    expect(state).toMatchObject({ status: "ok", last_changed_at: T0, last_ok_at: NOW, checked_at: NOW });
  });

  it("ok -> ok with another hash: changed event with both hashes", () => {
    const { state, events } = derive([okState(H1)], ok(H2));
    expect(events).toEqual([["lifecycle.source_changed", H1, H2]]);
    expect(state).toMatchObject({ monitored_sha256: H2, last_changed_at: NOW });
  });

  it("ok -> failed: failed event, last good facts carried with their upstream date", () => {
    const result = deriveSourceStates([okState(H1)], [failed("parse failed: no table")], NOW);
    expect(result.events.map((e) => [e.event_type, e.previous_sha256, e.current_sha256, e.error])).toEqual([
      ["lifecycle.source_failed", H1, null, "parse failed: no table"],
    ]);
    expect(result.states[0]).toEqual({
      ...okState(H1),
      status: "failed",
      http_status: 500,
      checked_at: NOW,
      error: "parse failed: no table",
    });
  });

  it("failed -> failed: no new event, the new error recorded", () => {
    const { state, events } = derive([failedState(H1)], failed("HTTP 500 again"));
    expect(events).toEqual([]);
    expect(state).toMatchObject({
      status: "failed",
      monitored_sha256: H1,
      raw_sha256: R1,
      last_ok_at: T0,
      error: "HTTP 500 again",
      checked_at: NOW,
    });
  });

  it("failed -> ok with the same content: recovered event", () => {
    const { state, events } = derive([failedState(H1)], ok(H1));
    expect(events).toEqual([["lifecycle.source_recovered", H1, H1]]);
    expect(state).toMatchObject({ status: "ok", error: null, last_ok_at: NOW, last_changed_at: T0 });
  });

  it("failed -> ok with changed content: recovered and changed events", () => {
    const { events } = derive([failedState(H1)], ok(H2));
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        ["lifecycle.source_recovered", H1, H2],
        ["lifecycle.source_changed", H1, H2],
      ]),
    );
  });

  it("failed before any success -> ok: recovered without a previous hash", () => {
    const { state, events } = derive([failedState(null)], ok(H1));
    expect(events).toEqual([["lifecycle.source_recovered", null, H1]]);
    expect(state.last_changed_at).toBe(NOW);
  });

  it("carries states of sources not checked this build and sorts states by source id", () => {
    const skipped: SourceState = { ...okState(H2), source_id: other.source_id, source_url: other.url };
    const { states } = deriveSourceStates([skipped, okState(H1)], [ok(H1)], NOW);
    expect(states.map((s) => s.source_id)).toEqual([source.source_id, other.source_id].sort());
    expect(states.find((s) => s.source_id === other.source_id)).toEqual(skipped);
  });

  it("drops the state of a source whose definition is gone, and keeps a defined one not checked", () => {
    const gone: SourceState = { ...okState(H2), source_id: other.source_id, source_url: other.url };
    const { states, events } = deriveSourceStates(
      [gone, okState(H1)],
      [ok(H1)],
      NOW,
      new Set([source.source_id]),
    );
    expect(states.map((s) => s.source_id)).toEqual([source.source_id]);
    expect(events).toEqual([]);
    const kept = deriveSourceStates([gone], [], NOW, new Set([source.source_id, other.source_id]));
    expect(kept.states).toEqual([gone]);
  });

  it("gives events stable ids derived from what identifies them", () => {
    const a = deriveSourceStates([okState(H1)], [ok(H2)], NOW).events[0];
    const b = deriveSourceStates([okState(H1)], [ok(H2)], NOW).events[0];
    const later = deriveSourceStates([okState(H1)], [ok(H2)], "2026-11-23T00:00:00Z").events[0];
    expect(a?.id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(a?.id).toBe(b?.id);
    expect(a?.id).not.toBe(later?.id);
    expect(a?.id).toBe(
      sourceEventId({
        type: "lifecycle.source_changed",
        source_id: source.source_id,
        detected_at: NOW,
        previous_sha256: H1,
        current_sha256: H2,
      }),
    );
  });
});

describe("refusing to publish", () => {
  const result = (status: CollectResult["status"]): CollectResult => ({ source, status });

  it("refuses when the failed fraction of checked sources exceeds the threshold", () => {
    expect(refusesToPublish({ failed: 3, checked: 5 }, 0.5)).toBe(true);
    expect(refusesToPublish({ failed: 2, checked: 4 }, 0.5)).toBe(false);
    expect(refusesToPublish({ failed: 0, checked: 0 }, 0.5)).toBe(false);
    expect(refusesToPublish({ failed: 1, checked: 10 }, 0)).toBe(true);
  });

  it("counts outcomes, where parse failures are failures", () => {
    expect(refusesToPublish([ok(H1), failed(), failed("parse failed")], 0.5)).toBe(true);
    expect(refusesToPublish([ok(H1), ok(H2), failed()], 0.5)).toBe(false);
  });

  it("counts collect results, leaving skipped sources out", () => {
    expect(
      refusesToPublish([result("failed"), result("skipped"), result("skipped"), result("ok")], 0.4),
    ).toBe(true);
    expect(
      refusesToPublish([result("failed"), result("not_modified"), result("ok"), result("skipped")], 0.4),
    ).toBe(false);
  });
});
