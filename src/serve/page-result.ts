/** One page of a list: its meta and the positions of its records (its own module so browse.ts and query.ts do not import each other). */
import type { PageMeta } from "../schema/index.js";

export interface PageResult {
  meta: PageMeta;
  /** Positions of the records on this page. */
  positions: number[];
}
