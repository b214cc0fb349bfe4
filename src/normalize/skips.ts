/**
 * The one skip tally of the parsers: reason -> count and up to five examples. `toArray` lists
 * reasons in first-seen order with their first examples (distinct unless `distinctExamples` is
 * false); `toSortedArray` lists reasons and examples in code-point order, so the result does not
 * depend on the order a feed lists its entries in.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import type { SkipCount } from "../schema/index.js";

const MAX_EXAMPLES = 5;

export class SkipLog {
  private readonly entries = new Map<string, string[]>();
  constructor(private readonly options: { distinctExamples: boolean } = { distinctExamples: true }) {}
  add(reason: string, example: string): void {
    const examples = this.entries.get(reason) ?? [];
    examples.push(example);
    this.entries.set(reason, examples);
  }
  toArray(): SkipCount[] {
    return [...this.entries].map(([reason, all]) => {
      const examples: string[] = [];
      for (const example of all) {
        if (examples.length === MAX_EXAMPLES) break;
        if (!(this.options.distinctExamples && examples.includes(example))) examples.push(example);
      }
      return { reason, count: all.length, examples };
    });
  }
  toSortedArray(): SkipCount[] {
    return [...this.entries]
      .sort(([a], [b]) => compareCodePoints(a, b))
      .map(([reason, all]) => ({
        reason,
        count: all.length,
        examples: [...all].sort(compareCodePoints).slice(0, MAX_EXAMPLES),
      }));
  }
}
