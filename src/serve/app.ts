/**
 * The request handler: the pipeline every request goes through, driven by the route table
 * (routes/table.ts, from the contract in src/schema/routes.ts). No framework: node:http plus
 * pre-serialized record buffers.
 *
 * Order of checks for a metered (/v1) request (docs/decisions.md):
 *   1. an Authorization header that is not a valid key -> 401 (never treated as anonymous)
 *   2. path and method -> 404 / 405 (counted against quota)
 *   3. a key is required but absent -> 401 (not counted)
 *   4. GET/HEAD: query validation; when valid, the ETag and If-None-Match -> 304 (not counted)
 *   5. quota: count the request; over the plan's quota -> 429 (Retry-After to the next month)
 *   6. the answer (400 for a bad query, 404 for an unknown id, 413/415/400 for a bad body, 200)
 * Steps 1-4 and 6's checks admit or refuse a request (`admit`); what it costs is decided in
 * one place, the meter (middleware/meter.ts, `chargeFor`), applied once per request between
 * admission and the answer (`serveMetered`). Every answer on a metered path carries the
 * rate-limit headers of the caller's plan; 401, 304 and 429 answers report the counter
 * without counting. Service routes (/healthz, /readyz,
 * /v1/openapi.json, /docs) are never authenticated, never counted.
 *
 * Caching (RFC 9111): each route's policy is in the table (GET answers `no-cache`: store, but
 * revalidate before every reuse, so a revalidation costs no quota and no body and a client
 * never reuses an answer from a release that is no longer served; POST answers and probes
 * `no-store`); problem answers are always `no-store`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { RouteId } from "../schema/index.js";
import type { ServedRelease } from "./catalog-index.js";
import {
  etagFor,
  ifNoneMatchMatches,
  ProblemError,
  parseNoQuery,
  Reply,
  requestIdFor,
  sendProblem,
  sendReply,
} from "./http.js";
import type { KeyRing } from "./keys.js";
import { ClientGone, jsonBytes, parseJson } from "./middleware/body.js";
import { anonymousCaller, type Caller, keyedCaller, keyRequired } from "./middleware/caller.js";
import { Meter, type Outcome } from "./middleware/meter.js";
import type { PlansFile } from "./plans.js";
import { type QuotaPeriod, type QuotaStore, quotaPeriod } from "./quota.js";
import type { Prepare, Run } from "./routes/handler.js";
import { matchRoute, type Route } from "./routes/table.js";

export { plainAddress } from "./middleware/caller.js";

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

/** One request on its way through the pipeline. */
interface Exchange {
  req: IncomingMessage;
  reply: Reply;
  route: Route;
  param: string;
  rawQuery: string;
}

/** A metered request past authentication: who asks, in which quota period, on which release. */
interface Metered extends Exchange {
  caller: Caller;
  period: QuotaPeriod;
  release: ServedRelease;
}

/** A metered request admitted: what it costs, and the step that writes its answer once paid for. */
interface Admitted {
  outcome: Outcome;
  respond: () => void | Promise<void>;
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

function methodNotAllowed(reply: Reply, route: Route, method: string, path: string): ProblemError {
  reply.headers.allow = route.methods.join(", ");
  return new ProblemError("method_not_allowed", `${method} is not allowed on ${path}`);
}

/** GET routes answered from the loaded release alone (no file read per request). */
const IN_MEMORY_GETS: ReadonlySet<RouteId> = new Set<RouteId>([
  "deployments",
  "deployment",
  "lifecycle",
  "events",
]);

export function createHandler(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { state, keys, clock, logger } = deps;
  const trustedProxies: ReadonlySet<string> = deps.trustedProxies ?? new Set();
  const meter = new Meter(deps.quota, logger);

  /**
   * The caller of a metered request, and the 401 that refuses it when its key is not valid
   * (then the caller is the anonymous one, whose counter the 401 reports).
   */
  async function identify(req: IncomingMessage): Promise<{ caller: Caller; refusal: ProblemError | null }> {
    const plans = state.plans;
    const anonymous = anonymousCaller(req, plans, trustedProxies);
    const authorization = req.headers.authorization;
    if (authorization === undefined) return { caller: anonymous, refusal: null };
    const keyed = await keyedCaller(authorization, keys, plans, logger);
    if (keyed instanceof ProblemError) return { caller: anonymous, refusal: keyed };
    return { caller: keyed, refusal: null };
  }

  /** Service routes: the document (ETag, 304) or the probe's answer. */
  function serveService(x: Exchange, release: ServedRelease | null): void {
    const { route, reply } = x;
    const input = {
      release,
      draining: state.draining,
      quotaUnavailable: deps.quota.unavailable(),
      openApiDocument: deps.openApiDocument,
      openApiDigest: deps.openApiDigest,
    };
    const handler = route.handler;
    if (handler.kind === "probe") {
      reply.ok(Buffer.from(JSON.stringify(handler.answer(input))));
      return;
    }
    if (handler.kind !== "document")
      throw new Error(`service route ${route.id} has a ${handler.kind} handler`);
    parseNoQuery(x.rawQuery);
    const asset = handler.asset(input);
    reply.headers.etag = asset.etag;
    if (ifNoneMatchMatches(x.req.headers["if-none-match"], asset.etag)) reply.notModified();
    else reply.ok(asset.body, asset.contentType);
  }

  /**
   * A metered GET/HEAD up to its quota: validate the query, fix the ETag, match If-None-Match.
   * The answer's body is written by the returned step, once the request is paid for.
   */
  async function admitResource(x: Metered, prepare: Prepare): Promise<Admitted> {
    const { reply, release } = x;
    // The cache is keyed on the normalized query (its ETag), so padding a query cannot add
    // entries; on the in-memory routes a request text seen before (and validated then) maps
    // straight to its ETag (routes that read release files validate every time).
    const requestText = IN_MEMORY_GETS.has(x.route.id) ? `${x.route.id}\n${x.param}\n${x.rawQuery}` : null;
    let prepared = requestText === null ? undefined : release.answers.getByRequest(requestText);
    if (!prepared) {
      const fresh = await prepare({
        route: x.route.id,
        param: x.param,
        rawQuery: x.rawQuery,
        release,
        snapshotsDir: deps.snapshotsDir,
        logger,
      });
      prepared = release.answers.get(fresh.etag);
      if (!prepared) {
        prepared = fresh;
        release.answers.set(fresh.etag, fresh);
      }
      if (requestText !== null) release.answers.rememberRequest(requestText, prepared.etag);
    }
    const answer = prepared;
    reply.headers.etag = answer.etag;
    if (ifNoneMatchMatches(x.req.headers["if-none-match"], answer.etag))
      return { outcome: { kind: "not_modified" }, respond: () => reply.notModified() };
    return { outcome: { kind: "answer" }, respond: () => reply.ok(release.answers.body(answer)) };
  }

  /**
   * A metered POST: paid for before anything else (its body is not read for a spent quota);
   * the returned step refuses a query, reads the body and answers (If-None-Match is ignored).
   */
  function admitAction(x: Metered, run: Run): Admitted {
    const { reply, release } = x;
    const respond = async () => {
      parseNoQuery(x.rawQuery);
      const raw = await jsonBytes(x.req, reply);
      // The same body on the same (immutable) release has the same answer and ETag: computed once.
      const answer = release.postAnswers.answer(`${x.route.id}\n${raw.toString("utf8")}`, () => {
        const { request, response, note } = run({
          route: x.route.id,
          rawQuery: x.rawQuery,
          release,
          json: (schema) => parseJson(raw, schema),
        });
        return {
          etag: etagFor(release.releaseId, x.route.id, request),
          body: Buffer.from(JSON.stringify(response)),
          note: note ?? null,
        };
      });
      if (answer.note)
        logger.debug({ request_id: reply.requestId, ...answer.note.fields }, answer.note.message);
      reply.headers.etag = answer.etag;
      reply.ok(answer.body);
    };
    return { outcome: { kind: "answer" }, respond };
  }

  /** A metered request up to its quota: who asks, the route, the method, the key, the release. */
  async function admit(
    req: IncomingMessage,
    reply: Reply,
    release: ServedRelease | null,
    who: { caller: Caller; refusal: ProblemError | null },
    period: QuotaPeriod,
  ): Promise<Admitted> {
    if (who.refusal) throw who.refusal;
    const method = req.method ?? "GET";
    const { path, query } = splitUrl(req.url ?? "/");
    const matched = matchRoute(path);
    if (!matched) throw new ProblemError("not_found", `no such path: ${path}`);
    const { route, param } = matched;
    if (!route.methods.includes(method)) throw methodNotAllowed(reply, route, method, path);
    if (route.auth === "required" && who.caller.workspace === null) throw keyRequired(path);
    if (!release) throw new ProblemError("unavailable", "no catalog release is loaded");
    reply.cache(route.cache);
    const x: Metered = { req, reply, route, param, rawQuery: query, caller: who.caller, period, release };
    const handler = route.handler;
    if (handler.kind === "resource") return admitResource(x, handler.prepare);
    if (handler.kind === "action") return admitAction(x, handler.run);
    throw new Error(`metered route ${route.id} has a ${handler.kind} handler`);
  }

  /**
   * A metered (/v1) request: admitted (or refused) by the checks above, then charged by the
   * meter, the one place quota is decided, then answered (a refusal after its charge).
   */
  async function serveMetered(
    req: IncomingMessage,
    reply: Reply,
    release: ServedRelease | null,
  ): Promise<void> {
    const period = quotaPeriod(clock.now());
    const who = await identify(req);
    let admitted: Admitted;
    try {
      admitted = await admit(req, reply, release, who, period);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      await meter.charge(reply, who.caller, period, { kind: "problem", error });
      throw error;
    }
    await meter.charge(reply, who.caller, period, admitted.outcome);
    await admitted.respond();
  }

  async function dispatch(req: IncomingMessage, reply: Reply, release: ServedRelease | null): Promise<void> {
    if (release) reply.headers["x-svc-catalog-release"] = release.releaseId;
    const { path, query } = splitUrl(req.url ?? "/");
    const matched = matchRoute(path);
    if (!matched || matched.route.metered) return serveMetered(req, reply, release);
    const method = req.method ?? "GET";
    if (!matched.route.methods.includes(method)) throw methodNotAllowed(reply, matched.route, method, path);
    reply.cache(matched.route.cache);
    serveService({ req, reply, route: matched.route, param: matched.param, rawQuery: query }, release);
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
        if (!res.headersSent) sendReply(res, reply, state.draining);
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
          sendProblem(res, reply, error, state.draining);
          return;
        }
        logger.error(
          {
            request_id: reply.requestId,
            err: error instanceof Error ? error.message : String(error),
            stack: error instanceof Error ? error.stack : undefined,
          },
          "unhandled error while answering",
        );
        sendProblem(
          res,
          reply,
          new ProblemError("internal_error", "an unexpected error occurred; quote the request_id"),
          state.draining,
        );
      },
    );
  };
}
