/**
 * Community source: LiteLLM's model price map
 * (https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json),
 * one JSON object whose keys are LiteLLM model names and whose values carry per-token prices,
 * token limits, `supports_*` flags and an optional `deprecation_date`.
 *
 * What is kept: text-generation entries (mode `chat`, `completion` or `responses` — the last
 * are OpenAI/Azure models served only through the Responses API, e.g. o3-pro, still priced per
 * token) of the providers the catalog knows, mapped to the same deployment identities the
 * official parsers produce (parsers-common conventions):
 *   openai / text-completion-openai -> openai        (api, global)
 *   anthropic                        -> anthropic     (api, global)
 *   gemini                           -> google        (gemini-api, global)
 *   vertex_ai, vertex_ai-*           -> google-vertex (vertex-ai, global)
 *   bedrock, bedrock_converse        -> amazon-bedrock (bedrock-runtime, AWS region)
 *   azure                            -> azure         (azure-openai, deployment type + region)
 *   mistral                          -> mistral       (api, global)
 *   xai                              -> xai           (api, global)
 *   deepseek                         -> deepseek      (api, global)
 *   cohere, cohere_chat              -> cohere        (api, global)
 *   groq                             -> groq          (api, global; `groq/<publisher>/<model>` keeps the publisher)
 *   together_ai                      -> together-ai   (api, global; `together_ai/<publisher>/<model>`)
 * Every other entry is counted in `skipped` with its reason; nothing is dropped silently.
 *
 * Region and deployment-type conventions of the map (read from the data itself):
 * - Bedrock: `bedrock/<aws-region>/<model>` is that region's on-demand price. An unqualified
 *   `<vendor>.<model>` key names no region and LiteLLM documents none for it, so it places no
 *   deployment (skipped, NO_REGION: a region is never invented, docs/provenance.md). Cross-region inference
 *   profile ids (`us.`, `eu.`, `apac.`, `au.`, `jp.`, `us-gov.`, `global.` + model id) map to
 *   the base model id with the geography as region, like Azure's data zones. Provisioned
 *   throughput (`.../1-month-commitment/...`), `bedrock/*`, and `bedrock/invoke/` route aliases
 *   are skipped.
 * - Azure: `azure/eu/` and `azure/us/` are Data Zone Standard prices (region eu / us);
 *   `azure/global/` and `azure/global-standard/` are Global Standard; an unqualified
 *   `azure/<model>` names neither a deployment type nor a region, and LiteLLM documents none
 *   for it (its maintainers call it the regional price in one thread, BerriAI/litellm#7004,
 *   while it matches the Global Standard price for most models), so it places no deployment
 *   (skipped, NO_REGION).
 *   `*_batches` prices are the matching Batch type (global-batch / data-zone-batch).
 * - Vertex AI: `vertex_ai/` prefixes and `@default` version suffixes are dropped
 *   (`vertex_ai/claude-opus-4-6@default` is the same deployment as `vertex_ai/claude-opus-4-6`).
 * When several keys name the same deployment, the explicit key wins, then the first key in
 * code-point order; the others are counted as aliases.
 *
 * Prices: `*_batches`, `*_flex` and `*_priority` prices are separate modes (batch / flex /
 * priority), `*_above_<N>k_tokens` prices are long-context tiers, `cache_read_input_token_cost`
 * is the cached-input price and `cache_creation_input_token_cost` (`..._above_1hr`) the
 * cache-write price (1-hour). See `perTokenToMicroPerMillion` (helpers.ts) for why the conversion is exact.
 */

import { compareCodePoints } from "../../lib/canonical-json.js";
import { modelId } from "../../lib/ids.js";
import { group } from "../../lib/regex.js";
import type {
  Capabilities,
  CapabilityName,
  DeploymentFact,
  Evidence,
  LifecycleAssertion,
  ParseOutput,
  RateCard,
  RateTier,
} from "../../schema/index.js";
import {
  evidenceFor,
  isJsonObject,
  type JsonObject,
  parseFailure,
  parseMilestone,
  perTokenToMicroPerMillion,
  SkipLog,
} from "../helpers.js";
import { togetherMode } from "../identity/hosted-models.js";
import {
  ANTHROPIC_STANDARD,
  AZURE,
  BEDROCK,
  BEDROCK_GEOGRAPHIES,
  deploymentIdOf,
  GOOGLE_STANDARD,
  identityOf,
  MISTRAL_STANDARD,
  OPENAI,
  OPENAI_STANDARD,
  OWN_API,
  OWN_API_STANDARD,
  type Placement,
  VERTEX,
} from "../identity/index.js";
import type { Parser, ParserInput } from "../types.js";

// ---------------------------------------------------------------------------------------------
// Identity mapping
// ---------------------------------------------------------------------------------------------

export interface LiteLlmIdentity {
  provider_id: string;
  provider_model_id: string;
  api_surface: string;
  /** The base (standard-price) mode: "standard", or the Azure deployment type. */
  mode: string;
  region: string;
  /** True when the key names its region / deployment type explicitly. */
  explicit: boolean;
  /** True when the key names the model by an alias the provider's identity module resolved. */
  aliased: boolean;
}

export type IdentityResult = { ok: true; identity: LiteLlmIdentity } | { ok: false; reason: string };

/**
 * Why an unqualified Bedrock or Azure key places no deployment: it names no region (nor, on
 * Azure, a deployment type), and LiteLLM documents none for such keys (docs/provenance.md: a
 * region is never invented).
 */
export const NO_REGION = "no region: the key names none and LiteLLM documents none for such keys";

const AWS_REGION = /^[a-z]{2}(?:-gov)?-[a-z]+-\d$/;
const BEDROCK_GEOGRAPHY = new RegExp(`^(${BEDROCK_GEOGRAPHIES.join("|")})\\.(.+)$`);
const BEDROCK_MODEL = /^[a-z0-9-]+\.[a-z0-9][^@/]*$/;
const TEXT_MODES = new Set(["chat", "completion", "responses"]);

/** Catalog provider for a `litellm_provider` value, or null when the catalog does not cover it. */
export function catalogProvider(litellmProvider: string): string | null {
  if (litellmProvider === "openai" || litellmProvider === "text-completion-openai") return "openai";
  if (litellmProvider === "anthropic") return "anthropic";
  if (litellmProvider === "gemini") return "google";
  if (litellmProvider === "vertex_ai" || litellmProvider.startsWith("vertex_ai-")) return "google-vertex";
  if (litellmProvider === "bedrock" || litellmProvider === "bedrock_converse") return "amazon-bedrock";
  if (litellmProvider === "azure") return "azure";
  if (litellmProvider === "mistral") return "mistral";
  if (litellmProvider === "xai") return "xai";
  if (litellmProvider === "deepseek") return "deepseek";
  if (litellmProvider === "cohere" || litellmProvider === "cohere_chat") return "cohere";
  if (litellmProvider === "groq") return "groq";
  if (litellmProvider === "together_ai") return "together-ai";
  return null;
}

function stripPrefix(key: string, prefix: string): string {
  return key.startsWith(prefix) ? key.slice(prefix.length) : key;
}

function bedrockIdentity(key: string): IdentityResult {
  let rest = stripPrefix(key, "bedrock/");
  let region: string = BEDROCK.regions.usEast1;
  let explicit = false;
  const parts = rest.split("/");
  if (parts.length > 1) {
    const [first, ...others] = parts as [string, ...string[]];
    if (first === "*" || others.some((p) => /commitment/.test(p)))
      return { ok: false, reason: "provisioned throughput (commitment) price" };
    if (first === "invoke") return { ok: false, reason: "route alias (bedrock/invoke/)" };
    const [only] = others;
    if (!AWS_REGION.test(first) || others.length !== 1 || only === undefined)
      return { ok: false, reason: "unrecognized key shape" };
    region = first;
    explicit = true;
    rest = only;
  }
  const geo = BEDROCK_GEOGRAPHY.exec(rest);
  if (geo) {
    if (explicit) return { ok: false, reason: "unrecognized key shape" };
    region = group(geo, 1);
    explicit = true;
    rest = group(geo, 2);
  }
  if (!BEDROCK_MODEL.test(rest)) return { ok: false, reason: "not a provider model id (alias)" };
  if (!explicit) return { ok: false, reason: NO_REGION };
  return {
    ok: true,
    identity: {
      provider_id: "amazon-bedrock",
      provider_model_id: rest,
      api_surface: BEDROCK.surfaces.runtime,
      mode: BEDROCK.modes.standard,
      region,
      explicit,
      aliased: false,
    },
  };
}

function azureIdentity(key: string): IdentityResult {
  const rest = stripPrefix(key, "azure/");
  const m = /^(eu|us|global|global-standard)\/([^/]+)$/.exec(rest);
  if (m) {
    const zone = group(m, 1);
    const dataZone = zone === AZURE.regions.eu || zone === AZURE.regions.us;
    return {
      ok: true,
      identity: {
        provider_id: "azure",
        provider_model_id: group(m, 2),
        api_surface: AZURE.surfaces.azureOpenai,
        mode: dataZone ? AZURE.modes.dataZoneStandard : AZURE.modes.globalStandard,
        region: dataZone ? zone : AZURE.regions.global,
        explicit: true,
        aliased: false,
      },
    };
  }
  if (rest.includes("/")) return { ok: false, reason: "unrecognized key shape" };
  return { ok: false, reason: NO_REGION };
}

function simpleIdentity(
  provider_id: string,
  placement: Placement,
  model: string,
  explicit = true,
): IdentityResult {
  if (model === "" || model.includes("/")) return { ok: false, reason: "unrecognized key shape" };
  return {
    ok: true,
    identity: {
      provider_id,
      provider_model_id: model,
      api_surface: placement.api_surface,
      mode: placement.mode,
      region: placement.region,
      explicit,
      aliased: false,
    },
  };
}

/**
 * A host of open models whose ids carry the publisher (`groq/meta-llama/llama-4-scout-17b-16e-instruct`,
 * `together_ai/meta-llama/Llama-3.3-70B-Instruct-Turbo`): the provider model id is everything after
 * the host prefix, as the host's own API and docs spell it. A key without the prefix
 * (`together-ai-4.1b-8b`) is a size-tier price, not a model.
 */
function hostedIdentity(provider_id: string, prefix: string, key: string): IdentityResult {
  if (!key.startsWith(prefix)) return { ok: false, reason: "size-tier price, not a model" };
  const model = key.slice(prefix.length);
  if (model === "" || model.split("/").length > 2) return { ok: false, reason: "unrecognized key shape" };
  return {
    ok: true,
    identity: {
      provider_id,
      provider_model_id: model,
      api_surface: OWN_API.surfaces.api,
      mode: provider_id === "together-ai" ? togetherMode(model) : OWN_API.modes.standard,
      region: OWN_API.regions.global,
      explicit: true,
      aliased: false,
    },
  };
}

/**
 * The deployment identity of one LiteLLM key, or why the key cannot be one. The model name is
 * resolved through the provider's identity module (src/normalize/identity/), so a key that
 * spells a model another way (`azure/gpt-3.5-turbo-0125`, `anthropic/claude-sonnet-4-5`) names
 * the same deployment as the official sources.
 */
export function identityFor(key: string, litellmProvider: string): IdentityResult {
  const result = keyIdentity(key, litellmProvider);
  if (!result.ok) return result;
  const module = identityOf(result.identity.provider_id);
  if (!module) return result;
  const providerModelId = module.providerModelId(result.identity.provider_model_id);
  if (providerModelId === result.identity.provider_model_id) return result;
  return { ok: true, identity: { ...result.identity, provider_model_id: providerModelId, aliased: true } };
}

function keyIdentity(key: string, litellmProvider: string): IdentityResult {
  const provider = catalogProvider(litellmProvider);
  switch (provider) {
    case "openai":
      if (key.startsWith("ft:")) return { ok: false, reason: "fine-tuned model price" };
      return simpleIdentity("openai", OPENAI_STANDARD, stripPrefix(key, "openai/"));
    case "anthropic":
      return simpleIdentity("anthropic", ANTHROPIC_STANDARD, stripPrefix(key, "anthropic/"));
    case "google":
      return simpleIdentity("google", GOOGLE_STANDARD, stripPrefix(key, "gemini/"));
    case "google-vertex": {
      const model = stripPrefix(key, "vertex_ai/").replace(/@default$/, "");
      if (model === "") return { ok: false, reason: "unrecognized key shape" };
      // Vertex model-garden ids keep their publisher path (meta/llama-3.1-405b-instruct-maas).
      return {
        ok: true,
        identity: {
          provider_id: "google-vertex",
          provider_model_id: model,
          api_surface: VERTEX.surfaces.vertexAi,
          mode: VERTEX.modes.standard,
          region: VERTEX.regions.global,
          explicit: !key.endsWith("@default"),
          aliased: false,
        },
      };
    }
    case "amazon-bedrock":
      return bedrockIdentity(key);
    case "azure":
      return azureIdentity(key);
    case "mistral":
      return simpleIdentity("mistral", MISTRAL_STANDARD, stripPrefix(key, "mistral/"));
    case "xai":
      return simpleIdentity("xai", OWN_API_STANDARD, stripPrefix(key, "xai/"));
    case "deepseek":
      return simpleIdentity("deepseek", OWN_API_STANDARD, stripPrefix(key, "deepseek/"));
    case "cohere":
      return simpleIdentity("cohere", OWN_API_STANDARD, stripPrefix(key, "cohere/"));
    case "groq":
      return hostedIdentity("groq", "groq/", key);
    case "together-ai":
      return hostedIdentity("together-ai", "together_ai/", key);
    default:
      return { ok: false, reason: "provider not in the catalog" };
  }
}

/**
 * Canonical model id `<lab>/<model>` of a deployment identity: the provider's identity module
 * decides (src/normalize/identity/), the same one its official parsers use.
 */
export function canonicalModelId(
  identity: Pick<LiteLlmIdentity, "provider_id" | "provider_model_id">,
): string {
  const module = identityOf(identity.provider_id);
  if (!module) return modelId(identity.provider_id, identity.provider_model_id);
  return module.canonicalModelId(identity.provider_model_id);
}

// ---------------------------------------------------------------------------------------------
// Rate cards, limits, capabilities
// ---------------------------------------------------------------------------------------------

type Entry = JsonObject;

/** Reads one price field; a price that cannot be converted exactly is counted and treated as absent. */
function priceOf(entry: Entry, field: string, key: string, skipped: SkipLog): number | null {
  const raw = entry[field];
  if (raw === undefined || raw === null) return null;
  const converted = perTokenToMicroPerMillion(raw);
  if (converted.ok) return converted.micro;
  const reason =
    converted.reason === "sub_micro"
      ? "price finer than 1 micro-USD per million tokens"
      : converted.reason === "imprecise"
        ? "price with more than 15 significant digits"
        : "price that is not a non-negative number";
  skipped.add(reason, `${key}: ${field}`);
  return null;
}

const TIER_FIELD = /^input_cost_per_token_above_(\d+)k_tokens(_priority)?$/;

function tiersOf(entry: Entry, suffix: "" | "_priority", key: string, skipped: SkipLog): RateTier[] {
  const tiers: RateTier[] = [];
  for (const field of Object.keys(entry)) {
    const m = TIER_FIELD.exec(field);
    if (!m || (m[2] ?? "") !== suffix) continue;
    const k = group(m, 1);
    const input = priceOf(entry, field, key, skipped);
    if (input === null) continue;
    const above = `_above_${k}k_tokens${suffix}`;
    const cacheWrite = priceOf(entry, `cache_creation_input_token_cost${above}`, key, skipped);
    tiers.push({
      above_input_tokens: Number.parseInt(k, 10) * 1000,
      input_micro_usd: input,
      cached_input_micro_usd: priceOf(entry, `cache_read_input_token_cost${above}`, key, skipped),
      output_micro_usd: priceOf(entry, `output_cost_per_token${above}`, key, skipped),
      ...(cacheWrite !== null ? { cache_write_micro_usd: cacheWrite } : {}),
    });
  }
  return tiers.sort((a, b) => a.above_input_tokens - b.above_input_tokens);
}

interface ModePrices {
  /** Mode suffix in LiteLLM's field names. */
  suffix: "" | "_batches" | "_flex" | "_priority";
  card: RateCard;
}

function rateCardsOf(entry: Entry, key: string, input: ParserInput, skipped: SkipLog): ModePrices[] {
  const common = {
    currency: "USD" as const,
    unit: "million_tokens" as const,
    source_url: input.source.url,
    observed_at: input.observedAt,
  };
  const cards: ModePrices[] = [];
  for (const suffix of ["", "_batches", "_flex", "_priority"] as const) {
    const inputPrice = priceOf(entry, `input_cost_per_token${suffix}`, key, skipped);
    if (inputPrice === null) continue;
    // LiteLLM has no separate cache prices for batch; batch cached input stays unknown.
    const cacheSuffix = suffix === "_batches" ? null : suffix;
    const cached =
      cacheSuffix === null ? null : priceOf(entry, `cache_read_input_token_cost${cacheSuffix}`, key, skipped);
    const cacheWrite =
      cacheSuffix === null
        ? null
        : priceOf(entry, `cache_creation_input_token_cost${cacheSuffix}`, key, skipped);
    const cacheWrite1h =
      suffix === "" ? priceOf(entry, "cache_creation_input_token_cost_above_1hr", key, skipped) : null;
    const tiers = suffix === "" || suffix === "_priority" ? tiersOf(entry, suffix, key, skipped) : [];
    cards.push({
      suffix,
      card: {
        ...common,
        input_micro_usd: inputPrice,
        cached_input_micro_usd: cached,
        output_micro_usd: priceOf(entry, `output_cost_per_token${suffix}`, key, skipped),
        ...(cacheWrite !== null ? { cache_write_micro_usd: cacheWrite } : {}),
        ...(cacheWrite1h !== null ? { cache_write_1h_micro_usd: cacheWrite1h } : {}),
        ...(tiers.length > 0 ? { tiers } : {}),
      },
    });
  }
  return cards;
}

/** The mode a LiteLLM price variant is sold as for this deployment, or null when the catalog has none. */
function modeFor(identity: LiteLlmIdentity, suffix: ModePrices["suffix"]): string | null {
  if (suffix === "") return identity.mode;
  if (identity.provider_id === "azure") {
    if (suffix !== "_batches") return null;
    return identity.mode === AZURE.modes.dataZoneStandard
      ? AZURE.modes.dataZoneBatch
      : AZURE.modes.globalBatch;
  }
  // Batch is named alike by every provider that sells it; flex and priority are OpenAI's tiers.
  return suffix === "_batches"
    ? OPENAI.modes.batch
    : suffix === "_flex"
      ? OPENAI.modes.flex
      : OPENAI.modes.priority;
}

const CAPABILITY_FLAGS: Array<[string, CapabilityName]> = [
  ["supports_function_calling", "tool_calling"],
  ["supports_parallel_function_calling", "parallel_tool_calling"],
  ["supports_response_schema", "structured_output"],
  ["supports_vision", "vision"],
  ["supports_audio_input", "audio_input"],
  ["supports_audio_output", "audio_output"],
  ["supports_pdf_input", "pdf_input"],
  ["supports_reasoning", "reasoning"],
  ["supports_prompt_caching", "prompt_caching"],
  ["supports_web_search", "web_search"],
  ["supports_computer_use", "computer_use"],
];

export function capabilitiesOf(entry: Entry): Capabilities {
  const capabilities: Capabilities = {};
  for (const [flag, name] of CAPABILITY_FLAGS) {
    const value = entry[flag];
    if (typeof value !== "boolean") continue;
    capabilities[name] = {
      status: value ? "supported" : "unsupported",
      verification_status: "community_reported",
    };
  }
  return capabilities;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

// ---------------------------------------------------------------------------------------------
// The parser
// ---------------------------------------------------------------------------------------------

interface Candidate {
  key: string;
  entry: Entry;
  litellmProvider: string;
  identity: LiteLlmIdentity;
  id: string;
}

export function parseLiteLlm(input: ParserInput): ParseOutput {
  let document: unknown;
  try {
    document = JSON.parse(input.content);
  } catch (error) {
    throw parseFailure(input.source, `not valid JSON (${(error as Error).message})`);
  }
  if (!isJsonObject(document)) throw parseFailure(input.source, "the price map is not a JSON object");

  const skipped = new SkipLog();
  const evidence: Evidence = evidenceFor(input.source, input.observedAt);
  const candidates: Candidate[] = [];
  for (const key of Object.keys(document).sort(compareCodePoints)) {
    const entry = document[key];
    if (key === "sample_spec") {
      skipped.add("sample_spec (documentation of the format)", key);
      continue;
    }
    if (!isJsonObject(entry) || typeof entry["litellm_provider"] !== "string") {
      skipped.add("not a model entry", key);
      continue;
    }
    const litellmProvider = entry["litellm_provider"];
    if (catalogProvider(litellmProvider) === null) {
      skipped.add("provider not in the catalog", key);
      continue;
    }
    const mode = entry["mode"];
    if (typeof mode !== "string" || !TEXT_MODES.has(mode)) {
      skipped.add(`not a text-generation model (mode ${typeof mode === "string" ? mode : "absent"})`, key);
      continue;
    }
    const result = identityFor(key, litellmProvider);
    if (!result.ok) {
      skipped.add(result.reason, key);
      continue;
    }
    if (entry["input_cost_per_token"] === undefined) {
      skipped.add("no per-token price", key);
      continue;
    }
    const { identity } = result;
    candidates.push({ key, entry, litellmProvider, identity, id: deploymentIdOf(identity) });
  }

  // Several keys may name one deployment: the explicit key wins, then the key that names the
  // model by its own id rather than an alias, then code-point order.
  const rank = (c: Candidate) => (c.identity.explicit ? 0 : 2) + (c.identity.aliased ? 1 : 0);
  const winners = new Map<string, Candidate>();
  for (const c of candidates) {
    const current = winners.get(c.id);
    if (!current || rank(c) < rank(current)) winners.set(c.id, c);
  }
  for (const c of candidates)
    if (winners.get(c.id) !== c) skipped.add("alias of another key for the same deployment", c.key);

  const deployments: DeploymentFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  const seenAssertions = new Set<string>();
  for (const c of [...winners.values()].sort((a, b) => compareCodePoints(a.id, b.id))) {
    const model_id = canonicalModelId(c.identity);
    const context_tokens = positiveInt(c.entry["max_input_tokens"]);
    const max_output_tokens = positiveInt(c.entry["max_output_tokens"]);
    const capabilities = capabilitiesOf(c.entry);
    const cards = rateCardsOf(c.entry, c.key, input, skipped);
    for (const { suffix, card } of cards) {
      const mode = modeFor(c.identity, suffix);
      if (mode === null) {
        skipped.add(`${suffix.slice(1)} price without a catalog deployment type`, c.key);
        continue;
      }
      const identity = {
        provider_id: c.identity.provider_id,
        provider_model_id: c.identity.provider_model_id,
        api_surface: c.identity.api_surface,
        mode,
        region: c.identity.region,
      };
      deployments.push({
        id: deploymentIdOf(identity),
        model_id,
        ...identity,
        ...(context_tokens !== undefined ? { context_tokens } : {}),
        ...(max_output_tokens !== undefined ? { max_output_tokens } : {}),
        capabilities,
        rate_card: card,
        evidence,
      });
    }
    if (!cards.some((card) => card.suffix === "")) {
      // The standard price could not be converted exactly: keep the deployment's other facts.
      deployments.push({
        id: c.id,
        model_id,
        provider_id: c.identity.provider_id,
        provider_model_id: c.identity.provider_model_id,
        api_surface: c.identity.api_surface,
        mode: c.identity.mode,
        region: c.identity.region,
        ...(context_tokens !== undefined ? { context_tokens } : {}),
        ...(max_output_tokens !== undefined ? { max_output_tokens } : {}),
        capabilities,
        evidence,
      });
    }
    const deprecation = c.entry["deprecation_date"];
    if (typeof deprecation === "string") {
      const assertion = deprecationAssertion(c, deprecation, evidence, skipped);
      if (assertion) {
        const dedupe = JSON.stringify(assertion.target);
        if (!seenAssertions.has(dedupe)) {
          seenAssertions.add(dedupe);
          lifecycle.push(assertion);
        }
      }
    }
  }
  if (deployments.length === 0)
    throw parseFailure(input.source, "no text-generation entries of the catalog's providers");
  deployments.sort((a, b) => compareCodePoints(a.id, b.id));
  return { deployments, lifecycle, skipped: skipped.toSortedArray() };
}

/**
 * `deprecation_date` is the date the provider shuts the model down: an end-of-life milestone
 * (on, day) for this deployment's model in its region and surface, every mode. The map declares
 * no status; the release stage derives it from the date and the build's clock.
 */
function deprecationAssertion(
  c: Candidate,
  text: string,
  evidence: Evidence,
  skipped: SkipLog,
): LifecycleAssertion | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text.trim())) {
    skipped.add("deprecation_date that is not a YYYY-MM-DD date", c.key);
    return null;
  }
  let end_of_life: LifecycleAssertion["end_of_life"];
  try {
    end_of_life = parseMilestone(text, [evidence]);
  } catch {
    skipped.add("deprecation_date that is not a YYYY-MM-DD date", c.key);
    return null;
  }
  return {
    scope: "deployment",
    provider_id: c.identity.provider_id,
    target: {
      provider_model_id: c.identity.provider_model_id,
      region: c.identity.region,
      api_surface: c.identity.api_surface,
    },
    end_of_life,
    evidence,
  };
}

export const parsers: Record<string, Parser> = { litellm: parseLiteLlm };
