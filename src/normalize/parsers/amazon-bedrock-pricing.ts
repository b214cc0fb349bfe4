/**
 * Amazon Bedrock official prices (provider `amazon-bedrock`): the AWS Price List Bulk API's
 * regional offer files (`https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/<offer>/current/
 * <region>/index.json`, public JSON). Two offers carry model prices, and which models sit in
 * which offer differs by vendor, so one parser reads both:
 * - `AmazonBedrock`: Amazon's own models and most third-party models (older Claude versions,
 *   Llama, Mistral, DeepSeek, Qwen, NVIDIA...), named by the `model` attribute (`titanModel` for
 *   some Titan SKUs), the price part by `inferenceType` ("Input tokens", "Output tokens",
 *   "Prompt cache read input tokens", ...), the variant by the `usagetype` suffix
 *   (`-batch`, `-cross-region-global`), prices per 1K tokens;
 * - `AmazonBedrockFoundationModels`: Marketplace-sold models (newer Claude versions, Cohere
 *   Embed 4, ...), named by `servicename` "<name> (Amazon Bedrock Edition)", the price part
 *   and variant by the `usagetype` "<R>-MP:<R>_<Kind>[_Batch|_Global]-Units", per 1M tokens.
 *
 * Identity: the price list names models by display name, never by model id, so the model is
 * looked up in a reviewed table (PRICE_LIST_MODELS: price-list name -> Bedrock model id); the
 * deployment is built exactly like the lifecycle parser's (amazon-bedrock.ts): provider
 * `amazon-bedrock`, surface `bedrock-runtime`, the Bedrock model id, the SKU's AWS Region, and
 * `bedrockCanonicalModelId` for the model. Variants:
 * - in-Region ("Regional") on-demand prices -> mode `standard`, region = the AWS Region; they are
 *   also what geographic cross-Region inference profiles (`us.`, `eu.`, `jp.`...) cost;
 * - Global cross-Region inference ("Global", `-cross-region-global`) -> mode `global` (surface
 *   segment `bedrock-runtime-global`), region = the source AWS Region the request is sent to,
 *   base model id. Not region `global`: AWS prices Global inference per source Region (the Tokyo
 *   file charges Nova 2.0 Lite Global $0.36 / $3.01 per 1M tokens, the US price is $0.30 /
 *   $2.50), so one `global` deployment would carry whichever Region file was read last. The
 *   community parser's `global.` keys (one US price, region `global`) therefore do not join
 *   these deployments; that is for the identity work to reconcile;
 * - batch inference -> mode `batch` (surface segment `bedrock-runtime-batch`), per Region.
 * Rate-card fields: input, output, cache read -> cached input, cache write (5 minutes) and 1-hour
 * cache write where published; a price the file does not carry stays null / absent.
 *
 * Every SKU that does not become a price is counted in `skipped` by reason (unknown model name,
 * embedding model, not a per-token price, provisioned / reserved capacity, Mantle endpoint,
 * unrecognised usage type, no on-demand term...). A deployment whose SKUs carry no input price
 * cannot have a rate card (input is required); its SKUs are counted too.
 */

import { compareCodePoints } from "../../lib/canonical-json.js";
import { group } from "../../lib/regex.js";
import type { ParseOutput } from "../../schema/index.js";
import { parseFailure, requireSome, SkipLog } from "../helpers.js";
import { BEDROCK, type BedrockMode, bedrockDeployment } from "../identity/index.js";
import {
  PartPrices,
  type PricedEntry,
  type PricePart,
  perUnitToMicroPerMillion,
  pricedDeployments,
} from "../price-parts.js";
import type { Parser, ParserInput } from "../types.js";

/** What a price-list model name is: a text model with its Bedrock model id, or an embedding model. */
export type PriceListModel = { kind: "text"; modelId: string } | { kind: "embedding" };

const text = (modelId: string): PriceListModel => ({ kind: "text", modelId });
const EMBEDDING: PriceListModel = { kind: "embedding" };

/**
 * Reviewed: price-list model names (the `model` / `titanModel` attribute of AmazonBedrock, the
 * `servicename` of AmazonBedrockFoundationModels without " (Amazon Bedrock Edition)") -> the
 * Bedrock model id of the on-demand model (the base id, never a context-length variant such as
 * `:128k`). Names are as the price list spells them (seen in the recorded captures or in the
 * published offer files); a name not listed is skipped and counted, never guessed.
 */
export const PRICE_LIST_MODELS: Readonly<Record<string, PriceListModel>> = {
  // Amazon
  "Nova Micro": text("amazon.nova-micro-v1:0"),
  "Nova Lite": text("amazon.nova-lite-v1:0"),
  "Nova Pro": text("amazon.nova-pro-v1:0"),
  "Nova Premier": text("amazon.nova-premier-v1:0"),
  "Nova 2.0 Lite": text("amazon.nova-2-lite-v1:0"),
  "Titan Embeddings G1 Text": EMBEDDING,
  "Nova MME": EMBEDDING,
  // Anthropic
  "Claude Sonnet 4.5": text("anthropic.claude-sonnet-4-5-20250929-v1:0"),
  "Claude Opus 4": text("anthropic.claude-opus-4-20250514-v1:0"),
  "Claude 3 Opus": text("anthropic.claude-3-opus-20240229-v1:0"),
  "Claude 3.5 Haiku": text("anthropic.claude-3-5-haiku-20241022-v1:0"),
  "Claude 2.1": text("anthropic.claude-v2:1"),
  "Claude 2.0": text("anthropic.claude-v2"),
  "Claude Instant": text("anthropic.claude-instant-v1"),
  // Cohere, AI21
  "Cohere Command R": text("cohere.command-r-v1:0"),
  "Cohere Command R+": text("cohere.command-r-plus-v1:0"),
  "Cohere Embed 4 Model": EMBEDDING,
  "Cohere Embed 3 Model - English": EMBEDDING,
  "Cohere Embed Model 3 - Multilingual": EMBEDDING,
  "Jamba-Instruct": text("ai21.jamba-instruct-v1:0"),
  // Meta
  "Llama 3 8B": text("meta.llama3-8b-instruct-v1:0"),
  "Llama 3 70B": text("meta.llama3-70b-instruct-v1:0"),
  "Llama 3.1 8B": text("meta.llama3-1-8b-instruct-v1:0"),
  "Llama 3.1 70B": text("meta.llama3-1-70b-instruct-v1:0"),
  "Llama 3.1 405B": text("meta.llama3-1-405b-instruct-v1:0"),
  "Llama 3.2 1B": text("meta.llama3-2-1b-instruct-v1:0"),
  "Llama 3.2 3B": text("meta.llama3-2-3b-instruct-v1:0"),
  "Llama 3.2 11B": text("meta.llama3-2-11b-instruct-v1:0"),
  "Llama 3.2 90B": text("meta.llama3-2-90b-instruct-v1:0"),
  "Llama 3.3 70B": text("meta.llama3-3-70b-instruct-v1:0"),
  "Llama 4 Maverick 17B": text("meta.llama4-maverick-17b-instruct-v1:0"),
  "Llama 4 Scout 17B": text("meta.llama4-scout-17b-instruct-v1:0"),
  // Mistral
  "Mistral 7B": text("mistral.mistral-7b-instruct-v0:2"),
  "Mixtral 8x7B": text("mistral.mixtral-8x7b-instruct-v0:1"),
  "Mistral Large": text("mistral.mistral-large-2402-v1:0"),
  "Mistral Small": text("mistral.mistral-small-2402-v1:0"),
  "Magistral Small 1.2": text("mistral.magistral-small-2509"),
  // DeepSeek, Qwen, Google, NVIDIA
  R1: text("deepseek.r1-v1:0"),
  "DeepSeek V3.1": text("deepseek.v3-v1:0"),
  "Qwen3 32B": text("qwen.qwen3-32b-v1:0"),
  "Qwen3 Coder 30B A3B": text("qwen.qwen3-coder-30b-a3b-v1:0"),
  "Qwen3 Coder 480B A35B": text("qwen.qwen3-coder-480b-a35b-v1:0"),
  "Gemma 3 4B": text("google.gemma-3-4b-it"),
  "Gemma 3 12B": text("google.gemma-3-12b-it"),
  "Gemma 3 27B": text("google.gemma-3-27b-it"),
  "NVIDIA Nemotron Nano 2": text("nvidia.nemotron-nano-9b-v2"),
  "NVIDIA Nemotron Nano 2 VL": text("nvidia.nemotron-nano-12b-v2"),
};

type Component = PricePart;

/** Which deployment variant a price belongs to (always in the SKU's own AWS Region). */
interface Variant {
  /** standard: in-Region on demand; batch: batch inference; global: Global cross-Region inference. */
  mode: BedrockMode;
}

type Classified = { ok: true; component: Component; variant: Variant } | { ok: false; reason: string };

const UNRECOGNIZED = "usage type variant not in the reviewed patterns";

const INFERENCE_TYPES: Readonly<Record<string, Component>> = {
  "Input tokens": "input",
  "Output tokens": "output",
  "Prompt cache read input tokens": "cached_input",
  "Prompt cache write input tokens": "cache_write",
};

/** AmazonBedrock offer: the component from `inferenceType`, the variant from the usage type. */
function classifyBedrock(attributes: Record<string, string>): Classified {
  const usage = attributes["usagetype"] ?? "";
  const component = INFERENCE_TYPES[attributes["inferenceType"] ?? ""];
  if (/-mantle-/.test(usage))
    return {
      ok: false,
      reason: "Bedrock Mantle (OpenAI-compatible endpoint) price: no api_surface for it yet",
    };
  if (!component)
    return {
      ok: false,
      reason: `not a per-token price (inferenceType "${attributes["inferenceType"] ?? ""}")`,
    };
  if (/-batch$/.test(usage)) return { ok: true, component, variant: { mode: BEDROCK.modes.batch } };
  if (/-cross-region-global$/.test(usage))
    return { ok: true, component, variant: { mode: BEDROCK.modes.global } };
  if (/-(?:input|output)-tokens?$|-token-count$/.test(usage))
    return { ok: true, component, variant: { mode: BEDROCK.modes.standard } };
  return { ok: false, reason: UNRECOGNIZED };
}

const MARKETPLACE_KINDS: Readonly<Record<string, Component>> = {
  InputTokenCount: "input",
  OutputTokenCount: "output",
  CacheReadInputTokenCount: "cached_input",
  CacheWriteInputTokenCount: "cache_write",
  CacheWrite1hInputTokenCount: "cache_write_1h",
};

/** AmazonBedrockFoundationModels offer: "<R>-MP:<R>_<Kind>[_Batch|_Global]-Units". */
function classifyMarketplace(attributes: Record<string, string>): Classified {
  const usage = attributes["usagetype"] ?? "";
  const m = /^[A-Z0-9]+-MP:[A-Z0-9]+_(.+)-Units$/.exec(usage);
  if (!m) return { ok: false, reason: UNRECOGNIZED };
  const kind = group(m, 1);
  if (/^Reserved_|_Reserved_|TPM/.test(kind))
    return { ok: false, reason: "reserved / provisioned throughput price (per TPM-hour, not per token)" };
  const parts = /^([A-Za-z0-9]+?)(?:_(Batch|Global))?$/.exec(kind);
  const component = parts ? MARKETPLACE_KINDS[group(parts, 1)] : undefined;
  if (!parts || !component) return { ok: false, reason: UNRECOGNIZED };
  const variant: Variant = {
    mode:
      parts[2] === "Batch"
        ? BEDROCK.modes.batch
        : parts[2] === "Global"
          ? BEDROCK.modes.global
          : BEDROCK.modes.standard,
  };
  return { ok: true, component, variant };
}

const MARKETPLACE_SUFFIX = " (Amazon Bedrock Edition)";
const AWS_REGION = /^[a-z]{2}(?:-gov)?-[a-z]+-\d$/;
const UNIT_TOKENS: Readonly<Record<string, 1000 | 1_000_000>> = { "1K tokens": 1000, "1M tokens": 1_000_000 };

interface Product {
  sku?: string;
  attributes?: Record<string, string>;
}

interface PriceDimension {
  unit?: string;
  beginRange?: string;
  endRange?: string;
  pricePerUnit?: { USD?: string };
}

interface OnDemandTerm {
  priceDimensions?: Record<string, PriceDimension>;
}

interface OfferFile {
  offerCode?: string;
  products?: Record<string, Product>;
  terms?: { OnDemand?: Record<string, Record<string, OnDemandTerm>> };
}

/** The single on-demand price of a SKU, or why it has none usable. */
function onDemandPrice(
  file: OfferFile,
  sku: string,
): { ok: true; usd: string; unit: string } | { ok: false; reason: string } {
  const terms = Object.values(file.terms?.OnDemand?.[sku] ?? {});
  if (terms.length === 0) return { ok: false, reason: "no on-demand term" };
  const dimensions = terms.flatMap((t) => Object.values(t.priceDimensions ?? {}));
  if (dimensions.length !== 1) return { ok: false, reason: "tiered or multiple on-demand price dimensions" };
  const d = dimensions[0] as PriceDimension;
  if ((d.beginRange ?? "0") !== "0" || (d.endRange ?? "Inf") !== "Inf")
    return { ok: false, reason: "tiered or multiple on-demand price dimensions" };
  const usd = d.pricePerUnit?.USD;
  if (typeof usd !== "string") return { ok: false, reason: "no USD price" };
  return { ok: true, usd, unit: d.unit ?? "" };
}

interface Pending extends PricedEntry {
  skus: string[];
}

function parseOfferFile(input: ParserInput): ParseOutput {
  const { source } = input;
  let file: OfferFile;
  try {
    file = JSON.parse(input.content) as OfferFile;
  } catch (error) {
    throw parseFailure(source, `not valid JSON (${(error as Error).message})`);
  }
  const offer = file.offerCode;
  if (offer !== "AmazonBedrock" && offer !== "AmazonBedrockFoundationModels")
    throw parseFailure(source, `offerCode "${String(offer)}" is not a Bedrock offer`);
  if (!file.products || typeof file.products !== "object" || !file.terms?.OnDemand)
    throw parseFailure(source, "no products or no OnDemand terms: not a Price List offer file");

  const skipped = new SkipLog();
  const pending = new Map<string, Pending>();
  for (const sku of Object.keys(file.products).sort(compareCodePoints)) {
    const attributes = file.products[sku]?.attributes ?? {};
    const name =
      offer === "AmazonBedrock"
        ? (attributes["model"] ?? attributes["titanModel"])
        : attributes["servicename"]?.endsWith(MARKETPLACE_SUFFIX)
          ? attributes["servicename"].slice(0, -MARKETPLACE_SUFFIX.length)
          : undefined;
    const example = `${sku} ${attributes["usagetype"] ?? ""}`;
    if (name === undefined) {
      skipped.add("no model name (not a model SKU)", example);
      continue;
    }
    const model = Object.hasOwn(PRICE_LIST_MODELS, name) ? PRICE_LIST_MODELS[name] : undefined;
    if (!model) {
      skipped.add("model name not in the reviewed table (PRICE_LIST_MODELS)", `${name}: ${example}`);
      continue;
    }
    if (model.kind === "embedding") {
      skipped.add("embedding model (the catalog lists text-generation deployments)", `${name}: ${example}`);
      continue;
    }
    const classified =
      offer === "AmazonBedrock" ? classifyBedrock(attributes) : classifyMarketplace(attributes);
    if (!classified.ok) {
      skipped.add(classified.reason, example);
      continue;
    }
    const price = onDemandPrice(file, sku);
    if (!price.ok) {
      skipped.add(price.reason, example);
      continue;
    }
    const scale = UNIT_TOKENS[price.unit];
    if (scale === undefined) {
      skipped.add(`unit "${price.unit}" is not per 1K or 1M tokens`, example);
      continue;
    }
    const micro = perUnitToMicroPerMillion(price.usd, scale);
    if (micro === null) {
      skipped.add("price finer than 1 micro-USD per million tokens, or not an amount", example);
      continue;
    }
    const regionCode = attributes["regionCode"] ?? "";
    if (!AWS_REGION.test(regionCode)) {
      skipped.add("no AWS Region code", example);
      continue;
    }
    const { variant, component } = classified;
    const identity = bedrockDeployment(model.modelId, regionCode, variant.mode);
    const { id } = identity;
    let entry = pending.get(id);
    if (!entry) {
      entry = {
        fact: { ...identity, display_name: name },
        prices: new PartPrices(),
        skus: [],
      };
      pending.set(id, entry);
    }
    entry.skus.push(example);
    entry.prices.add(component, micro);
  }

  const deployments = pricedDeployments(pending.values(), input, skipped, (entry) => {
    for (const sku of entry.skus)
      skipped.add("deployment has no single input price (a rate card needs one)", sku);
  });
  requireSome(source, deployments, "priced Bedrock model SKUs");
  return { deployments, lifecycle: [], skipped: skipped.toArray() };
}

export const parsers: Record<string, Parser> = {
  "amazon-bedrock-price-list": parseOfferFile,
};
