import { z } from "zod";
import { IsoDateTime, Url } from "./common.js";

export const SourceType = z.enum([
  "official_pricing",
  "official_lifecycle",
  "official_models_api",
  "official_docs",
  "community_catalog",
]);
export type SourceType = z.infer<typeof SourceType>;

/**
 * How a fact is known, strongest first (docs/provenance.md). `official_declared`: an official
 * page or API states it for this scope. `official_inferred`: an official page implies it (a
 * model-level fact applied to its deployments, a listing that implies availability).
 * `community_corroborated`: no official source; at least two independent community datasets
 * agree on the value. `community_reported`: one community dataset (LiteLLM's map), or community
 * datasets that disagree.
 */
export const VerificationStatus = z
  .enum(["official_declared", "official_inferred", "community_corroborated", "community_reported"])
  .meta({ id: "VerificationStatus" });
export type VerificationStatus = z.infer<typeof VerificationStatus>;

export const Evidence = z
  .strictObject({
    source_url: Url,
    source_type: SourceType,
    observed_at: IsoDateTime,
    verification_status: VerificationStatus,
  })
  .meta({ id: "Evidence" });
export type Evidence = z.infer<typeof Evidence>;
