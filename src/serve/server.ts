/**
 * The server's life: load and verify a release, build its indexes, listen, switch releases
 * without a restart (reload() / a changed snapshots/LATEST) and shut down gracefully.
 *
 * A release switch builds the new ServedRelease completely, then replaces one reference;
 * each request reads that reference once at its start, so no answer mixes two releases.
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { type Clock, systemClock } from "../lib/clock.js";
import { CatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import type { Logger } from "../lib/logger.js";
import { type PriceInterval, PricesFile, type ReleaseManifest } from "../schema/index.js";
import { buildOpenApiDocument, serializeOpenApiDocument } from "../schema/openapi.js";
import {
  CATALOG_FILE,
  loadTrustedRelease,
  openIndexedRelease,
  PRICES_FILE,
  readLatest,
  readManifest,
  readReleaseFile,
  SERVE_INDEX_FILE,
  verifyRelease,
} from "../snapshot/index.js";
import { type AppState, createHandler, plainAddress } from "./app.js";
import {
  DEFAULT_RECORD_CACHE,
  indexOpenedRelease,
  indexRelease,
  type ServedRelease,
} from "./catalog-index.js";
import { requestIdFor } from "./http.js";
import { KeyRing } from "./keys.js";
import { NO_QUOTA } from "./no-quota.js";
import { loadPlans } from "./plans.js";
import { FileQuotaStore, type QuotaStore, RedisQuotaStore } from "./quota.js";

export interface StartServerOptions {
  snapshotsDir: string;
  /** Serve this release instead of LATEST (and never follow LATEST). */
  releaseId?: string;
  host: string;
  port: number;
  keysFile?: string;
  plansFile?: string;
  /** Share quota counters through Redis; otherwise the embedded file store. */
  redisUrl?: string;
  /**
   * Embedded quota store file; default `$XDG_STATE_HOME/catalog/quota.json`, else `quota.json`
   * in the working directory (never inside the snapshots directory, which the server only reads).
   */
  quotaFile?: string;
  /** Apply no quota at all (internal deployments): nothing counted, no rate-limit headers. */
  noQuota?: boolean;
  /** Switch to a new release when snapshots/LATEST changes. */
  watchLatest: boolean;
  logger: Logger;
  clock?: Clock;
  /** How often LATEST is checked (default 1000 ms). */
  watchIntervalMs?: number;
  /** How long close() waits for in-flight requests before cutting connections (default 10 s). */
  drainTimeoutMs?: number;
  /** A client must send the whole request head within this time (default 10 s), else 408. */
  headersTimeoutMs?: number;
  /** A client must send the whole request, body included, within this time (default 30 s), else 408. */
  requestTimeoutMs?: number;
  /**
   * Addresses of the proxies in front of the server (exact IPs). From these peers the
   * anonymous quota counts the client address in X-Forwarded-For; from anyone else the header
   * is ignored. Default: none.
   */
  trustedProxies?: string[];
  /**
   * How many records of each kind (parsed deployments, deployment JSON, lifecycle JSON) the
   * served release keeps in memory, least recently used out beyond it (default
   * DEFAULT_RECORD_CACHE, 10,000; 0 keeps none).
   */
  recordCache?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  releaseId(): string;
  /** Reloads plans, keys and the release (LATEST, or the pinned release); resolves to the release id served. */
  reload(): Promise<string>;
  /** Prepared GET answers held for the served release: entries and bytes (keys and bodies). */
  responseCache(): { entries: number; bytes: number };
  /** Records the served release holds in memory now, per memo (each within `recordCache`). */
  recordCache(): { deployments: number; deploymentJson: number; lifecycleJson: number };
  close(): Promise<void>;
}

/** Where the embedded quota store lives by default: state, not part of any release. */
export function defaultQuotaFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_STATE_HOME ? join(env.XDG_STATE_HOME, "catalog", "quota.json") : resolve("quota.json");
}

/**
 * Loads, verifies (every file's SHA-256) and indexes a release. The build validated the
 * catalog before publishing it; once the hashes match, the server trusts it: a release with
 * serve-index.json is served from that index, each record read from catalog.json when a
 * request needs it (openIndexedRelease); one without it is parsed whole, its deployments not
 * run through the schema again (loadTrustedRelease).
 */
export async function loadServedRelease(
  snapshotsDir: string,
  releaseId?: string,
  recordCache: number = DEFAULT_RECORD_CACHE,
): Promise<ServedRelease> {
  const id = releaseId ?? (await readLatest(snapshotsDir));
  if (!id) throw new CatalogError("release_not_found", `no release published in ${snapshotsDir} (no LATEST)`);
  const manifest = await readManifest(snapshotsDir, id);
  if (manifest.files[SERVE_INDEX_FILE] === undefined) {
    const loaded = await loadTrustedRelease(snapshotsDir, id);
    // loadTrustedRelease has read and hash-checked catalog.json; the other files are checked here.
    await verifyOthers(snapshotsDir, id, [CATALOG_FILE]);
    return withPrices(indexRelease(loaded, recordCache), await readPrices(snapshotsDir, manifest));
  }
  const opened = await openIndexedRelease(snapshotsDir, manifest);
  try {
    await verifyOthers(snapshotsDir, id, [CATALOG_FILE, SERVE_INDEX_FILE]);
  } catch (error) {
    opened.catalog.close();
    throw error;
  }
  return withPrices(indexOpenedRelease(opened, recordCache), await readPrices(snapshotsDir, manifest));
}

/** prices.json by deployment id (hash-checked; empty for a release from before the file). */
async function readPrices(
  snapshotsDir: string,
  manifest: ReleaseManifest,
): Promise<Map<string, readonly PriceInterval[]>> {
  if (!manifest.files[PRICES_FILE]) return new Map();
  const text = (await readReleaseFile(snapshotsDir, manifest, PRICES_FILE)).toString("utf8");
  const file = PricesFile.parse(JSON.parse(text));
  return new Map(file.deployments.map((d) => [d.deployment_id, d.intervals]));
}

function withPrices(release: ServedRelease, prices: Map<string, readonly PriceInterval[]>): ServedRelease {
  release.prices = prices;
  return release;
}

/** Re-hashes the files of a release but those already checked; release_damaged on any problem. */
async function verifyOthers(snapshotsDir: string, releaseId: string, checked: string[]): Promise<void> {
  const problems = await verifyRelease(snapshotsDir, releaseId, checked);
  if (problems.length > 0)
    throw new CatalogError(
      "release_damaged",
      `release ${releaseId} is damaged: ${problems.map((p) => `${p.file}: ${p.problem}`).join("; ")}`,
      { problems },
    );
}

/** A problem body of the generic type, for answers outside the router (RFC 9457 about:blank). */
function rawProblem(status: number, title: string, detail: string): Buffer {
  return Buffer.from(
    JSON.stringify({ type: "about:blank", title, status, detail, request_id: requestIdFor(undefined) }),
  );
}

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const { logger } = opts;
  const clock = opts.clock ?? systemClock;
  const notAnAddress = (opts.trustedProxies ?? []).find((a) => isIP(a) === 0);
  if (notAnAddress !== undefined)
    throw new CatalogError("invalid_argument", `trusted proxy "${notAnAddress}" is not an IP address`);
  const { recordCache } = opts;
  if (recordCache !== undefined && !(Number.isSafeInteger(recordCache) && recordCache >= 0))
    throw new CatalogError("invalid_argument", `record cache size ${recordCache} is not a whole number`);
  const started = performance.now();
  const release = await loadServedRelease(opts.snapshotsDir, opts.releaseId, opts.recordCache);
  const loadMs = performance.now() - started;
  const plans = await loadPlans(opts.plansFile);
  const keys = new KeyRing(opts.keysFile, logger);
  await keys.load();
  const quota: QuotaStore = opts.noQuota
    ? NO_QUOTA
    : opts.redisUrl
      ? await RedisQuotaStore.connect(opts.redisUrl, logger)
      : await FileQuotaStore.open(opts.quotaFile ?? defaultQuotaFile(), logger);

  let openApi: { body: Buffer; digest: string } | null = null;
  const openApiDocument = () => {
    openApi ??= (() => {
      const body = Buffer.from(serializeOpenApiDocument(buildOpenApiDocument()));
      return { body, digest: sha256Hex(body) };
    })();
    return openApi;
  };

  const state: AppState = { release, plans, draining: false };
  const handler = createHandler({
    state,
    keys,
    quota,
    clock,
    logger,
    openApiDocument: () => openApiDocument().body,
    openApiDigest: () => openApiDocument().digest,
    trustedProxies: new Set((opts.trustedProxies ?? []).map(plainAddress)),
    snapshotsDir: opts.snapshotsDir,
  });

  let inFlight = 0;
  let drained: (() => void) | null = null;
  const headersTimeout = opts.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(opts.requestTimeoutMs ?? 30_000, headersTimeout);
  const server: Server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // how often node checks those two timeouts (its default, 30 s, would let them overrun)
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
      // answered below with a problem body instead of node's empty 400
      requireHostHeader: false,
    },
    (req, res) => {
      inFlight++;
      res.on("close", () => {
        inFlight--;
        if (inFlight === 0 && drained) drained();
      });
      if (req.httpVersion === "1.1" && req.headers.host === undefined) {
        res.shouldKeepAlive = false;
        const body = rawProblem(400, "Bad Request", "an HTTP/1.1 request must carry a Host header");
        res.writeHead(400, {
          "content-type": "application/problem+json",
          "content-length": String(body.length),
          "cache-control": "no-store",
        });
        res.end(req.method === "HEAD" ? undefined : body);
        return;
      }
      handler(req, res);
    },
  );
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    // An answer already on its way (or a connection already gone) gets nothing more: bytes
    // after a response would be read as the answer to the client's next request.
    const pending = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || error.code === "ECONNRESET" || pending?.headersSent) {
      socket.destroy();
      return;
    }
    // Not a request the router ever saw: an RFC 9457 problem of the generic type (about:blank).
    const [status, title, detail] =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [
            408,
            "Request Timeout",
            `the request was not received in time (head within ${headersTimeout} ms, whole request within ${requestTimeout} ms)`,
          ]
        : error.code === "HPE_HEADER_OVERFLOW"
          ? [431, "Request Header Fields Too Large", "the request head is too large"]
          : [400, "Bad Request", "the request is not valid HTTP/1.1"];
    logger.debug({ err: error.code ?? error.message, status }, "client error");
    const body = rawProblem(status, title, detail);
    socket.end(
      Buffer.concat([
        Buffer.from(
          `HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json\r\ncontent-length: ${body.length}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n`,
        ),
        body,
      ]),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      void quota.close();
      reject(
        new CatalogError(
          "io_failed",
          error.code === "EADDRINUSE"
            ? `cannot listen on ${opts.host}:${opts.port}: the port is in use`
            : `cannot listen on ${opts.host}:${opts.port}: ${error.message}`,
          {},
          { cause: error },
        ),
      );
    });
    server.listen(opts.port, opts.host, () => {
      server.removeAllListeners("error");
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  // Reloads run one at a time.
  let reloading: Promise<string> = Promise.resolve(release.releaseId);
  const reload = (): Promise<string> => {
    reloading = reloading
      .catch(() => state.release?.releaseId ?? "")
      .then(async () => {
        const nextPlans = await loadPlans(opts.plansFile);
        await keys.refreshIfChanged();
        const current = state.release;
        const wanted = opts.releaseId ?? (await readLatest(opts.snapshotsDir));
        state.plans = nextPlans;
        if (current && wanted === current.releaseId) return current.releaseId;
        const next = await loadServedRelease(opts.snapshotsDir, opts.releaseId, opts.recordCache);
        state.release = next;
        logger.info({ release: next.releaseId, previous: current?.releaseId ?? null }, "release switched");
        return next.releaseId;
      });
    return reloading;
  };

  let watchTimer: NodeJS.Timeout | null = null;
  if (opts.watchLatest && !opts.releaseId) {
    // A LATEST that fails to load is retried on every tick (a sync may write LATEST before the
    // release's objects arrive); the failure is logged once per release id and error.
    let lastFailure = "";
    watchTimer = setInterval(() => {
      readLatest(opts.snapshotsDir)
        .then((latest) => {
          if (latest && latest !== state.release?.releaseId)
            return reload().then(
              () => {
                lastFailure = "";
              },
              (error: Error) => {
                const failure = `${latest} ${error.message}`;
                if (failure === lastFailure) return;
                lastFailure = failure;
                logger.error(
                  { release: latest, err: error.message },
                  "cannot switch to the new LATEST yet; still serving the previous release, retrying",
                );
              },
            );
        })
        .catch((error: Error) => logger.error({ err: error.message }, "cannot read LATEST"));
    }, opts.watchIntervalMs ?? 1000);
    watchTimer.unref();
  }
  keys.watch();

  logger.info(
    {
      url,
      release: release.releaseId,
      deployments: release.deploymentCount,
      lifecycle: release.lifecycleCount,
      events: release.events.length,
      quota_store: quota.kind,
      load_ms: Math.round(loadMs),
    },
    "listening",
  );

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      state.draining = true;
      if (watchTimer) clearInterval(watchTimer);
      keys.stop();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        const timeout = new Promise<void>((resolve) =>
          setTimeout(resolve, opts.drainTimeoutMs ?? 10_000).unref(),
        );
        await Promise.race([new Promise<void>((resolve) => (drained = resolve)), timeout]);
      }
      server.closeAllConnections();
      await stopped;
      await quota.close();
      state.release?.close();
      logger.info({}, "server closed");
    })();
    return closing;
  };

  return {
    url,
    port: address.port,
    releaseId: () => state.release?.releaseId ?? "",
    reload,
    responseCache: () => ({
      entries: state.release?.answers.size ?? 0,
      bytes: state.release?.answers.byteSize ?? 0,
    }),
    recordCache: () => state.release?.cached() ?? { deployments: 0, deploymentJson: 0, lifecycleJson: 0 },
    close,
  };
}
