/**
 * The OpenAPI 3.1 document of the /v1 API, generated from the zod schemas (never written by
 * hand). Schemas go through zod 4's native `z.toJSONSchema`: request bodies and query
 * parameters as their input type (defaults make fields optional), responses as their output
 * type. Every schema carrying `.meta({ id })` becomes one entry of `components/schemas` and is
 * referenced with `$ref`. The document also states the decisions the spec leaves open
 * (problem bodies, conditional requests, authentication and quota; docs/decisions.md).
 *
 * `catalog openapi --out src/schema/openapi.json` writes the checked-in copy; a test fails when
 * it is stale. The output is deterministic: same schemas, same bytes.
 */
import { z } from "zod";
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import {
  CalculateRequest,
  CalculateResponse,
  CompareRequest,
  CompareResponse,
  DeploymentPage,
  EventPage,
  LifecyclePage,
  ListDeploymentsQuery,
  ListEventsQuery,
  ListLifecycleQuery,
  Problem,
  type ProblemCode,
} from "./api.js";
import { DeploymentId, IsoDateTime, ReleaseId } from "./common.js";
import { Deployment } from "./deployment.js";
import {
  DeploymentHistoryPage,
  ListHistoryQuery,
  ListModelsQuery,
  ListProvidersQuery,
  ListReleasesQuery,
  Model,
  ModelPage,
  ProviderPage,
  ReleaseDiff,
  ReleaseItem,
  ReleasePage,
} from "./history.js";
import { ListPricesQuery, PriceIntervalPage } from "./price-history.js";
import { ROUTE_CONTRACTS, type RouteAuth, type RouteContract, type RouteId } from "./routes.js";

/** The version of the /v1 contract this document describes (the path prefix is the major version). */
export const API_VERSION = "1.0.0";

type Json = Record<string, unknown>;
type Io = "input" | "output";

const SCHEMA_REF_PREFIX = "#/components/schemas/";
const ref = (section: string, name: string): Json => ({ $ref: `#/components/${section}/${name}` });

/**
 * Collects the named schemas met while converting, so that each becomes one component.
 * A name converted both as input and as output must come out identical, otherwise one name
 * would stand for two shapes.
 */
class SchemaComponents {
  private readonly byId = new Map<string, { io: Io; json: Json; text: string }>();

  convert(schema: z.ZodType, io: Io): Json {
    const converted = z.toJSONSchema(schema, { io, target: "draft-2020-12" }) as Json;
    const { $schema: _dialect, $defs, ...root } = converted;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, Json>))
      this.add(id, io, rewriteRefs(definition) as Json);
    return rewriteRefs(root) as Json;
  }

  private add(id: string, io: Io, json: Json): void {
    const text = canonicalJson(json);
    const existing = this.byId.get(id);
    if (existing && existing.text !== text)
      throw new CatalogError(
        "validation_failed",
        `schema "${id}" converts differently as ${existing.io} and as ${io}; give the two shapes different ids`,
      );
    if (!existing) this.byId.set(id, { io, json, text });
  }

  /** Components sorted by name, so the document does not depend on traversal order. */
  toObject(): Record<string, Json> {
    const out: Record<string, Json> = {};
    for (const id of [...this.byId.keys()].sort()) out[id] = (this.byId.get(id) as { json: Json }).json;
    return out;
  }
}

/** `#/$defs/X` (what zod emits for a single schema) becomes `#/components/schemas/X`. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== "object") return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value as Json)) {
    out[key] =
      key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")
        ? SCHEMA_REF_PREFIX + inner.slice("#/$defs/".length)
        : rewriteRefs(inner);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Query parameters: names, schemas and defaults from the query schemas; meanings from the spec.
// ---------------------------------------------------------------------------------------------

const PAGING_DOCS = {
  limit: "Maximum number of records to return, 1 to 500 (default 100).",
  offset:
    "Zero-based count of matching records to skip (default 0). Next page: offset + limit; stop when `meta.has_more` is false.",
};

const DEPLOYMENT_QUERY_DOCS: Record<string, string> = {
  q: "Free-text search over provider model ID, canonical model, provider, mode, model name and lab.",
  provider: "Provider slug.",
  model: "Exact canonical model ID.",
  region: "`global`, `eu`, or a provider-specific region.",
  mode: "Provider inference mode or API family.",
  capability:
    "A capability name; repeatable (`capability=vision&capability=tool_calling` keeps deployments that support every one). Keeps only deployments whose status for each named capability is `supported`; `conditional` results are excluded.",
  min_context_tokens:
    "Keeps deployments whose context window is known and at least this many tokens (a non-negative integer); an unknown context window never matches.",
  min_max_output_tokens:
    "Keeps deployments whose maximum output is known and at least this many tokens (a non-negative integer); an unknown maximum never matches.",
  max_input_price:
    "Keeps priced deployments whose base input price (micro-USD per million tokens, before any long-context tier) is known and at or under this; unpriced deployments never match.",
  max_output_price:
    "Keeps priced deployments whose base output price (micro-USD per million tokens, before any long-context tier) is known and at or under this; unpriced deployments never match.",
  has_pricing: "Filters by whether normalized pricing (a rate card) is present.",
  status:
    "Lifecycle status; repeatable (`status=deprecated&status=retired` keeps deployments with any of them).",
  verification:
    "`official` keeps deployments whose listing and (when priced) rate card come from official sources; `corroborated` also admits community values two independent datasets agree on. Absent: every deployment.",
  sort: "`id` (default), `input_price`, `output_price` or `context_tokens` (micro-USD per million tokens; tokens); a `-` prefix sorts descending. Deployments without the value come last in both orders; ties by `id`.",
  ...PAGING_DOCS,
};

const DATE_FILTER_NOTE =
  "Matches only records with a parseable date; records with unknown dates are excluded by any date filter.";

const LIFECYCLE_QUERY_DOCS: Record<string, string> = {
  resource_type: "`provider`, `model` or `deployment`.",
  resource_id: "Exact stable resource ID.",
  provider: "Exact provider slug, for provider and deployment records.",
  model: "Exact canonical model ID, for model and deployment records.",
  status: "Normalized lifecycle status.",
  deprecation_state: "Exact deprecation milestone state.",
  end_of_life_state:
    "Exact end-of-life milestone state. To find unannounced risk, query with `end_of_life_state=unknown`.",
  coverage_status: "Exact monitoring coverage status.",
  include_unknown:
    "Default true. When false, omits records whose status and both milestones are all unknown.",
  deprecation_before: `Keep records whose known deprecation date is on or before this boundary. ${DATE_FILTER_NOTE}`,
  deprecation_after: `Keep records whose known deprecation date is on or after this boundary. ${DATE_FILTER_NOTE}`,
  end_of_life_before: `Keep records whose known end-of-life date is on or before this boundary. ${DATE_FILTER_NOTE}`,
  end_of_life_after: `Keep records whose known end-of-life date is on or after this boundary. ${DATE_FILTER_NOTE}`,
  sort: "Sort key (default `end_of_life`); records without the date come last in both orders, ties by `resource_type`, `resource_id`.",
  order: "`asc` or `desc` (default `asc`).",
  ...PAGING_DOCS,
};

const EVENT_QUERY_DOCS: Record<string, string> = {
  provider: "Exact provider slug.",
  source_id: "Exact monitored source ID.",
  event_type: "Event type.",
  since:
    "Inclusive lower boundary on `detected_at`. Poll with the last successfully processed `detected_at`.",
  until: "Inclusive upper boundary on `detected_at`.",
  ...PAGING_DOCS,
};

function queryParameters(
  components: SchemaComponents,
  query: z.ZodObject,
  docs: Record<string, string>,
): Json[] {
  const converted = components.convert(query, "input");
  const properties = (converted.properties ?? {}) as Record<string, Json>;
  const required = new Set(
    Array.isArray(converted.required)
      ? converted.required.filter((r: unknown): r is string => typeof r === "string")
      : [],
  );
  // The defaults the server applies, read from the schema itself (zod drops `default` from the
  // input JSON Schema of a preprocessed field, so it is restored here).
  const defaults = query.parse({}) as Record<string, unknown>;
  return Object.keys(query.shape).map((name) => {
    const schema = { ...(properties[name] as Json) };
    if (defaults[name] !== undefined && schema.default === undefined) schema.default = defaults[name];
    const description =
      docs[name] ?? (typeof schema.description === "string" ? schema.description : undefined);
    return {
      name,
      in: "query",
      required: required.has(name),
      ...(description ? { description } : {}),
      schema,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Headers, problem responses, security
// ---------------------------------------------------------------------------------------------

const NO_QUOTA_NOTE =
  "Sent on every /v1 answer of a server that applies quota; absent only when the server runs with `--no-quota` (an internal deployment where no quota applies, so there is no limit to report).";

function headerComponents(components: SchemaComponents): Record<string, Json> {
  const header = (description: string, schema: Json, required = true): Json => ({
    description,
    required,
    schema,
  });
  return {
    Allow: header("Methods the path supports, e.g. `POST` for /v1/deployments/compare.", {
      type: "string",
    }),
    "Cache-Control": header(
      "Explicit caching policy of every GET answer: clients revalidate with the ETag. A 304 carries the same value as the 200; a 429 carries `no-store`.",
      { type: "string" },
    ),
    Date: header("HTTP date of the answer (RFC 9110).", { type: "string" }),
    ETag: header(
      'Strong content fingerprint (RFC 9110), e.g. `"3f2a..."`. It depends only on the catalog release and the normalized request. Send it back in `If-None-Match`.',
      { type: "string" },
    ),
    "Retry-After": header("Seconds until the quota resets (the start of the next UTC calendar month).", {
      type: "integer",
      minimum: 0,
    }),
    "WWW-Authenticate": header(
      'RFC 6750 challenge: `Bearer`, with `error="invalid_token"` when a key was sent. The key is never echoed.',
      { type: "string" },
    ),
    "x-ratelimit-limit": header(
      `Blocking monthly request quota of the workspace plan. ${NO_QUOTA_NOTE}`,
      { type: "integer", minimum: 0 },
      false,
    ),
    "x-ratelimit-remaining": header(
      `Requests remaining in the current monthly period. ${NO_QUOTA_NOTE}`,
      { type: "integer", minimum: 0 },
      false,
    ),
    "x-ratelimit-reset": header(
      `ISO 8601 instant the next quota period (UTC calendar month) starts. ${NO_QUOTA_NOTE}`,
      components.convert(IsoDateTime, "output"),
      false,
    ),
    "x-request-id": header(
      "Unique request identifier for logs and support. A sane client-sent `x-request-id` is echoed; it also appears in problem bodies and in the server's log line.",
      { type: "string" },
    ),
    "x-svc-catalog-release": header(
      "Immutable identifier of the catalog snapshot that answered (`rel_` + SHA-256 hex). Persist it beside decisions made from the answer.",
      components.convert(ReleaseId, "output"),
    ),
  };
}

const headerRefs = (names: readonly string[]): Record<string, Json> =>
  Object.fromEntries(names.map((name) => [name, ref("headers", name)]));

const RATE_LIMIT_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"] as const;
/** Headers of every successful /v1 answer (spec 4.6). */
const SUCCESS_HEADERS = ["x-request-id", "x-svc-catalog-release", "ETag", ...RATE_LIMIT_HEADERS] as const;
/** GET answers add an explicit Cache-Control and a Date (decisions: caching). */
const GET_SUCCESS_HEADERS = [...SUCCESS_HEADERS, "Cache-Control", "Date"] as const;

interface ProblemResponseSpec {
  name: string;
  status: number;
  codes: ProblemCode[];
  description: string;
  headers: readonly string[];
}

function problemResponses(): ProblemResponseSpec[] {
  const specs: ProblemResponseSpec[] = [
    {
      name: "InvalidParameter",
      status: 400,
      codes: ["invalid_parameter"],
      description:
        "`invalid_parameter`: a query value out of range or of the wrong type, an unknown enum value, a malformed date, a repeated single-valued parameter, or an unknown query parameter. `errors` names each bad parameter.",
      headers: ["x-request-id"],
    },
    {
      name: "InvalidBody",
      status: 400,
      codes: ["invalid_body", "invalid_parameter"],
      description:
        "`invalid_body`: malformed JSON, wrong field types, unknown top-level fields, `deployment_ids` empty or over 100, negative or non-integer token counts, `requires` values other than `supported` / `conditional`. `invalid_parameter` for a query parameter. `errors` names each bad field.",
      headers: ["x-request-id"],
    },
    {
      name: "BadRequest",
      status: 400,
      codes: ["bad_request"],
      description:
        "`bad_request`: the request is not valid HTTP/1.1 (a malformed request line or header, or an HTTP/1.1 request without `Host`). Answered by the HTTP layer before any route; the connection is closed.",
      headers: ["x-request-id"],
    },
    {
      name: "RequestTimeout",
      status: 408,
      codes: ["request_timeout"],
      description:
        "`request_timeout`: the request head did not arrive within 10 s, or the whole request within 30 s. Answered by the HTTP layer on any path; the connection is closed.",
      headers: ["x-request-id"],
    },
    {
      name: "RequestHeaderFieldsTooLarge",
      status: 431,
      codes: ["request_header_fields_too_large"],
      description:
        "`request_header_fields_too_large`: the request line and headers together exceed 16 KiB (a very long query string counts). Answered by the HTTP layer on any path; the connection is closed.",
      headers: ["x-request-id"],
    },
    {
      name: "Unauthorized",
      status: 401,
      codes: ["unauthorized"],
      description:
        "`unauthorized`: no key on an endpoint that requires one, or a malformed, unknown or revoked key on any endpoint (an invalid key is never treated as anonymous).",
      headers: ["x-request-id", "WWW-Authenticate"],
    },
    {
      name: "NotFound",
      status: 404,
      codes: ["not_found"],
      description: "`not_found`: unknown path or id (a trailing slash is not the same path).",
      headers: ["x-request-id"],
    },
    {
      name: "MethodNotAllowed",
      status: 405,
      codes: ["method_not_allowed"],
      description:
        "`method_not_allowed`: the path exists but not for this method; `Allow` lists the methods.",
      headers: ["x-request-id", "Allow"],
    },
    {
      name: "PayloadTooLarge",
      status: 413,
      codes: ["payload_too_large"],
      description: "`payload_too_large`: the request body is over 64 KiB.",
      headers: ["x-request-id"],
    },
    {
      name: "UnsupportedMediaType",
      status: 415,
      codes: ["unsupported_media_type"],
      description: "`unsupported_media_type`: the body is not sent as `application/json`.",
      headers: ["x-request-id"],
    },
    {
      name: "NotPriceable",
      status: 422,
      codes: ["not_priceable"],
      description:
        "`not_priceable`: the deployment has no token rate card, or lacks a price the usage needs (unknown is never priced as zero).",
      headers: ["x-request-id"],
    },
    {
      name: "QuotaExhausted",
      status: 429,
      codes: ["quota_exhausted"],
      description:
        "`quota_exhausted`: the monthly quota of the workspace plan (or of the anonymous plan of the client address) is spent. `x-ratelimit-remaining` is 0 and `Retry-After` gives the seconds to the reset.",
      headers: ["x-request-id", "Retry-After", "Cache-Control", ...RATE_LIMIT_HEADERS],
    },
    {
      name: "InternalError",
      status: 500,
      codes: ["internal_error"],
      description: "`internal_error`: an unexpected server failure; quote `request_id` when reporting it.",
      headers: ["x-request-id"],
    },
    {
      name: "Unavailable",
      status: 503,
      codes: ["unavailable"],
      description:
        "`unavailable`: no valid catalog release is loaded, or the quota store (Redis) does not answer within its deadline; `Retry-After` says when to retry.",
      headers: ["x-request-id", "Retry-After"],
    },
  ];
  return specs;
}

function problemResponseComponents(specs: ProblemResponseSpec[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const spec of [...specs].sort((a, b) => a.status - b.status || a.name.localeCompare(b.name))) {
    out[spec.name] = {
      description: spec.description,
      headers: headerRefs(spec.headers),
      content: {
        "application/problem+json": {
          schema: {
            allOf: [
              ref("schemas", "Problem"),
              {
                type: "object",
                properties: {
                  status: { const: spec.status },
                  code: spec.codes.length === 1 ? { const: spec.codes[0] } : { enum: spec.codes },
                },
              },
            ],
          },
        },
      },
    };
  }
  return out;
}

/** The `security` of an operation, from the route table's `auth`. */
const SECURITY: Record<RouteAuth, Json[]> = {
  optional: [{}, { bearerAuth: [] }],
  required: [{ bearerAuth: [] }],
  none: [],
};

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

/** What the document says about a metered route beyond the route table. */
interface ApiOperation {
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  parameters: Json[];
  requestBody?: Json;
  /** Response schema of the 200. */
  success: Json;
  successDescription: string;
}

/** What the document says about a service route beyond the route table. */
interface ServiceOperation {
  operationId: string;
  summary: string;
  description?: string;
  /** The 200, and the 304 when the route answers one. */
  ok: Json;
  notModified?: Json;
}

/**
 * The error responses of a route, from the problem codes the route table gives it: per status,
 * the response component whose codes the route answers and that names the most of them (a
 * POST's 400 is InvalidBody, which also covers `invalid_parameter`).
 */
function errorResponses(route: RouteContract, specs: ProblemResponseSpec[]): Record<string, Json> {
  const byStatus = new Map<number, ProblemResponseSpec>();
  for (const spec of specs) {
    if (!spec.codes.every((code) => route.problems.includes(code))) continue;
    const chosen = byStatus.get(spec.status);
    if (!chosen || spec.codes.length > chosen.codes.length) byStatus.set(spec.status, spec);
  }
  const uncovered = route.problems.filter(
    (code) => ![...byStatus.values()].some((s) => s.codes.includes(code)),
  );
  if (uncovered.length > 0)
    throw new CatalogError(
      "validation_failed",
      `route ${route.method} ${route.path} answers ${uncovered.join(", ")}, which no problem response documents`,
    );
  const out: Record<string, Json> = {};
  for (const status of [...byStatus.keys()].sort((x, y) => x - y)) {
    const spec = byStatus.get(status);
    if (spec) out[String(status)] = ref("responses", spec.name);
  }
  return out;
}

function getOperation(route: RouteContract, op: ApiOperation, specs: ProblemResponseSpec[]): Json {
  const headers = [ref("parameters", "IfNoneMatch"), ref("parameters", "RequestId")];
  return {
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    operationId: op.operationId,
    security: SECURITY[route.auth],
    parameters: [...op.parameters, ...headers],
    responses: {
      "200": {
        description: op.successDescription,
        headers: headerRefs(GET_SUCCESS_HEADERS),
        content: { "application/json": { schema: op.success } },
      },
      "304": ref("responses", "NotModified"),
      ...errorResponses(route, specs),
    },
  };
}

/** HEAD is answered on every GET route with the GET's headers and no body (decisions: caching). */
function headOperation(route: RouteContract, op: ApiOperation, specs: ProblemResponseSpec[]): Json {
  return {
    tags: [op.tag],
    summary: `Headers of: ${op.summary.charAt(0).toLowerCase()}${op.summary.slice(1)}`,
    description: "The same answer as the GET, headers only, without a body.",
    operationId: `head${op.operationId.charAt(0).toUpperCase()}${op.operationId.slice(1)}`,
    security: SECURITY[route.auth],
    parameters: [...op.parameters, ref("parameters", "IfNoneMatch"), ref("parameters", "RequestId")],
    responses: {
      "200": { description: "Headers of the GET answer.", headers: headerRefs(GET_SUCCESS_HEADERS) },
      "304": ref("responses", "NotModified"),
      ...errorResponses(route, specs),
    },
  };
}

function postOperation(route: RouteContract, op: ApiOperation, specs: ProblemResponseSpec[]): Json {
  return {
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    operationId: op.operationId,
    security: SECURITY[route.auth],
    parameters: [ref("parameters", "RequestId")],
    requestBody: op.requestBody,
    responses: {
      "200": {
        description: op.successDescription,
        headers: headerRefs(SUCCESS_HEADERS),
        content: { "application/json": { schema: op.success } },
      },
      ...errorResponses(route, specs),
    },
  };
}

/** Service routes are documented as GET only (HEAD works there too, as on every GET route). */
function serviceOperation(route: RouteContract, op: ServiceOperation, specs: ProblemResponseSpec[]): Json {
  return {
    tags: ["service"],
    summary: op.summary,
    description: op.description,
    operationId: op.operationId,
    security: SECURITY[route.auth],
    responses: {
      "200": op.ok,
      ...(op.notModified ? { "304": op.notModified } : {}),
      ...errorResponses(route, specs),
    },
  };
}

/** The path item of one route of the table. */
function pathItem(
  route: RouteContract,
  op: ApiOperation | ServiceOperation,
  specs: ProblemResponseSpec[],
): Json {
  if (!("tag" in op)) return { get: serviceOperation(route, op, specs) };
  if (route.method === "POST") return { post: postOperation(route, op, specs) };
  return { get: getOperation(route, op, specs), head: headOperation(route, op, specs) };
}

const INFO_DESCRIPTION = [
  "Read-only catalog of concrete LLM provider deployments (one model offered by one provider through one API surface, mode and region): normalized rate cards, token limits, capabilities and lifecycle, plus a polled feed of changes to the monitored upstream sources.",
  "",
  "Every answer is computed from an immutable catalog release, named in the `x-svc-catalog-release` header.",
  "",
  "- **Ordering**: deployments by `id`; lifecycle records by the requested sort (records without the date last in both orders), then `resource_type`, `resource_id`; events by `detected_at`, then `id`. The same query on the same release returns the same bytes.",
  "- **Money**: rate cards are integer micro-USD per million tokens; every amount in a response is a decimal string with exactly six fraction digits (`0.001250`). Unknown prices are null, never zero.",
  "- **Errors**: RFC 9457 `application/problem+json` with a stable snake_case `code` and the `request_id`; validation failures list `errors: [{parameter, message}]`. Unknown query parameters are rejected.",
  "- **Conditional requests**: every GET 200 has a strong `ETag`; `If-None-Match` (weak comparison, lists and `*`) answers 304 without a body and without consuming quota. HEAD is answered on every GET route.",
  "- **Authentication and quota**: `Authorization: Bearer <key>`; keys belong to a workspace whose plan has a monthly quota (calendar month, UTC) shared by all its keys. Keyless calls on optional endpoints count against the anonymous plan of the client address. An invalid key is always 401.",
].join("\n");

/** Builds the OpenAPI 3.1 document of the /v1 API from the zod schemas. */
export function buildOpenApiDocument(): Json {
  const components = new SchemaComponents();
  const specs = problemResponses();
  // Responses reference the Problem component through allOf; convert it so it is registered.
  components.convert(Problem, "output");

  const deploymentIdParam: Json = {
    name: "deploymentId",
    in: "path",
    required: true,
    description: "Stable deployment identifier. An unknown or malformed id is 404.",
    schema: components.convert(DeploymentId, "output"),
  };

  const jsonBody = (schema: z.ZodType, description: string): Json => ({
    required: true,
    description,
    content: { "application/json": { schema: components.convert(schema, "input") } },
  });

  const listDeployments: ApiOperation = {
    operationId: "listDeployments",
    tag: "deployments",
    summary: "List deployments",
    description:
      "Search deployments by model, provider, region, mode, status, required capabilities, minimum context window and maximum output, and maximum input and output price; every filter given must hold. Ordered by `sort` (default `id`). Example: the 5 cheapest deployments with vision and tool calling and at least 128k context: `?capability=vision&capability=tool_calling&min_context_tokens=128000&sort=input_price&limit=5`.",
    parameters: queryParameters(components, ListDeploymentsQuery, DEPLOYMENT_QUERY_DOCS),
    success: components.convert(DeploymentPage, "output"),
    successDescription: "A page of deployments.",
  };
  const getDeployment: ApiOperation = {
    operationId: "getDeployment",
    tag: "deployments",
    summary: "Retrieve a deployment",
    description: "One Deployment object, not wrapped in an envelope. No query parameters are accepted.",
    parameters: [deploymentIdParam],
    success: components.convert(Deployment, "output"),
    successDescription: "The deployment.",
  };
  const compareDeployments: ApiOperation = {
    operationId: "compareDeployments",
    tag: "deployments",
    summary: "Compare deployments by total price",
    description: [
      "Prices every candidate with the identical usage profile and returns them from lowest to highest total price (ties by `id`).",
      "",
      "1. Unknown deployment IDs are omitted; duplicate IDs count once.",
      "2. Deployments without a token rate card, or lacking a price the usage needs, are omitted (unknown is never priced as zero).",
      "3. Candidates that fail any entry of `requires` are omitted; requiring `conditional` also accepts `supported`.",
      "4. When no candidate qualifies the answer is 200 with an empty `data` array, not an error.",
    ].join("\n"),
    parameters: [],
    requestBody: jsonBody(
      CompareRequest,
      "Candidate deployment IDs (1 to 100), a usage profile and requirements.",
    ),
    success: components.convert(CompareResponse, "output"),
    successDescription: "Qualifying candidates, cheapest first.",
  };
  const calculatePrice: ApiOperation = {
    operationId: "calculatePrice",
    tag: "pricing",
    summary: "Price one deployment for a usage profile",
    description:
      "Returns the per-component breakdown (tokens x micro-USD per million tokens, exact integer arithmetic, rounded half-up to whole micro-USD only when shown). Compare uses the same function.",
    parameters: [],
    requestBody: jsonBody(CalculateRequest, "The deployment to price and the usage profile."),
    success: components.convert(CalculateResponse, "output"),
    successDescription: "The price breakdown.",
  };
  const listLifecycle: ApiOperation = {
    operationId: "listLifecycle",
    tag: "lifecycle",
    summary: "List lifecycle records",
    description:
      "Normalized lifecycle assertions for providers, models and deployments. A date boundary matches only records with a parseable date; to find unannounced risk, query separately with `end_of_life_state=unknown`. Provider and model records carry a `summary`, an aggregation over their deployments, not a lifecycle assertion at the parent scope.",
    parameters: queryParameters(components, ListLifecycleQuery, LIFECYCLE_QUERY_DOCS),
    success: components.convert(LifecyclePage, "output"),
    successDescription: "A page of lifecycle records.",
  };
  const listEvents: ApiOperation = {
    operationId: "listLifecycleEvents",
    tag: "lifecycle",
    summary: "List source events",
    description:
      "Changes to the monitored upstream lifecycle sources, to be polled with `since` set to the last processed `detected_at`. `lifecycle.source_changed` is a re-check signal only (a hash change does not prove a date changed); on `lifecycle.source_recovered` re-fetch affected records; on `lifecycle.source_failed` raise a coverage warning. Ordered by `detected_at`, then `id`.",
    parameters: queryParameters(components, ListEventsQuery, EVENT_QUERY_DOCS),
    success: components.convert(EventPage, "output"),
    successDescription: "A page of source events.",
  };

  const modelIdParam: Json = {
    name: "modelId",
    in: "path",
    required: true,
    description:
      "Canonical model ID `<lab>/<model>`; its slash may be sent as is (`/v1/models/anthropic/claude-opus-4-7`) or encoded (`anthropic%2Fclaude-opus-4-7`). Unknown is 404.",
    schema: { type: "string" },
  };
  const releaseIdParam: Json = {
    name: "releaseId",
    in: "path",
    required: true,
    description:
      "Full release id (`rel_` + 64 hex digits) of a release in the served release's chain; otherwise 404.",
    schema: components.convert(ReleaseId, "output"),
  };
  const listProviders: ApiOperation = {
    operationId: "listProviders",
    tag: "browse",
    summary: "List providers",
    description:
      "Every provider of the release with its lifecycle record and summary (deployment counts, known and unknown milestones, next scheduled end of life). Ordered by `id`.",
    parameters: queryParameters(components, ListProvidersQuery, PAGING_DOCS),
    success: components.convert(ProviderPage, "output"),
    successDescription: "A page of providers.",
  };
  const listModels: ApiOperation = {
    operationId: "listModels",
    tag: "browse",
    summary: "List models",
    description:
      "Canonical models with their lifecycle record, summary and the providers that deploy them. A model's `lifecycle.status` is derived from its deployments: the first of available, preview, legacy, deprecated, retired that any of them has, `unknown` only when every one is. `summary.released_at` is the earliest day a source states one of its deployments was released and `summary.newest_deployment` the deployment with the latest such day (null where no source states one). Example, the latest Claude Sonnet with a stated release day: `?q=claude-sonnet&sort=-released_at&limit=1`.",
    parameters: queryParameters(components, ListModelsQuery, {
      q: "Free-text search: every whitespace-separated term must occur in the model id (`<lab>/<model>`), case-insensitively.",
      provider: "Only models with a deployment at this provider.",
      sort: "`id` (default), `released_at` or `-released_at` (descending): by `summary.released_at`; models without a stated release day come last in both orders; ties by `id`.",
      ...PAGING_DOCS,
    }),
    success: components.convert(ModelPage, "output"),
    successDescription: "A page of models.",
  };
  const getModel: ApiOperation = {
    operationId: "getModel",
    tag: "browse",
    summary: "Retrieve a model",
    description: "One Model object, not wrapped. No query parameters are accepted.",
    parameters: [modelIdParam],
    success: components.convert(Model, "output"),
    successDescription: "The model.",
  };
  const listReleases: ApiOperation = {
    operationId: "listReleases",
    tag: "releases",
    summary: "List releases",
    description: "The served release and its predecessors (following `previous_release_id`), newest first.",
    parameters: queryParameters(components, ListReleasesQuery, PAGING_DOCS),
    success: components.convert(ReleasePage, "output"),
    successDescription: "A page of releases.",
  };
  const getRelease: ApiOperation = {
    operationId: "getRelease",
    tag: "releases",
    summary: "Retrieve a release",
    description: "One release of the served chain: id, creation time, previous release and counts.",
    parameters: [releaseIdParam],
    success: components.convert(ReleaseItem, "output"),
    successDescription: "The release.",
  };
  const getReleaseDiff: ApiOperation = {
    operationId: "getReleaseDiff",
    tag: "releases",
    summary: "What changed in a release",
    description:
      "The release's diff against its previous release, the JSON `catalog diff --format json` prints: added and removed deployments, price changes (old, new, percent), limit, capability and status changes, lifecycle changes (dates moved, with days), and source events. For the first release everything is added.",
    parameters: [releaseIdParam],
    success: components.convert(ReleaseDiff, "output"),
    successDescription: "The diff.",
  };
  const getDeploymentHistory: ApiOperation = {
    operationId: "getDeploymentHistory",
    tag: "deployments",
    summary: "A deployment's history",
    description:
      "One entry per release of the served chain in which the deployment was added or removed or its rate card, limits, capabilities, status or lifecycle changed, newest first; `change` names which, `before` and `after` are the deployment in the previous release and in that release. 404 when no release of the chain ever held the id (a removed deployment still has its history).",
    parameters: [deploymentIdParam, ...queryParameters(components, ListHistoryQuery, PAGING_DOCS)],
    success: components.convert(DeploymentHistoryPage, "output"),
    successDescription: "A page of history entries.",
  };

  const getDeploymentPrices: ApiOperation = {
    operationId: "getDeploymentPrices",
    tag: "deployments",
    summary: "A deployment's price history",
    description:
      "The deployment's rate-card intervals, newest first: each rate card with the days it was valid, from `valid_from` (the first dated copy of its source showing it) up to, not including, `valid_to` (the first dated copy showing another price; null: still current), its `verification_status` and `source_url`. Derived by the build from every dated capture of the deployment's sources; where an official and a community source cover the same day, the official price is the one listed. Intervals never overlap. An empty list when no dated copy prices the deployment; 404 when the served release has no deployment with this id.",
    parameters: [deploymentIdParam, ...queryParameters(components, ListPricesQuery, PAGING_DOCS)],
    success: components.convert(PriceIntervalPage, "output"),
    successDescription: "A page of price intervals.",
  };

  const plain = (description: string, headers: readonly string[] = ["x-request-id"]): Json => ({
    description,
    headers: headerRefs(headers),
    content: { "application/json": { schema: { type: "object" } } },
  });

  const operations: Partial<Record<RouteId, ApiOperation | ServiceOperation>> = {
    deployments: listDeployments,
    deployment: getDeployment,
    deployment_history: getDeploymentHistory,
    deployment_prices: getDeploymentPrices,
    compare: compareDeployments,
    providers: listProviders,
    models: listModels,
    model: getModel,
    releases: listReleases,
    release: getRelease,
    release_diff: getReleaseDiff,
    calculate: calculatePrice,
    lifecycle: listLifecycle,
    events: listEvents,
    openapi: {
      summary: "This OpenAPI document",
      operationId: "getOpenApiDocument",
      ok: plain("The OpenAPI 3.1 document of the /v1 API."),
    },
    docs: {
      summary: "API reference (HTML)",
      description:
        "This document rendered as an HTML page by Redoc, whose script the server serves from its own files (`/docs/redoc.standalone.js`). Not counted against quota.",
      operationId: "getDocs",
      ok: {
        description: "The API reference page.",
        headers: headerRefs(["x-request-id", "ETag", "Cache-Control"]),
        content: { "text/html": { schema: { type: "string" } } },
      },
      notModified: { description: "The `If-None-Match` validator matched." },
    },
    healthz: {
      summary: "Liveness",
      description: "200 while the process serves requests, whether or not a release is loaded.",
      operationId: "healthz",
      ok: plain("The process is alive."),
    },
    readyz: {
      summary: "Readiness",
      description: "200 when a verified catalog release is loaded; 503 otherwise.",
      operationId: "readyz",
      ok: plain("A release is loaded and requests are served."),
    },
  };

  // One path per documented route of the table, in the table's order; security and error
  // responses come from the table.
  const paths: Json = {};
  for (const route of ROUTE_CONTRACTS) {
    const op = operations[route.id];
    if (route.documented !== (op !== undefined))
      throw new CatalogError(
        "validation_failed",
        route.documented
          ? `route ${route.method} ${route.path} is in the route table but the document does not describe it`
          : `route ${route.method} ${route.path} is undocumented in the route table but the document describes it`,
      );
    if (op) paths[route.path] = pathItem(route, op, specs);
  }

  const responses: Json = {
    NotModified: {
      description:
        "The `If-None-Match` validator matched (weak comparison): no body, the same `ETag`, `x-svc-catalog-release`, `x-request-id`, rate-limit and `Cache-Control` headers as the 200. Does not consume quota.",
      headers: headerRefs(GET_SUCCESS_HEADERS),
    },
    ...problemResponseComponents(specs),
  };

  const headers = headerComponents(components);

  return {
    openapi: "3.1.0",
    info: {
      title: "LLM Deployment Catalog API",
      version: API_VERSION,
      description: INFO_DESCRIPTION,
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [
      {
        url: "{base_url}",
        description: "A `catalog serve` instance; all API paths begin with /v1.",
        variables: {
          base_url: { default: "http://127.0.0.1:8080", description: "Scheme, host and port." },
        },
      },
    ],
    tags: [
      { name: "deployments", description: "Catalog of provider deployments." },
      { name: "pricing", description: "Exact pricing of a usage profile." },
      { name: "lifecycle", description: "Lifecycle records and source events." },
      { name: "browse", description: "Providers and models with their lifecycle record and summary." },
      { name: "releases", description: "The chain of published releases and what changed in each." },
      { name: "service", description: "Service metadata and probes." },
    ],
    paths,
    components: {
      schemas: components.toObject(),
      parameters: {
        IfNoneMatch: {
          name: "If-None-Match",
          in: "header",
          required: false,
          description:
            "Stored ETag(s) of this resource, a comma-separated list or `*`. Weak comparison; a match answers 304. Only applies where the answer would be 2xx.",
          schema: { type: "string" },
        },
        RequestId: {
          name: "x-request-id",
          in: "header",
          required: false,
          description: "Client request id; echoed back when it is a sane token, otherwise one is generated.",
          schema: { type: "string", maxLength: 200 },
        },
      },
      headers,
      responses,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "`Authorization: Bearer <key>`. Keys are issued with `catalog keys create --workspace W --plan P`. Optional on GET endpoints (keyless calls use the anonymous plan), required on POST endpoints.",
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Serialization
// ---------------------------------------------------------------------------------------------

const LINE_WIDTH = 110;
const INDENT = "  ";

/**
 * The document as JSON text, laid out the way the project's formatter (Biome, 2 spaces, line
 * width 110) lays it out, so the checked-in file passes `npm run lint` as written: objects
 * one member per line, arrays of scalars on one line when they fit, otherwise one item per line.
 */
export function serializeOpenApiDocument(document: unknown): string {
  return `${format(document, "", "", false)}\n`;
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

/** Scalars, `{}` and arrays of those can share one line; a non-empty object never does. */
function isFlat(value: unknown): boolean {
  if (isScalar(value)) return true;
  if (Array.isArray(value)) return value.every(isFlat);
  return Object.keys(value as Json).length === 0;
}

function flat(value: unknown): string {
  if (isScalar(value)) return scalar(value);
  if (Array.isArray(value)) return `[${value.map(flat).join(", ")}]`;
  return "{}";
}

function format(value: unknown, indent: string, prefix: string, trailingComma: boolean): string {
  if (isScalar(value)) return scalar(value);
  const inner = indent + INDENT;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (isFlat(value)) {
      const line = flat(value);
      if (indent.length + prefix.length + line.length + (trailingComma ? 1 : 0) <= LINE_WIDTH) return line;
    }
    const items = value.map((item, i) => `${inner}${format(item, inner, "", i < value.length - 1)}`);
    return `[\n${items.join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Json).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const members = entries.map(([key, v], i) => {
    const keyText = `${JSON.stringify(key)}: `;
    return `${inner}${keyText}${format(v, inner, keyText, i < entries.length - 1)}`;
  });
  return `{\n${members.join(",\n")}\n${indent}}`;
}

function scalar(value: unknown): string {
  if (typeof value === "number" && !Number.isFinite(value))
    throw new CatalogError("invalid_argument", `cannot serialize the number ${value}`);
  return JSON.stringify(value);
}
