/**
 * The serve stage's public entry, only what other stages use: the read-only /v1 server over a
 * published release (`catalog serve`, the bench), and the plans and API-key file operations
 * of `catalog keys`. Tests of the stage import its files directly.
 *
 * @example
 * const server = await startServer({ snapshotsDir: "snapshots", host: "127.0.0.1", port: 8080,
 *   watchLatest: true, logger });
 * // ... server.reload() on SIGHUP, server.close() on SIGTERM
 */
export { DEFAULT_RECORD_CACHE } from "./catalog-index.js";
export { createKey, listKeys, revokeKey } from "./keys.js";
export { loadPlans } from "./plans.js";
export { type RunningServer, type StartServerOptions, startServer } from "./server.js";
