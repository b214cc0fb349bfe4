/** Source events (spec 2.4) and per-source monitoring state. */
import { z } from "zod";
import { EventId, IsoDateTime, ProviderId, Sha256, Url } from "./common.js";

export const SourceEventType = z.enum([
  "lifecycle.source_changed",
  "lifecycle.source_recovered",
  "lifecycle.source_failed",
]);
export type SourceEventType = z.infer<typeof SourceEventType>;

/**
 * `previous_sha256` / `current_sha256` are monitored-content hashes. They are null only where
 * no such hash exists: `previous_sha256` on a source's first failure before any success, and
 * `current_sha256` on `source_failed` (nothing was read). `error` says why a source failed.
 */
export const SourceEvent = z
  .strictObject({
    id: EventId,
    event_type: SourceEventType,
    provider_id: ProviderId,
    source_id: z.uuid(),
    source_url: Url,
    detected_at: IsoDateTime,
    previous_sha256: Sha256.nullable(),
    current_sha256: Sha256.nullable(),
    error: z.string().optional(),
  })
  .meta({ id: "SourceEvent" });
export type SourceEvent = z.infer<typeof SourceEvent>;

export const SourceStatus = z.enum(["ok", "failed"]);
export type SourceStatus = z.infer<typeof SourceStatus>;

/** What a build knows about one monitored source; kept in every release. */
export const SourceState = z
  .strictObject({
    source_id: z.uuid(),
    provider_id: ProviderId,
    source_url: Url,
    status: SourceStatus,
    http_status: z.int().nullable(),
    raw_sha256: Sha256.nullable(),
    monitored_sha256: Sha256.nullable(),
    checked_at: IsoDateTime,
    last_changed_at: IsoDateTime.nullable(),
    last_ok_at: IsoDateTime.nullable(),
    /**
     * When the content behind the source's facts was seen upstream: the capture's `fetched_at`
     * (crawl date of a stored copy, commit date of a docs file, the page's own last-updated
     * date, or the fetch time of a live fetch). Null when no content was ever read; releases
     * published before this field existed read as null.
     */
    content_observed_at: IsoDateTime.nullable().default(null),
    error: z.string().nullable(),
  })
  .meta({ id: "SourceState" });
export type SourceState = z.infer<typeof SourceState>;
