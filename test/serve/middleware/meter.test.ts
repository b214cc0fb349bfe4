/** The one rule of what a metered request costs (decisions.md "What counts"). */
import { describe, expect, it } from "vitest";
import type { ProblemCode } from "../../../src/schema/index.js";
import { ProblemError } from "../../../src/serve/http.js";
import { chargeFor } from "../../../src/serve/middleware/meter.js";

const problem = (code: ProblemCode) => ({ kind: "problem" as const, error: new ProblemError(code, "x") });

describe("chargeFor", () => {
  it("counts answers and refusals of the request itself, reports 401 and 304, and charges nothing without a release", () => {
    expect(chargeFor({ kind: "answer" })).toBe("count");
    expect(chargeFor({ kind: "not_modified" })).toBe("report");
    expect(chargeFor(problem("unauthorized"))).toBe("report");
    expect(chargeFor(problem("unavailable"))).toBe("free");
    for (const code of ["not_found", "method_not_allowed", "invalid_parameter", "invalid_body"] as const)
      expect(chargeFor(problem(code)), code).toBe("count");
  });
});
