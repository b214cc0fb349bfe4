/**
 * The serve stage's public entry: the read-only /v1 server over a published release, and the
 * API-key file operations the `catalog keys` command uses.
 *
 * @example
 * const server = await startServer({ snapshotsDir: "snapshots", host: "127.0.0.1", port: 8080,
 *   watchLatest: true, logger });
 * // ... server.reload() on SIGHUP, server.close() on SIGTERM
 */
export { indexRelease, type ServedRelease } from "./catalog-index.js";
export { createKey, KEY_PREFIX, type KeyListing, listKeys, revokeKey } from "./keys.js";
export { ANONYMOUS_PLAN, DEFAULT_PLANS, loadPlans, PlansFile } from "./plans.js";
export { FileQuotaStore, type QuotaPeriod, type QuotaStore, quotaPeriod, RedisQuotaStore } from "./quota.js";
export { loadServedRelease, type RunningServer, type StartServerOptions, startServer } from "./server.js";
