/**
 * One page of a list answer: which record positions it holds, its `meta`, and the envelope
 * `{"data":[...],"meta":{...}}` concatenated from the records' pre-serialized JSON.
 */
import type { PageMeta } from "../schema/index.js";

export interface PageResult {
  meta: PageMeta;
  /** Positions of the records on this page. */
  positions: number[];
}

const DATA_OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(",");
const META_OPEN = Buffer.from('],"meta":');
const CLOSE = Buffer.from("}");

/** Records' JSON by position: a Buffer array, or a release's lazily serialized deployments. */
export interface RecordBuffers {
  at(position: number): Buffer | undefined;
}

/** `{"data":[...],"meta":{...}}` from pre-built record buffers. */
export function pageBody(records: RecordBuffers, result: PageResult): Buffer {
  const pieces: Buffer[] = [DATA_OPEN];
  result.positions.forEach((position, i) => {
    if (i > 0) pieces.push(COMMA);
    pieces.push(records.at(position) as Buffer);
  });
  pieces.push(META_OPEN, Buffer.from(JSON.stringify(result.meta)), CLOSE);
  return Buffer.concat(pieces);
}

/** The page of `matches` (record positions in answer order) at `offset`. */
export function paginate(matches: readonly number[], limit: number, offset: number): PageResult {
  return {
    meta: { total: matches.length, limit, offset, has_more: offset + limit < matches.length },
    positions: matches.slice(offset, offset + limit),
  };
}

/** Every position of a list of `count` records, in its order. */
export function allPositions(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i);
}

/**
 * Positions 0..n-1 ordered by `values` (a value per position), nulls last in both orders, ties
 * and the null tail in position order (the records' base order), as docs/decisions.md asks of sorted
 * lists.
 */
export function nullsLastOrder<T>(
  values: ReadonlyArray<T | null>,
  compare: (a: T, b: T) => number,
  descending: boolean,
): number[] {
  const positions = allPositions(values.length);
  positions.sort((a, b) => {
    const va = values[a] ?? null;
    const vb = values[b] ?? null;
    if (va !== vb) {
      if (va === null) return 1;
      if (vb === null) return -1;
      const c = compare(va, vb);
      if (c !== 0) return descending ? -c : c;
    }
    return a - b;
  });
  return positions;
}
