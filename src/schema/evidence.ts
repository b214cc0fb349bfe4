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
 * How a fact is known. `official_declared`: stated on the provider's own page or API.
 * `official_inferred`: derived from an official page's structure (e.g. listed in a table of
 * supported models). `community_reported`: from a community catalog such as LiteLLM's map.
 */
export const VerificationStatus = z.enum(["official_declared", "official_inferred", "community_reported"]);
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
