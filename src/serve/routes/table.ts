/**
 * The route table: each route of the contract (src/schema/routes.ts: method, path, auth, quota,
 * cache policy, problem codes) with its handler. ../app.ts routes every request by this table
 * and nothing else; the OpenAPI document is generated from the same contract.
 */
import { ROUTE_CONTRACTS, type RouteContract, type RouteId } from "../../schema/index.js";
import { model, models, providers } from "./browse.js";
import { deployment, deploymentPrices, deployments, events, lifecycle } from "./catalog.js";
import type { RouteHandler } from "./handler.js";
import { calculateRoute, compareRoute } from "./pricing.js";
import { deploymentHistory, release, releaseDiff, releases } from "./releases.js";
import { docs, docsScriptRoute, healthz, openapi, readyz } from "./service.js";

const HANDLERS: Record<RouteId, RouteHandler> = {
  deployments,
  deployment,
  deployment_history: deploymentHistory,
  deployment_prices: deploymentPrices,
  compare: compareRoute,
  calculate: calculateRoute,
  lifecycle,
  events,
  providers,
  models,
  model,
  releases,
  release,
  release_diff: releaseDiff,
  openapi,
  docs,
  docs_script: docsScriptRoute,
  healthz,
  readyz,
};

export interface Route extends RouteContract {
  handler: RouteHandler;
  /** The methods the path answers (a GET route answers HEAD too); others are 405 with `Allow`. */
  methods: readonly string[];
}

interface CompiledRoute {
  route: Route;
  /** Anchored; group 1 is the path parameter, when the path has one. */
  pattern: RegExp;
}

/** `{modelId}` is `<lab>/<model>`, its slash sent as is or encoded; any other `{name}` is one segment. */
function compile(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) =>
      part === "{modelId}"
        ? "([^/]+(?:/[^/]+)?)"
        : part.startsWith("{")
          ? "([^/]+)"
          : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${source}$`);
}

export const ROUTES: readonly Route[] = ROUTE_CONTRACTS.map((contract) => ({
  ...contract,
  handler: HANDLERS[contract.id],
  methods: contract.method === "GET" ? ["GET", "HEAD"] : [contract.method],
}));

/** Literal paths first, so `/v1/deployments/compare` is never a deployment id. */
const COMPILED: readonly CompiledRoute[] = [...ROUTES]
  .sort((a, b) => Number(a.path.includes("{")) - Number(b.path.includes("{")))
  .map((route) => ({ route, pattern: compile(route.path) }));

/** The route of a path (a trailing slash is another path) and its raw path parameter. */
export function matchRoute(path: string): { route: Route; param: string } | null {
  for (const { route, pattern } of COMPILED) {
    const match = pattern.exec(path);
    if (match) return { route, param: match[1] ?? "" };
  }
  return null;
}
