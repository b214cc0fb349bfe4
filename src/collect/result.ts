/** What the collect stage found for one source (its own module so progress reporting needs no import of collect.ts). */
import type { SourceDefinition } from "../schema/index.js";

export interface CollectResult {
  source: SourceDefinition;
  status: "ok" | "not_modified" | "failed" | "skipped";
  /** The monitored content, for the parser. */
  content?: string;
  /** When the content was read: the capture's fetched_at (offline) or the fetch time (live). */
  observedAt?: string;
  rawSha256?: string;
  monitoredSha256?: string;
  httpStatus?: number;
  error?: string;
  skippedReason?: string;
  /** True when the monitored hash differs from the previous release's state of the source. */
  changed?: boolean;
  /** Live only: whether a new capture file was written. */
  captureWritten?: boolean;
  durationMs?: number;
}
