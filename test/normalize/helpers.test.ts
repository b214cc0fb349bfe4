import { describe, expect, it } from "vitest";
import {
  findTables,
  parseMilestone,
  perTokenToMicroPerMillion,
  SkipLog,
  sourceMilestone,
  usdToMicro,
} from "../../src/normalize/helpers.js";

const ev = [
  {
    source_url: "https://example.com/x",
    source_type: "official_lifecycle",
    observed_at: "2026-11-22T00:00:00Z",
    verification_status: "official_declared",
  },
] as const;

describe("money parsing", () => {
  it("parses dollar amounts exactly into micro-USD", () => {
    expect(usdToMicro("$2.50")).toBe(2_500_000);
    expect(usdToMicro("$0.075")).toBe(75_000);
    expect(usdToMicro("$1,000")).toBe(1_000_000_000);
    expect(usdToMicro("$0.00025", 1000)).toBe(250_000);
  });
  it("keeps a missing price null, never zero", () => {
    for (const text of ["-", "N/A", "", "—"]) expect(usdToMicro(text)).toBeNull();
    expect(usdToMicro("$0.00")).toBe(0);
  });
  it("throws on text that is not money and on sub-micro precision", () => {
    expect(() => usdToMicro("call us")).toThrow(/not a US dollar amount/);
    expect(() => usdToMicro("$0.0000001")).toThrow(/sub-micro/);
  });
  it("converts per-token floats exactly", () => {
    expect(perTokenToMicroPerMillion(2.5e-6)).toEqual({ ok: true, micro: 2_500_000 });
    expect(perTokenToMicroPerMillion(1.25e-7)).toEqual({ ok: true, micro: 125_000 });
    expect(perTokenToMicroPerMillion(3.75e-7)).toEqual({ ok: true, micro: 375_000 });
    expect(perTokenToMicroPerMillion(0)).toEqual({ ok: true, micro: 0 });
  });
});

describe("lifecycle date phrases", () => {
  it("reads 'Not sooner than' as a not_before day", () => {
    expect(parseMilestone("Not sooner than October 15, 2026", [...ev])).toMatchObject({
      state: "scheduled",
      date: "2026-10-15",
      precision: "day",
      date_type: "not_before",
    });
  });
  it("reads 'Earliest February 2026' as a not_before month", () => {
    expect(parseMilestone("Earliest February 2026", [...ev])).toMatchObject({
      date: "2026-02-01",
      precision: "month",
      date_type: "not_before",
    });
  });
  it("reads M/D/YYYY as a fixed day", () => {
    expect(parseMilestone("1/5/2026", [...ev])).toMatchObject({
      date: "2026-01-05",
      precision: "day",
      date_type: "on",
    });
  });
  it("reads 'No later than' as not_after", () => {
    expect(parseMilestone("No later than 2026-03-31", [...ev])).toMatchObject({
      date: "2026-03-31",
      date_type: "not_after",
    });
  });
  it("distinguishes not announced from unknown", () => {
    expect(parseMilestone("TBD", [...ev])).toMatchObject({
      state: "not_announced",
      date: null,
      date_type: "unknown",
    });
    expect(parseMilestone("", [...ev])).toMatchObject({ state: "unknown", evidence: [] });
  });
  it("throws on a phrase it cannot read instead of guessing", () => {
    expect(() => parseMilestone("sometime next year", [...ev])).toThrow(/not a lifecycle date/);
    expect(() => parseMilestone("2/30/2026", [...ev])).toThrow();
  });
});

describe("tables", () => {
  const source = { name: "t", url: "https://example.com/t" };
  it("finds tables by header names", () => {
    const html =
      "<h2>Standard</h2><table><thead><tr><th>Model</th><th>Input</th></tr></thead><tbody><tr><td>a</td><td>$1</td></tr></tbody></table>";
    const [table] = findTables(source, html, [/model/i, /input/i]);
    expect(table?.rows).toEqual([["a", "$1"]]);
    expect(table?.heading).toBe("Standard");
  });
  it("fails when a required column was renamed", () => {
    const html = "<table><tr><th>Name</th><th>Input</th></tr><tr><td>a</td><td>$1</td></tr></table>";
    expect(() => findTables(source, html, [/model/i, /input/i])).toThrow(/no table with columns/);
  });
});

describe("shared parser helpers", () => {
  const source = { name: "t", url: "https://example.com/t" };
  it("reports a bad lifecycle date as the source's parse failure, prefixed when asked", () => {
    expect(sourceMilestone(source, "2026-01-02", [...ev]).date).toBe("2026-01-02");
    expect(() => sourceMilestone(source, "soon", [...ev], "gpt-x")).toThrow(/^t: gpt-x: "soon"/);
  });
  it("counts skips with at most five examples, distinct unless told otherwise", () => {
    const distinct = new SkipLog();
    const all = new SkipLog({ distinctExamples: false });
    for (const log of [distinct, all]) for (const x of ["a", "a", "b"]) log.add("r", x);
    expect(distinct.toArray()).toEqual([{ reason: "r", count: 3, examples: ["a", "b"] }]);
    expect(all.toArray()).toEqual([{ reason: "r", count: 3, examples: ["a", "a", "b"] }]);
  });
});
