/**
 * The compare and calculate operations (docs/decisions.md, "Compare and calculate") as
 * pure functions of the loaded deployments and the request. The server maps the results to
 * HTTP; nothing here knows about requests, releases or errors.
 */

import { compareCodePoints } from "../lib/canonical-json.js";

import type {
  CalculateResponse,
  Capabilities,
  CapabilityName,
  CompareRequest,
  CompareResponse,
  Deployment,
  Usage,
} from "../schema/index.js";
import { deploymentLevel, meetsVerification } from "../schema/index.js";
import { type PriceComponentName, priceUsage, USAGE_PRICE_COMPONENTS } from "./price.js";

type CompareItem = CompareResponse["data"][number];

/** Why a known candidate was left out of a compare answer (for logs and debugging; not in the body). */
export type OmissionReason = "requirement_failed" | "unverified" | "no_rate_card" | "missing_price";

export interface CompareOmission {
  id: string;
  reason: OmissionReason;
  /** For `requirement_failed`: the required capabilities the deployment does not meet. */
  failed_requirements?: CapabilityName[];
  /** For `missing_price`: the usage components whose price is unknown. */
  missing?: PriceComponentName[];
}

export interface CompareResult {
  response: CompareResponse;
  /**
   * Requested ids that name no deployment, deduplicated, in request order. Spec 4.3 rule 1
   * says unknown ids are omitted (and rule 4 that an empty answer is a 200, not an error), so
   * the server answers 200 without them rather than 404; they are returned only so the
   * server can log them.
   */
  unknownIds: string[];
  /** Known candidates that were filtered out, in request order. */
  omitted: CompareOmission[];
}

/** `supported` requires status supported; `conditional` accepts conditional or supported (spec 4.3). */
export function meetsRequirement(
  capabilities: Capabilities,
  name: CapabilityName,
  level: "supported" | "conditional",
): boolean {
  const status = capabilities[name]?.status;
  if (status === "supported") return true;
  return level === "conditional" && status === "conditional";
}

function failedRequirements(deployment: Deployment, requires: CompareRequest["requires"]): CapabilityName[] {
  const failed: CapabilityName[] = [];
  for (const [name, level] of Object.entries(requires ?? {}) as Array<
    [CapabilityName, "supported" | "conditional" | undefined]
  >) {
    if (level === undefined) continue;
    if (!meetsRequirement(deployment.capabilities, name, level)) failed.push(name);
  }
  return failed.sort(compareCodePoints);
}

/** The trimmed deployment view of a compare item: capability entries carry their status only. */
export function compareView(deployment: Deployment): CompareItem["deployment"] {
  const capabilities: Capabilities = {};
  for (const name of Object.keys(deployment.capabilities).sort(compareCodePoints) as CapabilityName[]) {
    const entry = deployment.capabilities[name];
    if (entry) capabilities[name] = { status: entry.status };
  }
  return {
    id: deployment.id,
    model_id: deployment.model_id,
    provider_id: deployment.provider_id,
    provider_model_id: deployment.provider_model_id,
    api_surface: deployment.api_surface,
    mode: deployment.mode,
    region: deployment.region,
    status: deployment.status,
    capabilities,
  };
}

/**
 * Compare candidates: duplicates count once, unknown ids and candidates that fail `requires`,
 * are verified less than `verification` asks (docs/provenance.md), have no rate card (null: unknown, not free) or lack a price the usage needs are omitted;
 * the rest are priced with the identical usage and ordered by exact total ascending, ties by
 * deployment id. The order of `deployment_ids` never affects the answer's `data`.
 *
 * `deployments` may be an array or a map by id (the server keeps an index).
 */
export function compare(
  deployments: readonly Deployment[] | ReadonlyMap<string, Deployment>,
  request: CompareRequest,
): CompareResult {
  const byId: ReadonlyMap<string, Deployment> =
    deployments instanceof Map
      ? deployments
      : new Map((deployments as readonly Deployment[]).map((d) => [d.id, d]));
  const unknownIds: string[] = [];
  const omitted: CompareOmission[] = [];
  const priced: Array<{ item: CompareItem; total: bigint }> = [];
  for (const id of new Set(request.deployment_ids)) {
    const deployment = byId.get(id);
    if (!deployment) {
      unknownIds.push(id);
      continue;
    }
    const failed = failedRequirements(deployment, request.requires);
    if (failed.length > 0) {
      omitted.push({ id, reason: "requirement_failed", failed_requirements: failed });
      continue;
    }
    if (
      request.verification !== undefined &&
      !meetsVerification(deploymentLevel(deployment), request.verification)
    ) {
      omitted.push({ id, reason: "unverified" });
      continue;
    }
    if (deployment.rate_card === null) {
      omitted.push({ id, reason: "no_rate_card" });
      continue;
    }
    const result = priceUsage(deployment.rate_card, request.usage);
    if (!result.ok) {
      omitted.push({ id, reason: "missing_price", missing: result.missing });
      continue;
    }
    priced.push({
      item: { deployment: compareView(deployment), pricing: result.pricing },
      total: result.totalPicoUsd,
    });
  }
  priced.sort((a, b) =>
    a.total < b.total
      ? -1
      : a.total > b.total
        ? 1
        : compareCodePoints(a.item.deployment.id, b.item.deployment.id),
  );
  return { response: { data: priced.map((p) => p.item) }, unknownIds, omitted };
}

export type CalculateResult =
  | { ok: true; response: CalculateResponse; totalPicoUsd: bigint }
  | { ok: false; reason: "no_rate_card" | "missing_price"; missing: PriceComponentName[] };

/**
 * Price one deployment (POST /v1/pricing/calculate). A null rate card is unknown, so every
 * component is reported missing; otherwise the components with tokens but no known price.
 */
export function calculate(deployment: Deployment, usage: Usage): CalculateResult {
  if (deployment.rate_card === null)
    return { ok: false, reason: "no_rate_card", missing: [...USAGE_PRICE_COMPONENTS] };
  const result = priceUsage(deployment.rate_card, usage);
  if (!result.ok) return { ok: false, reason: "missing_price", missing: result.missing };
  return {
    ok: true,
    totalPicoUsd: result.totalPicoUsd,
    response: { deployment_id: deployment.id, pricing: result.pricing },
  };
}
