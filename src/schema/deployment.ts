/** Deployment, rate card and capability entry (spec 2.1), plus the optional rate-card extensions. */
import { z } from "zod";
import { DeploymentId, IdPart, IsoDateTime, ModelId, ProviderId, Url } from "./common.js";
import { VerificationStatus } from "./evidence.js";
import { Lifecycle, LifecycleStatus } from "./lifecycle.js";
import { rateCardPriceShape, tierPriceShape } from "./price-components.js";
import { addProblem, NO_PROBLEMS, type Problem, withProblems } from "./refine.js";

/**
 * The capability names the catalog knows; a `capability` filter outside this list is a 400.
 * What each means and which sources state it: docs/sources.md, "Capabilities".
 */
export const CapabilityName = z
  .enum([
    "tool_calling",
    "parallel_tool_calling",
    "structured_output",
    "vision",
    "audio_input",
    "audio_output",
    "pdf_input",
    "reasoning",
    "prompt_caching",
    "web_search",
    "computer_use",
    "batch",
    "code_execution",
    "image_output",
    "video_input",
    "video_output",
  ])
  .meta({
    id: "CapabilityName",
    description:
      "tool_calling: calls functions / tools the request defines. parallel_tool_calling: several tool calls in one turn. " +
      "structured_output: output constrained to a JSON schema. vision: image input. audio_input / video_input / pdf_input: " +
      "audio, video or PDF documents as input. audio_output / image_output / video_output: generates audio, images or " +
      "video. reasoning: " +
      "thinks before answering (reasoning / thinking tokens). prompt_caching: cached input (context caching). web_search: " +
      "grounds answers in a web search run by the provider. computer_use: operates a computer through screenshots and " +
      "mouse / keyboard actions. batch: available through the provider's asynchronous batch API. code_execution: runs code " +
      "in a provider sandbox. Each entry has a status (supported, conditional = with restrictions, unsupported; unknown = " +
      "absent) and a verification_status (official_declared, official_inferred, community_corroborated, community_reported).",
  });
export type CapabilityName = z.infer<typeof CapabilityName>;

/** `supported`, `conditional` (supported with restrictions) or `unsupported`; unknown = absent. */
export const CapabilityStatus = z.enum(["supported", "conditional", "unsupported"]);
export type CapabilityStatus = z.infer<typeof CapabilityStatus>;

export const CapabilityEntry = z
  .strictObject({
    status: CapabilityStatus,
    verification_status: VerificationStatus.optional(),
  })
  .meta({ id: "CapabilityEntry" });
export type CapabilityEntry = z.infer<typeof CapabilityEntry>;

export const Capabilities = z.partialRecord(CapabilityName, CapabilityEntry);
export type Capabilities = z.infer<typeof Capabilities>;

/**
 * Long-context tier: when a request's prompt (input + cached input tokens) exceeds
 * `above_input_tokens`, every token of that request is priced at the tier's rates
 * (Gemini and Anthropic long-context pricing). A null price in a tier is unknown.
 */
export const RateTier = z
  .strictObject({
    above_input_tokens: z.int().positive(),
    ...tierPriceShape(),
  })
  .meta({ id: "RateTier" });
export type RateTier = z.infer<typeof RateTier>;

/**
 * Normalized token price list: a price per component of ./price-components.ts (which says
 * which are required, nullable or optional). Prices are integer micro-USD per `unit` (per million tokens).
 * `cached_input_micro_usd` / `output_micro_usd` are null when the provider publishes no such
 * price (unknown, never zero). `cache_write_*` and `tiers` are optional extensions.
 */
export const RateCard = withProblems(
  z.strictObject({
    currency: z.literal("USD"),
    unit: z.literal("million_tokens"),
    ...rateCardPriceShape(),
    tiers: z.array(RateTier).optional(),
    source_url: Url,
    observed_at: IsoDateTime,
  }),
  (card) => {
    // tiers by strictly increasing input-token threshold
    let found: Problem[] | undefined;
    const tiers = card.tiers;
    for (let i = 1; tiers && i < tiers.length; i++) {
      const before = tiers[i - 1];
      const tier = tiers[i];
      if (before && tier && tier.above_input_tokens <= before.above_input_tokens)
        found = addProblem(found, ["tiers", i], "tiers must be in strictly increasing order");
    }
    return found ?? NO_PROBLEMS;
  },
).meta({ id: "RateCard" });
export type RateCard = z.infer<typeof RateCard>;

/** Where one served fact comes from: its verification level, its sources and when they were seen. */
export const FactProvenance = z
  .strictObject({
    verification_status: VerificationStatus,
    source_urls: z.array(Url).min(1),
    observed_at: IsoDateTime,
  })
  .meta({ id: "FactProvenance" });
export type FactProvenance = z.infer<typeof FactProvenance>;

/**
 * The provenance of a deployment's facts (docs/provenance.md): `listing` says why the deployment
 * exists (the sources that place it, at the strongest level any of them has); `rate_card`,
 * `context_tokens` and `max_output_tokens` where the value came from, null where the value is null.
 */
export const Provenance = z
  .strictObject({
    listing: FactProvenance,
    rate_card: FactProvenance.nullable(),
    context_tokens: FactProvenance.nullable(),
    max_output_tokens: FactProvenance.nullable(),
  })
  .meta({ id: "Provenance" });
export type Provenance = z.infer<typeof Provenance>;

export const Deployment = withProblems(
  z.strictObject({
    id: DeploymentId,
    model_id: ModelId,
    provider_id: ProviderId,
    provider_model_id: z.string().min(1),
    api_surface: IdPart,
    mode: IdPart,
    region: IdPart,
    status: LifecycleStatus,
    lifecycle: Lifecycle,
    context_tokens: z.int().positive().nullable(),
    max_output_tokens: z.int().positive().nullable(),
    capabilities: Capabilities,
    rate_card: RateCard.nullable(),
    evidence_urls: z.array(Url),
    provenance: Provenance,
  }),
  (d) => {
    let found: Problem[] | undefined;
    if (d.status !== d.lifecycle.status)
      found = addProblem(found, ["status"], "status must equal lifecycle.status");
    if ((d.rate_card === null) !== (d.provenance.rate_card === null))
      found = addProblem(
        found,
        ["provenance", "rate_card"],
        "provenance.rate_card must be null exactly where rate_card is null",
      );
    if ((d.context_tokens === null) !== (d.provenance.context_tokens === null))
      found = addProblem(
        found,
        ["provenance", "context_tokens"],
        "provenance.context_tokens must be null exactly where context_tokens is null",
      );
    if ((d.max_output_tokens === null) !== (d.provenance.max_output_tokens === null))
      found = addProblem(
        found,
        ["provenance", "max_output_tokens"],
        "provenance.max_output_tokens must be null exactly where max_output_tokens is null",
      );
    return found ?? NO_PROBLEMS;
  },
).meta({ id: "Deployment" });
export type Deployment = z.infer<typeof Deployment>;
