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
import { CATALOG_FILE, loadRelease, readLatest, verifyRelease } from "../release/artifact.js";
import { buildOpenApiDocument, serializeOpenApiDocument } from "../schema/openapi.js";
import { type AppState, createHandler, plainAddress } from "./app.js";
import { indexRelease, type ServedRelease } from "./catalog-index.js";
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
  /**
   * Addresses of the proxies in front of the server (exact IPs). From these peers the
   * anonymous quota counts the client address in X-Forwarded-For; from anyone else the header
   * is ignored. Default: none.
   */
  trustedProxies?: string[];
}

export interface RunningServer {
  url: string;
  port: number;
  releaseId(): string;
  /** Reloads plans, keys and the release (LATEST, or the pinned release); resolves to the release id served. */
  reload(): Promise<string>;
  close(): Promise<void>;
}

/** Where the embedded quota store lives by default: state, not part of any release. */
export function defaultQuotaFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.XDG_STATE_HOME ? join(env.XDG_STATE_HOME, "catalog", "quota.json") : resolve("quota.json");
}

/** Loads, verifies (every file's SHA-256) and indexes a release. */
export async function loadServedRelease(snapshotsDir: string, releaseId?: string): Promise<ServedRelease> {
  const loaded = await loadRelease(snapshotsDir, releaseId);
  // loadRelease has read and hash-checked catalog.json; the other files are checked here.
  const problems = await verifyRelease(snapshotsDir, loaded.manifest.release_id, [CATALOG_FILE]);
  if (problems.length > 0)
    throw new CatalogError(
      "release_damaged",
      `release ${loaded.manifest.release_id} is damaged: ${problems.map((p) => `${p.file}: ${p.problem}`).join("; ")}`,
      { problems },
    );
  return indexRelease(loaded);
}

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const { logger } = opts;
  const clock = opts.clock ?? systemClock;
  const notAnAddress = (opts.trustedProxies ?? []).find((a) => isIP(a) === 0);
  if (notAnAddress !== undefined)
    throw new CatalogError("invalid_argument", `trusted proxy "${notAnAddress}" is not an IP address`);
  const started = performance.now();
  const release = await loadServedRelease(opts.snapshotsDir, opts.releaseId);
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
  const server: Server = createServer((req, res) => {
    inFlight++;
    res.on("close", () => {
      inFlight--;
      if (inFlight === 0 && drained) drained();
    });
    handler(req, res);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    // Not a request the router ever saw: an RFC 9457 problem of the generic type (about:blank).
    const body = JSON.stringify({
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: "the request is not valid HTTP/1.1",
      request_id: requestIdFor(undefined),
    });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
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
        const next = await loadServedRelease(opts.snapshotsDir, opts.releaseId);
        state.release = next;
        logger.info({ release: next.releaseId, previous: current?.releaseId ?? null }, "release switched");
        return next.releaseId;
      });
    return reloading;
  };

  let watchTimer: NodeJS.Timeout | null = null;
  if (opts.watchLatest && !opts.releaseId) {
    let lastFailure = "";
    watchTimer = setInterval(() => {
      readLatest(opts.snapshotsDir)
        .then((latest) => {
          if (latest && latest !== state.release?.releaseId && latest !== lastFailure)
            return reload().catch((error: Error) => {
              lastFailure = latest;
              logger.error(
                { release: latest, err: error.message },
                "cannot switch to the new LATEST; still serving the previous release",
              );
            });
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
      deployments: release.deployments.length,
      lifecycle: release.lifecycle.length,
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
      logger.info({}, "server closed");
    })();
    return closing;
  };

  return {
    url,
    port: address.port,
    releaseId: () => state.release?.releaseId ?? "",
    reload,
    close,
  };
}
