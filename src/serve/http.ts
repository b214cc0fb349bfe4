/**
 * HTTP details shared by the routes: the answer under construction and the one way to send it
 * (or a problem), cache headers, RFC 9457 problem bodies, strict query-string parsing against
 * the zod query schemas, request ids, ETags and If-None-Match evaluation (RFC 9110).
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { z } from "zod";
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import { sha256Hex } from "../lib/hash.js";
import type { CachePolicy, Problem, ProblemCode } from "../schema/index.js";

export const PROBLEM_TYPE_BASE = "urn:catalog:problem:";

const TITLES: Record<ProblemCode, string> = {
  invalid_parameter: "Invalid query parameter",
  invalid_body: "Invalid request body",
  unauthorized: "Unauthorized",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  payload_too_large: "Payload too large",
  unsupported_media_type: "Unsupported media type",
  not_priceable: "Deployment cannot be priced",
  quota_exhausted: "Monthly quota exhausted",
  unavailable: "Service unavailable",
  internal_error: "Internal error",
  bad_request: "Bad request",
  request_timeout: "Request timeout",
  request_header_fields_too_large: "Request header fields too large",
};

export const STATUS: Record<ProblemCode, number> = {
  invalid_parameter: 400,
  invalid_body: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  not_priceable: 422,
  quota_exhausted: 429,
  unavailable: 503,
  internal_error: 500,
  bad_request: 400,
  request_timeout: 408,
  request_header_fields_too_large: 431,
};

export interface FieldError {
  parameter: string;
  message: string;
}

/** A failure the server answers with a problem body. Thrown or returned by the routes. */
export class ProblemError extends Error {
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const JSON_TYPE = "application/json; charset=utf-8";
const PROBLEM_TYPE = "application/problem+json";

/** Per-request answer under construction. */
export class Reply {
  status = 200;
  headers: Record<string, string> = {};
  body: Buffer | null = null;
  constructor(
    readonly requestId: string,
    readonly isHead: boolean,
  ) {
    this.headers["x-request-id"] = requestId;
  }

  /** The one way an answer gets its Cache-Control (RFC 9111). */
  cache(policy: CachePolicy): void {
    this.headers["cache-control"] = policy;
  }

  /** A 200 with a body of `contentType` (JSON unless told). */
  ok(body: Buffer, contentType = JSON_TYPE): void {
    this.headers["content-type"] = contentType;
    this.body = body;
  }

  /** The If-None-Match validator matched: 304 without a body. */
  notModified(): void {
    this.status = 304;
    this.body = null;
  }
}

/** Writes the answer; `closing` (the server drains) adds `Connection: close`. HEAD gets no body. */
export function sendReply(res: ServerResponse, reply: Reply, closing: boolean): void {
  if (closing) reply.headers.connection = "close";
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

/** The one way to answer with a problem: its status and headers, `no-store`, no ETag. */
export function sendProblem(res: ServerResponse, reply: Reply, error: ProblemError, closing: boolean): void {
  reply.status = STATUS[error.code];
  Object.assign(reply.headers, error.headers);
  if (error.code === "quota_exhausted") reply.headers["x-ratelimit-remaining"] = "0";
  reply.cache("no-store");
  reply.headers["content-type"] = PROBLEM_TYPE;
  delete reply.headers.etag;
  reply.body = problemBody(error, reply.requestId);
  sendReply(res, reply, closing);
}

export function problemBody(error: ProblemError, requestId: string): Buffer {
  const problem: Problem = {
    type: `${PROBLEM_TYPE_BASE}${error.code}`,
    title: TITLES[error.code],
    status: STATUS[error.code],
    detail: error.detail,
    code: error.code,
    request_id: requestId,
    ...(error.errors ? { errors: error.errors } : {}),
  };
  return Buffer.from(JSON.stringify(problem));
}

/** A client-sent x-request-id is echoed when it is a sane token; otherwise one is generated. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=~-]{1,128}$/;

export function requestIdFor(header: string | string[] | undefined): string {
  if (typeof header === "string" && SANE_REQUEST_ID.test(header)) return header;
  return `req_${randomUUID().replaceAll("-", "")}`;
}

/**
 * Names that could reach an object's prototype machinery. They are never API names, so they
 * are refused like any unknown name, in queries and in bodies at any depth.
 */
const RESERVED_NAMES: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** `application/x-www-form-urlencoded` decoding of one name or value; null when malformed. */
function decodeComponent(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    return null;
  }
}

/**
 * Parses a raw query string (without `?`) against a strict zod object schema. A query
 * parameter is single-valued unless named `repeatable`, so a repeated name is an error; unknown
 * names are errors too (a typo must not silently widen a filter), and so is malformed
 * percent-encoding (never decoded to U+FFFD). Empty pieces (`a=1&&b=2`, a trailing `&`) carry
 * nothing and are skipped. Each bad parameter is named.
 */
export function parseQuery<S extends z.ZodType>(
  schema: S,
  rawQuery: string,
  /** Names that may repeat (`status=a&status=b`); they always parse as an array. */
  repeatable: readonly string[] = [],
): z.infer<S> {
  const values: Record<string, string | string[]> = {};
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const piece of rawQuery.split("&")) {
    if (piece === "") continue;
    const eq = piece.indexOf("=");
    const rawName = eq === -1 ? piece : piece.slice(0, eq);
    const name = decodeComponent(rawName);
    if (name === null) {
      errors.push({ parameter: rawName, message: "is not valid percent-encoding" });
      continue;
    }
    if (RESERVED_NAMES.has(name)) {
      if (!seen.has(name)) errors.push({ parameter: name, message: "is not a known parameter" });
      seen.add(name);
      continue;
    }
    const isList = repeatable.includes(name);
    if (seen.has(name) && !isList) {
      if (!repeated.has(name)) {
        repeated.add(name);
        errors.push({ parameter: name, message: "must be given at most once" });
      }
      continue;
    }
    seen.add(name);
    const value = decodeComponent(eq === -1 ? "" : piece.slice(eq + 1));
    if (value === null) {
      repeated.add(name); // its schema issues would only repeat the problem
      errors.push({ parameter: name, message: "has malformed percent-encoding" });
      continue;
    }
    if (isList) {
      const list = values[name];
      if (Array.isArray(list)) list.push(value);
      else values[name] = [value];
    } else values[name] = value;
  }
  // A repeated parameter is a set: sorted and deduplicated, so the normalized request (and its
  // ETag) does not depend on the order or repetition of its values.
  for (const [name, value] of Object.entries(values))
    if (Array.isArray(value)) values[name] = [...new Set(value)].sort(compareCodePoints);
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) errors.push({ parameter: key, message: "is not a known parameter" });
        continue;
      }
      const parameter = String(issue.path[0] ?? "");
      if (repeated.has(parameter)) continue;
      errors.push({ parameter, message: issueMessage(issue) });
    }
  }
  if (errors.length > 0 || !parsed.success) {
    throw new ProblemError(
      "invalid_parameter",
      `invalid query parameter${errors.length === 1 ? "" : "s"}: ${[...new Set(errors.map((e) => e.parameter))].join(", ")}`,
      errors,
    );
  }
  return parsed.data as z.infer<S>;
}

/** Routes without query parameters still reject unknown ones. */
const EMPTY_QUERY = z.strictObject({});

/** Refuses any query parameter (400 naming each). */
export function parseNoQuery(rawQuery: string): void {
  parseQuery(EMPTY_QUERY, rawQuery);
}

/** A path parameter percent-decoded; malformed encoding is the empty string (an id no record has). */
export function decodePathParam(param: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    return "";
  }
}

/** Fields of a parsed JSON body named `__proto__`, `constructor` or `prototype`, at any depth. */
export function reservedFieldErrors(value: unknown, path = ""): FieldError[] {
  if (typeof value !== "object" || value === null) return [];
  const errors: FieldError[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const field = path ? `${path}.${key}` : key;
    if (!Array.isArray(value) && RESERVED_NAMES.has(key))
      errors.push({ parameter: field, message: "is not a known field" });
    else errors.push(...reservedFieldErrors(inner, field));
  }
  return errors;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => String(v)).join(", ")}`;
    case "too_small":
      return `must be at least ${String(issue.minimum)}${issue.origin === "string" ? " characters" : ""}`;
    case "too_big":
      return `must be at most ${String(issue.maximum)}${issue.origin === "string" ? " characters" : ""}`;
    case "invalid_type":
      return issue.expected === "number" || issue.expected === "int"
        ? "must be a decimal integer"
        : issue.expected === "boolean"
          ? "must be true or false"
          : issue.message;
    case "invalid_union":
      return "must be an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SSZ)";
    default:
      return issue.message;
  }
}

/** Zod issues of a JSON body, as `{parameter: "usage.input_tokens", message}` entries. */
export function bodyErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((key) => ({
        parameter: base ? `${base}.${key}` : key,
        message: "is not a known field",
      }));
    return [{ parameter: base || "(body)", message: issue.message }];
  });
}

/**
 * Strong ETag of a GET answer: a hash of the release id and the normalized request (route
 * plus the validated query with defaults applied, as canonical JSON). It never depends on
 * who asked, so it can be computed before the body and a 304 costs no body.
 */
export function etagFor(releaseId: string, route: string, normalized: unknown): string {
  return `"${sha256Hex(`${releaseId}\n${route}\n${canonicalJson(normalized)}`).slice(0, 40)}"`;
}

/**
 * If-None-Match (RFC 9110 13.1.2): `*` matches any current representation; otherwise a
 * comma-separated list of entity tags compared weakly (a `W/` prefix is ignored on both).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const trimmed = header.trim();
  if (trimmed === "*") return true;
  const ours = etag.startsWith("W/") ? etag.slice(2) : etag;
  for (const match of trimmed.matchAll(/(?:W\/)?"[^"]*"/g)) {
    const tag = match[0].startsWith("W/") ? match[0].slice(2) : match[0];
    if (tag === ours) return true;
  }
  return false;
}
