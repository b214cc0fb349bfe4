/**
 * Google Vertex AI official prices from the Cloud Billing Catalog API
 * (`GET https://cloudbilling.googleapis.com/v1/services/C7E2-9256-1C43/skus`, the Vertex AI
 * service; an API key is needed, see the source's `secrets`). The collector joins every page
 * into one `{"skus": [...]}` document.
 *
 * No real response of this API has been recorded (it needs a key, and no stored copy exists),
 * so the mapping below follows the documented response shape (Sku: description, category
 * {resourceGroup, usageType}, serviceRegions, pricingInfo[].pricingExpression {usageUnit,
 * tieredRates[] {startUsageAmount, unitPrice {currencyCode, units, nanos}}}) and Google's SKU
 * naming ("Gemini 2.5 Pro Text Input - Predictions"); the first nightly run with a key checks it.
 * What it reads, everything else being counted as skipped by reason:
 * - on-demand SKUs (`category.usageType` "OnDemand") offered in the `global` region;
 * - descriptions "<model> <Text|Image|Video|Audio> <Input|Output|Cached Input>" with an optional
 *   " - Predictions" suffix; the model name becomes the Vertex model id ("Gemini 2.5 Flash Lite"
 *   -> `gemini-2.5-flash-lite`); only Text prices make the rate card;
 * - one USD tier starting at 0, per token-count usage unit (`count`, `k{token}`, `M{token}`...),
 *   converted exactly to micro-USD per million tokens (a sub-micro price is an error).
 * Descriptions naming long context ("Long", ">") are skipped: the tier threshold is not in them.
 */
import { z } from "zod";
import type { DeploymentFact } from "../../schema/index.js";
import { evidenceFor, jsonDocument, parseFailure, requireSome, SkipLog, tokenRateCard } from "../helpers.js";
import { VERTEX, vertexDeployment } from "../identity/index.js";
import type { Parser, ParserInput } from "../types.js";

const Money = z.looseObject({
  currencyCode: z.string(),
  units: z.union([z.string().regex(/^-?\d+$/), z.int()]).optional(),
  nanos: z.int().optional(),
});
const Sku = z.looseObject({
  skuId: z.string().min(1),
  description: z.string().min(1),
  category: z.looseObject({ resourceGroup: z.string().optional(), usageType: z.string() }),
  serviceRegions: z.array(z.string()).default([]),
  pricingInfo: z.array(
    z.looseObject({
      pricingExpression: z.looseObject({
        usageUnit: z.string(),
        usageUnitDescription: z.string().optional(),
        tieredRates: z.array(z.looseObject({ startUsageAmount: z.number().optional(), unitPrice: Money })),
      }),
    }),
  ),
});
type Sku = z.infer<typeof Sku>;
const SkuList = z.looseObject({ skus: z.array(Sku) });

const DESCRIPTION =
  /^(?<model>.+?) (?<modality>Text|Image|Video|Audio) (?<kind>Input|Output|Cached Input)(?: - Predictions)?$/;

/** Tokens per usage unit: `count` / `{token}` = 1, `k{token}` = 1,000, `M{token}` = 1,000,000. */
export function tokensPerUsageUnit(unit: string): bigint | null {
  const m = /^(k|M)?\{?(?:count|token)s?\}?$/.exec(unit.trim());
  if (!m) return null;
  return m[1] === "k" ? 1000n : m[1] === "M" ? 1_000_000n : 1n;
}

/** units + nanos USD per usage unit -> micro-USD per million tokens, exactly; null when not whole. */
export function microUsdPerMillionTokens(
  units: string | number,
  nanos: number,
  tokensPerUnit: bigint,
): bigint | null {
  const nanoUsd = BigInt(units) * 1_000_000_000n + BigInt(nanos);
  // per token * 1e12 micro-USD per million = nanoUsd * 1e3 / tokensPerUnit
  const scaled = nanoUsd * 1000n;
  return scaled % tokensPerUnit === 0n ? scaled / tokensPerUnit : null;
}

/** "Gemini 2.5 Flash Lite" -> "gemini-2.5-flash-lite". */
export function vertexSkuModelId(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, "-");
}

interface Prices {
  input?: number;
  output?: number;
  cached?: number;
}

export const parseVertexBillingSkus: Parser = (input: ParserInput) => {
  const list = jsonDocument(input, SkuList, "a Cloud Billing SKU list");
  requireSome(input.source, list.skus, "SKUs");
  const skipped = new SkipLog();
  const byModel = new Map<string, Prices>();

  for (const sku of list.skus) {
    const what = `${sku.skuId} ${sku.description}`;
    if (sku.category.usageType !== "OnDemand") {
      skipped.add(`usage type ${sku.category.usageType} (only OnDemand is read)`, what);
      continue;
    }
    if (!sku.serviceRegions.includes(VERTEX.regions.global)) {
      skipped.add("not offered in the global region", what);
      continue;
    }
    if (/\blong\b|>/i.test(sku.description)) {
      skipped.add("long-context SKU (its threshold is not in the SKU)", what);
      continue;
    }
    const m = DESCRIPTION.exec(sku.description.trim());
    if (!m?.groups) {
      skipped.add("description is not '<model> <modality> <Input|Output|Cached Input>'", what);
      continue;
    }
    const { model, modality, kind } = m.groups as { model: string; modality: string; kind: string };
    if (modality !== "Text") {
      skipped.add(`${modality.toLowerCase()} price (the rate card is text tokens)`, what);
      continue;
    }
    const price = skuPrice(input, sku, skipped);
    if (price === null) continue;
    const id = vertexSkuModelId(model);
    const prices = byModel.get(id) ?? {};
    const field = kind === "Input" ? "input" : kind === "Output" ? "output" : "cached";
    if (prices[field] !== undefined && prices[field] !== price)
      throw parseFailure(input.source, `two different ${field} prices for ${id}`);
    prices[field] = price;
    byModel.set(id, prices);
  }

  const evidence = evidenceFor(input.source, input.observedAt);
  const deployments: DeploymentFact[] = [];
  for (const [id, prices] of [...byModel].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (prices.input === undefined) {
      skipped.add("no text input price", id);
      continue;
    }
    deployments.push({
      ...vertexDeployment(id),
      rate_card: tokenRateCard(input.source, input.observedAt, {
        input: prices.input,
        cachedInput: prices.cached ?? null,
        output: prices.output ?? null,
      }),
      evidence,
    });
  }
  requireSome(input.source, deployments, "Gemini text token prices");
  return { deployments, lifecycle: [], skipped: skipped.toArray() };
};

function skuPrice(input: ParserInput, sku: Sku, skipped: SkipLog): number | null {
  const what = `${sku.skuId} ${sku.description}`;
  const info = sku.pricingInfo[0];
  if (!info) throw parseFailure(input.source, `${what}: no pricingInfo`);
  const expression = info.pricingExpression;
  const perUnit = tokensPerUsageUnit(expression.usageUnit);
  if (perUnit === null) {
    skipped.add(`usage unit ${expression.usageUnit} is not a token count`, what);
    return null;
  }
  const rates = expression.tieredRates;
  if (rates.length !== 1 || (rates[0]?.startUsageAmount ?? 0) !== 0) {
    skipped.add("tiered usage price (not one rate from 0)", what);
    return null;
  }
  const unitPrice = (rates[0] as (typeof rates)[number]).unitPrice;
  if (unitPrice.currencyCode !== "USD")
    throw parseFailure(input.source, `${what}: price in ${unitPrice.currencyCode}, not USD`);
  const micro = microUsdPerMillionTokens(unitPrice.units ?? 0, unitPrice.nanos ?? 0, perUnit);
  if (micro === null || micro < 0n || micro > BigInt(Number.MAX_SAFE_INTEGER))
    throw parseFailure(input.source, `${what}: price is not a whole micro-dollar amount per million tokens`);
  return Number(micro);
}

export const parsers: Record<string, Parser> = {
  "google-vertex-billing-skus": parseVertexBillingSkus,
};
