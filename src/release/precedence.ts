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
