/**
 * Community source: Pydantic's genai-prices
 * (https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/data.json; MIT), one JSON
 * array of providers `{id, name, pricing_urls, price_comments?, models: [...]}`; a model is
 * `{id, match, context_window?, prices}` where `prices` is `{input_mtok, output_mtok,
 * cache_read_mtok, cache_write_mtok, ...}` in USD per million tokens (a value may be
 * `{base, tiers: [{start, price}]}`: a long-context tier above `start` input tokens), or a list
 * of such price sets with `constraint`s (`start_date`: from that day on; `start_time` /
 * `end_time`: a discount window within each day).
 *
 * The source fills values of deployments other sources place and creates none (its definition's
 * `fills_only`; docs/corroboration.md). A model's `id` is the key (the `match` patterns that
 * also price other names are not expanded: a family pattern names no one deployment).
 * Placement, through the provider identity modules:
 *   openai, anthropic, mistral, x-ai, deepseek, cohere, groq, together -> the provider's one
 *     API endpoint (identity/endpoints.ts providerApiEndpoint);
 *   azure -> Global Standard, region global: the provider's own words, "These are prices for
 *     "*-Global" models, prices for "Regional" models are often slightly higher";
 *   aws -> Bedrock: a cross-Region inference profile id (`global.anthropic...`) -> that
 *     geography; an unprefixed model id has no region and the dataset documents none;
 *   google -> none: its pricing_urls name both the Gemini API's and Vertex AI's pricing pages
 *     and its api_pattern (`https://(.*\.)?googleapis\.com`) matches both endpoints, so a
 *     key does not say which surface it prices.
 * Prices: the price set in force on the capture's observation day (the latest `start_date`
 * not after it; the unconstrained set before any); a model whose price changes within the day
 * (a `start_time` / `end_time` window, DeepSeek's off-peak hours) has no one rate card and is
 * skipped. A zero price is unknown (null). `context_window` is the
 * context window.
 */
import { compareCodePoints } from "../../lib/canonical-json.js";
import type { ParseOutput, RateTier } from "../../schema/index.js";
import { evidenceFor, isJsonObject, type JsonObject, parseFailure, SkipLog } from "../helpers.js";
import {
  AZURE_GLOBAL_STANDARD,
  bedrockProfileEndpoint,
  type Endpoint,
  providerApiEndpoint,
} from "../identity/endpoints.js";
import type { Parser, ParserInput } from "../types.js";
import {
  type CardPrices,
  type CommunityRecord,
  communityRateCard,
  deploymentFacts,
  type Placement,
  perMillionPrice,
  positiveInt,
} from "./community-records.js";

/** genai-prices provider id -> catalog provider id. */
const PROVIDERS: Readonly<Record<string, string>> = Object.freeze({
  anthropic: "anthropic",
  aws: "amazon-bedrock",
  azure: "azure",
  cohere: "cohere",
  deepseek: "deepseek",
  google: "google",
  groq: "groq",
  mistral: "mistral",
  openai: "openai",
  together: "together-ai",
  "x-ai": "xai",
});

type Entry = JsonObject;

/** Where a genai-prices model is offered, or why it names no deployment. */
export function placementOf(providerId: string, modelId: string): Placement {
  if (providerId === "azure") return { ok: true, endpoint: AZURE_GLOBAL_STANDARD };
  if (providerId === "amazon-bedrock") {
    const endpoint = bedrockProfileEndpoint(modelId);
    return endpoint
      ? { ok: true, endpoint }
      : { ok: false, reason: "Bedrock model id without a region (genai-prices documents none)" };
  }
  if (providerId === "google")
    return { ok: false, reason: "Google price without its surface (Gemini API or Vertex AI)" };
  const endpoint = providerApiEndpoint(providerId, modelId);
  return endpoint ? { ok: true, endpoint } : { ok: false, reason: "provider not in the catalog" };
}

/** The price set in force on `day` (YYYY-MM-DD), or null with why. */
export function priceSetOn(
  prices: unknown,
  day: string,
): { ok: true; set: Entry } | { ok: false; reason: string } {
  if (isJsonObject(prices)) return { ok: true, set: prices };
  if (!Array.isArray(prices)) return { ok: false, reason: "no prices" };
  let best: { start: string; set: Entry } | null = null;
  for (const option of prices) {
    if (!isJsonObject(option) || !isJsonObject(option["prices"])) continue;
    const constraint = option["constraint"];
    let start = "";
    if (constraint !== undefined && constraint !== null) {
      if (!isJsonObject(constraint)) return { ok: false, reason: "price constraint that is not an object" };
      const from = constraint["start_date"];
      // a price that changes within the day (start_time / end_time) has no one rate card
      if (Object.keys(constraint).length !== 1 || typeof from !== "string")
        return { ok: false, reason: "price that varies by time of day" };
      if (from > day) continue;
      start = from;
    }
    if (best === null || start > best.start) best = { start, set: option["prices"] };
  }
  return best
    ? { ok: true, set: best.set }
    : { ok: false, reason: "no price set in force on the capture's day" };
}

interface Tiered {
  base: number | null;
  tiers: Map<number, number | null>;
}

function tieredPrice(value: unknown, key: string, skipped: SkipLog): Tiered {
  if (!isJsonObject(value)) return { base: perMillionPrice(value, key, skipped), tiers: new Map() };
  const tiers = new Map<number, number | null>();
  for (const tier of Array.isArray(value["tiers"]) ? value["tiers"] : []) {
    const start = isJsonObject(tier) ? positiveInt(tier["start"]) : undefined;
    if (!isJsonObject(tier) || start === undefined) {
      skipped.add("price tier without a positive start", key);
      continue;
    }
    tiers.set(start, perMillionPrice(tier["price"], key, skipped));
  }
  return { base: perMillionPrice(value["base"], key, skipped), tiers };
}

/** The card's prices: each component's base, and one tier per start any component names. */
export function cardPrices(set: Entry, key: string, skipped: SkipLog): CardPrices {
  const input = tieredPrice(set["input_mtok"], `${key}: input_mtok`, skipped);
  const cached = tieredPrice(set["cache_read_mtok"], `${key}: cache_read_mtok`, skipped);
  const output = tieredPrice(set["output_mtok"], `${key}: output_mtok`, skipped);
  const write = tieredPrice(set["cache_write_mtok"], `${key}: cache_write_mtok`, skipped);
  const starts = [...new Set([...input.tiers.keys(), ...output.tiers.keys()])].sort((a, b) => a - b);
  const tiers: RateTier[] = [];
  for (const start of starts) {
    const tierInput = input.tiers.get(start) ?? null;
    if (tierInput === null) {
      skipped.add("price tier without an input price", key);
      continue;
    }
    const tierWrite = write.tiers.get(start) ?? null;
    tiers.push({
      above_input_tokens: start,
      input_micro_usd: tierInput,
      cached_input_micro_usd: cached.tiers.get(start) ?? null,
      output_micro_usd: output.tiers.get(start) ?? null,
      ...(tierWrite !== null ? { cache_write_micro_usd: tierWrite } : {}),
    });
  }
  return {
    input: input.base,
    cached_input: cached.base,
    output: output.base,
    cache_write: write.base,
    ...(tiers.length > 0 ? { tiers } : {}),
  };
}

function recordOf(
  providerId: string,
  key: string,
  model: Entry,
  modelId: string,
  endpoint: Endpoint,
  input: ParserInput,
  skipped: SkipLog,
): CommunityRecord | null {
  const set = priceSetOn(model["prices"], input.observedAt.slice(0, 10));
  if (!set.ok) {
    skipped.add(set.reason, key);
    return null;
  }
  return {
    key,
    providerId,
    providerModelId: modelId,
    endpoint,
    rate_card: communityRateCard(cardPrices(set.set, key, skipped), input),
    context_tokens: positiveInt(model["context_window"]),
    capabilities: {},
  };
}

export function parseGenaiPrices(input: ParserInput): ParseOutput {
  let document: unknown;
  try {
    document = JSON.parse(input.content);
  } catch (error) {
    throw parseFailure(input.source, `not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(document)) throw parseFailure(input.source, "data.json is not a JSON array");
  const skipped = new SkipLog();
  const records: CommunityRecord[] = [];
  for (const provider of document) {
    const name = isJsonObject(provider) && typeof provider["id"] === "string" ? provider["id"] : "";
    const providerId = Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined;
    if (providerId === undefined || !isJsonObject(provider) || !Array.isArray(provider["models"])) {
      skipped.add("provider not in the catalog", name || "(no id)");
      continue;
    }
    const models = provider["models"].filter(isJsonObject);
    for (const model of models.sort((a, b) => compareCodePoints(String(a["id"]), String(b["id"])))) {
      const modelId = model["id"];
      if (typeof modelId !== "string" || modelId === "") {
        skipped.add("model without an id", name);
        continue;
      }
      const key = `${name}/${modelId}`;
      const placement = placementOf(providerId, modelId);
      if (!placement.ok) {
        skipped.add(placement.reason, key);
        continue;
      }
      const record = recordOf(providerId, key, model, modelId, placement.endpoint, input, skipped);
      if (record) records.push(record);
    }
  }
  if (records.length === 0) throw parseFailure(input.source, "no model of the catalog's providers");
  const deployments = deploymentFacts(records, evidenceFor(input.source, input.observedAt), skipped);
  return { deployments, lifecycle: [], skipped: skipped.toSortedArray() };
}

export const parsers: Record<string, Parser> = { "genai-prices": parseGenaiPrices };
