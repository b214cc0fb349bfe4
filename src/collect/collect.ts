/**
 * The collect stage: for every source definition, what it says right now.
 * - live: fetch (fetcher.ts, with the stored capture's validators for a conditional GET),
 *   extract the monitored content (monitor.ts), record it as the capture when it changed
 *   (captures.ts); a 304 replays the stored capture;
 * - offline: replay the recorded capture through the same extraction; a source whose capture is
 *   not committed (`offline_capture: false`) or that has none is skipped, a damaged one failed.
 *   An `archived` source (a recorded earlier version of a page) is replayed so in live builds too.
 * One source's failure never stops the others; results come back in definition order. Source
 * states and events are derived afterwards by the orchestrator (states.ts), once parsing has
 * said whether each source really succeeded.
 */

import { relative } from "node:path";
import { type Clock, toIsoSeconds } from "../lib/clock.js";
import { isCatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import type { Logger } from "../lib/logger.js";
import type { SourceDefinition, SourceState } from "../schema/index.js";
import { fetchBundle } from "./bundle.js";
import { readCapture, type StoredCapture, writeCapture } from "./captures.js";
import { captureDir } from "./definitions.js";
import { Fetcher, type FetcherOptions } from "./fetcher.js";
import { type ExtractOptions, extractMonitored } from "./monitor.js";
import { fetchAllPages, fetchPages } from "./pagination.js";
import { CollectProgress, type ProgressStream } from "./progress.js";
import type { CollectResult } from "./result.js";
import { applySecrets, redactError, type SecretEnv } from "./secrets.js";

export type { CollectResult } from "./result.js";

export interface CollectOptions {
  sourcesDir: string;
  definitions: SourceDefinition[];
  offline: boolean;
  clock: Clock;
  logger: Logger;
  previousStates: SourceState[];
  /** Human progress and the summary table on stderr (or `progressStream`). */
  progress: boolean;
  /** Fetch policy overrides (tests: allowLoopback, short timeouts, instant sleep). */
  fetcher?: FetcherOptions;
  extract?: ExtractOptions;
  /** Where progress goes; process.stderr by default. */
  progressStream?: ProgressStream;
  /** Where source secrets are read from; process.env by default. */
  env?: SecretEnv;
}

export async function collectSources(opts: CollectOptions): Promise<CollectResult[]> {
  const previous = new Map(opts.previousStates.map((s) => [s.source_id, s]));
  const progress = new CollectProgress(
    opts.progress ? (opts.progressStream ?? process.stderr) : null,
    opts.definitions.length,
  );
  const fetcher = opts.offline ? null : new Fetcher(opts.fetcher);
  try {
    const results = await Promise.all(
      opts.definitions.map(async (source) => {
        const log = opts.logger.child({ source_id: source.source_id, provider_id: source.provider_id });
        progress.start(`${source.provider_id}/${source.name}`);
        const started = performance.now();
        let result: CollectResult;
        try {
          result =
            fetcher && !source.archived
              ? await collectLive(source, fetcher, opts, previous.get(source.source_id), log)
              : await collectOffline(source, opts, previous.get(source.source_id));
        } catch (error) {
          result = failure(source, error);
        }
        result.durationMs = performance.now() - started;
        logResult(log, result);
        progress.finish(result);
        return result;
      }),
    );
    progress.end(results);
    return results;
  } finally {
    await fetcher?.close();
  }
}

async function collectOffline(
  source: SourceDefinition,
  opts: CollectOptions,
  before: SourceState | undefined,
): Promise<CollectResult> {
  if (!source.offline_capture)
    return {
      source,
      status: "skipped",
      skippedReason: "offline_capture is false (its capture is not committed); offline builds skip it",
    };
  const stored = await readCapture(opts.sourcesDir, source);
  if (!stored)
    return {
      source,
      status: "skipped",
      skippedReason: `no recorded capture (${relative(opts.sourcesDir, captureDir(opts.sourcesDir, source))}/CURRENT.json)`,
    };
  const monitored = extractMonitored(source, stored.content, opts.extract);
  return {
    source,
    status: "ok",
    content: monitored.content,
    observedAt: stored.meta.fetched_at,
    rawSha256: carriedRawHash(before, monitored.sha256) ?? stored.sha256,
    monitoredSha256: monitored.sha256,
    httpStatus: stored.meta.http_status,
    changed: hasChanged(before, monitored.sha256),
  };
}

async function collectLive(
  source: SourceDefinition,
  fetcher: Fetcher,
  opts: CollectOptions,
  before: SourceState | undefined,
  log: Logger,
): Promise<CollectResult> {
  const secrets = applySecrets(source, opts.env ?? process.env);
  if (!secrets.ok)
    return {
      source,
      status: "skipped",
      skippedReason: `secret not set: environment variable ${secrets.missing.join(", ")} (the source needs an API key)`,
    };
  try {
    return await fetchAndRecord(source, fetcher, opts, before, log, secrets.url, secrets.values.length > 0);
  } catch (error) {
    // Fetch errors name the request URL, which carries the secrets.
    throw redactError(error, secrets.values);
  }
}

async function fetchAndRecord(
  source: SourceDefinition,
  fetcher: Fetcher,
  opts: CollectOptions,
  before: SourceState | undefined,
  log: Logger,
  requestUrl: string,
  withSecrets: boolean,
): Promise<CollectResult> {
  let stored: StoredCapture | null = null;
  try {
    stored = await readCapture(opts.sourcesDir, source);
  } catch (error) {
    log.warn({ err: (error as Error).message }, "stored capture unusable; fetching without validators");
  }
  if (source.pagination) return collectPaged(source, source.pagination, fetcher, opts, before);
  const response = await fetcher.fetch({
    url: requestUrl,
    format: source.format,
    allowedHosts: source.allowed_hosts,
    conditional: stored ? { etag: stored.meta.etag, lastModified: stored.meta.last_modified } : null,
  });
  // observedAt is when the content that carries the facts was recorded: a 304, or a 200 with
  // the same monitored content, re-confirms the stored capture and keeps its time (coverage's
  // last_checked_at says when it was last checked), so an unchanged page publishes nothing.
  const fetchedAt = toIsoSeconds(opts.clock.now());
  if (response.kind === "not_modified") {
    // A 304 only answers a conditional request, which is only sent with a stored capture.
    const replay = stored as StoredCapture;
    const monitored = extractMonitored(source, replay.content, opts.extract);
    return {
      source,
      status: "not_modified",
      content: monitored.content,
      observedAt: replay.meta.fetched_at,
      ...optional("rawSha256", carriedRawHash(before, monitored.sha256)),
      monitoredSha256: monitored.sha256,
      httpStatus: response.status,
      changed: hasChanged(before, monitored.sha256),
    };
  }
  // A token-paged source's document is every page joined, a bundled source's its listed files,
  // fetched now. Such a document assembled from several responses has no single raw body: its
  // raw hash is that of the assembled document (so it covers every page and file, and is what
  // an offline replay of its capture reports).
  const assembled = source.page_token
    ? await fetchAllPages(source, source.page_token, response.text, requestUrl, fetcher)
    : source.bundle
      ? await fetchBundle(source, source.bundle, response.text, fetcher)
      : null;
  const document = assembled ?? response.text;
  const monitored = extractMonitored(source, document, opts.extract);
  const { written, meta } = await writeCapture(opts.sourcesDir, source, {
    content: monitored.content,
    sha256: monitored.sha256,
    // The answering URL carries the secrets of a source that has them: the capture names the definition's.
    url: withSecrets ? source.url : response.url,
    fetchedAt,
    httpStatus: response.status,
    contentType: response.contentType,
    etag: response.etag,
    lastModified: response.lastModified,
  });
  return {
    source,
    status: "ok",
    content: monitored.content,
    observedAt: meta.fetched_at,
    rawSha256: assembled === null ? sha256Hex(response.bytes) : sha256Hex(Buffer.from(assembled, "utf8")),
    monitoredSha256: monitored.sha256,
    httpStatus: response.status,
    changed: hasChanged(before, monitored.sha256),
    captureWritten: written,
  };
}

/** A paged JSON API: every page joined into one document, recorded like any other capture. */
async function collectPaged(
  source: SourceDefinition,
  pagination: NonNullable<SourceDefinition["pagination"]>,
  fetcher: Fetcher,
  opts: CollectOptions,
  before: SourceState | undefined,
): Promise<CollectResult> {
  const paged = await fetchPages(source, pagination, fetcher);
  const monitored = extractMonitored(source, paged.text, opts.extract);
  const { written, meta } = await writeCapture(opts.sourcesDir, source, {
    content: monitored.content,
    sha256: monitored.sha256,
    url: source.url,
    fetchedAt: toIsoSeconds(opts.clock.now()),
    httpStatus: paged.first.status,
    contentType: paged.first.contentType,
    etag: null,
    lastModified: null,
  });
  return {
    source,
    status: "ok",
    content: monitored.content,
    observedAt: meta.fetched_at,
    rawSha256: paged.rawSha256,
    monitoredSha256: monitored.sha256,
    httpStatus: paged.first.status,
    changed: hasChanged(before, monitored.sha256),
    captureWritten: written,
  };
}

/** Without fresh raw bytes (304, offline replay) the raw hash is carried while the content is the same. */
function carriedRawHash(before: SourceState | undefined, monitoredSha256: string): string | null {
  return before?.monitored_sha256 === monitoredSha256 ? before.raw_sha256 : null;
}

function hasChanged(before: SourceState | undefined, monitoredSha256: string): boolean {
  return before?.monitored_sha256 != null && before.monitored_sha256 !== monitoredSha256;
}

function optional<K extends string, V>(key: K, value: V | null): { [P in K]?: V } {
  return (value === null ? {} : { [key]: value }) as { [P in K]?: V };
}

function failure(source: SourceDefinition, error: unknown): CollectResult {
  const status = isCatalogError(error) ? error.details?.["status"] : undefined;
  return {
    source,
    status: "failed",
    error: error instanceof Error ? error.message : String(error),
    ...(typeof status === "number" ? { httpStatus: status } : {}),
  };
}

function logResult(log: Logger, result: CollectResult): void {
  const fields = {
    status: result.status,
    http_status: result.httpStatus ?? null,
    monitored_sha256: result.monitoredSha256 ?? null,
    changed: result.changed ?? false,
    duration_ms: Math.round(result.durationMs ?? 0),
  };
  if (result.status === "failed") log.warn({ ...fields, err: result.error }, "source failed");
  else if (result.status === "skipped")
    log.info({ ...fields, reason: result.skippedReason }, "source skipped");
  else log.info(fields, "source collected");
}
