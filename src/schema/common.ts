/** Primitive schemas shared by every resource. */
import { z } from "zod";
import {
  DEPLOYMENT_ID,
  EVENT_ID,
  ID_PART,
  MODEL_ID,
  PROVIDER_ID,
  RELEASE_ID,
  SHA256_HEX,
} from "../lib/ids.js";

export const IsoDateTime = z.iso
  .datetime({ offset: false })
  .meta({ description: "ISO 8601 instant in UTC, e.g. 2026-11-22T00:00:00Z." });
/**
 * An instant in UTC to the second, exactly as the build writes them (toIsoSeconds): what a
 * lifecycle's announced_at and last_changed_at hold, so a release's Parquet timestamps give the
 * same text back (src/release/previous-release.ts).
 */
export const IsoSeconds = z.iso
  .datetime({ offset: false, precision: 0 })
  .meta({ description: "ISO 8601 instant in UTC to the second, e.g. 2026-11-22T00:00:00Z." });
export const IsoDate = z.iso.date().meta({ description: "Calendar date YYYY-MM-DD." });
export const Sha256 = z.string().regex(SHA256_HEX, "must be 64 lowercase hex characters (SHA-256)");
export const Url = z.url({ protocol: /^https?$/ });
export const ProviderId = z
  .string()
  .regex(PROVIDER_ID, "provider id must be a lowercase slug [a-z0-9-]")
  .meta({ description: "Provider slug, e.g. `openai`, `amazon-bedrock`." });
export const ModelId = z
  .string()
  .regex(MODEL_ID, "model id must have the shape <lab>/<model-name>, lowercase")
  .meta({ description: "Canonical model ID `<lab>/<model-name>`." });
export const DeploymentId = z
  .string()
  .regex(DEPLOYMENT_ID, "deployment id must have the shape dep_<provider>_<model>_<api_surface>_<region>")
  .meta({ description: "Stable deployment ID `dep_<provider>_<model>_<api_surface>_<region>`." });
export const EventId = z.string().regex(EVENT_ID, "event id must have the shape evt_<id>");
export const ReleaseId = z
  .string()
  .regex(RELEASE_ID, "release id must be rel_ followed by 64 hex characters");
export const IdPart = z.string().regex(ID_PART, "must be lowercase [a-z0-9.-]");
/** Money: integer micro-USD (millionths of a US dollar) per unit. Never negative. */
export const MicroUsd = z.int().nonnegative().meta({ description: "Integer micro-USD (1e-6 USD)." });
export const TokenCount = z.int().nonnegative();
