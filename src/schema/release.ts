/** The content of a published release and its manifest. */
import { z } from "zod";
import { IsoDateTime, ReleaseId, Sha256 } from "./common.js";
import { Deployment } from "./deployment.js";
import { SourceEvent, SourceState } from "./events.js";
import { LifecycleRecord } from "./lifecycle.js";

/** What the server serves. Arrays are sorted: deployments by id, lifecycle by (resource_type, resource_id), events by (detected_at, id), sources by source_id. */
export const CatalogContent = z.strictObject({
  deployments: z.array(Deployment),
  lifecycle: z.array(LifecycleRecord),
  events: z.array(SourceEvent),
  sources: z.array(SourceState),
});
export type CatalogContent = z.infer<typeof CatalogContent>;

export const ManifestFile = z.strictObject({
  sha256: Sha256,
  bytes: z.int().nonnegative(),
});

export const ReleaseManifest = z
  .strictObject({
    format: z.literal(1),
    release_id: ReleaseId,
    created_at: IsoDateTime,
    previous_release_id: ReleaseId.nullable(),
    /** Files of the release by name; content lives in snapshots/objects/<sha256>. */
    files: z.record(z.string().regex(/^[a-z0-9][a-z0-9._-]*$/), ManifestFile),
    counts: z.record(z.string(), z.int().nonnegative()),
  })
  .meta({ id: "ReleaseManifest" });
export type ReleaseManifest = z.infer<typeof ReleaseManifest>;
