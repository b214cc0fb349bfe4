/**
 * Quota on a request (docs/decisions.md, "What counts"), decided in one place: `chargeFor` says what
 * a metered request's outcome costs, and `Meter.charge` applies it once per request. A counted
 * request refused over the plan's quota is 429; a reported one only gets the counter. Every
 * answer the meter sees gets the rate-limit headers of the caller's plan. With `--no-quota`
 * nothing is counted and no headers are set.
 *
 *   outcome                                              cost
 *   an answer (200), or before the body of a POST        count
 *   a problem: unknown path, wrong method, bad query,
 *     unknown id                                         count
 *   401 (an invalid key, or a key required but absent)   report
 *   304 (If-None-Match matched)                          report
 *   503 (no release loaded)                              nothing
 */
import type { Logger } from "../../lib/logger.js";
import { ProblemError, type Reply } from "../http.js";
import type { QuotaPeriod, QuotaStore } from "../quota.js";
import type { Caller } from "./caller.js";

/** How a metered request ended before its answer is written (a POST: before its body is read). */
export type Outcome =
  | { kind: "answer" }
  | { kind: "not_modified" }
  | { kind: "problem"; error: ProblemError };

export type Charge = "count" | "report" | "free";

/** What an outcome costs: the one rule of what counts. */
export function chargeFor(outcome: Outcome): Charge {
  if (outcome.kind === "answer") return "count";
  if (outcome.kind === "not_modified") return "report";
  if (outcome.error.code === "unauthorized") return "report";
  if (outcome.error.code === "unavailable") return "free";
  return "count";
}

export class Meter {
  constructor(
    private readonly quota: QuotaStore,
    private readonly logger: Logger,
  ) {}

  /** --no-quota: nothing counted, no rate-limit headers (src/serve/no-quota.ts). */
  private get unmetered(): boolean {
    return this.quota.kind === "none";
  }

  /** Applies the cost of `outcome`; throws 429 when it counts and the plan's quota is spent. */
  async charge(reply: Reply, caller: Caller, period: QuotaPeriod, outcome: Outcome): Promise<void> {
    const charge = chargeFor(outcome);
    if (charge === "count") await this.consume(reply, caller, period);
    else if (charge === "report") await this.peek(reply, caller, period);
  }

  private async peek(reply: Reply, caller: Caller, period: QuotaPeriod): Promise<void> {
    if (this.unmetered) return;
    const count = await this.store(reply, "quota store peek failed", () =>
      this.quota.peek(caller.subject, period),
    );
    rateHeaders(reply, caller, count, period);
  }

  /** Counts the request; throws 429 when the caller's plan quota is spent. */
  private async consume(reply: Reply, caller: Caller, period: QuotaPeriod): Promise<void> {
    if (this.unmetered) return;
    const consumed = await this.store(reply, "quota store increment failed", () =>
      this.quota.consume(caller.subject, period, caller.limit),
    );
    rateHeaders(reply, caller, consumed.count, period);
    if (!consumed.allowed)
      throw new ProblemError(
        "quota_exhausted",
        `the monthly quota of ${caller.limit} requests of plan "${caller.plan}" is spent; it resets at ${period.resetIso}`,
        undefined,
        { "retry-after": String(period.secondsToReset) },
      );
  }

  /** A store that cannot answer is 503 with Retry-After: 1; a request is never let through uncounted. */
  private async store<T>(reply: Reply, message: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      this.logger.error({ err: errorMessage(error), request_id: reply.requestId }, message);
      throw new ProblemError("unavailable", "the quota store is unavailable; retry shortly", undefined, {
        "retry-after": "1",
      });
    }
  }
}

function rateHeaders(reply: Reply, caller: Caller, count: number, period: QuotaPeriod): void {
  reply.headers["x-ratelimit-limit"] = String(caller.limit);
  reply.headers["x-ratelimit-remaining"] = String(Math.max(0, caller.limit - count));
  reply.headers["x-ratelimit-reset"] = period.resetIso;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
