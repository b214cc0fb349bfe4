/**
 * The rehearsal's replay server (docs/rehearsal.md): one HTTP server on 127.0.0.1 that answers
 * every replayed source's URLs with its recorded capture, as the provider would have served it,
 * so the live collect path runs unchanged against it:
 * - a plain source: its capture at the source URL, with the recorded Content-Type;
 * - a token-paged source (`page_token`): the capture's items cut into pages of PAGE_SIZE, each
 *   page but the last carrying its next token, answered at the source URL plus the token;
 * - a bundled source (`bundle`): a JSON listing of the recorded files at the source URL, and
 *   each file's recorded text at a URL on the source's allowed host (the real download URLs
 *   are not recorded; the listing names the replay's own);
 * - a source with `secrets`: answered only when the request carries the value the replay was
 *   given for each secret (Google's APIs answer 400 to a request without a valid key).
 * Validators: the capture's recorded ETag / Last-Modified where it recorded them; a capture
 * recorded without an ETag is answered with one derived from the body's SHA-256, as servers
 * commonly do, so a second fetch can be conditional. A conditional request whose validator
 * matches is answered 304.
 *
 * The Fetcher reaches it through its origin rewrite (FetcherOptions.origins): the request for
 * `https://docs.x.ai/docs/models` arrives as `/https/docs.x.ai/docs/models`.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { CaptureMeta } from "../collect/index.js";
import { canonicalJson } from "../lib/canonical-json.js";
import { group } from "../lib/regex.js";
import type { SourceDefinition } from "../schema/index.js";

/** Items per page of a token-paged source (the Gemini API's own default page size is 50). */
export const PAGE_SIZE = 20;

export interface RecordedSource {
  source: SourceDefinition;
  meta: CaptureMeta;
  /** The capture's text. */
  content: string;
}

interface Document {
  contentType: string;
  body: Buffer;
  etag: string | null;
  lastModified: string | null;
}

interface Route {
  sourceId: string;
  /** Secret query parameters the request must carry, with their expected values. */
  secrets: ReadonlyArray<{ param: string; value: string }>;
  document: Document;
}

export interface ReplayServer {
  /** For FetcherOptions.origins: every replayed origin -> this server. */
  origins: Record<string, string>;
  /** Requests answered per source id, by status. */
  answered(sourceId: string): ReadonlyMap<number, number>;
  /** From now on every URL of the source answers `status`. */
  fail(sourceId: string, status: number): void;
  /** From now on the (plain) source answers `content` (a new ETag). */
  change(sourceId: string, content: string): void;
  close(): Promise<void>;
}

/**
 * Starts the server for `recorded`; `secretValues` gives the value of each secret's environment
 * variable (the rehearsal's own, never a real key).
 */
export async function startReplay(
  recorded: readonly RecordedSource[],
  secretValues: Readonly<Record<string, string>>,
): Promise<ReplayServer> {
  const routes = new Map<string, Route>();
  const failing = new Map<string, number>();
  const answers = new Map<string, Map<number, number>>();
  const secretParams = new Set(
    recorded.flatMap((r) => Object.values(r.source.secrets ?? {}).map((s) => s.query_param)),
  );
  const add = (url: string, route: Route) => {
    const key = routeKey(new URL(url), secretParams);
    if (routes.has(key)) throw new Error(`two replayed documents at ${url}`);
    routes.set(key, route);
  };
  for (const r of recorded) {
    const secrets = Object.values(r.source.secrets ?? {}).map((s) => {
      const value = secretValues[s.env];
      if (!value) throw new Error(`no replay value for ${s.env}`);
      return { param: s.query_param, value };
    });
    for (const [url, document] of documentsOf(r))
      add(url, { sourceId: r.source.source_id, secrets, document });
  }

  const server = createServer((req, res) => {
    const original = originalUrl(req);
    const route = original ? routes.get(routeKey(original, secretParams)) : undefined;
    if (!original || !route)
      return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    const status = answer(route, original, req, res, failing.get(route.sourceId));
    const counts = answers.get(route.sourceId) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    answers.set(route.sourceId, counts);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const origins: Record<string, string> = {};
  for (const key of routes.keys()) {
    const origin = new URL(key).origin;
    origins[origin] = `${base}/${origin.replace("://", "/")}`;
  }
  return {
    origins,
    answered: (sourceId) => answers.get(sourceId) ?? new Map(),
    fail: (sourceId, status) => void failing.set(sourceId, status),
    change: (sourceId, content) => {
      const owned = [...routes.values()].filter((r) => r.sourceId === sourceId);
      const route = owned[0];
      if (owned.length !== 1 || !route) throw new Error(`${sourceId} is not a plain replayed source`);
      route.document = withBody(route.document.contentType, content, null, null);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes the answer to one request and returns its status. */
function answer(
  route: Route,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
  failStatus: number | undefined,
): number {
  const send = (status: number, headers: Record<string, string>, body?: Buffer | string) => {
    res.writeHead(status, headers).end(body);
    return status;
  };
  for (const { param, value } of route.secrets)
    if (url.searchParams.get(param) !== value)
      return send(
        400,
        { "content-type": "application/json" },
        '{"error":{"code":400,"status":"INVALID_ARGUMENT"}}',
      );
  if (failStatus !== undefined) return send(failStatus, { "content-type": "text/plain" }, "upstream error");
  const { document } = route;
  const validators: Record<string, string> = {};
  if (document.etag) validators["etag"] = document.etag;
  if (document.lastModified) validators["last-modified"] = document.lastModified;
  const ifNoneMatch = req.headers["if-none-match"];
  const ifModifiedSince = req.headers["if-modified-since"];
  const fresh =
    ifNoneMatch !== undefined
      ? document.etag !== null && ifNoneMatch.split(",").some((tag) => tag.trim() === document.etag)
      : ifModifiedSince !== undefined &&
        document.lastModified !== null &&
        ifModifiedSince === document.lastModified;
  if (fresh) return send(304, validators);
  return send(200, { "content-type": document.contentType, ...validators }, document.body);
}

/** The URL the collector asked for: `/https/<host>/<path>?<query>` -> `https://<host>/<path>?<query>`. */
function originalUrl(req: IncomingMessage): URL | null {
  const match = /^\/(https?)\/([^/]+)(\/.*)?$/.exec(req.url ?? "");
  if (!match) return null;
  try {
    return new URL(`${group(match, 1)}://${group(match, 2)}${match[3] ?? "/"}`);
  } catch {
    return null;
  }
}

/** A URL's identity for routing: origin, path and its query parameters in order, secrets left out. */
function routeKey(url: URL, secretParams: ReadonlySet<string>): string {
  const params = [...url.searchParams].filter(([name]) => !secretParams.has(name));
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(params).toString();
  return `${url.origin}${url.pathname}${query ? `?${query}` : ""}`;
}

function withBody(
  contentType: string,
  text: string,
  etag: string | null,
  lastModified: string | null,
): Document {
  const body = Buffer.from(text, "utf8");
  const derived = `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"`;
  return { contentType, body, etag: etag ?? derived, lastModified };
}

/** Every URL a source's fetch reads, with the document it is answered with. */
export function documentsOf(r: RecordedSource): Array<[string, Document]> {
  const { source, meta, content } = r;
  if (source.page_token) return pagesOf(r, source.page_token);
  if (source.bundle) return bundleOf(r, source.bundle);
  if (source.pagination)
    throw new Error(
      `${source.provider_id}/${source.name}: next-link pagination has no replay (none is recorded)`,
    );
  return [[source.url, withBody(meta.content_type, content, meta.etag, meta.last_modified)]];
}

function pagesOf(
  r: RecordedSource,
  spec: NonNullable<SourceDefinition["page_token"]>,
): Array<[string, Document]> {
  const { source, meta } = r;
  const whole = JSON.parse(r.content) as Record<string, unknown>;
  const items = (whole[spec.items_field] as unknown[] | undefined) ?? [];
  const pages: Array<[string, Document]> = [];
  const count = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  for (let i = 0; i < count; i++) {
    const url = new URL(source.url);
    if (i > 0) url.searchParams.set(spec.query_param, `page-${i + 1}`);
    const page: Record<string, unknown> = {
      ...whole,
      [spec.items_field]: items.slice(i * PAGE_SIZE, (i + 1) * PAGE_SIZE),
    };
    if (i + 1 < count) page[spec.response_field] = `page-${i + 2}`;
    const first = i === 0;
    pages.push([
      url.href,
      withBody(
        meta.content_type,
        JSON.stringify(page),
        first ? meta.etag : null,
        first ? meta.last_modified : null,
      ),
    ]);
  }
  return pages;
}

function bundleOf(
  r: RecordedSource,
  spec: NonNullable<SourceDefinition["bundle"]>,
): Array<[string, Document]> {
  const { source, meta } = r;
  const { files } = JSON.parse(r.content) as {
    files: Array<{ name: string; sha: string | null; content: string }>;
  };
  const host = source.allowed_hosts[0] ?? new URL(source.url).host;
  const documents: Array<[string, Document]> = [];
  const listing = files.map((file) => {
    const url = `https://${host}/rehearsal/${source.provider_id}/${source.name}/${file.name}`;
    documents.push([url, withBody("text/plain; charset=utf-8", file.content, null, null)]);
    return {
      [spec.name_field]: file.name,
      [spec.url_field]: url,
      ...(file.sha ? { [spec.sha_field]: file.sha } : {}),
    };
  });
  return [
    [source.url, withBody(meta.content_type, canonicalJson(listing), meta.etag, meta.last_modified)],
    ...documents,
  ];
}
