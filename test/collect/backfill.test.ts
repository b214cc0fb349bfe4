/** The pure parts of a backfill: sampling a daily history, and keeping the first of equal versions. */
import { describe, expect, it } from "vitest";
import { distinctByFacts, sampleVersions, utcSeconds } from "../../src/collect/backfill.js";

const version = (committedAt: string) => ({
  commit: committedAt.slice(0, 10).replace(/-/g, "").padEnd(40, "0"),
  committedAt,
});

describe("sampleVersions", () => {
  it("takes the first version, then one at least N days after the last taken, and always the newest", () => {
    const days = ["2025-02-01", "2025-02-03", "2025-02-15", "2025-02-16", "2025-03-02", "2025-03-04"];
    const taken = sampleVersions(
      days.map((d) => version(`${d}T12:00:00+00:00`)),
      14,
    ).map((v) => v.committedAt.slice(0, 10));
    expect(taken).toEqual(["2025-02-01", "2025-02-15", "2025-03-02", "2025-03-04"]);
  });
});

describe("distinctByFacts", () => {
  const capture = (observed_at: string, key: string) => ({ meta: { observed_at, sha256: observed_at }, key });
  it("keeps the first of each run of equal facts, in date order whatever the order given", () => {
    const kept = distinctByFacts([
      capture("2026-03-01T00:00:00Z", "b"),
      capture("2026-01-01T00:00:00Z", "a"),
      capture("2026-02-01T00:00:00Z", "a"),
      capture("2026-04-01T00:00:00Z", "a"),
    ]);
    expect(kept.map((c) => c.meta.observed_at.slice(0, 10))).toEqual([
      "2026-01-01",
      "2026-03-01",
      "2026-04-01",
    ]);
  });
});

describe("utcSeconds", () => {
  it("turns a commit date with an offset into a UTC instant", () => {
    expect(utcSeconds("2026-02-26T14:00:22-05:00")).toBe("2026-02-26T19:00:22Z");
  });
});
