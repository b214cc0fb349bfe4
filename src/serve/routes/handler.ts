/**
 * What a route's handler is given and gives back. The pipeline in ../app.ts does the rest the
 * route table (table.ts) declares: authentication, quota, cache headers, conditional requests.
 *
 * - `resource` (a metered GET): validates its query and fixes its ETag; the body is built only
 *   when the answer is not a 304 and not already cached for this release.
 * - `action` (a metered POST): parses its JSON body and computes the answer, synchronously:
 *   the answer is a function of the release and the body alone, so the pipeline memoizes it.
 * - `document` (a service GET of a fixed file): its bytes, type and ETag.
 * - `probe` (a service GET of the server's state): its JSON answer.
 */
import type { z } from "zod";
import type { Logger } from "../../lib/logger.js";
import type { RouteId } from "../../schema/index.js";
import type { ServedRelease } from "../catalog-index.js";
import { etagFor } from "../http.js";
import type { AnswerNote, PreparedAnswer } from "../response-cache.js";

export interface ResourceInput {
  /** The route's id: part of its ETags. */
  route: RouteId;
  /** The raw (still percent-encoded) path parameter, or "" on a route without one. */
  param: string;
  rawQuery: string;
  release: ServedRelease;
  /** Where the served release's chain is read from (release history routes). */
  snapshotsDir: string | undefined;
  /** Where a route reports what the operator should know (a damaged release of the chain). */
  logger: Logger;
}

export interface ActionInput {
  route: RouteId;
  rawQuery: string;
  release: ServedRelease;
  /** The request body checked against `schema` (400 otherwise; 415 and 413 come before). */
  json<S extends z.ZodType>(schema: S): z.infer<S>;
}

export interface ServiceInput {
  release: ServedRelease | null;
  draining: boolean;
  /** Why the quota store cannot count requests now, or null. */
  quotaUnavailable: string | null;
  openApiDocument: () => Buffer;
  openApiDigest: () => string;
}

export interface Asset {
  body: Buffer;
  contentType: string;
  etag: string;
}

export type Prepare = (input: ResourceInput) => PreparedAnswer | Promise<PreparedAnswer>;
/** The parsed request (part of the answer's ETag), the answer, and an optional log note. */
export type Run = (input: ActionInput) => { request: unknown; response: unknown; note?: AnswerNote };

export type RouteHandler =
  | { kind: "resource"; prepare: Prepare }
  | { kind: "action"; run: Run }
  | { kind: "document"; asset(input: ServiceInput): Asset }
  | { kind: "probe"; answer(input: ServiceInput): unknown };

/** A GET answer whose body is built on first need, with the ETag of the route and normalized request. */
export function lazyAnswer(
  { release, route }: ResourceInput,
  normalized: unknown,
  build: () => Buffer,
): PreparedAnswer {
  return { etag: etagFor(release.releaseId, route, normalized), build, body: null };
}

/** A GET answer whose body already exists (one pre-serialized record). */
export function readyAnswer(
  { release, route }: ResourceInput,
  normalized: unknown,
  body: Buffer,
): PreparedAnswer {
  return { etag: etagFor(release.releaseId, route, normalized), build: () => body, body };
}
