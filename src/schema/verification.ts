/**
 * The verification levels (docs/provenance.md) as an order, and what the `verification` filter
 * of GET /v1/deployments and the compare body keeps. Pure functions of the schema's values,
 * shared by the release stage (src/release/precedence.ts ranks candidates with them), the
 * serving index and the server.
 */
import type { Deployment } from "./deployment.js";
import { VerificationStatus } from "./evidence.js";

/** The verification levels, strongest first. */
export const VERIFICATION_LEVELS: readonly VerificationStatus[] = VerificationStatus.options;

const RANK = new Map(VERIFICATION_LEVELS.map((level, i) => [level, i]));

/** 0 for the strongest level (official_declared), 3 for the weakest (community_reported). */
export function levelRank(level: VerificationStatus): number {
  return RANK.get(level) ?? VERIFICATION_LEVELS.length;
}

export function isOfficialLevel(level: VerificationStatus): boolean {
  return level === "official_declared" || level === "official_inferred";
}

/** The weaker of two levels. */
export function weakerLevel(a: VerificationStatus, b: VerificationStatus): VerificationStatus {
  return levelRank(a) >= levelRank(b) ? a : b;
}

/** Whether a level is at least what the filter asks (`corroborated` admits official). */
export function meetsVerification(level: VerificationStatus, filter: "official" | "corroborated"): boolean {
  return filter === "official" ? isOfficialLevel(level) : level !== "community_reported";
}

/**
 * How far a deployment is verified: the weaker of its listing's level and, when it is priced,
 * its rate card's. The `verification` filter keeps the deployments where this meets it.
 */
export function deploymentLevel(d: Pick<Deployment, "provenance">): VerificationStatus {
  const { listing, rate_card } = d.provenance;
  return rate_card === null
    ? listing.verification_status
    : weakerLevel(listing.verification_status, rate_card.verification_status);
}
