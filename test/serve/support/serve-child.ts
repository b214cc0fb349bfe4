/**
 * Child-process entry for the multi-process tests: runs the real server and prints one JSON
 * line `{"url": ...}` on stdout when listening; SIGTERM closes it gracefully.
 *   node --import ../../release/support/register.mjs serve-child.ts SNAPSHOTS KEYS PLANS REDIS_URL
 */
import { createLogger } from "../../../src/lib/logger.js";
import { startServer } from "../../../src/serve/index.js";

const [snapshotsDir, keysFile, plansFile, redisUrl] = process.argv.slice(2);
if (!snapshotsDir || !keysFile || !plansFile || !redisUrl)
  throw new Error("usage: serve-child.ts SNAPSHOTS KEYS PLANS REDIS_URL");
const server = await startServer({
  snapshotsDir,
  keysFile,
  plansFile,
  redisUrl,
  host: "127.0.0.1",
  port: 0,
  watchLatest: false,
  logger: createLogger({ fd: 2, level: "warn" }),
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.once("SIGTERM", () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
