/**
 * Small value objects that many deployments hold alike, made once and shared. A deployment's
 * provenance has four entries (listing, rate card, context window, max output), and at 100,000
 * deployments mostly the same few: one source's level, its URL and when it was seen. Each is
 * built once per distinct value and frozen, and so is a lifecycle's coverage (its sources and
 * their state) and an unknown milestone (UNKNOWN_MILESTONE, in the schema), so no later step can change one deployment's entry
 * under another's feet (a write throws). At 100,000 deployments this keeps about 45 MB less
 * alive through the build (docs/lean-core.md). Bounded: the memo starts over past MAX_VALUES.
 */
import type { FactProvenance, LifecycleCoverage, VerificationStatus } from "../schema/index.js";

const MAX_VALUES = 4096;
const provenances = new Map<string, FactProvenance>();
const coverages = new Map<string, LifecycleCoverage>();

/** The provenance entry of these values (`sourceUrls` sorted and distinct), shared and frozen. */
export function factProvenance(
  verificationStatus: VerificationStatus,
  sourceUrls: readonly string[],
  observedAt: string,
): FactProvenance {
  const key = `${verificationStatus}\n${observedAt}\n${sourceUrls.join("\n")}`;
  let entry = provenances.get(key);
  if (entry === undefined) {
    if (provenances.size >= MAX_VALUES) provenances.clear();
    entry = Object.freeze({
      verification_status: verificationStatus,
      source_urls: Object.freeze([...sourceUrls]) as string[],
      observed_at: observedAt,
    });
    provenances.set(key, entry);
  }
  return entry;
}

/** A lifecycle's coverage of these values (`sourceIds` sorted and distinct), shared and frozen. */
export function lifecycleCoverage(
  status: LifecycleCoverage["status"],
  lastCheckedAt: string | null,
  sourceIds: readonly string[],
): LifecycleCoverage {
  const key = `${status}\n${lastCheckedAt}\n${sourceIds.join("\n")}`;
  let coverage = coverages.get(key);
  if (coverage === undefined) {
    if (coverages.size >= MAX_VALUES) coverages.clear();
    coverage = Object.freeze({
      status,
      last_checked_at: lastCheckedAt,
      source_count: sourceIds.length,
      source_ids: Object.freeze([...sourceIds]) as string[],
    });
    coverages.set(key, coverage);
  }
  return coverage;
}
