/**
 * Quota on a request (docs/decisions.md, "What counts"): `consume` counts it and refuses it with 429
 * when the plan's quota is spent; `peek` only reports the counter (401 and 304 answers). Both
 * set the rate-limit headers of the caller's plan. With `--no-quota` both do nothing.
 */
import type { Logger } from "../../lib/logger.js";
import { ProblemError, type Reply } from "../http.js";
import type { QuotaPeriod, QuotaStore } from "../quota.js";
import type { Caller } from "./caller.js";

export class Meter {
  constructor(
    private readonly quota: QuotaStore,
    private readonly logger: Logger,
  ) {}

  /** --no-quota: nothing counted, no rate-limit headers (src/serve/no-quota.ts). */
  private get unmetered(): boolean {
    return this.quota.kind === "none";
  }

  async peek(reply: Reply, caller: Caller, period: QuotaPeriod): Promise<void> {
    if (this.unmetered) return;
    const count = await this.store(reply, "quota store peek failed", () =>
      this.quota.peek(caller.subject, period),
    );
    rateHeaders(reply, caller, count, period);
  }

  /** Counts the request; throws 429 when the caller's plan quota is spent. */
  async consume(reply: Reply, caller: Caller, period: QuotaPeriod): Promise<void> {
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
