/** Evidence of what a source states, and a capability as an official page declares it. */
import type {
  CapabilityEntry,
  CapabilityStatus,
  Evidence,
  SourceDefinition,
  VerificationStatus,
} from "../schema/index.js";

export function evidenceFor(
  source: Pick<SourceDefinition, "url" | "source_type">,
  observedAt: string,
  verification: VerificationStatus = source.source_type === "community_catalog"
    ? "community_reported"
    : "official_declared",
): Evidence {
  return {
    source_url: source.url,
    source_type: source.source_type,
    observed_at: observedAt,
    verification_status: verification,
  };
}

/** A capability entry as an official page states it. */
export function declaredCapability(status: CapabilityStatus): CapabilityEntry {
  return { status, verification_status: "official_declared" };
}
