/**
 * Small value objects that many deployments hold alike, made once and shared. A deployment's
 * provenance has four entries (listing, rate card, context window, max output), and at 100,000
 * deployments mostly the same few: one source's level, its URL and when it was seen. Each is
 * built once per distinct value and frozen, and so is a lifecycle's coverage (its sources and
 * their state) and an unknown milestone (UNKNOWN_MILESTONE, in the schema), so no later step
 * can change one deployment's value under another's feet (a write throws). At 100,000
 * deployments this keeps about 70 MB less alive through the build (docs/lean-core.md). Each
 * value's members are in code-point order, as canonical JSON writes them, so serializing one
 * copies nothing. Bounded: a memo starts over past MAX_VALUES.
 */
import type { FactProvenance, LifecycleCoverage, VerificationStatus } from "../schema/index.js";

const MAX_VALUES = 4096;

/**
 * Values by the strings that make them, level by level (no key string is built per lookup:
 * the parts are strings the facts already hold, whose hashes V8 keeps).
 */
class Memo<V> {
  private readonly root = new Map<string, Map<string, Map<string, V>>>();
  private size = 0;

  get(a: string, b: string, c: string, make: () => V): V {
    let byB = this.root.get(a);
    if (byB === undefined) {
      byB = new Map();
      this.root.set(a, byB);
    }
    let byC = byB.get(b);
    if (byC === undefined) {
      byC = new Map();
      byB.set(b, byC);
    }
    let value = byC.get(c);
    if (value === undefined) {
      if (this.size >= MAX_VALUES) {
        this.root.clear();
        this.size = 0;
        return this.get(a, b, c, make);
      }
      value = make();
      byC.set(c, value);
      this.size++;
    }
    return value;
  }
}

/** A list of strings as one memo key: its only item, or the items joined. */
function listKey(items: readonly string[]): string {
  const only = items.length === 1 ? items[0] : undefined;
  return only ?? items.join("\n");
}

const provenances = new Memo<FactProvenance>();

/** The provenance entry of these values (`sourceUrls` sorted and distinct), shared and frozen. */
export function factProvenance(
  verificationStatus: VerificationStatus,
  sourceUrls: readonly string[],
  observedAt: string,
): FactProvenance {
  return provenances.get(verificationStatus, observedAt, listKey(sourceUrls), () =>
    Object.freeze({
      observed_at: observedAt,
      source_urls: Object.freeze([...sourceUrls]) as string[],
      verification_status: verificationStatus,
    }),
  );
}

const coverages = new Memo<LifecycleCoverage>();

/** A lifecycle's coverage of these values (`sourceIds` sorted and distinct), shared and frozen. */
export function lifecycleCoverage(
  status: LifecycleCoverage["status"],
  lastCheckedAt: string | null,
  sourceIds: readonly string[],
): LifecycleCoverage {
  return coverages.get(status, lastCheckedAt ?? "", listKey(sourceIds), () =>
    Object.freeze({
      last_checked_at: lastCheckedAt,
      source_count: sourceIds.length,
      source_ids: Object.freeze([...sourceIds]) as string[],
      status,
    }),
  );
}
