/**
 * A server under load, in its own process. Prints one JSON line on stdout when listening.
 *
 *   node dist/bench/serve-child.js catalog <snapshotsDir> <keysFile> <plansFile> <quotaFile>
 *       the real `catalog serve` server on the published release
 *   node dist/bench/serve-child.js bare <bodyFile> <etag>
 *       the baseline: a bare node:http server sending the same bytes for every request
 *   node dist/bench/serve-child.js bare-post <bodyFile> <etag>
 *       the compare baseline: a minimal node:http handler that reads the request body, parses
 *       it as JSON and sends the same bytes
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { silentLogger } from "../src/lib/logger.js";
import { startServer } from "../src/serve/index.js";

const [mode, a, b, c, d] = process.argv.slice(2);
const rssBefore = process.memoryUsage().rss;
const started = performance.now();

if (mode === "catalog") {
  const server = await startServer({
    snapshotsDir: a as string,
    host: "127.0.0.1",
    port: 0,
    keysFile: b as string,
    plansFile: c as string,
    quotaFile: d as string,
    watchLatest: false,
    logger: silentLogger,
  });
  const startupMs = performance.now() - started;
  const mem = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({ port: server.port, startupMs, rssMb: mem.rss / 2 ** 20, heapMb: mem.heapUsed / 2 ** 20, rssBeforeMb: rssBefore / 2 ** 20 })}\n`,
  );
  process.once("SIGTERM", () => void server.close().then(() => process.exit(0)));
} else if (mode === "bare") {
  const body = await readFile(a as string);
  const etag = b as string;
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      "content-type": "application/json",
      "content-length": body.length,
      etag,
      "cache-control": "public, max-age=60",
    });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  });
  process.once("SIGTERM", () => server.close(() => process.exit(0)));
} else if (mode === "bare-post") {
  const body = await readFile(a as string);
  const etag = b as string;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      JSON.parse(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200, {
        "content-type": "application/json; charset=utf-8",
        "content-length": body.length,
        etag,
        "cache-control": "no-store",
      });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  });
  process.once("SIGTERM", () => server.close(() => process.exit(0)));
} else {
  throw new Error(`unknown mode ${mode}`);
}
