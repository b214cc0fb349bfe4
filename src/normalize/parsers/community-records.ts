/**
 * What the community catalogs that fill deployments (models.dev, genai-prices) share: a record
 * of one model at one placement becomes a deployment fact with the identity the provider's
 * identity module gives it (src/normalize/identity/), the same one the official parsers and
 * LiteLLM's produce, so the merge finds the deployment other sources place. Pure.
 *
 * Prices come in USD per million tokens as JSON numbers; a zero is the dataset's "unknown"
 * (docs/corroboration.md: a community zero is never a price), so it is null.
 */
import { compareCodePoints } from "../../lib/canonical-json.js";
import type { Capabilities, DeploymentFact, Evidence, RateCard, RateTier } from "../../schema/index.js";
import { usdToMicro } from "../helpers.js";
import type { Endpoint } from "../identity/endpoints.js";
import { identifiedDeployment, identityOf } from "../identity/index.js";
import type { SkipLog } from "../skips.js";
import type { ParserInput } from "../types.js";

/** Where a community record is offered, or why it names no deployment (counted in `skipped`). */
export type Placement = { ok: true; endpoint: Endpoint } | { ok: false; reason: string };

/** USD per million tokens -> micro-USD per million tokens; zero, absent or unreadable -> null. */
export function perMillionPrice(value: unknown, key: string, skipped: SkipLog): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    skipped.add("price that is not a non-negative number", key);
    return null;
  }
  if (value === 0) {
    skipped.add("zero price (a community zero is unknown: null)", key);
    return null;
  }
  try {
    // fixed notation: 0.0000001 would print as 1e-7
    return usdToMicro(value.toFixed(12).replace(/\.?0+$/, ""));
  } catch {
    skipped.add("price finer than 1 micro-USD per million tokens", key);
    return null;
  }
}

export interface CardPrices {
  input: number | null;
  cached_input: number | null;
  output: number | null;
  cache_write: number | null;
  tiers?: RateTier[];
}

/** A rate card of a community record, or null when it has no input price (nothing to price with). */
export function communityRateCard(prices: CardPrices, input: ParserInput): RateCard | null {
  if (prices.input === null) return null;
  return {
    currency: "USD",
    unit: "million_tokens",
    input_micro_usd: prices.input,
    cached_input_micro_usd: prices.cached_input,
    output_micro_usd: prices.output,
    ...(prices.cache_write !== null ? { cache_write_micro_usd: prices.cache_write } : {}),
    ...(prices.tiers && prices.tiers.length > 0 ? { tiers: prices.tiers } : {}),
    source_url: input.source.url,
    observed_at: input.observedAt,
  };
}

export function positiveInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

export interface CommunityRecord {
  key: string;
  providerId: string;
  providerModelId: string;
  endpoint: Endpoint;
  rate_card: RateCard | null;
  context_tokens?: number | undefined;
  max_output_tokens?: number | undefined;
  /** An input limit the dataset states apart from (below) its context window. */
  max_input_tokens?: number | undefined;
  capabilities: Capabilities;
}

/**
 * The deployment facts of the records, one per deployment: where several keys name one
 * deployment (an alias and its model), the key that names the model by its own id wins, then
 * the first in code-point order; the others are counted as aliases.
 */
export function deploymentFacts(
  records: readonly CommunityRecord[],
  evidence: Evidence,
  skipped: SkipLog,
): DeploymentFact[] {
  const byId = new Map<string, { record: CommunityRecord; fact: DeploymentFact; aliased: boolean }>();
  for (const record of [...records].sort((a, b) => compareCodePoints(a.key, b.key))) {
    const identity = identityOf(record.providerId);
    if (identity === null) {
      skipped.add("provider not in the catalog", record.key);
      continue;
    }
    const ids = identifiedDeployment(identity, {
      provider_model_id: record.providerModelId,
      ...record.endpoint,
    });
    const aliased = ids.provider_model_id !== record.providerModelId.trim();
    const fact: DeploymentFact = {
      ...ids,
      ...(record.context_tokens !== undefined ? { context_tokens: record.context_tokens } : {}),
      ...(record.max_output_tokens !== undefined ? { max_output_tokens: record.max_output_tokens } : {}),
      ...(record.max_input_tokens !== undefined ? { max_input_tokens: record.max_input_tokens } : {}),
      capabilities: record.capabilities,
      ...(record.rate_card !== null ? { rate_card: record.rate_card } : {}),
      evidence,
    };
    const current = byId.get(fact.id);
    if (current === undefined || (current.aliased && !aliased)) {
      if (current) skipped.add("alias of another key for the same deployment", current.record.key);
      byId.set(fact.id, { record, fact, aliased });
    } else skipped.add("alias of another key for the same deployment", record.key);
  }
  return [...byId.values()].map((v) => v.fact).sort((a, b) => compareCodePoints(a.id, b.id));
}
