/**
 * Source precedence: the one order in which every merge step (deployment facts, rate cards,
 * limits and capabilities from model facts, lifecycle assertions, the listing gate) picks the
 * candidate that gives a field, and the verification levels the catalog serves
 * (docs/provenance.md). Pure.
 *
 * A candidate ranks before another when, in turn:
 *  1. it is official (an official source before a community one);
 *  2. it is more specific (a lifecycle assertion about the deployment before one about its
 *     model, before one about its provider; a fact about the deployment before a fact about its
 *     model in this mode, before one about its model in every mode);
 *  3. its verification level is stronger: official_declared > official_inferred within the
 *     official tier, community_corroborated > community_reported within the community tier;
 *  4. it was observed later;
 *  5. then source id and the candidate's index in its sorted source, so ties are deterministic.
 * The four levels themselves are ordered official_declared > official_inferred >
 * community_corroborated > community_reported: the tier (1) is the level's first half, and
 * specificity (2) sits between the tier and the level, so that what an official page states
 * about this very deployment (even where the page only implies it) is not overruled by a
 * statement about its whole model.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import { levelRank, type VerificationStatus } from "../schema/index.js";

/**
 * The level of a fact given whether its source is official and the level its evidence states:
 * an official source's fact is official (declared unless it says inferred), a community
 * source's is community (reported unless it says corroborated). A source never lends a fact a
 * tier it does not have.
 */
export function factLevel(official: boolean, stated: VerificationStatus | undefined): VerificationStatus {
  if (official) return stated === "official_inferred" ? "official_inferred" : "official_declared";
  return stated === "community_corroborated" ? "community_corroborated" : "community_reported";
}

/** What ranks a candidate (see the module comment). */
export interface PrecedenceKey {
  official: boolean;
  /** Higher is more specific; candidates of one kind that have no scope all use 0. */
  specificity: number;
  verification: VerificationStatus;
  observedMs: number;
  sourceId: string;
  index: number;
}

/** Negative when `a` ranks before `b`: the precedence of every merge step. */
export function comparePrecedence(a: PrecedenceKey, b: PrecedenceKey): number {
  if (a.official !== b.official) return a.official ? -1 : 1;
  if (a.specificity !== b.specificity) return b.specificity - a.specificity;
  const level = levelRank(a.verification) - levelRank(b.verification);
  if (level !== 0) return level;
  if (a.observedMs !== b.observedMs) return b.observedMs - a.observedMs;
  return compareCodePoints(a.sourceId, b.sourceId) || a.index - b.index;
}

/** A community candidate of one field: which dataset gives it, and whether that dataset only fills. */
export interface CommunityVoice {
  sourceId: string;
  /** The dataset only fills deployments other sources place (fills.ts). */
  fillsOnly: boolean;
  /** Datasets it is not independent of (SourceDefinition.not_independent_of). */
  notIndependentOf: readonly string[];
}

/** Whether an agreement of two datasets is evidence: neither declares it depends on the other. */
export function independent(a: CommunityVoice, b: CommunityVoice): boolean {
  return !a.notIndependentOf.includes(b.sourceId) && !b.notIndependentOf.includes(a.sourceId);
}

/** What corroboration decides about one field among community candidates. */
export interface Corroboration<T extends CommunityVoice> {
  /** The candidate whose value is kept. */
  kept: T;
  /** community_corroborated when another independent dataset gives the kept value, else community_reported. */
  level: "community_corroborated" | "community_reported";
  /** The first candidate of each other dataset that gives the kept value (its sources join the provenance). */
  agreeing: T[];
  /** The first candidate of each other dataset whose value differs: reported as a disagreement. */
  differing: T[];
}

/**
 * Corroboration, the community tier's rule for one field (a price component set, a limit, a
 * capability's status) where no official source gives it: among the community candidates that
 * state the field, in precedence order, the first one whose value another community dataset
 * (another source, independent of it: docs/corroboration.md) also gives is kept, `community_corroborated`, so a value two datasets agree on ranks before
 * a value one dataset gives alone (community_corroborated > community_reported); where no two
 * agree, the first of a dataset that places deployments is kept (a fill-only dataset fills a
 * value no other gives, it does not replace one), else the first, `community_reported`. Every
 * other dataset's different value is a disagreement, reported. Null when no candidate states
 * the field.
 */
export function corroborate<T extends CommunityVoice>(
  candidates: readonly T[],
  agree: (a: T, b: T) => boolean,
): Corroboration<T> | null {
  const first = candidates[0];
  if (first === undefined) return null;
  const othersOf = (kept: T) => {
    const agreeing: T[] = [];
    const differing: T[] = [];
    const seen = new Set([kept.sourceId]);
    for (const c of candidates) {
      if (seen.has(c.sourceId)) continue;
      seen.add(c.sourceId);
      if (!agree(kept, c)) differing.push(c);
      else if (independent(kept, c)) agreeing.push(c);
    }
    return { agreeing, differing };
  };
  for (const kept of candidates) {
    const { agreeing, differing } = othersOf(kept);
    if (agreeing.length > 0) return { kept, level: "community_corroborated", agreeing, differing };
  }
  const kept = candidates.find((c) => !c.fillsOnly) ?? first;
  return { kept, level: "community_reported", ...othersOf(kept) };
}
