/**
 * The small parts of a release's catalog.json (events, lifecycle records, source states)
 * without parsing its deployments, which fill most of the file. catalog.json is canonical JSON
 * (keys sorted, no whitespace): `{"deployments":[…],"events":[…],"lifecycle":[…],"sources":[…]}`.
 * A quote inside a string is escaped, so `],"sources":[`, `],"lifecycle":[` and `],"events":[`
 * can only be the top-level boundaries when searched from the end (no record of those arrays
 * has an array member of those names). A catalog not in that shape is parsed whole.
 */
import type { LifecycleRecord, SourceEvent, SourceState } from "../schema/index.js";

export interface CatalogParts {
  events: SourceEvent[];
  lifecycle: LifecycleRecord[];
  sources: SourceState[];
}

const SOURCES = Buffer.from('],"sources":[');
const LIFECYCLE = Buffer.from('],"lifecycle":[');
const EVENTS = Buffer.from('],"events":[');

/** The array between a `],"name":[` boundary at `start` and `end` (exclusive), parsed. */
function arrayAt(data: Buffer, start: number, marker: Buffer, end: number): unknown {
  return JSON.parse(data.subarray(start + marker.length - 1, end + 1).toString("utf8"));
}

/** The parts of catalog.json's bytes (already hash-checked by the caller). */
export function catalogParts(data: Buffer): CatalogParts {
  const sources = data.lastIndexOf(SOURCES);
  const lifecycle = sources < 0 ? -1 : data.lastIndexOf(LIFECYCLE, sources);
  const events = lifecycle < 0 ? -1 : data.lastIndexOf(EVENTS, lifecycle);
  const close = data.lastIndexOf("]}");
  if (events >= 0 && close > sources) {
    try {
      const parts = {
        events: arrayAt(data, events, EVENTS, lifecycle),
        lifecycle: arrayAt(data, lifecycle, LIFECYCLE, sources),
        sources: arrayAt(data, sources, SOURCES, close),
      };
      if (Array.isArray(parts.events) && Array.isArray(parts.lifecycle) && Array.isArray(parts.sources))
        return parts as CatalogParts;
    } catch {
      // not the canonical shape: parse the whole catalog below
    }
  }
  const whole = JSON.parse(data.toString("utf8")) as Partial<CatalogParts>;
  if (!Array.isArray(whole.events) || !Array.isArray(whole.lifecycle) || !Array.isArray(whole.sources))
    throw new Error("catalog.json is not a catalog");
  return { events: whole.events, lifecycle: whole.lifecycle, sources: whole.sources };
}
