/**
 * The server's life: load and verify a release, build its indexes, listen, switch releases
 * without a restart (reload() / a changed snapshots/LATEST) and shut down gracefully. Start-up
 * (startServer), reload (createReload), the LATEST watcher (watchLatest) and the drain
 * (createDrain) are separate functions.
 *
 * A release switch builds the new ServedRelease completely, then replaces one reference;
 * each request reads that reference once at its start, so no answer mixes two releases.
 */

import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { AddressInfo } from "node:net";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { type Clock, systemClock } from "../lib/clock.js";
import { CatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import type { Logger } from "../lib/logger.js";
import type { PriceInterval, PricesFile, ReleaseManifest } from "../schema/index.js";
import { buildOpenApiDocument, serializeOpenApiDocument } from "../schema/openapi.js";
import {
  CATALOG_FILE,
  loadTrustedRelease,
  openIndexedRelease,
  PRICES_FILE,
  readLatest,
  readManifest,
  readReleaseFile,
  requireIntactRelease,
  SERVE_INDEX_FILE,
} from "../snapshot/index.js";
import { type AppState, createHandler, plainAddress } from "./app.js";
import {
  DEFAULT_RECORD_CACHE,
  indexOpenedRelease,
  indexRelease,
  type ServedRelease,
} from "./catalog-index.js";
import { forgetChain } from "./history.js";
import { ProblemError, problemBody, Reply, requestIdFor, STATUS, sendProblem } from "./http.js";
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
    await requireIntactRelease(snapshotsDir, id, [CATALOG_FILE]);
    return withPrices(indexRelease(loaded, recordCache), await readPrices(snapshotsDir, manifest));
  }
  const opened = await openIndexedRelease(snapshotsDir, manifest);
  try {
    await requireIntactRelease(snapshotsDir, id, [CATALOG_FILE, SERVE_INDEX_FILE]);
  } catch (error) {
    opened.catalog.close();
    throw error;
  }
  return withPrices(indexOpenedRelease(opened, recordCache), await readPrices(snapshotsDir, manifest));
}

/**
 * prices.json by deployment id (empty for a release from before the file). Hash-checked and,
 * like catalog.json and serve-index.json, trusted once its hash matches the manifest: the build
 * made it from facts the normalize stage validated. Only its shape is checked here (running
 * every interval through the schema was about half of a 100,000-deployment server's start-up).
 */
async function readPrices(
  snapshotsDir: string,
  manifest: ReleaseManifest,
): Promise<Map<string, readonly PriceInterval[]>> {
  if (!manifest.files[PRICES_FILE]) return new Map();
  const data = await readReleaseFile(snapshotsDir, manifest, PRICES_FILE);
  let file: PricesFile | null = null;
  try {
    file = JSON.parse(data.toString("utf8")) as PricesFile;
  } catch {
    // not JSON: damaged below
  }
  if (file?.format !== 1 || !Array.isArray(file.deployments))
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: ${PRICES_FILE} does not match the schema`,
    );
  return new Map(file.deployments.map((d) => [d.deployment_id, d.intervals]));
}

function withPrices(release: ServedRelease, prices: Map<string, readonly PriceInterval[]>): ServedRelease {
  release.prices = prices;
  return release;
}

/**
 * An answer written before (or instead of) the router: a problem with its code, `no-store`,
 * `Connection: close`; no body to a HEAD request (RFC 9110 9.3.2).
 */
function rawProblemResponse(
  error: ProblemError,
  isHead: boolean,
): { status: number; head: string; body: Buffer } {
  const requestId = requestIdFor(undefined);
  const body = problemBody(error, requestId);
  const status = STATUS[error.code];
  const head =
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\ncontent-type: application/problem+json\r\n` +
    `content-length: ${body.length}\r\ncache-control: no-store\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n`;
  return { status, head, body: isHead ? Buffer.alloc(0) : body };
}

/**
 * Whether the request a client error belongs to is a HEAD: the pending answer's request when
 * its head was parsed (a body that came too slowly), else the bytes the parser failed on (a
 * head too large or malformed, which starts with the request line). A head that never arrived
 * whole (a 408 before the request line ends) leaves the method unknown: it gets the body.
 */
function clientErrorIsHead(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: unknown): boolean {
  const pending = (socket as { _httpMessage?: { req?: { method?: string } } })._httpMessage;
  if (pending?.req?.method !== undefined) return pending.req.method === "HEAD";
  return error.rawPacket?.subarray(0, 5).toString("latin1") === "HEAD ";
}

function checkOptions(opts: StartServerOptions): void {
  const notAnAddress = (opts.trustedProxies ?? []).find((a) => isIP(a) === 0);
  if (notAnAddress !== undefined)
    throw new CatalogError("invalid_argument", `trusted proxy "${notAnAddress}" is not an IP address`);
  const { recordCache } = opts;
  if (recordCache !== undefined && !(Number.isSafeInteger(recordCache) && recordCache >= 0))
    throw new CatalogError("invalid_argument", `record cache size ${recordCache} is not a whole number`);
}

function openQuotaStore(opts: StartServerOptions): Promise<QuotaStore> {
  if (opts.noQuota) return Promise.resolve(NO_QUOTA);
  if (opts.redisUrl) return RedisQuotaStore.connect(opts.redisUrl, opts.logger);
  return FileQuotaStore.open(opts.quotaFile ?? defaultQuotaFile(), opts.logger);
}

/** The OpenAPI document, serialized on first need, and its digest. */
function lazyOpenApi(): { body: () => Buffer; digest: () => string } {
  let openApi: { body: Buffer; digest: string } | null = null;
  const get = () => {
    if (!openApi) {
      const body = Buffer.from(serializeOpenApiDocument(buildOpenApiDocument()));
      openApi = { body, digest: sha256Hex(body) };
    }
    return openApi;
  };
  return { body: () => get().body, digest: () => get().digest };
}

/** Requests being answered, and a way to wait until none is. */
class InFlight {
  private count = 0;
  private idle: (() => void) | null = null;

  track(res: ServerResponse): void {
    this.count++;
    res.on("close", () => {
      this.count--;
      if (this.count === 0 && this.idle) this.idle();
    });
  }

  /** Resolves when no request is in flight, or after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([new Promise<void>((resolve) => (this.idle = resolve)), timeout]);
  }
}

/** The HTTP server: node's timeouts, the Host check, and problem answers to broken requests. */
function createHttpServer(
  opts: StartServerOptions,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  inFlight: InFlight,
): Server {
  const { logger } = opts;
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
      inFlight.track(res);
      if (req.httpVersion === "1.1" && req.headers.host === undefined) {
        res.shouldKeepAlive = false;
        const reply = new Reply(requestIdFor(req.headers["x-request-id"]), req.method === "HEAD");
        sendProblem(
          res,
          reply,
          new ProblemError("bad_request", "an HTTP/1.1 request must carry a Host header"),
          true,
        );
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
    // Not a request the router ever saw: an RFC 9457 problem with its code all the same.
    const problem =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? new ProblemError(
            "request_timeout",
            `the request was not received in time (head within ${headersTimeout} ms, whole request within ${requestTimeout} ms)`,
          )
        : error.code === "HPE_HEADER_OVERFLOW"
          ? new ProblemError("request_header_fields_too_large", "the request line and headers are too large")
          : new ProblemError("bad_request", "the request is not valid HTTP/1.1");
    const answer = rawProblemResponse(problem, clientErrorIsHead(error, socket));
    logger.debug({ err: error.code ?? error.message, status: answer.status }, "client error");
    socket.end(Buffer.concat([Buffer.from(answer.head, "latin1"), answer.body]));
  });
  return server;
}

/** Listens on the configured address; the URL it answers on. */
async function listen(server: Server, opts: StartServerOptions): Promise<{ url: string; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
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
  return { url: `http://${host}:${address.port}`, port: address.port };
}

/**
 * The reload: plans, keys, and the release (LATEST, or the pinned one), one at a time. A new
 * release is loaded and verified whole before it replaces the served one; the same release has
 * its files hashed again and its chain verified again on next use.
 */
function createReload(opts: StartServerOptions, state: AppState, keys: KeyRing): () => Promise<string> {
  let reloading: Promise<string> = Promise.resolve(state.release?.releaseId ?? "");
  return () => {
    reloading = reloading
      .catch(() => state.release?.releaseId ?? "")
      .then(async () => {
        const nextPlans = await loadPlans(opts.plansFile);
        await keys.refreshIfChanged();
        const current = state.release;
        const wanted = opts.releaseId ?? (await readLatest(opts.snapshotsDir));
        state.plans = nextPlans;
        if (current && wanted === current.releaseId) {
          await requireIntactRelease(opts.snapshotsDir, current.releaseId, []);
          forgetChain(current);
          return current.releaseId;
        }
        const next = await loadServedRelease(opts.snapshotsDir, opts.releaseId, opts.recordCache);
        state.release = next;
        opts.logger.info(
          { release: next.releaseId, previous: current?.releaseId ?? null },
          "release switched",
        );
        return next.releaseId;
      });
    return reloading;
  };
}

/**
 * Follows snapshots/LATEST: a changed one is reloaded. A LATEST that fails to load is retried on
 * every tick (a sync may write LATEST before the release's objects arrive), the failure logged
 * once per release id and error; a LATEST that cannot be read (malformed) is logged once per
 * distinct error (its content). Returns the timer, to stop it.
 */
function watchLatest(
  opts: StartServerOptions,
  state: AppState,
  reload: () => Promise<string>,
): NodeJS.Timeout {
  const { logger } = opts;
  let lastFailure = "";
  let lastReadError = "";
  const timer = setInterval(() => {
    readLatest(opts.snapshotsDir)
      .then((latest) => {
        lastReadError = "";
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
      .catch((error: Error) => {
        if (error.message === lastReadError) return;
        lastReadError = error.message;
        logger.error({ err: error.message }, "cannot read LATEST; still serving the previous release");
      });
  }, opts.watchIntervalMs ?? 1000);
  timer.unref();
  return timer;
}

/**
 * The drain: stop accepting connections, let in-flight requests finish (at most
 * `drainTimeoutMs`), cut the rest, then close the quota store and the release. Runs once.
 */
function createDrain(parts: {
  opts: StartServerOptions;
  state: AppState;
  server: Server;
  inFlight: InFlight;
  keys: KeyRing;
  quota: QuotaStore;
  watchTimer: NodeJS.Timeout | null;
}): () => Promise<void> {
  const { opts, state, server, inFlight, keys, quota, watchTimer } = parts;
  let closing: Promise<void> | null = null;
  return () => {
    closing ??= (async () => {
      state.draining = true;
      if (watchTimer) clearInterval(watchTimer);
      keys.stop();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await inFlight.settled(opts.drainTimeoutMs ?? 10_000);
      server.closeAllConnections();
      await stopped;
      await quota.close();
      state.release?.close();
      opts.logger.info({}, "server closed");
    })();
    return closing;
  };
}

/** Start-up: check the options, load and verify the release, open keys, plans and quota, listen. */
export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const { logger } = opts;
  checkOptions(opts);
  const started = performance.now();
  const release = await loadServedRelease(opts.snapshotsDir, opts.releaseId, opts.recordCache);
  const loadMs = performance.now() - started;
  const plans = await loadPlans(opts.plansFile);
  const keys = new KeyRing(opts.keysFile, logger);
  await keys.load();
  const quota = await openQuotaStore(opts);

  const openApi = lazyOpenApi();
  const state: AppState = { release, plans, draining: false };
  const handler = createHandler({
    state,
    keys,
    quota,
    clock: opts.clock ?? systemClock,
    logger,
    openApiDocument: openApi.body,
    openApiDigest: openApi.digest,
    trustedProxies: new Set((opts.trustedProxies ?? []).map(plainAddress)),
    snapshotsDir: opts.snapshotsDir,
  });
  const inFlight = new InFlight();
  const server = createHttpServer(opts, handler, inFlight);
  const { url, port } = await listen(server, opts).catch(async (error: unknown) => {
    await quota.close();
    throw error;
  });

  const reload = createReload(opts, state, keys);
  const watchTimer = opts.watchLatest && !opts.releaseId ? watchLatest(opts, state, reload) : null;
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

  return {
    url,
    port,
    releaseId: () => state.release?.releaseId ?? "",
    reload,
    responseCache: () => ({
      entries: state.release?.answers.size ?? 0,
      bytes: state.release?.answers.byteSize ?? 0,
    }),
    recordCache: () => state.release?.cached() ?? { deployments: 0, deploymentJson: 0, lifecycleJson: 0 },
    close: createDrain({ opts, state, server, inFlight, keys, quota, watchTimer }),
  };
}
