/** A real HTTP server on a loopback address with per-path handlers, recording what it received. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void | Promise<void>;

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  at: number;
}

export interface TestServer {
  /** `http://<host>:<port>` */
  origin: string;
  host: string;
  port: number;
  route(path: string, handler: Handler): void;
  received: ReceivedRequest[];
  hits(path: string): number;
  /** Largest number of requests the server was handling at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

/** Counts requests in flight over several servers. */
export interface Gauge {
  now: number;
  max: number;
}

export async function startServer(host = "127.0.0.1", gauge?: Gauge): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  const received: ReceivedRequest[] = [];
  const counts = new Map<string, number>();
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    received.push({ path, headers: req.headers, at: performance.now() });
    const hit = (counts.get(path) ?? 0) + 1;
    counts.set(path, hit);
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    if (gauge) {
      gauge.now += 1;
      gauge.max = Math.max(gauge.max, gauge.now);
    }
    let finished = false;
    const done = () => {
      if (!finished) {
        finished = true;
        inFlight -= 1;
        if (gauge) gauge.now -= 1;
      }
    };
    res.on("close", done);
    const handler = routes.get(path);
    if (!handler) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    try {
      await handler(req, res, hit);
    } catch {
      res.destroy();
    }
  });
  server.keepAliveTimeout = 500;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    host,
    port,
    route: (path, handler) => routes.set(path, handler),
    received,
    hits: (path) => counts.get(path) ?? 0,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const html = (body: string, headers: Record<string, string> = {}): Handler => {
  return (_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
  };
};
