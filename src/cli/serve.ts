/**
 * `catalog serve`: every setting from a flag or an environment variable (flags win):
 * CATALOG_SNAPSHOTS, CATALOG_RELEASE, HOST, PORT, CATALOG_KEYS, CATALOG_PLANS, REDIS_URL,
 * CATALOG_QUOTA_FILE, CATALOG_TRUST_PROXY, CATALOG_RECORD_CACHE, LOG_LEVEL. SIGHUP reloads LATEST; SIGTERM/SIGINT drain and exit.
 */

import { resolve } from "node:path";
import type { Command } from "commander";
import { DEFAULT_RECORD_CACHE } from "../serve/defaults.js";
import { DEFAULT_KEYS_FILE, parseCount, parsePort, snapshotsDir } from "./options.js";

interface ServeFlags {
  snapshots?: string;
  release?: string;
  host?: string;
  port?: string;
  keys?: string;
  plans?: string;
  redis?: string;
  quotaFile?: string;
  watch?: boolean;
  trustProxy?: string[];
  quota?: boolean;
  recordCache?: string;
}

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("serve the published release read-only over /v1")
    .option("--snapshots <dir>", "releases directory (env CATALOG_SNAPSHOTS)")
    .option("--release <id>", "serve this release instead of LATEST (env CATALOG_RELEASE)")
    .option("--host <host>", "listen address (env HOST)")
    .option("--port <n>", "listen port (env PORT)")
    .option("--keys <file>", `API keys file (env CATALOG_KEYS, default ${DEFAULT_KEYS_FILE})`)
    .option("--plans <file>", "plans JSON file (env CATALOG_PLANS)")
    .option("--redis <url>", "share quota counters through Redis (env REDIS_URL)")
    .option(
      "--quota-file <file>",
      "embedded quota store file (env CATALOG_QUOTA_FILE; default $XDG_STATE_HOME/catalog/quota.json, else ./quota.json)",
    )
    .option(
      "--no-quota",
      "apply no quota (internal deployments; env CATALOG_NO_QUOTA=1): no rate-limit headers",
    )
    .option("--no-watch", "do not switch releases when snapshots/LATEST changes")
    .option(
      "--trust-proxy <addresses...>",
      "proxy IPs whose X-Forwarded-For gives the client address for the anonymous quota (env CATALOG_TRUST_PROXY, comma-separated)",
    )
    .option(
      "--record-cache <n>",
      `records of each kind kept parsed and serialized in memory, least recently used out (env CATALOG_RECORD_CACHE, default ${DEFAULT_RECORD_CACHE.toLocaleString("en-US")})`,
    )
    .action(async (flags: ServeFlags) => {
      // loaded when the command runs: `catalog <command>` starts without the other commands' code
      const [{ createLogger, endLogger }, { resolveReleaseId }, { startServer }] = await Promise.all([
        import("../lib/logger.js"),
        import("../release/history.js"),
        import("../serve/server.js"),
      ]);
      const env = process.env;
      // the access log is written asynchronously: a line per request without a write per request
      const logger = createLogger({
        fd: 1,
        level: env.LOG_LEVEL ?? "info",
        name: "catalog-serve",
        sync: false,
      });
      const pick = (flag: string | undefined, name: string) => flag ?? env[name];
      const optionalPath = (value: string | undefined) => (value ? resolve(value) : undefined);
      const snapshots = snapshotsDir(flags.snapshots);
      const release = pick(flags.release, "CATALOG_RELEASE");
      const recordCache = pick(flags.recordCache, "CATALOG_RECORD_CACHE");
      const server = await startServer({
        snapshotsDir: snapshots,
        releaseId: release ? await resolveReleaseId(snapshots, release) : undefined,
        host: pick(flags.host, "HOST") ?? "127.0.0.1",
        port: parsePort(pick(flags.port, "PORT") ?? "8080"),
        keysFile: resolve(pick(flags.keys, "CATALOG_KEYS") ?? DEFAULT_KEYS_FILE),
        plansFile: optionalPath(pick(flags.plans, "CATALOG_PLANS")),
        redisUrl: pick(flags.redis, "REDIS_URL"),
        quotaFile: optionalPath(pick(flags.quotaFile, "CATALOG_QUOTA_FILE")),
        noQuota: flags.quota === false || env.CATALOG_NO_QUOTA === "1",
        watchLatest: flags.watch !== false && !pick(flags.release, "CATALOG_RELEASE"),
        trustedProxies:
          flags.trustProxy ??
          (env.CATALOG_TRUST_PROXY ?? "")
            .split(",")
            .map((a) => a.trim())
            .filter((a) => a !== ""),
        recordCache: recordCache === undefined ? undefined : parseCount("--record-cache", recordCache),
        logger,
      });
      process.on("SIGHUP", () => {
        server.reload().then(
          (id) => logger.info({ release: id }, "release reloaded"),
          (error: Error) =>
            logger.error({ err: error.message }, "reload failed; still serving the previous release"),
        );
      });
      // the asynchronous log's lines are all written before the process exits (endLogger)
      const exit = (code: number) => void endLogger(logger).then(() => process.exit(code));
      const shutdown = (signal: string) => {
        logger.info({ signal }, "shutting down");
        server.close().then(
          () => exit(0),
          () => exit(1),
        );
      };
      process.once("SIGTERM", () => shutdown("SIGTERM"));
      process.once("SIGINT", () => shutdown("SIGINT"));
    });
}
