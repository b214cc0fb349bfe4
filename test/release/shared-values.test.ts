/**
 * Value objects many deployments hold alike (provenance entries, coverage, an unknown
 * milestone) are made once and shared, frozen: the merge keeps one object per distinct value,
 * and no step can change one deployment's through another's.
 */
import { describe, expect, test } from "vitest";
import { gatherFacts } from "../../src/release/facts.js";
import { mergeCatalog } from "../../src/release/merge.js";
import { factProvenance, lifecycleCoverage } from "../../src/release/shared-values.js";
import { contributionsFor, NOW, standardWorld } from "./fixtures.js";

describe("shared values", () => {
  test("equal values give one frozen object; other values another", () => {
    const a = factProvenance("official_declared", ["https://example.com/a"], "2026-11-01T00:00:00Z");
    expect(factProvenance("official_declared", ["https://example.com/a"], "2026-11-01T00:00:00Z")).toBe(a);
    expect(factProvenance("official_inferred", ["https://example.com/a"], "2026-11-01T00:00:00Z")).not.toBe(
      a,
    );
    expect(
      factProvenance(
        "official_declared",
        ["https://example.com/a", "https://example.com/b"],
        "2026-11-01T00:00:00Z",
      ),
    ).not.toBe(a);
    expect(a).toEqual({
      verification_status: "official_declared",
      source_urls: ["https://example.com/a"],
      observed_at: "2026-11-01T00:00:00Z",
    });
    expect(Object.isFrozen(a) && Object.isFrozen(a.source_urls)).toBe(true);
    expect(() => {
      (a as { observed_at: string }).observed_at = "changed";
    }).toThrow(TypeError);
    expect(() => a.source_urls.push("https://example.com/c")).toThrow(TypeError);
    const c = lifecycleCoverage("partial", null, ["s1", "s2"]);
    expect(lifecycleCoverage("partial", null, ["s1", "s2"])).toBe(c);
    expect(lifecycleCoverage("partial", "2026-11-01T00:00:00Z", ["s1", "s2"])).not.toBe(c);
    expect(c).toEqual({
      status: "partial",
      last_checked_at: null,
      source_count: 2,
      source_ids: ["s1", "s2"],
    });
    expect(Object.isFrozen(c) && Object.isFrozen(c.source_ids)).toBe(true);
  });

  test("the merge shares every provenance entry, coverage and unknown milestone among the deployments that hold it alike", () => {
    const { contributions, states } = contributionsFor(standardWorld(), [], NOW);
    const { deployments } = mergeCatalog({
      now: NOW,
      facts: gatherFacts(contributions, null).facts,
      states,
      previousCores: new Map(),
    });
    const values = deployments.flatMap((d) => [
      ...Object.values(d.provenance).filter((p) => p !== null),
      d.lifecycle.coverage,
      // a known milestone is its assertion's; silence is one value
      ...[d.lifecycle.deprecation, d.lifecycle.end_of_life].filter((m) => m.state === "unknown"),
    ]);
    for (const value of values) expect(Object.isFrozen(value)).toBe(true);
    // one object per distinct value
    const byText = new Map<string, Set<object>>();
    for (const value of values) {
      const text = JSON.stringify(value);
      byText.set(text, (byText.get(text) ?? new Set()).add(value));
    }
    for (const [text, objects] of byText) expect(objects.size, text).toBe(1);
    expect(byText.size).toBeLessThan(values.length);
  });
});
