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

type PartName = keyof CatalogParts;

/**
 * Where each part's array lies in catalog.json's bytes (or in their end): [first byte, last
 * byte + 1), or null when the markers are not found.
 */
export function catalogBoundaries(data: Buffer): Record<PartName, [number, number]> | null {
  const SOURCES = '],"sources":[';
  const LIFECYCLE = '],"lifecycle":[';
  const EVENTS = EVENTS_MARKER;
  const sources = data.lastIndexOf(SOURCES);
  const lifecycle = sources < 0 ? -1 : data.lastIndexOf(LIFECYCLE, sources);
  const events = lifecycle < 0 ? -1 : data.lastIndexOf(EVENTS, lifecycle);
  const close = data.lastIndexOf("]}");
  if (events < 0 || close < sources) return null;
  // from the part's `[` to its `]` (each marker starts with the previous array's `]`)
  return {
    events: [events + EVENTS.length - 1, lifecycle + 1],
    lifecycle: [lifecycle + LIFECYCLE.length - 1, sources + 1],
    sources: [sources + SOURCES.length - 1, close + 1],
  };
}

/**
 * The named parts of catalog.json's bytes (already hash-checked by the caller), each parsed
 * from its own slice; a catalog not in the canonical shape is parsed whole.
 */
export function catalogParts<N extends PartName>(data: Buffer, names: readonly N[]): Pick<CatalogParts, N> {
  const parts = catalogPartsBySpans(data, names);
  if (parts) return parts;
  // not the canonical shape: the whole catalog parsed
  const whole = JSON.parse(data.toString("utf8")) as Partial<CatalogParts>;
  for (const name of names)
    if (!Array.isArray(whole[name])) throw new Error(`catalog.json has no ${name} array`);
  return whole as Pick<CatalogParts, N>;
}

/**
 * The named parts found by their boundaries (catalogBoundaries), each parsed from its own slice,
 * or null where the bytes are not in the canonical shape. `data` may be catalog.json from its
 * `],"events":[` on (readReleaseFileFrom with EVENTS_MARKER): the boundaries are searched from
 * the end.
 */
export function catalogPartsBySpans<N extends PartName>(
  data: Buffer,
  names: readonly N[],
): Pick<CatalogParts, N> | null {
  const spans = catalogBoundaries(data);
  if (!spans) return null;
  try {
    const parts = {} as Record<PartName, unknown>;
    for (const name of names) parts[name] = JSON.parse(data.subarray(...spans[name]).toString("utf8"));
    return names.every((name) => Array.isArray(parts[name])) ? (parts as Pick<CatalogParts, N>) : null;
  } catch {
    return null;
  }
}

/** Where catalog.json's events begin: the parts after the deployments are read from it on. */
export const EVENTS_MARKER = '],"events":[';
