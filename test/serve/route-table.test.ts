/**
 * The route table is the one list of routes: the server answers exactly its paths with its
 * methods, auth and cache policy, and the OpenAPI document describes exactly its documented
 * routes with the table's security and error statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/schema/openapi.js";
import { ROUTE_CONTRACTS, type RouteContract } from "../../src/schema/routes.js";
import { docsPage } from "../../src/serve/docs.js";
import { STATUS } from "../../src/serve/http.js";
import { matchRoute, ROUTES } from "../../src/serve/routes/table.js";
import { call, startTestServer, type TestServer } from "./support/harness.js";

// biome-ignore lint/suspicious/noExplicitAny: the test walks an untyped JSON document
type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;

/** A concrete path of a route: each `{name}` filled with a value no record has. */
const concrete = (route: RouteContract): string => route.path.replace(/\{[^}]+\}/g, "no-such-id");

describe("the route table and the OpenAPI document", () => {
  it("every documented route of the table is a path of the document with the table's method (and HEAD on /v1 GETs), and every path of the document is a route of the table", () => {
    const documented = ROUTE_CONTRACTS.filter((route) => route.documented);
    expect(Object.keys(doc.paths).sort()).toEqual(documented.map((route) => route.path).sort());
    for (const route of documented) {
      const methods = Object.keys(doc.paths[route.path]).sort();
      const expected = route.method === "POST" ? ["post"] : route.auth === "none" ? ["get"] : ["get", "head"];
      expect(methods, route.path).toEqual(expected);
    }
  });

  it("only the Redoc script is left out of the document, and the /docs page loads it", () => {
    expect(ROUTE_CONTRACTS.filter((route) => !route.documented).map((route) => route.path)).toEqual([
      "/docs/redoc.standalone.js",
    ]);
    expect(docsPage().body.toString("utf8")).toContain('<script src="/docs/redoc.standalone.js">');
  });

  it("each operation's security and error statuses are the route table's auth and problem codes", () => {
    const security = {
      none: [],
      optional: [{}, { bearerAuth: [] }],
      required: [{ bearerAuth: [] }],
    };
    for (const route of ROUTE_CONTRACTS.filter((r) => r.documented)) {
      const statuses = [...new Set(route.problems.map((code) => String(STATUS[code])))].sort();
      for (const [method, operation] of Object.entries(doc.paths[route.path] as Json)) {
        expect(operation.security, `${method} ${route.path}`).toEqual(security[route.auth]);
        const errors = Object.keys(operation.responses)
          .filter((status) => Number(status) >= 400)
          .sort();
        expect(errors, `${method} ${route.path}`).toEqual(statuses);
      }
    }
  });

  it("routes: literal segments win over parameters, a model id may carry its slash, a trailing slash is another path", () => {
    expect(matchRoute("/v1/deployments/compare")?.route.id).toBe("compare");
    expect(matchRoute("/v1/deployments/a.b")).toMatchObject({ route: { id: "deployment" }, param: "a.b" });
    expect(matchRoute("/v1/deployments/a/history")).toMatchObject({
      route: { id: "deployment_history" },
      param: "a",
    });
    expect(matchRoute("/v1/models/anthropic/claude")).toMatchObject({
      route: { id: "model" },
      param: "anthropic/claude",
    });
    expect(matchRoute("/v1/models/anthropic%2Fclaude")?.param).toBe("anthropic%2Fclaude");
    expect(matchRoute("/v1/models/a/b/c")).toBeNull();
    expect(matchRoute("/v1/deployments/")).toBeNull();
    expect(matchRoute("/v1/deployments/a/")).toBeNull();
    expect(matchRoute("/v1/openapi-json")).toBeNull();
    expect(matchRoute("constructor")).toBeNull();
  });
});

describe("the server answers the route table", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("every route refuses a method it does not list with 405 and the table's methods in Allow", async () => {
    for (const route of ROUTES) {
      const wrong = route.method === "POST" ? "GET" : "DELETE";
      const answer = await call(t.server.url, wrong, concrete(route));
      expect(answer.status, `${wrong} ${route.path}`).toBe(405);
      expect(answer.headers.allow, route.path).toBe(route.methods.join(", "));
    }
  });

  it("metered routes report the quota, service routes never do; keyless calls to a route that requires a key are 401", async () => {
    for (const route of ROUTES) {
      const answer =
        route.method === "POST" ? await t.post(concrete(route), {}) : await t.get(concrete(route));
      expect("x-ratelimit-limit" in answer.headers, route.path).toBe(route.metered);
      if (route.auth === "required") expect(answer.status, route.path).toBe(401);
      else expect(answer.status, route.path).not.toBe(401);
      expect(answer.headers["cache-control"], route.path).toBe(
        answer.status < 400 ? route.cache : "no-store",
      );
    }
  });
});
