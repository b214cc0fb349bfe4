/**
 * Normalized records: what a parser emits and the release stage merges. Every fact carries
 * the Evidence of the source it came from. A field a source does not speak about is absent
 * (undefined); `null` means the source says it is unknown / not offered.
 */
import { z } from "zod";
import { DeploymentId, IdPart, IsoDateTime, ModelId, ProviderId } from "./common.js";
import { Capabilities, RateCard } from "./deployment.js";
import { Evidence } from "./evidence.js";
import { LifecycleMilestone, LifecycleStatus } from "./lifecycle.js";

export const DeploymentFact = z
  .strictObject({
    id: DeploymentId,
    model_id: ModelId,
    provider_id: ProviderId,
    provider_model_id: z.string().min(1),
    api_surface: IdPart,
    mode: IdPart,
    region: IdPart,
    /** The model's display name as the source prints it, for free-text search. */
    display_name: z.string().optional(),
    context_tokens: z.int().positive().nullable().optional(),
    max_output_tokens: z.int().positive().nullable().optional(),
    capabilities: Capabilities.optional(),
    rate_card: RateCard.nullable().optional(),
    /** Status stated by a pricing / models source (e.g. "Preview", "Legacy" column). */
    status: LifecycleStatus.optional(),
    evidence: Evidence,
  })
  .meta({ id: "DeploymentFact" });
export type DeploymentFact = z.infer<typeof DeploymentFact>;

/**
 * Which deployments a deployment-scope lifecycle assertion applies to: every deployment of
 * the provider with this provider model id, narrowed by the optional fields. Anthropic's own
 * API, Bedrock (per region) and Vertex retire the same model on different dates, so each
 * source asserts only for its own provider.
 */
export const LifecycleTarget = z.strictObject({
  provider_model_id: z.string().min(1),
  region: IdPart.optional(),
  api_surface: IdPart.optional(),
  mode: IdPart.optional(),
});
export type LifecycleTarget = z.infer<typeof LifecycleTarget>;

export const LifecycleAssertion = z
  .strictObject({
    scope: z.enum(["provider", "model", "deployment"]),
    provider_id: ProviderId,
    /**
     * For scope `model`: the canonical model the assertion is about. For scope `deployment`
     * (optional): the canonical model of the target; when no deployment of the build matches
     * the target, the assertion lives on this model's lifecycle record instead.
     */
    model_id: ModelId.optional(),
    /** For scope `deployment`: which deployments of `provider_id` it covers. */
    target: LifecycleTarget.optional(),
    status: LifecycleStatus.optional(),
    announced_at: IsoDateTime.nullable().optional(),
    deprecation: LifecycleMilestone.optional(),
    end_of_life: LifecycleMilestone.optional(),
    /** Replacements as the provider names them (provider model ids); the release stage resolves them to catalog ids. */
    replacements: z.array(z.string().min(1)).optional(),
    evidence: Evidence,
  })
  .superRefine((a, ctx) => {
    if (a.scope === "deployment" && !a.target)
      ctx.addIssue({
        code: "custom",
        path: ["target"],
        message: "a deployment-scope assertion needs a target",
      });
    if (a.scope === "model" && !a.model_id)
      ctx.addIssue({ code: "custom", path: ["model_id"], message: "a model-scope assertion needs model_id" });
  })
  .meta({ id: "LifecycleAssertion" });
export type LifecycleAssertion = z.infer<typeof LifecycleAssertion>;

export const SkipCount = z.strictObject({
  reason: z.string().min(1),
  count: z.int().positive(),
  examples: z.array(z.string()).max(5),
});
export type SkipCount = z.infer<typeof SkipCount>;

/** Everything one source contributed to a build. */
export const ParseOutput = z
  .strictObject({
    deployments: z.array(DeploymentFact),
    lifecycle: z.array(LifecycleAssertion),
    skipped: z.array(SkipCount),
  })
  .meta({ id: "ParseOutput" });
export type ParseOutput = z.infer<typeof ParseOutput>;
