/**
 * The injected clock. Core code never calls `Date.now()`; it receives a Clock, so builds are
 * reproducible (`catalog build --now`) and quota periods are testable.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(iso: string | Date): Clock {
  const at = typeof iso === "string" ? new Date(iso) : iso;
  if (Number.isNaN(at.getTime())) throw new RangeError(`fixedClock: invalid instant ${String(iso)}`);
  return { now: () => new Date(at.getTime()) };
}

/** ISO 8601 UTC with second precision, e.g. 2026-11-22T00:00:00Z. */
export function toIsoSeconds(at: Date): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}
