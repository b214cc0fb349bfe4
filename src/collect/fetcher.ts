/**
 * The fetch policy for monitored sources (undici 7 + p-queue 9). One Fetcher per build owns one
 * undici Agent and the queues:
 * - a global concurrency limit, and per host a concurrency limit and a minimum interval between
 *   request starts (a sliding window, so a host never sees two starts closer than the interval);
 *   a request takes its host slot first and then a global slot, so a global slot is never held
 *   while waiting for a busy host;
 * - connect / headers / body (idle) timeouts on the Agent and an overall deadline per source
 *   that covers every attempt, redirect and backoff, so a body that trickles forever still ends;
 * - a body-size cap, checked against Content-Length and while streaming;
 * - redirects followed by hand (at most `maxRedirects`), each hop re-checked against the
 *   source's allowed hosts; an https -> http downgrade is refused;
 * - every address a hostname resolves to is checked after DNS resolution (a custom
 *   `connect.lookup`), and IP literals before connecting: only public unicast addresses are
 *   allowed (see address.ts), loopback only with the test-only `allowLoopback`;
 * - retries with capped exponential backoff and full jitter on network errors, timeouts, 429 and
 *   5xx, honouring Retry-After (seconds or HTTP-date) up to a cap;
 * - conditional GET with the stored ETag / Last-Modified (304 -> "not_modified");
 * - the Content-Type must match the source format, and the body is decoded strictly
 *   (`TextDecoder(charset, { fatal: true })`): invalid bytes are an error, never U+FFFD.
 * Every failure is a CatalogError("fetch_failed") whose message names the URL, host, HTTP status
 * where there is one, the reason and the number of attempts.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import PQueue from "p-queue";
import { Agent, request } from "undici";
import { type Clock, systemClock } from "../lib/clock.js";
import { CatalogError } from "../lib/errors.js";
import type { SourceFormat } from "../schema/index.js";
import { classifyAddress, isAddressAllowed } from "./address.js";

export const USER_AGENT = "llm-deployment-catalog/0.1 (+https://github.com/llm-deployment-catalog/catalog)";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Resolves a hostname to every address it has (injectable so tests can simulate DNS answers). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface FetcherOptions {
  /** Requests in flight at once, over all hosts. */
  concurrency?: number;
  /** Requests in flight at once to one host. */
  perHostConcurrency?: number;
  /** Minimum time between two request starts to one host (0 = no pacing). */
  perHostIntervalMs?: number;
  connectTimeoutMs?: number;
  /** Time from sending the request until the response headers have arrived. */
  headersTimeoutMs?: number;
  /** Longest silence between two body chunks. */
  bodyTimeoutMs?: number;
  /** Overall time for one source: all attempts, redirects and backoff sleeps. */
  deadlineMs?: number;
  maxBodyBytes?: number;
  maxRedirects?: number;
  /** Retries after the first attempt. */
  retries?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A Retry-After longer than this is shortened to it. */
  retryAfterMaxMs?: number;
  /** Test-only: allow loopback addresses (the test server listens on 127.0.0.1). */
  allowLoopback?: boolean;
  resolver?: Resolver;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1); used for backoff jitter. */
  random?: () => number;
  /** For HTTP-date Retry-After values. */
  clock?: Clock;
  userAgent?: string;
  /**
   * The rehearsal's origin rewrite (`npm run rehearse`, docs/rehearsal.md): a request to an
   * origin listed here (`https://docs.x.ai`) is sent to the mapped base URL instead
   * (`http://127.0.0.1:4321/https/docs.x.ai`, the origin replaced and the path and query kept).
   * Everything else sees the source's own URL: allowed hosts, redirects, pacing per host, the
   * URL a capture records and every message. The targets are set by the rehearsal, never by a
   * source, and are not subject to the address guard. Empty by default: nothing is rewritten.
   */
  origins?: Readonly<Record<string, string>>;
}

export const DEFAULT_FETCHER_OPTIONS = {
  concurrency: 8,
  perHostConcurrency: 2,
  perHostIntervalMs: 250,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 20_000,
  bodyTimeoutMs: 20_000,
  deadlineMs: 90_000,
  maxBodyBytes: 20 * 1024 * 1024,
  maxRedirects: 5,
  retries: 3,
  backoffBaseMs: 500,
  backoffMaxMs: 10_000,
  retryAfterMaxMs: 30_000,
} as const;

export interface FetchRequest {
  url: string;
  format: SourceFormat;
  /** Hosts a redirect may lead to besides the URL's own host. */
  allowedHosts?: readonly string[];
  /** Validators of the stored capture, for a conditional GET. */
  conditional?: { etag: string | null; lastModified: string | null } | null;
}

interface ResponseCommon {
  /** The URL that finally answered (after redirects). */
  url: string;
  status: number;
  etag: string | null;
  lastModified: string | null;
  attempts: number;
}
export interface FetchedBody extends ResponseCommon {
  kind: "ok";
  contentType: string;
  charset: string;
  bytes: Uint8Array;
  text: string;
}
export interface NotModified extends ResponseCommon {
  kind: "not_modified";
}
export type FetchResponse = FetchedBody | NotModified;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A failure of one attempt; `retryable` decides whether the next attempt is made. */
class AttemptError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly extra: { status?: number; retryAfterMs?: number } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

class AddressRefusedError extends Error {
  readonly code = "ERR_CATALOG_ADDRESS_REFUSED";
}

type Exchange =
  | { kind: "redirect"; status: number; location: string }
  | { kind: "not_modified"; status: number; etag: string | null; lastModified: string | null }
  | {
      kind: "ok";
      status: number;
      contentType: string;
      bytes: Uint8Array;
      etag: string | null;
      lastModified: string | null;
    };

export class Fetcher {
  readonly options: Required<Omit<FetcherOptions, "resolver">> & { resolver: Resolver };
  private readonly agent: Agent;
  private readonly global: PQueue;
  private readonly hosts = new Map<string, PQueue>();

  constructor(options: FetcherOptions = {}) {
    this.options = {
      ...DEFAULT_FETCHER_OPTIONS,
      allowLoopback: false,
      resolver: systemResolver,
      sleep: abortableSleep,
      random: Math.random,
      clock: systemClock,
      userAgent: USER_AGENT,
      origins: {},
      ...stripUndefined(options),
    };
    this.global = new PQueue({ concurrency: this.options.concurrency });
    this.agent = new Agent({
      connect: { timeout: this.options.connectTimeoutMs, lookup: this.lookup },
      headersTimeout: this.options.headersTimeoutMs,
      bodyTimeout: this.options.bodyTimeoutMs,
      maxRedirections: 0,
    } as Agent.Options);
  }

  /** Fetches one source under the whole policy; throws CatalogError("fetch_failed"). */
  async fetch(req: FetchRequest): Promise<FetchResponse> {
    const { deadlineMs, retries } = this.options;
    const started = performance.now();
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new AttemptError(`deadline of ${deadlineMs} ms exceeded`, false)),
      deadlineMs,
    );
    const first = safeUrl(req.url);
    let attempt = 0;
    try {
      for (;;) {
        attempt += 1;
        try {
          return await this.attempt(req, first, attempt, deadline.signal);
        } catch (error) {
          const failure = deadline.signal.aborted
            ? new AttemptError(
                `deadline of ${deadlineMs} ms exceeded${error instanceof AttemptError && error !== deadline.signal.reason ? ` (${error.message})` : ""}`,
                false,
              )
            : toAttemptError(error);
          const context = {
            url: req.url,
            host: first.hostname,
            attempts: attempt,
            status: failure.extra.status,
          };
          if (!failure.retryable || attempt > retries)
            throw fetchFailed(`${failure.message} (after ${plural(attempt, "attempt")})`, context, error);
          const delay =
            failure.extra.retryAfterMs !== undefined
              ? Math.min(failure.extra.retryAfterMs, this.options.retryAfterMaxMs)
              : Math.floor(
                  this.options.random() *
                    Math.min(this.options.backoffMaxMs, this.options.backoffBaseMs * 2 ** (attempt - 1)),
                );
          if (performance.now() - started + delay > deadlineMs)
            throw fetchFailed(
              `${failure.message}; a retry in ${delay} ms would pass the deadline of ${deadlineMs} ms (after ${plural(attempt, "attempt")})`,
              context,
              error,
            );
          try {
            await this.options.sleep(delay, deadline.signal);
          } catch {
            throw fetchFailed(
              `${failure.message}; deadline of ${deadlineMs} ms exceeded while waiting to retry (after ${plural(attempt, "attempt")})`,
              context,
              error,
            );
          }
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the connection pool; the Fetcher cannot be used afterwards. */
  async close(): Promise<void> {
    await this.agent.close();
  }

  /** One attempt: the redirect chain from the source URL to a final answer. */
  private async attempt(
    req: FetchRequest,
    first: URL,
    attempts: number,
    signal: AbortSignal,
  ): Promise<FetchResponse> {
    const allowed = new Set([first.hostname, ...(req.allowedHosts ?? [])].map(hostKey));
    let url = first;
    for (let hop = 0; ; hop++) {
      this.checkTarget(url, first, allowed);
      const current = url;
      const exchange = await this.schedule(current.hostname, signal, () =>
        this.exchange(current, req, signal),
      );
      if (exchange.kind === "redirect") {
        if (hop >= this.options.maxRedirects)
          throw new AttemptError(
            `too many redirects (more than ${this.options.maxRedirects}) starting at ${first.href}`,
            false,
            { status: exchange.status },
          );
        url = resolveLocation(exchange.location, current, exchange.status);
        continue;
      }
      if (exchange.kind === "not_modified") {
        if (!req.conditional?.etag && !req.conditional?.lastModified)
          throw new AttemptError(`HTTP 304 from ${current.host} to an unconditional request`, false, {
            status: 304,
          });
        return { ...exchange, url: current.href, attempts };
      }
      const { mediaType, charset: declared } = parseContentType(exchange.contentType);
      const charset = declared ?? sniffCharset(exchange.bytes, mediaType) ?? "utf-8";
      return {
        ...exchange,
        url: current.href,
        attempts,
        charset,
        text: decodeStrict(exchange.bytes, charset, current.host),
      };
    }
  }

  private checkTarget(url: URL, first: URL, allowed: Set<string>): void {
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new AttemptError(`refusing ${url.href}: only http and https are fetched`, false);
    if (first.protocol === "https:" && url.protocol === "http:")
      throw new AttemptError(`refusing redirect to ${url.href}: https -> http downgrade`, false);
    if (!allowed.has(hostKey(url.hostname)))
      throw new AttemptError(
        `refusing redirect to ${url.href}: host ${url.hostname} is not allowed for this source (allowed: ${[...allowed].join(", ")})`,
        false,
      );
    // IP literals never reach `lookup`, so they are checked here.
    const literal = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(literal) && !isAddressAllowed(literal, this.options))
      throw new AttemptError(
        `refusing ${url.href}: ${literal} is a ${classifyAddress(literal).replace("_", "-")} address`,
        false,
      );
  }

  /** Runs `task` holding a slot of the host's queue, then a slot of the global queue. */
  private schedule<T>(hostname: string, signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    const key = hostKey(hostname);
    let host = this.hosts.get(key);
    if (!host) {
      const { perHostConcurrency, perHostIntervalMs } = this.options;
      host =
        perHostIntervalMs > 0
          ? new PQueue({
              concurrency: perHostConcurrency,
              intervalCap: 1,
              interval: perHostIntervalMs,
              strict: true,
            })
          : new PQueue({ concurrency: perHostConcurrency });
      this.hosts.set(key, host);
    }
    return host.add(() => this.global.add(task, { signal }), { signal }) as Promise<T>;
  }

  /** One HTTP request and its whole body (so a slot covers the full transfer). */
  private async exchange(url: URL, req: FetchRequest, signal: AbortSignal): Promise<Exchange> {
    const headers: Record<string, string> = {
      "user-agent": this.options.userAgent,
      accept: ACCEPT[req.format],
      "accept-encoding": "identity",
    };
    if (req.conditional?.etag) headers["if-none-match"] = req.conditional.etag;
    if (req.conditional?.lastModified) headers["if-modified-since"] = req.conditional.lastModified;
    const target = rewriteOrigin(url, this.options.origins);
    const response = await request(target, { dispatcher: this.agent, method: "GET", headers, signal });
    const { statusCode: status, body } = response;
    const header = (name: string): string | null => {
      const value = response.headers[name];
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
    };
    const host = url.host;
    // A small leftover body is drained so the connection can be reused; a bad one is cut off.
    const discard = () => body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const cutOff = () => {
      body.on("error", () => undefined);
      body.destroy();
    };
    if (REDIRECT_STATUSES.has(status)) {
      await discard();
      const location = header("location");
      if (!location)
        throw new AttemptError(`HTTP ${status} redirect from ${host} without a Location header`, false, {
          status,
        });
      return { kind: "redirect", status, location };
    }
    if (status === 304) {
      await discard();
      return { kind: "not_modified", status, etag: header("etag"), lastModified: header("last-modified") };
    }
    if (status === 429 || status >= 500) {
      await discard();
      const retryAfterMs = parseRetryAfter(header("retry-after"), this.options.clock.now().getTime());
      throw new AttemptError(
        `HTTP ${status} from ${host}${retryAfterMs !== undefined ? ` (Retry-After ${header("retry-after")})` : ""}`,
        true,
        retryAfterMs !== undefined ? { status, retryAfterMs } : { status },
      );
    }
    if (status !== 200) {
      await discard();
      throw new AttemptError(`HTTP ${status} from ${host}`, false, { status });
    }
    const contentType = header("content-type");
    try {
      checkContentType(req.format, contentType);
      const encoding = header("content-encoding");
      if (encoding && encoding.toLowerCase() !== "identity")
        throw new Error(`unsupported Content-Encoding "${encoding}" (identity was requested)`);
      const cap = this.options.maxBodyBytes;
      const declaredLength = header("content-length");
      if (declaredLength !== null && Number(declaredLength) > cap)
        throw new Error(`body too large: Content-Length ${declaredLength} exceeds the cap of ${cap} bytes`);
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of body) {
        total += (chunk as Buffer).length;
        if (total > cap) throw new Error(`body too large: more than ${cap} bytes without reaching the end`);
        chunks.push(chunk as Buffer);
      }
      return {
        kind: "ok",
        status,
        contentType: contentType ?? "",
        bytes: new Uint8Array(Buffer.concat(chunks, total)),
        etag: header("etag"),
        lastModified: header("last-modified"),
      };
    } catch (error) {
      cutOff();
      if (!(error instanceof Error) || isTransportError(error)) throw error;
      throw new AttemptError(`${error.message} (HTTP ${status} from ${host})`, false, { status });
    }
  }

  /** `connect.lookup`: resolves every address and refuses the connection if any is not public. */
  private readonly lookup = (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    this.options.resolver(hostname).then(
      (resolved) => {
        const family = options.family === 4 || options.family === 6 ? options.family : null;
        const addresses = family ? resolved.filter((a) => a.family === family) : resolved;
        const refused = resolved.find((a) => !isAddressAllowed(a.address, this.options));
        if (refused) {
          callback(
            new AddressRefusedError(
              `refusing ${hostname}: it resolves to ${refused.address}, a ${classifyAddress(refused.address).replace("_", "-")} address`,
            ),
            "",
          );
          return;
        }
        const first = addresses[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = "ENOTFOUND";
          callback(error, "");
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

const ACCEPT: Record<SourceFormat, string> = {
  html: "text/html, application/xhtml+xml;q=0.9",
  json: "application/json",
  markdown: "text/markdown, text/plain;q=0.9",
};

/** The Content-Type media types each source format accepts. */
export function contentTypeMatches(format: SourceFormat, mediaType: string): boolean {
  switch (format) {
    case "html":
      return mediaType === "text/html" || mediaType === "application/xhtml+xml";
    case "json":
      return mediaType === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(mediaType);
    case "markdown":
      return mediaType === "text/markdown" || mediaType === "text/plain";
  }
}

function checkContentType(format: SourceFormat, contentType: string | null): void {
  if (!contentType) throw new Error(`no Content-Type (expected ${format})`);
  const { mediaType } = parseContentType(contentType);
  if (!contentTypeMatches(format, mediaType))
    throw new Error(`unexpected Content-Type "${contentType}" for a ${format} source`);
}

export function parseContentType(value: string): { mediaType: string; charset: string | null } {
  const [type = "", ...params] = value.split(";");
  let charset: string | null = null;
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(param);
    if (match?.[1]) charset = match[1].toLowerCase();
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

/** An HTML page without a charset parameter may declare one in a <meta> in its first 1024 bytes. */
function sniffCharset(bytes: Uint8Array, mediaType: string): string | null {
  if (mediaType !== "text/html") return null;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_:.-]+)/i.exec(head);
  return match?.[1]?.toLowerCase() ?? null;
}

/** Decodes with the declared charset; bytes that are not valid in it are an error. */
export function decodeStrict(bytes: Uint8Array, charset: string, host: string): string {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw new AttemptError(`unsupported charset "${charset}" from ${host}`, false, { status: 200 });
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new AttemptError(`body from ${host} is not valid ${charset}`, false, { status: 200 });
  }
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP-date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

function resolveLocation(location: string, base: URL, status: number): URL {
  try {
    return new URL(location, base);
  } catch {
    throw new AttemptError(`HTTP ${status} from ${base.host}: invalid Location "${location}"`, false, {
      status,
    });
  }
}

function safeUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw fetchFailed(`invalid URL "${url}"`, { url });
  }
}

/** `url` sent to its origin's rewrite target (FetcherOptions.origins), or unchanged. */
export function rewriteOrigin(url: URL, origins: Readonly<Record<string, string>>): URL {
  const base = Object.hasOwn(origins, url.origin) ? origins[url.origin] : undefined;
  if (base === undefined) return url;
  return new URL(`${base.replace(/\/+$/, "")}${url.pathname}${url.search}`);
}

function hostKey(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, "");
}

const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

const TRANSPORT_REASONS: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: "connect timeout",
  UND_ERR_HEADERS_TIMEOUT: "headers timeout",
  UND_ERR_BODY_TIMEOUT: "body timeout",
  UND_ERR_SOCKET: "connection closed by the server",
  UND_ERR_CLOSED: "connection closed",
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: "truncated body (shorter than its Content-Length)",
  ENOTFOUND: "DNS lookup failed (no such host)",
  EAI_AGAIN: "DNS lookup failed (temporary)",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
};

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause && cause !== error ? errorCode(cause) : undefined;
}

function isTransportError(error: Error): boolean {
  return error instanceof AttemptError || errorCode(error) !== undefined;
}

function toAttemptError(error: unknown): AttemptError {
  if (error instanceof AttemptError) return error;
  if (error instanceof AddressRefusedError) return new AttemptError(error.message, false);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof AddressRefusedError) return new AttemptError(cause.message, false);
  const code = errorCode(error);
  const message = (error as Error).message ?? String(error);
  const reason = code ? (TRANSPORT_REASONS[code] ?? `${code}: ${message}`) : message;
  const detail = code && TRANSPORT_REASONS[code] && code.startsWith("E") ? ` (${message})` : "";
  // A name that does not exist will not exist a second later; every other transport error may pass.
  return new AttemptError(`${reason}${detail}`, code !== "ENOTFOUND" && (!code || TRANSIENT_CODES.has(code)));
}

function fetchFailed(
  reason: string,
  context: { url: string; host?: string; attempts?: number; status?: number | undefined },
  cause?: unknown,
): CatalogError {
  return new CatalogError(
    "fetch_failed",
    `fetch ${context.url} failed: ${reason}`,
    {
      url: context.url,
      host: context.host ?? null,
      status: context.status ?? null,
      attempts: context.attempts ?? 0,
      reason,
    },
    { cause },
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })));
    });
  });

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
