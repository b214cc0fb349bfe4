/**
 * The request handler: routing, authentication, quota, conditional requests and the
 * endpoints of /v1 (service-interface.md, decisions.md). No framework: node:http plus
 * pre-serialized record buffers.
 *
 * Order of checks for a /v1 request:
 *   1. an Authorization header that is not a valid key -> 401 (never treated as anonymous)
 *   2. path and method -> 404 / 405 (counted against quota)
 *   3. a key is required but absent -> 401 (not counted)
 *   4. GET/HEAD: query validation; when valid, the ETag and If-None-Match -> 304 (not counted)
 *   5. quota: count the request; over the plan's quota -> 429 (Retry-After to the next month)
 *   6. the answer (400 for a bad query, 404 for an unknown id, 413/415/400 for a bad body, 200)
 * Every answer on a /v1 path carries the rate-limit headers of the caller's plan; 401, 304 and
 * 429 answers report the counter without counting. /healthz, /readyz and /v1/openapi.json
 * are service endpoints: never authenticated, never counted.
 *
 * Caching (RFC 9111): GET 200 and 304 answers carry `Cache-Control: no-cache` (store, but
 * revalidate before every reuse): a revalidation costs no quota and no body, and a client
 * never reuses an answer from a release that is no longer served. Errors and POST answers
 * carry `no-store`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIP } from "node:net";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { calculate, compare, type PriceComponentName } from "../pricing/index.js";
import {
  CalculateRequest,
  CompareRequest,
  ListDeploymentsQuery,
  ListEventsQuery,
  ListLifecycleQuery,
} from "../schema/index.js";
import type { ServedRelease } from "./catalog-index.js";
import { DOCS_PATH, DOCS_SCRIPT_PATH, docsPage, docsScript } from "./docs.js";
import {
  bodyErrors,
  etagFor,
  ifNoneMatchMatches,
  ProblemError,
  parseQuery,
  problemBody,
  requestIdFor,
  reservedFieldErrors,
  STATUS,
} from "./http.js";
import type { KeyRing } from "./keys.js";
import { ANONYMOUS_PLAN, type PlansFile } from "./plans.js";
import { listDeployments, listEvents, listLifecycle, pageBody } from "./query.js";
import { ANONYMOUS_PREFIX, type Consumed, type QuotaPeriod, type QuotaStore, quotaPeriod } from "./quota.js";
import type { PreparedAnswer } from "./response-cache.js";
import { type BrowseRouteName, prepareBrowseGet } from "./routes.js";

export const MAX_BODY_BYTES = 64 * 1024;
/** GET routes answered from the loaded release alone (no file read per request). */
const IN_MEMORY_GETS: ReadonlySet<RouteName> = new Set<RouteName>([
  "deployments",
  "deployment",
  "lifecycle",
  "events",
]);
const CACHE_GET = "no-cache";
const CACHE_NONE = "no-store";
const JSON_TYPE = "application/json; charset=utf-8";
const PROBLEM_TYPE = "application/problem+json";
const GET_METHODS = ["GET", "HEAD"];
const POST_METHODS = ["POST"];

/** Mutable holders the server swaps on reload; a request reads each once, at its start. */
export interface AppState {
  release: ServedRelease | null;
  plans: PlansFile;
  draining: boolean;
}

export interface AppDeps {
  state: AppState;
  keys: KeyRing;
  quota: QuotaStore;
  clock: Clock;
  logger: Logger;
  openApiDocument: () => Buffer;
  /** SHA-256 of the document, for its ETag. */
  openApiDigest: () => string;
  /** Peers whose X-Forwarded-For is believed (the load balancers in front of the server). */
  trustedProxies?: ReadonlySet<string>;
  /** Where the served release's chain is read from (release history routes). */
  snapshotsDir?: string;
}

type RouteName =
  | "deployments"
  | "deployment"
  | "compare"
  | "calculate"
  | "lifecycle"
  | "events"
  | "openapi"
  | "docs"
  | "docs_script"
  | "healthz"
  | "readyz"
  | BrowseRouteName;

interface Route {
  name: RouteName;
  methods: string[];
  /** Spec section 5: compare (and calculate, which prices like compare) require a key. */
  requiresKey: boolean;
  /** Service endpoints are neither authenticated nor counted. */
  metered: boolean;
  param?: string;
}

const ROUTES: Record<string, Route> = {
  "/v1/deployments": { name: "deployments", methods: GET_METHODS, requiresKey: false, metered: true },
  "/v1/deployments/compare": { name: "compare", methods: POST_METHODS, requiresKey: true, metered: true },
  "/v1/pricing/calculate": { name: "calculate", methods: POST_METHODS, requiresKey: true, metered: true },
  "/v1/lifecycle": { name: "lifecycle", methods: GET_METHODS, requiresKey: false, metered: true },
  "/v1/lifecycle/events": { name: "events", methods: GET_METHODS, requiresKey: false, metered: true },
  "/v1/providers": { name: "providers", methods: GET_METHODS, requiresKey: false, metered: true },
  "/v1/models": { name: "models", methods: GET_METHODS, requiresKey: false, metered: true },
  "/v1/releases": { name: "releases", methods: GET_METHODS, requiresKey: false, metered: true },
  "/v1/openapi.json": { name: "openapi", methods: GET_METHODS, requiresKey: false, metered: false },
  [DOCS_PATH]: { name: "docs", methods: GET_METHODS, requiresKey: false, metered: false },
  [DOCS_SCRIPT_PATH]: { name: "docs_script", methods: GET_METHODS, requiresKey: false, metered: false },
  "/healthz": { name: "healthz", methods: GET_METHODS, requiresKey: false, metered: false },
  "/readyz": { name: "readyz", methods: GET_METHODS, requiresKey: false, metered: false },
};

const DEPLOYMENT_PREFIX = "/v1/deployments/";
const MODEL_PREFIX = "/v1/models/";
const RELEASE_PREFIX = "/v1/releases/";
const ONE_SEGMENT = /^[^/]+$/;

function matchRoute(path: string): Route | null {
  const exact = ROUTES[path];
  if (exact) return exact;
  const get = (name: RouteName, param: string): Route => ({
    name,
    methods: GET_METHODS,
    requiresKey: false,
    metered: true,
    param,
  });
  if (path.startsWith(DEPLOYMENT_PREFIX)) {
    const segment = path.slice(DEPLOYMENT_PREFIX.length);
    // one non-empty segment, or `<id>/history`; `/v1/deployments/x/` is an unknown path
    if (ONE_SEGMENT.test(segment)) return get("deployment", segment);
    const history = /^([^/]+)\/history$/.exec(segment);
    if (history) return get("deployment_history", history[1] as string);
  }
  if (path.startsWith(MODEL_PREFIX)) {
    // a model id is `<lab>/<model>`: its slash may be sent as is or encoded (%2F)
    const rest = path.slice(MODEL_PREFIX.length);
    if (/^[^/]+(\/[^/]+)?$/.test(rest)) return get("model", rest);
  }
  if (path.startsWith(RELEASE_PREFIX)) {
    const rest = path.slice(RELEASE_PREFIX.length);
    if (ONE_SEGMENT.test(rest)) return get("release", rest);
    const diff = /^([^/]+)\/diff$/.exec(rest);
    if (diff) return get("release_diff", diff[1] as string);
  }
  return null;
}

/** The client hung up (or was cut off) before its request ended: nothing to answer, not a server error. */
class ClientGone extends Error {}

/** Who is asking: a workspace (from a key) or the anonymous plan of a client address. */
interface Caller {
  subject: string;
  plan: string;
  limit: number;
  workspace: string | null;
}

/** Routes without query parameters still reject unknown ones. */
const EMPTY_QUERY = z.strictObject({});

/** Per-request answer under construction. */
class Reply {
  status = 200;
  headers: Record<string, string> = {};
  body: Buffer | null = null;
  constructor(
    readonly requestId: string,
    readonly isHead: boolean,
  ) {
    this.headers["x-request-id"] = requestId;
  }
}

/** An address as the quota counts it: trimmed, IPv4-mapped IPv6 (`::ffff:a.b.c.d`) as plain IPv4. */
export function plainAddress(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith("::ffff:") ? trimmed.slice(7) : trimmed;
}

/**
 * The address the anonymous quota counts: the socket peer, unless the peer is one of the
 * operator's trusted proxies (`--trust-proxy`); then the rightmost X-Forwarded-For entry that is
 * not itself a trusted proxy (entries further left are written by the client and can be forged).
 */
export function clientAddress(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const peer = plainAddress(req.socket.remoteAddress ?? "unknown");
  if (!trustedProxies.has(peer)) return peer;
  const header = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map(plainAddress)
    .filter((hop) => hop !== "");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!trustedProxies.has(hop)) return isIP(hop) ? hop : peer;
  }
  return peer;
}

function splitUrl(url: string): { path: string; query: string } {
  let target = url;
  if (!target.startsWith("/")) {
    // absolute-form (RFC 9112 3.2.2) or garbage
    try {
      const parsed = new URL(target);
      target = `${parsed.pathname}${parsed.search}`;
    } catch {
      return { path: target, query: "" };
    }
  }
  const q = target.indexOf("?");
  return q === -1 ? { path: target, query: "" } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

const BEARER = /^bearer +([^\s]+) *$/i;

const USAGE_FIELD: Record<PriceComponentName, string> = {
  input: "usage.input_tokens",
  cached_input: "usage.cached_input_tokens",
  output: "usage.output_tokens",
};

export function createHandler(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { state, keys, quota, clock, logger } = deps;
  const trustedProxies: ReadonlySet<string> = deps.trustedProxies ?? new Set();

  // --no-quota: nothing counted, no rate-limit headers (src/serve/no-quota.ts).
  const unmetered = quota.kind === "none";

  function setRateHeaders(reply: Reply, caller: Caller, count: number, period: QuotaPeriod): void {
    if (unmetered) return;
    reply.headers["x-ratelimit-limit"] = String(caller.limit);
    reply.headers["x-ratelimit-remaining"] = String(Math.max(0, caller.limit - count));
    reply.headers["x-ratelimit-reset"] = period.resetIso;
  }

  async function peekInto(reply: Reply, caller: Caller, period: QuotaPeriod): Promise<void> {
    if (unmetered) return;
    let count: number;
    try {
      count = await quota.peek(caller.subject, period);
    } catch (error) {
      logger.error({ err: (error as Error).message, request_id: reply.requestId }, "quota store peek failed");
      throw new ProblemError("unavailable", "the quota store is unavailable; retry shortly", undefined, {
        "retry-after": "1",
      });
    }
    setRateHeaders(reply, caller, count, period);
  }

  /** Counts the request; throws 429 when the caller's plan quota is spent. */
  async function consume(reply: Reply, caller: Caller, period: QuotaPeriod): Promise<void> {
    if (unmetered) return;
    let consumed: Consumed;
    try {
      consumed = await quota.consume(caller.subject, period, caller.limit);
    } catch (error) {
      logger.error(
        { err: (error as Error).message, request_id: reply.requestId },
        "quota store increment failed",
      );
      throw new ProblemError("unavailable", "the quota store is unavailable; retry shortly", undefined, {
        "retry-after": "1",
      });
    }
    setRateHeaders(reply, caller, consumed.count, period);
    if (!consumed.allowed)
      throw new ProblemError(
        "quota_exhausted",
        `the monthly quota of ${caller.limit} requests of plan "${caller.plan}" is spent; it resets at ${period.resetIso}`,
        undefined,
        { "retry-after": String(period.secondsToReset) },
      );
  }

  function anonymousCaller(req: IncomingMessage, plans: PlansFile): Caller {
    const plan = plans.plans[ANONYMOUS_PLAN];
    return {
      subject: `${ANONYMOUS_PREFIX}${clientAddress(req, trustedProxies)}`,
      plan: ANONYMOUS_PLAN,
      limit: plan?.monthly_quota ?? 0,
      workspace: null,
    };
  }

  /** The body of a POST, at most MAX_BODY_BYTES; the rest of a larger body is read and dropped. */
  function readBody(req: IncomingMessage, reply: Reply): Promise<Buffer> {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > MAX_BODY_BYTES) {
      // do not read a declared-oversize body; close the connection after answering
      reply.headers.connection = "close";
      return Promise.reject(
        new ProblemError("payload_too_large", `request bodies are limited to ${MAX_BODY_BYTES} bytes`),
      );
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      req.on("end", () => {
        if (size > MAX_BODY_BYTES)
          reject(
            new ProblemError("payload_too_large", `request bodies are limited to ${MAX_BODY_BYTES} bytes`),
          );
        else resolve(Buffer.concat(chunks, size));
      });
      // a client that hangs up (or is cut off by the request timeout) before its body ends
      req.on("error", (error: Error) => reject(new ClientGone(error.message)));
      req.on("close", () => {
        if (!req.complete) reject(new ClientGone("the connection closed before the body ended"));
      });
    });
  }

  /** The bytes of a POST body sent as JSON (any other media type is refused). */
  async function jsonBytes(req: IncomingMessage, reply: Reply): Promise<Buffer> {
    const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type))
      throw new ProblemError("unsupported_media_type", "send the body as application/json");
    return readBody(req, reply);
  }

  function parseJson<S extends z.ZodType>(raw: Buffer, schema: S): z.infer<S> {
    let value: unknown;
    try {
      value = JSON.parse(raw.toString("utf8"));
    } catch {
      throw new ProblemError("invalid_body", "the body is not valid JSON");
    }
    const reserved = reservedFieldErrors(value);
    if (reserved.length > 0)
      throw new ProblemError(
        "invalid_body",
        `invalid body field${reserved.length === 1 ? "" : "s"}: ${reserved.map((e) => e.parameter).join(", ")}`,
        reserved,
      );
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const errors = bodyErrors(parsed.error);
      throw new ProblemError(
        "invalid_body",
        `invalid body field${errors.length === 1 ? "" : "s"}: ${[...new Set(errors.map((e) => e.parameter))].join(", ")}`,
        errors,
      );
    }
    return parsed.data as z.infer<S>;
  }

  async function jsonBody<S extends z.ZodType>(
    req: IncomingMessage,
    reply: Reply,
    schema: S,
  ): Promise<z.infer<S>> {
    return parseJson(await jsonBytes(req, reply), schema);
  }

  /**
   * Validates a GET's query and fixes its ETag (release + route + normalized query); the body
   * is built only when needed. Throws invalid_parameter, or not_found for an unknown id
   * (preconditions apply only where the answer would be 2xx, so an unknown id never gets 304).
   */
  async function prepareGet(route: Route, rawQuery: string, release: ServedRelease): Promise<PreparedAnswer> {
    const prepared = (normalized: unknown, build: () => Buffer): PreparedAnswer => ({
      etag: etagFor(release.releaseId, route.name, normalized),
      build,
      body: null,
    });
    switch (route.name) {
      case "deployments": {
        const query = parseQuery(ListDeploymentsQuery, rawQuery, ["status"]);
        return prepared(query, () => pageBody(release.deploymentJson, listDeployments(release, query)));
      }
      case "lifecycle": {
        const query = parseQuery(ListLifecycleQuery, rawQuery);
        return prepared(query, () => pageBody(release.lifecycleJson, listLifecycle(release, query)));
      }
      case "events": {
        const query = parseQuery(ListEventsQuery, rawQuery);
        return prepared(query, () => pageBody(release.eventJson, listEvents(release, query)));
      }
      case "providers":
      case "models":
      case "model":
      case "releases":
      case "release":
      case "release_diff":
      case "deployment_history":
        return prepareBrowseGet(route.name, route.param ?? "", rawQuery, release, deps.snapshotsDir);
      default: {
        parseQuery(EMPTY_QUERY, rawQuery);
        let id: string;
        try {
          id = decodeURIComponent(route.param ?? "");
        } catch {
          id = "";
        }
        const position = release.deploymentById.get(id);
        if (position === undefined)
          throw new ProblemError("not_found", `no deployment with id "${id}" in this release`);
        const body = release.deploymentJson.at(position) as Buffer;
        return { etag: etagFor(release.releaseId, route.name, { id }), build: () => body, body };
      }
    }
  }

  /** GET/HEAD on a /v1 resource: validate, ETag, 304, count, answer. */
  async function serveGet(
    req: IncomingMessage,
    reply: Reply,
    route: Route,
    rawQuery: string,
    release: ServedRelease,
    caller: Caller,
    period: QuotaPeriod,
  ): Promise<void> {
    // The cache is keyed on the normalized query (its ETag), so padding a query cannot add
    // entries; on the in-memory routes a request text seen before (and validated then) maps
    // straight to its ETag (routes that read release files validate every time).
    const requestText = IN_MEMORY_GETS.has(route.name)
      ? `${route.name}\n${route.param ?? ""}\n${rawQuery}`
      : null;
    let prepared = requestText === null ? undefined : release.answers.getByRequest(requestText);
    if (!prepared) {
      let fresh: PreparedAnswer;
      try {
        fresh = await prepareGet(route, rawQuery, release);
      } catch (error) {
        // a bad query or an unknown id is still a request: it counts
        if (error instanceof ProblemError) await consume(reply, caller, period);
        throw error;
      }
      prepared = release.answers.get(fresh.etag);
      if (!prepared) {
        prepared = fresh;
        release.answers.set(fresh.etag, fresh);
      }
      if (requestText !== null) release.answers.rememberRequest(requestText, prepared.etag);
    }
    reply.headers.etag = prepared.etag;
    reply.headers["cache-control"] = CACHE_GET;
    if (ifNoneMatchMatches(req.headers["if-none-match"], prepared.etag)) {
      await peekInto(reply, caller, period);
      reply.status = 304;
      return;
    }
    await consume(reply, caller, period);
    reply.headers["content-type"] = JSON_TYPE;
    reply.body = release.answers.body(prepared);
  }

  async function servePost(
    req: IncomingMessage,
    reply: Reply,
    route: Route,
    rawQuery: string,
    release: ServedRelease,
    caller: Caller,
    period: QuotaPeriod,
  ): Promise<void> {
    reply.headers["cache-control"] = CACHE_NONE;
    await consume(reply, caller, period);
    parseQuery(EMPTY_QUERY, rawQuery);
    if (route.name === "compare") {
      const raw = await jsonBytes(req, reply);
      // The same body on the same release has the same answer and ETag: computed once.
      const answer = release.postAnswers.answer(`compare\n${raw.toString("utf8")}`, () => {
        const request = parseJson(raw, CompareRequest);
        const result = compare(release.deploymentMap, request);
        return {
          etag: etagFor(release.releaseId, route.name, request),
          body: Buffer.from(JSON.stringify(result.response)),
          note:
            result.unknownIds.length > 0 || result.omitted.length > 0
              ? { unknown_ids: result.unknownIds, omitted: result.omitted }
              : null,
        };
      });
      if (answer.note)
        logger.debug({ request_id: reply.requestId, ...answer.note }, "compare omitted candidates");
      reply.headers.etag = answer.etag;
      reply.headers["content-type"] = JSON_TYPE;
      reply.body = answer.body;
      return;
    }
    const request = await jsonBody(req, reply, CalculateRequest);
    const deployment = release.deploymentMap.get(request.deployment_id);
    if (!deployment)
      throw new ProblemError(
        "not_found",
        `no deployment with id "${request.deployment_id}" in this release`,
        [{ parameter: "deployment_id", message: "no such deployment in this release" }],
      );
    const result = calculate(deployment, request.usage);
    if (!result.ok) {
      if (result.reason === "no_rate_card")
        throw new ProblemError(
          "not_priceable",
          `deployment "${deployment.id}" has no rate card: its price is unknown (never zero)`,
        );
      throw new ProblemError(
        "not_priceable",
        `deployment "${deployment.id}" has no known price for ${result.missing.join(", ")}, which the usage needs`,
        result.missing.map((component) => ({
          parameter: USAGE_FIELD[component],
          message: `the deployment's rate card has no ${component.replace("_", " ")} price`,
        })),
      );
    }
    reply.headers.etag = etagFor(release.releaseId, route.name, request);
    reply.headers["content-type"] = JSON_TYPE;
    reply.body = Buffer.from(JSON.stringify(result.response));
  }

  function serveService(
    req: IncomingMessage,
    reply: Reply,
    route: Route,
    rawQuery: string,
    release: ServedRelease | null,
  ): void {
    const isDocument = route.name === "openapi" || route.name === "docs" || route.name === "docs_script";
    reply.headers["cache-control"] = isDocument ? CACHE_GET : CACHE_NONE;
    // probes ignore query strings (load balancers add their own); the documents reject them
    if (isDocument) parseQuery(EMPTY_QUERY, rawQuery);
    if (route.name === "docs" || route.name === "docs_script") {
      const asset = route.name === "docs" ? docsPage() : docsScript();
      reply.headers.etag = etagFor("docs", route.name, asset.digest);
      if (ifNoneMatchMatches(req.headers["if-none-match"], reply.headers.etag)) {
        reply.status = 304;
        return;
      }
      reply.headers["content-type"] = asset.contentType;
      reply.body = asset.body;
      return;
    }
    reply.headers["content-type"] = JSON_TYPE;
    if (route.name === "healthz") {
      reply.body = Buffer.from(JSON.stringify({ status: "ok" }));
      return;
    }
    if (route.name === "readyz") {
      if (!release || state.draining)
        throw new ProblemError(
          "unavailable",
          state.draining ? "the server is shutting down" : "no release is loaded",
        );
      reply.body = Buffer.from(JSON.stringify({ status: "ready", release: release.releaseId }));
      return;
    }
    const document = deps.openApiDocument();
    reply.headers.etag = etagFor("openapi", route.name, deps.openApiDigest());
    if (ifNoneMatchMatches(req.headers["if-none-match"], reply.headers.etag)) {
      delete reply.headers["content-type"];
      reply.status = 304;
      return;
    }
    reply.body = document;
  }

  async function dispatch(req: IncomingMessage, reply: Reply, release: ServedRelease | null): Promise<void> {
    const method = req.method ?? "GET";
    const { path, query } = splitUrl(req.url ?? "/");
    const route = matchRoute(path);
    const plans = state.plans;

    if (route && !route.metered) {
      if (!route.methods.includes(method)) {
        reply.headers.allow = route.methods.join(", ");
        throw new ProblemError("method_not_allowed", `${method} is not allowed on ${path}`);
      }
      if (release) reply.headers["x-svc-catalog-release"] = release.releaseId;
      serveService(req, reply, route, query, release);
      return;
    }

    if (release) reply.headers["x-svc-catalog-release"] = release.releaseId;
    const period = quotaPeriod(clock.now());
    let caller = anonymousCaller(req, plans);
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const match = BEARER.exec(authorization);
      const owner = match?.[1] ? await keys.lookup(match[1]) : null;
      const plan = owner ? plans.plans[owner.plan] : undefined;
      if (!owner || !plan) {
        if (owner)
          logger.warn(
            { key_id: owner.keyId, plan: owner.plan },
            "key's plan is not defined in the plans file",
          );
        await peekInto(reply, caller, period);
        throw new ProblemError(
          "unauthorized",
          match
            ? "the API key is malformed, unknown or revoked"
            : "use the Bearer scheme: Authorization: Bearer <key>",
          undefined,
          { "www-authenticate": 'Bearer realm="catalog", error="invalid_token"' },
        );
      }
      caller = {
        subject: owner.workspace,
        plan: owner.plan,
        limit: plan.monthly_quota,
        workspace: owner.workspace,
      };
    }

    if (!route) {
      await consume(reply, caller, period);
      throw new ProblemError("not_found", `no such path: ${path}`);
    }
    if (!route.methods.includes(method)) {
      await consume(reply, caller, period);
      reply.headers.allow = route.methods.join(", ");
      throw new ProblemError("method_not_allowed", `${method} is not allowed on ${path}`);
    }
    if (route.requiresKey && caller.workspace === null) {
      await peekInto(reply, caller, period);
      throw new ProblemError(
        "unauthorized",
        `${path} requires an API key: Authorization: Bearer <key>`,
        undefined,
        {
          "www-authenticate": 'Bearer realm="catalog"',
        },
      );
    }
    if (!release) throw new ProblemError("unavailable", "no catalog release is loaded");
    if (method === "POST") await servePost(req, reply, route, query, release, caller, period);
    else await serveGet(req, reply, route, query, release, caller, period);
  }

  function send(res: ServerResponse, reply: Reply): void {
    if (state.draining) reply.headers.connection = "close";
    if (reply.status === 304 || reply.body === null) {
      res.writeHead(reply.status, reply.headers);
      res.end();
      return;
    }
    reply.headers["content-length"] = String(reply.body.length);
    res.writeHead(reply.status, reply.headers);
    if (reply.isHead) res.end();
    else res.end(reply.body);
  }

  function sendProblem(res: ServerResponse, reply: Reply, error: ProblemError): void {
    reply.status = STATUS[error.code];
    Object.assign(reply.headers, error.headers);
    if (error.code === "quota_exhausted") reply.headers["x-ratelimit-remaining"] = "0";
    reply.headers["cache-control"] = CACHE_NONE;
    reply.headers["content-type"] = PROBLEM_TYPE;
    delete reply.headers.etag;
    reply.body = problemBody(error, reply.requestId);
    send(res, reply);
  }

  return (req, res) => {
    const started = performance.now();
    // One state reference per request: a reload swaps state.release, never this request's copy.
    const release = state.release;
    const reply = new Reply(requestIdFor(req.headers["x-request-id"]), req.method === "HEAD");
    res.on("finish", () => {
      logger.info(
        {
          request_id: reply.requestId,
          method: req.method,
          path: splitUrl(req.url ?? "/").path,
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 100) / 100,
          release: release?.releaseId,
        },
        "request",
      );
    });
    dispatch(req, reply, release).then(
      () => {
        if (!res.headersSent) send(res, reply);
      },
      (error: unknown) => {
        if (error instanceof ClientGone) {
          logger.debug(
            { request_id: reply.requestId, reason: error.message },
            "client went away mid-request",
          );
          res.destroy();
          return;
        }
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (error instanceof ProblemError) {
          sendProblem(res, reply, error);
          return;
        }
        logger.error(
          {
            request_id: reply.requestId,
            err: error instanceof Error ? error.message : String(error),
            stack: (error as Error)?.stack,
          },
          "unhandled error while answering",
        );
        sendProblem(
          res,
          reply,
          new ProblemError("internal_error", "an unexpected error occurred; quote the request_id"),
        );
      },
    );
  };
}
