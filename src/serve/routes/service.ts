/**
 * The service endpoints: the OpenAPI document, its HTML page (/docs) and that page's script,
 * and the probes. Never authenticated, never counted. The documents reject query parameters;
 * the probes ignore query strings (load balancers add their own).
 */
import { docsPage, docsScript, type StaticAsset } from "../docs.js";
import { etagFor, JSON_TYPE, ProblemError } from "../http.js";
import type { RouteHandler } from "./handler.js";

const staticFile = (name: string, file: () => StaticAsset): RouteHandler => ({
  kind: "document",
  asset: () => {
    const asset = file();
    return { body: asset.body, contentType: asset.contentType, etag: etagFor("docs", name, asset.digest) };
  },
});

export const openapi: RouteHandler = {
  kind: "document",
  asset: ({ openApiDocument, openApiDigest }) => ({
    body: openApiDocument(),
    contentType: JSON_TYPE,
    etag: etagFor("openapi", "openapi", openApiDigest()),
  }),
};

export const docs = staticFile("docs", docsPage);
export const docsScriptRoute = staticFile("docs_script", docsScript);

export const healthz: RouteHandler = { kind: "probe", answer: () => ({ status: "ok" }) };

export const readyz: RouteHandler = {
  kind: "probe",
  answer: ({ release, draining, quotaUnavailable }) => {
    if (!release || draining)
      throw new ProblemError(
        "unavailable",
        draining ? "the server is shutting down" : "no release is loaded",
      );
    // a /v1 request would be answered 503 now: a load balancer should send it elsewhere
    if (quotaUnavailable !== null)
      throw new ProblemError("unavailable", quotaUnavailable, undefined, { "retry-after": "1" });
    return { status: "ready", release: release.releaseId };
  },
};
