import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  deriveStatus,
  latestDay,
  STATUS_RULES,
  type StatusInput,
  statusFromDeployments,
} from "../../src/release/status.js";
import { type LifecycleMilestone, UNKNOWN_MILESTONE } from "../../src/schema/index.js";

function day(date: string, date_type: LifecycleMilestone["date_type"] = "on"): LifecycleMilestone {
  return { state: "scheduled", date, precision: "day", date_type, evidence: [] };
}

function input(over: Partial<StatusInput>): StatusInput {
  return {
    today: "2026-11-23",
    declared: null,
    deprecation: UNKNOWN_MILESTONE,
    end_of_life: UNKNOWN_MILESTONE,
    listed: false,
    ...over,
  };
}

const at = (today: string, over: Partial<StatusInput>) => deriveStatus(input({ ...over, today }));

describe("the lifecycle status rule table", () => {
  test("a fixed end-of-life day retires on the day itself, not the day before", () => {
    const over = { end_of_life: day("2027-03-01"), declared: "available" as const };
    expect(at("2027-02-28", over)).toEqual({ status: "available", rule: "declared" });
    expect(at("2027-03-01", over)).toEqual({ status: "retired", rule: "end_of_life_passed" });
    expect(at("2030-01-01", over).status).toBe("retired");
  });

  test("a not_after end-of-life day retires like a fixed one", () => {
    const over = { end_of_life: day("2027-03-01", "not_after") };
    expect(at("2027-02-28", over)).toEqual({ status: "deprecated", rule: "end_of_life_announced" });
    expect(at("2027-03-01", over).status).toBe("retired");
  });

  test("a month-precision fixed day retires once its month is over", () => {
    const eol = { ...day("2027-02-01"), precision: "month" as const };
    expect(latestDay(eol)).toBe("2027-02-28");
    expect(latestDay({ ...eol, precision: "quarter" })).toBe("2027-04-30");
    expect(latestDay({ ...eol, precision: "year" })).toBe("2028-01-31");
    expect(at("2027-02-27", { end_of_life: eol }).status).toBe("deprecated");
    expect(at("2027-02-28", { end_of_life: eol }).status).toBe("retired");
  });

  test("a source that says the model is shut down retires it, whatever the dates", () => {
    expect(at("2026-11-23", { declared: "retired" })).toEqual({
      status: "retired",
      rule: "declared_retired",
    });
  });

  test("a passed not_before day makes a model deprecated, never retired, on the day and long after", () => {
    const over = { end_of_life: day("2026-10-15", "not_before"), declared: "available" as const };
    expect(at("2026-10-14", over)).toEqual({ status: "available", rule: "declared" });
    expect(at("2026-10-15", over)).toEqual({ status: "deprecated", rule: "earliest_end_of_life_passed" });
    expect(at("2030-01-01", over).status).toBe("deprecated");
    expect(at("2030-01-01", { ...over, declared: "preview" }).status).toBe("deprecated");
  });

  test("Bedrock's Legacy date makes it legacy, its extended access start deprecated, its EOL retired", () => {
    const over = {
      deprecation: day("2026-04-14"),
      deprecationStatus: "legacy" as const,
      extendedAccess: day("2026-07-14"),
      end_of_life: day("2026-10-14"),
    };
    expect(at("2026-04-13", over)).toEqual({ status: "deprecated", rule: "end_of_life_announced" });
    expect(at("2026-04-14", over)).toEqual({ status: "legacy", rule: "deprecation_passed" });
    expect(at("2026-07-13", over).status).toBe("legacy");
    expect(at("2026-07-14", over)).toEqual({ status: "deprecated", rule: "extended_access_started" });
    expect(at("2026-10-14", over).status).toBe("retired");
  });

  test("a passed deprecation day makes a declared-available model deprecated, the day before it stays", () => {
    const over = {
      declared: "available" as const,
      deprecation: day("2026-06-11"),
      end_of_life: day("2026-12-11"),
    };
    expect(at("2026-06-10", over).status).toBe("available");
    expect(at("2026-06-11", over)).toEqual({ status: "deprecated", rule: "deprecation_passed" });
    // a not_before deprecation that has passed deprecates nothing by itself
    expect(at("2026-06-11", { ...over, deprecation: day("2026-06-11", "not_before") }).status).toBe(
      "available",
    );
  });

  test("declared statuses stand while no date has passed", () => {
    for (const declared of ["preview", "available", "legacy", "deprecated"] as const)
      expect(at("2026-11-23", { declared, end_of_life: day("2027-01-01") })).toEqual({
        status: declared,
        rule: "declared",
      });
  });

  test("without a declared status: an announced day deprecates, an earliest day ahead guarantees availability", () => {
    expect(at("2026-11-23", { end_of_life: day("2027-01-01") }).status).toBe("deprecated");
    expect(at("2026-11-23", { end_of_life: day("2027-01-01", "not_before") })).toEqual({
      status: "available",
      rule: "earliest_end_of_life_ahead",
    });
  });

  test("a listing makes it available, and nothing known is unknown", () => {
    expect(at("2026-11-23", { listed: true })).toEqual({ status: "available", rule: "listed" });
    expect(at("2026-11-23", {})).toEqual({ status: "unknown", rule: "nothing_known" });
    expect(at("2026-11-23", { declared: "unknown", listed: true }).status).toBe("available");
  });

  test("docs/lifecycle-status.md's rule table lists the same rules, in the same order, with the same results", () => {
    const doc = readFileSync(new URL("../../docs/lifecycle-status.md", import.meta.url), "utf8");
    const section = doc.split("## The rule table")[1]?.split(/\n#{2,3} /)[0] ?? "";
    const rows = [...section.matchAll(/^\| (\d+) \| `([a-z_]+)` \| ([^|]+) \|/gm)].map((m) => ({
      order: Number(m[1]),
      name: m[2],
      yields: (m[3] as string).trim(),
    }));
    expect(rows.map((r) => r.name)).toEqual(STATUS_RULES.map((r) => r.name));
    expect(rows.map((r) => r.order)).toEqual(STATUS_RULES.map((_, i) => i + 1));
    for (const [i, rule] of STATUS_RULES.entries()) {
      const printed = rows[i]?.yields ?? "";
      if (rule.yields === "declared") expect(printed).toMatch(/declared/);
      else expect(printed).toContain(`\`${rule.yields}\``);
    }
  });
});

describe("a model's status from its deployments", () => {
  test("is the first of available, preview, legacy, deprecated, retired that any deployment has", () => {
    expect(statusFromDeployments(["retired", "unknown", "available", "deprecated"])).toBe("available");
    expect(statusFromDeployments(["retired", "preview", "legacy"])).toBe("preview");
    expect(statusFromDeployments(["deprecated", "legacy", "unknown"])).toBe("legacy");
    expect(statusFromDeployments(["retired", "deprecated"])).toBe("deprecated");
    expect(statusFromDeployments(["unknown", "retired"])).toBe("retired");
  });

  test("is unknown only when every deployment is", () => {
    expect(statusFromDeployments(["unknown", "unknown"])).toBe("unknown");
    expect(statusFromDeployments(["unknown", "deprecated"])).toBe("deprecated");
  });
});
