/**
 * Server test harness: a temp snapshots directory with the fixture release, a real server on
 * a random loopback port, a raw HTTP client (node:http, so requests go out exactly as written)
 * and a logger that captures every log line for assertions.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import type { Clock } from "../../../src/lib/clock.js";
import type { Logger } from "../../../src/lib/logger.js";
import { type RunningServer, type StartServerOptions, startServer } from "../../../src/serve/index.js";
import { publishFixture } from "./fixture.js";

export interface CapturedLogger {
  logger: Logger;
  lines: () => Array<Record<string, unknown>>;
  text: () => string;
}

export function captureLogger(): CapturedLogger {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  const logger = pino({ level: "debug", base: undefined }, stream);
  return {
    logger,
    text: () => chunks.join(""),
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are inspected freely
  json: () => any;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer; agent?: Agent | false } = {},
): Promise<Answer> {
  const url = new URL(baseUrl);
  // A body is always framed. Node's client sends a DELETE (or OPTIONS) body with neither
  // Content-Length nor Transfer-Encoding; the server then rightly reads those bytes as the
  // next request on the connection, answers them 400 and closes, and the client takes that
  // answer for its next request on the pooled socket (a HEAD then fails with "Data after
  // `Connection: close`").
  const headers = { ...options.headers };
  const named = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
  if (options.body !== undefined && !named.has("content-length") && !named.has("transfer-encoding"))
    headers["content-length"] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers,
        agent: options.agent === undefined ? agent : options.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          const text = body.toString("utf8");
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text,
            json: () => JSON.parse(text),
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

export interface TestServer {
  server: RunningServer;
  dir: string;
  snapshotsDir: string;
  releaseId: string;
  log: CapturedLogger;
  get: (path: string, headers?: Record<string, string>) => Promise<Answer>;
  head: (path: string, headers?: Record<string, string>) => Promise<Answer>;
  post: (path: string, body: unknown, headers?: Record<string, string>) => Promise<Answer>;
  stop: () => Promise<void>;
}

/** Options of a server on `snapshotsDir` on a free loopback port, quota file in `dir`, not watching LATEST. */
export function serverOptions(snapshotsDir: string, dir: string) {
  return {
    snapshotsDir,
    host: "127.0.0.1",
    port: 0,
    watchLatest: false,
    logger: captureLogger().logger,
    quotaFile: join(dir, "quota.json"),
  } satisfies StartServerOptions;
}

export async function makeTempDir(prefix = "serve-test-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** A server on the fixture release (published as the build does, or catalog-only) in a fresh temp directory (or the given one). */
export async function startTestServer(
  options: Partial<StartServerOptions> & {
    dir?: string;
    clock?: Clock;
    fixtureFormat?: "indexed" | "catalog-only";
  } = {},
): Promise<TestServer> {
  const dir = options.dir ?? (await makeTempDir());
  const snapshotsDir = options.snapshotsDir ?? join(dir, "snapshots");
  const releaseId = await publishFixture(snapshotsDir, undefined, null, options.fixtureFormat);
  const log = captureLogger();
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    watchLatest: false,
    quotaFile: join(dir, "quota.json"),
    ...options,
    snapshotsDir,
    logger: log.logger,
  });
  const base = server.url;
  return {
    server,
    dir,
    snapshotsDir,
    releaseId,
    log,
    get: (path, headers) => call(base, "GET", path, { headers }),
    head: (path, headers) => call(base, "HEAD", path, { headers }),
    post: (path, body, headers) =>
      call(base, "POST", path, {
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    stop: async () => {
      await server.close();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A mutable clock for month-boundary tests. */
export function settableClock(iso: string): Clock & { set: (iso: string) => void } {
  let at = new Date(iso);
  return { now: () => new Date(at.getTime()), set: (next: string) => (at = new Date(next)) };
}
