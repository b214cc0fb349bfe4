/**
 * The route table of the server as a contract: every path the server answers, with its method,
 * authentication, quota, cache policy and the problem codes it can answer. The server
 * (src/serve/routes/table.ts) attaches one handler to each entry and routes by this table; the
 * OpenAPI document (openapi.ts) reads security and error responses from it. A route exists in
 * both or in neither (test/serve/route-table.test.ts).
 */
import type { ProblemCode } from "./api.js";

/**
 * The route's name. It is also part of every ETag the route answers with (src/serve/http.ts
 * `etagFor`), so renaming one changes that route's ETags.
 */
export type RouteId =
  | "deployments"
  | "deployment"
  | "deployment_history"
  | "deployment_prices"
  | "compare"
  | "calculate"
  | "lifecycle"
  | "events"
  | "providers"
  | "models"
  | "model"
  | "releases"
  | "release"
  | "release_diff"
  | "openapi"
  | "docs"
  | "docs_script"
  | "healthz"
  | "readyz";

/**
 * `none`: a service endpoint, never authenticated. `optional`: a key is taken (an invalid one is
 * 401), keyless calls use the anonymous plan. `required`: a key must be sent (spec section 5).
 */
export type RouteAuth = "none" | "optional" | "required";

/**
 * RFC 9111 policy of the route's answers: `no-cache` (store, revalidate before each reuse with
 * the ETag) or `no-store`. Problem answers are always `no-store`.
 */
export type CachePolicy = "no-cache" | "no-store";

export interface RouteContract {
  id: RouteId;
  /** A GET route also answers HEAD. */
  method: "GET" | "POST";
  /**
   * The path as OpenAPI writes it; `{name}` is one path segment, except `{modelId}`
   * (`<lab>/<model>`: its slash may be sent as is or encoded).
   */
  path: string;
  auth: RouteAuth;
  /** Counted against the caller's monthly quota, with rate-limit headers on every answer. */
  metered: boolean;
  cache: CachePolicy;
  /**
   * The problem codes the route answers with; the document lists their responses. Metered
   * routes list `internal_error`; the service routes leave it out, as their documentation
   * always has (an unexpected failure there is still a 500 problem).
   */
  problems: readonly ProblemCode[];
  /** False only for a file of the HTML reference that the document does not describe. */
  documented: boolean;
}

/** Problems of every metered route: a bad query, a bad key, a wrong method, a spent quota, a store or release away. */
const METERED_PROBLEMS: readonly ProblemCode[] = [
  "invalid_parameter",
  "unauthorized",
  "method_not_allowed",
  "quota_exhausted",
  "unavailable",
  "internal_error",
];
const BODY_PROBLEMS: readonly ProblemCode[] = [
  ...METERED_PROBLEMS,
  "invalid_body",
  "payload_too_large",
  "unsupported_media_type",
];

/** A metered GET (and HEAD): an optional key, counted, revalidated with its ETag. */
const get = (
  id: RouteId,
  path: string,
  problems: readonly ProblemCode[] = METERED_PROBLEMS,
): RouteContract => ({
  id,
  method: "GET",
  path,
  auth: "optional",
  metered: true,
  cache: "no-cache",
  problems,
  documented: true,
});
const byId = [...METERED_PROBLEMS, "not_found"] as const;

/** A metered POST: a key required (spec section 5), counted, never stored by caches. */
const post = (id: RouteId, path: string, problems: readonly ProblemCode[]): RouteContract => ({
  id,
  method: "POST",
  path,
  auth: "required",
  metered: true,
  cache: "no-store",
  problems,
  documented: true,
});

/** A service endpoint: GET, never authenticated, never counted. */
const service = (
  id: RouteId,
  path: string,
  cache: CachePolicy,
  problems: readonly ProblemCode[],
): RouteContract => ({
  id,
  method: "GET",
  path,
  auth: "none",
  metered: false,
  cache,
  problems,
  documented: true,
});
/** The documents refuse any query parameter. */
const DOCUMENT_PROBLEMS: readonly ProblemCode[] = ["invalid_parameter", "method_not_allowed"];

/**
 * Every route, in the order of the OpenAPI document's paths. A literal path segment wins over a
 * `{name}` segment (`/v1/deployments/compare` is compare, never a deployment id).
 */
export const ROUTE_CONTRACTS: readonly RouteContract[] = [
  get("deployments", "/v1/deployments"),
  get("deployment", "/v1/deployments/{deploymentId}", byId),
  get("deployment_history", "/v1/deployments/{deploymentId}/history", byId),
  get("deployment_prices", "/v1/deployments/{deploymentId}/prices", byId),
  post("compare", "/v1/deployments/compare", BODY_PROBLEMS),
  get("providers", "/v1/providers"),
  get("models", "/v1/models"),
  get("model", "/v1/models/{modelId}", byId),
  get("releases", "/v1/releases"),
  get("release", "/v1/releases/{releaseId}", byId),
  get("release_diff", "/v1/releases/{releaseId}/diff", byId),
  post("calculate", "/v1/pricing/calculate", [...BODY_PROBLEMS, "not_found", "not_priceable"]),
  get("lifecycle", "/v1/lifecycle"),
  get("events", "/v1/lifecycle/events"),
  service("openapi", "/v1/openapi.json", "no-cache", DOCUMENT_PROBLEMS),
  service("docs", "/docs", "no-cache", DOCUMENT_PROBLEMS),
  {
    ...service("docs_script", "/docs/redoc.standalone.js", "no-cache", DOCUMENT_PROBLEMS),
    documented: false,
  },
  service("healthz", "/healthz", "no-store", ["method_not_allowed"]),
  service("readyz", "/readyz", "no-store", ["method_not_allowed", "unavailable"]),
];
