/**
 * The /v1 API's own shapes: query parameters of every endpoint, the compare and calculate
 * bodies and responses, the pagination envelope and the RFC 9457 problem body. Query values
 * arrive as strings; the `*Param` helpers parse them strictly (no "1e2", no "", no " 5").
 */

import { z } from "zod";
import { DeploymentId, IsoDate, ModelId, ProviderId, ReleaseId, TokenCount } from "./common.js";
import { Capabilities, CapabilityName, Deployment } from "./deployment.js";
import { SourceEvent, SourceEventType } from "./events.js";
import {
  CoverageStatus,
  LifecycleRecord,
  LifecycleStatus,
  MilestoneState,
  ResourceType,
} from "./lifecycle.js";
import { TOKEN_PRICE_COMPONENTS } from "./price-components.js";

const DECIMAL_INT = /^(0|[1-9][0-9]*)$/;

function intParam(min: number, max?: number) {
  const inner = max === undefined ? z.int().min(min) : z.int().min(min).max(max);
  return z.preprocess(
    (value) => (typeof value === "string" && DECIMAL_INT.test(value) ? Number(value) : value),
    inner,
  );
}

export const BooleanParam = z.preprocess(
  (value) => (value === "true" ? true : value === "false" ? false : value),
  z.boolean(),
);

/** A boundary: a calendar date (YYYY-MM-DD) or an ISO 8601 instant with Z or an offset. */
/** A date-time whose offset carries it past year 9999 (or before year 0) in UTC has no UTC date. */
function hasUtcDate(value: string): boolean {
  const instant = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!Number.isFinite(instant)) return false;
  const year = new Date(instant).getUTCFullYear();
  return year >= 0 && year <= 9999;
}

export const DateBoundaryParam = z
  .union([IsoDate, z.iso.datetime({ offset: true })])
  .refine(hasUtcDate, { message: "must fall within the years 0000 to 9999 in UTC" })
  .meta({
    description: "ISO 8601 date (YYYY-MM-DD) or date-time (2026-01-31T00:00:00Z).",
  });

export const LimitParam = intParam(1, 500).default(100).meta({ description: "1 to 500, default 100." });
export const OffsetParam = intParam(0)
  .default(0)
  .meta({ description: "Zero-based number of matching records to skip." });

/** Sort keys of GET /v1/deployments: a `-` prefix sorts descending; nulls last in both orders. */
export const DeploymentSort = z.enum([
  "id",
  "-id",
  "input_price",
  "-input_price",
  "output_price",
  "-output_price",
  "context_tokens",
  "-context_tokens",
]);
export type DeploymentSort = z.infer<typeof DeploymentSort>;

/**
 * `verification`: keep deployments whose listing and (when priced) rate card are at least this
 * level; `corroborated` admits official (docs/provenance.md).
 */
export const VerificationFilter = z.enum(["official", "corroborated"]).meta({
  id: "VerificationFilter",
  description:
    "official: the deployment's listing and (when priced) its rate card come from official sources " +
    "(official_declared or official_inferred). corroborated: official, or community_corroborated.",
});
export type VerificationFilter = z.infer<typeof VerificationFilter>;

export const ListDeploymentsQuery = z.strictObject({
  q: z.string().min(1).max(200).optional(),
  provider: ProviderId.optional(),
  model: ModelId.optional(),
  region: z.string().min(1).optional(),
  mode: z.string().min(1).optional(),
  /** Repeatable (`capability=vision&capability=tool_calling`): every one must be `supported`. */
  capability: z.array(CapabilityName).min(1).optional(),
  min_context_tokens: intParam(0).optional(),
  min_max_output_tokens: intParam(0).optional(),
  max_input_price: intParam(0).optional(),
  max_output_price: intParam(0).optional(),
  has_pricing: BooleanParam.optional(),
  /** Repeatable (`status=deprecated&status=retired`): any of the given statuses. */
  status: z.array(LifecycleStatus).min(1).optional(),
  verification: VerificationFilter.optional(),
  sort: DeploymentSort.default("id"),
  limit: LimitParam,
  offset: OffsetParam,
});
export type ListDeploymentsQuery = z.infer<typeof ListDeploymentsQuery>;

export const LifecycleSort = z.enum(["end_of_life", "deprecation", "last_changed"]);
export const SortOrder = z.enum(["asc", "desc"]);

export const ListLifecycleQuery = z.strictObject({
  resource_type: ResourceType.optional(),
  resource_id: z.string().min(1).optional(),
  provider: ProviderId.optional(),
  model: ModelId.optional(),
  status: LifecycleStatus.optional(),
  deprecation_state: MilestoneState.optional(),
  end_of_life_state: MilestoneState.optional(),
  coverage_status: CoverageStatus.optional(),
  include_unknown: BooleanParam.default(true),
  deprecation_before: DateBoundaryParam.optional(),
  deprecation_after: DateBoundaryParam.optional(),
  end_of_life_before: DateBoundaryParam.optional(),
  end_of_life_after: DateBoundaryParam.optional(),
  sort: LifecycleSort.default("end_of_life"),
  order: SortOrder.default("asc"),
  limit: LimitParam,
  offset: OffsetParam,
});
export type ListLifecycleQuery = z.infer<typeof ListLifecycleQuery>;

export const ListEventsQuery = z.strictObject({
  provider: ProviderId.optional(),
  source_id: z.uuid().optional(),
  event_type: SourceEventType.optional(),
  since: DateBoundaryParam.optional(),
  until: DateBoundaryParam.optional(),
  limit: LimitParam,
  offset: OffsetParam,
});
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

/**
 * Usage profile shared by compare and calculate; absent counts are 0. The token counts are
 * totals over `requests` requests of equal size (docs/finding-deployments.md): a long-context
 * tier applies when one request's prompt is above its threshold.
 */
export const Usage = z
  .strictObject({
    input_tokens: TokenCount.default(0).meta({
      description: "Input tokens not served from cache, in total over `requests` requests.",
    }),
    cached_input_tokens: TokenCount.default(0).meta({
      description: "Input tokens served from cache, in total over `requests` requests.",
    }),
    output_tokens: TokenCount.default(0).meta({
      description: "Output tokens, in total over `requests` requests.",
    }),
    requests: z.int().positive().default(1).meta({
      description:
        "How many requests of equal size the token counts are totals over (default 1). A long-context tier applies when one request's prompt, (input_tokens + cached_input_tokens) / requests, is above the tier's threshold; the whole usage is priced.",
    }),
  })
  .meta({ id: "Usage" });
export type Usage = z.infer<typeof Usage>;

export const RequirementLevel = z.enum(["supported", "conditional"]);

/** `at`: price with the rate card valid that day (docs/price-history.md); absent, the current one. */
const PriceDay = IsoDate.meta({
  description:
    "Price with the rate card valid on this day (YYYY-MM-DD, UTC): the deployment's price interval whose valid_from is on or before it and whose valid_to is after it or null (GET /v1/deployments/{id}/prices). A deployment without a known price that day is omitted (compare) or not priceable (calculate). Absent: the current rate card.",
});

export const CompareRequest = z
  .strictObject({
    deployment_ids: z.array(z.string().min(1).max(200)).min(1).max(100),
    usage: Usage,
    requires: z.partialRecord(CapabilityName, RequirementLevel).optional(),
    at: PriceDay.optional(),
    verification: VerificationFilter.optional(),
  })
  .meta({ id: "CompareRequest" });
export type CompareRequest = z.infer<typeof CompareRequest>;

export const CalculateRequest = z
  .strictObject({
    deployment_id: z.string().min(1).max(200),
    usage: Usage,
    at: PriceDay.optional(),
  })
  .meta({ id: "CalculateRequest" });
export type CalculateRequest = z.infer<typeof CalculateRequest>;

const DecimalUsd = z
  .string()
  .regex(/^[0-9]+\.[0-9]{6}$/)
  .meta({ description: "US dollars as a decimal string with exactly six fraction digits." });

export const PriceComponent = z.strictObject({
  component: z.enum(TOKEN_PRICE_COMPONENTS),
  tokens: TokenCount,
  unit_price_micro_usd: z.int().nonnegative().meta({ description: "Micro-USD per million tokens applied." }),
  amount_usd: DecimalUsd,
});

export const Pricing = z
  .strictObject({
    currency: z.literal("USD"),
    total_usd: DecimalUsd,
    requests: z
      .int()
      .positive()
      .meta({ description: "The usage's `requests`, echoed: the price is for all of them." }),
    tier_above_input_tokens: z.int().positive().nullable().meta({
      description:
        "The threshold of the long-context tier whose prices applied (one request's prompt was above it), or null for the base prices.",
    }),
    components: z.array(PriceComponent),
  })
  .meta({ id: "Pricing" });
export type Pricing = z.infer<typeof Pricing>;

export const CompareItem = z.strictObject({
  deployment: z.strictObject({
    id: DeploymentId,
    model_id: ModelId,
    provider_id: ProviderId,
    provider_model_id: z.string(),
    api_surface: z.string(),
    mode: z.string(),
    region: z.string(),
    status: LifecycleStatus,
    capabilities: Capabilities,
  }),
  pricing: Pricing,
});
export const CompareResponse = z.strictObject({ data: z.array(CompareItem) }).meta({ id: "CompareResponse" });
export type CompareResponse = z.infer<typeof CompareResponse>;

export const CalculateResponse = z
  .strictObject({ deployment_id: DeploymentId, pricing: Pricing })
  .meta({ id: "CalculateResponse" });
export type CalculateResponse = z.infer<typeof CalculateResponse>;

export const PageMeta = z
  .strictObject({
    total: z.int().nonnegative(),
    limit: z.int().min(1).max(500),
    offset: z.int().nonnegative(),
    has_more: z.boolean(),
  })
  .meta({ id: "PageMeta" });
export type PageMeta = z.infer<typeof PageMeta>;

export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z.strictObject({ data: z.array(item), meta: PageMeta }).meta({ id });
}
export const DeploymentPage = pageOf(Deployment, "DeploymentPage");
export const LifecyclePage = pageOf(LifecycleRecord, "LifecyclePage");
export const EventPage = pageOf(SourceEvent, "SourceEventPage");

export const ProblemCode = z.enum([
  "invalid_parameter",
  "invalid_body",
  "unauthorized",
  "not_found",
  "method_not_allowed",
  "payload_too_large",
  "unsupported_media_type",
  "not_priceable",
  "quota_exhausted",
  "unavailable",
  "internal_error",
  // answered by the HTTP layer, before any route: a request that is not valid HTTP/1.1, one not
  // received in time, one whose head is too large
  "bad_request",
  "request_timeout",
  "request_header_fields_too_large",
]);
export type ProblemCode = z.infer<typeof ProblemCode>;

export const Problem = z
  .strictObject({
    type: z.string(),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: ProblemCode,
    request_id: z.string(),
    errors: z.array(z.strictObject({ parameter: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: "Problem" });
export type Problem = z.infer<typeof Problem>;

export const ReleaseHeader = ReleaseId;
