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
 * byte + 1), or null when the markers are not found. Self-contained, with no reference outside
 * itself: the thread that reads a previous release runs its source (release/previous-release.ts).
 */
export function catalogBoundaries(data: Buffer): Record<PartName, [number, number]> | null {
  const SOURCES = '],"sources":[';
  const LIFECYCLE = '],"lifecycle":[';
  const EVENTS = '],"events":[';
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
  const spans = catalogBoundaries(data);
  if (spans) {
    try {
      const parts = {} as Record<PartName, unknown>;
      for (const name of names) parts[name] = JSON.parse(data.subarray(...spans[name]).toString("utf8"));
      if (names.every((name) => Array.isArray(parts[name]))) return parts as Pick<CatalogParts, N>;
    } catch {
      // not the canonical shape: parse the whole catalog below
    }
  }
  const whole = JSON.parse(data.toString("utf8")) as Partial<CatalogParts>;
  for (const name of names)
    if (!Array.isArray(whole[name])) throw new Error(`catalog.json has no ${name} array`);
  return whole as Pick<CatalogParts, N>;
}

/** catalog.json is read from its end in steps of this many bytes. */
export const TAIL_STEP = 8 << 20;

/** The synchronous file calls readCatalogTailSync makes (node:fs's, passed in). */
export interface TailFs {
  openSync(path: string, flags: string): number;
  fstatSync(fd: number): { size: number };
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
}

/**
 * The end of a catalog.json file from before its events array: all that catalogParts reads,
 * without reading the deployments, which fill most of the file (at 100,000 deployments, 221 MB
 * of which the other parts are about a quarter). Read from the end, a step at a time, until the
 * part boundaries are found; the whole file when they are not (a catalog not in the canonical
 * shape, which catalogParts then parses whole). The bytes are not hash-checked here: the caller
 * verifies the file. Synchronous and self-contained (it calls only `boundaries`, given as
 * catalogBoundaries, and `fs`): a worker thread runs its source (release/previous-release.ts).
 */
export function readCatalogTailSync(
  fs: TailFs,
  path: string,
  step: number,
  boundaries: (data: Buffer) => unknown,
): Buffer {
  const EVENTS = '],"events":[';
  const fd = fs.openSync(path, "r");
  try {
    const size = fs.fstatSync(fd).size;
    // the file's size in address space, its pages touched only where a step is read into it
    const file = Buffer.allocUnsafe(size);
    let start = size;
    while (start > 0) {
      const end = start;
      start = Math.max(0, start - step);
      let read = start;
      while (read < end) {
        const bytesRead = fs.readSync(fd, file, read, end - read, read);
        if (bytesRead === 0) throw new Error(`${path} ended early`);
        read += bytesRead;
      }
      // the events marker is in this step, or straddles it and the one read before it
      const seam = file.subarray(start, Math.min(size, end + EVENTS.length));
      if (seam.includes(EVENTS)) {
        const tail = file.subarray(start);
        if (boundaries(tail) !== null) return tail;
      }
    }
    return file;
  } finally {
    fs.closeSync(fd);
  }
}
