/**
 * Announcement dates from dated copies (src/release/announcements.ts): the first dated copy of a
 * source stating a lifecycle milestone fills announced_at where no source states one, only from
 * the source the milestone comes from, never from a source's first copy, never after a milestone.
 */
import { describe, expect, test } from "vitest";
import {
  announcedFromFirstCopies,
  firstAnnouncement,
  firstAnnouncements,
  type LifecycleObservation,
  lastDayOf,
  lifecycleKey,
  statedMilestones,
} from "../../src/release/announcements.js";
import { planRelease } from "../../src/release/plan.js";
import type { LifecycleAssertion } from "../../src/schema/index.js";
import {
  assertion,
  COMMUNITY_ID,
  contributionsFor,
  depId,
  evidence,
  LIFECYCLE_ID,
  NOW,
  notAnnounced,
  scheduled,
  source,
  standardWorld,
} from "./fixtures.js";

const lifecycle = source("lifecycle");
const TURBO = depId("gpt-4-turbo");

/** A dated copy of a source stating these assertions. */
function copy(sourceId: string, observedAt: string, assertions: LifecycleAssertion[]): LifecycleObservation {
  return { source_id: sourceId, observed_at: observedAt, stated: statedMilestones(assertions, observedAt) };
}

const retiring = assertion(lifecycle, "gpt-4-turbo", {
  deprecation: scheduled("2026-06-01"),
  end_of_life: scheduled("2027-01-15"),
});
const listed = assertion(lifecycle, "gpt-4-turbo", {
  deprecation: notAnnounced(),
  end_of_life: notAnnounced(),
});

describe("the first dated copy stating a milestone", () => {
  test("is the copy that first states it after a copy that did not, dated by that copy", () => {
    const firsts = firstAnnouncements([
      copy(LIFECYCLE_ID, "2026-05-02T10:00:00Z", [retiring]),
      copy(LIFECYCLE_ID, "2026-03-01T00:00:00Z", [listed]),
      copy(LIFECYCLE_ID, "2026-04-10T08:30:00Z", [retiring]),
    ]);
    const first = firstAnnouncement(firsts, LIFECYCLE_ID, retiring, "deprecation");
    expect(first).toEqual({ ...evidence(lifecycle), observed_at: "2026-04-10T08:30:00Z" });
    expect(firstAnnouncement(firsts, LIFECYCLE_ID, retiring, "end_of_life")?.observed_at).toBe(
      "2026-04-10T08:30:00Z",
    );
    expect(firstAnnouncement(firsts, COMMUNITY_ID, retiring, "deprecation")).toBeUndefined();
  });

  test("dates nothing when the source's first copy already states it", () => {
    const firsts = firstAnnouncements([
      copy(LIFECYCLE_ID, "2026-03-01T00:00:00Z", [retiring]),
      copy(LIFECYCLE_ID, "2026-04-10T00:00:00Z", [retiring]),
    ]);
    expect(firstAnnouncement(firsts, LIFECYCLE_ID, retiring, "deprecation")).toBeUndefined();
  });

  test("is kept per milestone: an end of life added later is dated by the copy adding it", () => {
    const deprecationOnly = assertion(lifecycle, "gpt-4-turbo", { deprecation: scheduled("2026-06-01") });
    const firsts = firstAnnouncements([
      copy(LIFECYCLE_ID, "2026-03-01T00:00:00Z", [listed]),
      copy(LIFECYCLE_ID, "2026-04-10T00:00:00Z", [deprecationOnly]),
      copy(LIFECYCLE_ID, "2026-05-20T00:00:00Z", [retiring]),
    ]);
    expect(firstAnnouncement(firsts, LIFECYCLE_ID, retiring, "deprecation")?.observed_at).toBe(
      "2026-04-10T00:00:00Z",
    );
    expect(firstAnnouncement(firsts, LIFECYCLE_ID, retiring, "end_of_life")?.observed_at).toBe(
      "2026-05-20T00:00:00Z",
    );
  });

  test("is kept per resource: another region's target is another resource", () => {
    const eu = assertion(lifecycle, "gpt-4-turbo", {
      target: { provider_model_id: "gpt-4-turbo", region: "eu" },
      end_of_life: scheduled("2027-01-15"),
    });
    expect(lifecycleKey(eu)).not.toBe(lifecycleKey(retiring));
    const firsts = firstAnnouncements([
      copy(LIFECYCLE_ID, "2026-03-01T00:00:00Z", [eu]),
      copy(LIFECYCLE_ID, "2026-04-10T00:00:00Z", [eu, retiring]),
    ]);
    expect(firstAnnouncement(firsts, LIFECYCLE_ID, eu, "end_of_life")).toBeUndefined();
    expect(firstAnnouncement(firsts, LIFECYCLE_ID, retiring, "end_of_life")?.observed_at).toBe(
      "2026-04-10T00:00:00Z",
    );
  });

  test("a milestone not scheduled is not stated", () => {
    expect(statedMilestones([listed], "2026-03-01T00:00:00Z").size).toBe(0);
  });
});

describe("announced_at from the first copies", () => {
  const first = (observedAt: string) => ({ ...evidence(lifecycle), observed_at: observedAt });

  test("is the earliest first copy", () => {
    expect(
      announcedFromFirstCopies(
        [first("2026-05-20T00:00:00Z"), undefined, first("2026-04-10T00:00:00Z")],
        [scheduled("2027-01-15")],
      ),
    ).toBe("2026-04-10T00:00:00Z");
    expect(announcedFromFirstCopies([undefined, undefined], [scheduled("2027-01-15")])).toBeNull();
  });

  test("is nothing when the copy is after a milestone's last day (recorded late); the same day counts", () => {
    expect(
      announcedFromFirstCopies(
        [first("2026-06-02T00:00:00Z")],
        [scheduled("2026-06-01"), scheduled("2027-01-15")],
      ),
    ).toBeNull();
    expect(announcedFromFirstCopies([first("2026-06-01T18:00:00Z")], [scheduled("2026-06-01")])).toBe(
      "2026-06-01T18:00:00Z",
    );
    const june = { ...scheduled("2026-06-01"), precision: "month" as const };
    expect(announcedFromFirstCopies([first("2026-06-20T00:00:00Z")], [june])).toBe("2026-06-20T00:00:00Z");
  });

  test("the last day a milestone's date can mean follows its precision", () => {
    expect(lastDayOf("2026-02-01", "month")).toBe("2026-02-28");
    expect(lastDayOf("2026-04-01", "quarter")).toBe("2026-06-30");
    expect(lastDayOf("2026-01-01", "year")).toBe("2026-12-31");
    expect(lastDayOf("2026-02-14", "day")).toBe("2026-02-14");
  });
});

describe("the plan fills announced_at from the dated copies", () => {
  /** The standard world with gpt-4-turbo's announcement date removed from the lifecycle page. */
  function unannounced() {
    const world = standardWorld();
    world.lifecycle = world.lifecycle.map((a) => {
      const { announced_at: _announced, ...rest } = a;
      return rest;
    });
    return world;
  }

  function turbo(datedLifecycle: LifecycleObservation[], world = unannounced()) {
    const { contributions, states } = contributionsFor(world, [], NOW);
    const plan = planRelease({
      now: NOW,
      contributions,
      states,
      newEvents: [],
      previous: null,
      datedLifecycle,
    });
    const record = plan.catalog.lifecycle.find((r) => r.resource_id === TURBO);
    const deployment = plan.catalog.deployments.find((d) => d.id === TURBO);
    expect(deployment?.lifecycle).toEqual(record?.lifecycle);
    return record?.lifecycle;
  }

  const dated = (sourceId: string) => [
    copy(sourceId, "2026-03-01T00:00:00Z", [listed]),
    copy(sourceId, "2026-04-10T08:30:00Z", [retiring]),
  ];

  test("from the first copy of the source the milestones come from, listed in their evidence", () => {
    const filled = turbo(dated(LIFECYCLE_ID));
    expect(filled?.announced_at).toBe("2026-04-10T08:30:00Z");
    expect(filled?.deprecation.evidence.map((e) => e.observed_at)).toContain("2026-04-10T08:30:00Z");
    expect(turbo([])?.announced_at).toBeNull();
  });

  test("not from another source's copies", () => {
    expect(turbo(dated(COMMUNITY_ID))?.announced_at).toBeNull();
  });

  test("not where the page states an announcement date", () => {
    const stated = turbo(dated(LIFECYCLE_ID), standardWorld());
    expect(stated?.announced_at).toBe("2026-06-01T00:00:00Z");
    expect(stated?.deprecation.evidence.map((e) => e.observed_at)).not.toContain("2026-04-10T08:30:00Z");
  });
});
