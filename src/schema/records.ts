/**
 * Normalized records: what a parser emits and the release stage merges. Every fact carries
 * the Evidence of the source it came from. A field a source does not speak about is absent
 * (undefined); `null` means the source says it is unknown / not offered.
 */
import { z } from "zod";
import { DeploymentId, IdPart, IsoDate, IsoSeconds, ModelId, ProviderId } from "./common.js";
import { Capabilities, CapabilityName, RateCard } from "./deployment.js";
import { Evidence } from "./evidence.js";
import { LifecycleMilestone, LifecycleStatus } from "./lifecycle.js";
import { addProblem, NO_PROBLEMS, type Problem, withProblems } from "./refine.js";

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
    /**
     * The model's input limit where the source states one apart from, and below, its context
     * window (models.dev's `limit.input`: GPT-5.1's 272,000 of 400,000). Never served: another
     * community dataset's context window equal to it is that dataset's input limit read as a
     * context window, and is not used (src/release/input-limits.ts).
     */
    max_input_tokens: z.int().positive().optional(),
    capabilities: Capabilities.optional(),
    rate_card: RateCard.nullable().optional(),
    /**
     * The status the source declares in words ("Preview", "Legacy" column, a models table
     * that lists it as available through the API); never computed from dates. The published
     * status is derived from it, the milestones and the build's clock in src/release/status.ts.
     */
    status: LifecycleStatus.optional(),
    /**
     * For a cross-Region inference profile: the Regions the source says send requests into it
     * (a Bedrock model card's Geo or Global column). A Region-scoped lifecycle statement about
     * every one of them speaks for the profile too (src/release/merge-candidates.ts).
     */
    source_regions: z.array(IdPart).min(1).optional(),
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

export const LifecycleAssertion = withProblems(
  z.strictObject({
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
    /**
     * The status the source declares in words ("Generally Available", "Legacy", a retired-models
     * section); never computed from dates against the capture's time. The published status is
     * derived once, in the release stage, from this, the milestones and the build's clock
     * (src/release/status.ts).
     */
    status: LifecycleStatus.optional(),
    announced_at: IsoSeconds.nullable().optional(),
    deprecation: LifecycleMilestone.optional(),
    /** What the source calls the state its deprecation milestone starts (Bedrock's "Legacy" date); default deprecated. */
    deprecation_status: z.enum(["legacy", "deprecated"]).optional(),
    end_of_life: LifecycleMilestone.optional(),
    /** Bedrock's public extended access start: higher, provider-set prices until end of life. */
    extended_access: LifecycleMilestone.optional(),
    /** Replacements as the provider names them (provider model ids); the release stage resolves them to catalog ids. */
    replacements: z.array(z.string().min(1)).optional(),
    evidence: Evidence,
  }),
  (a) => {
    let found: Problem[] | undefined;
    if (a.scope === "deployment" && !a.target)
      found = addProblem(found, ["target"], "a deployment-scope assertion needs a target");
    if (a.scope === "model" && !a.model_id)
      found = addProblem(found, ["model_id"], "a model-scope assertion needs model_id");
    return found ?? NO_PROBLEMS;
  },
).meta({ id: "LifecycleAssertion" });
export type LifecycleAssertion = z.infer<typeof LifecycleAssertion>;

/**
 * A fact about one of a provider's models (not about where it is deployed): the token limits
 * and capabilities an official models page states for a provider model id. It never creates a
 * deployment; the release stage applies it to every deployment of `provider_id` whose
 * `provider_model_id` matches, field by field (see src/release/model-facts.ts).
 */
export const ModelFact = z
  .strictObject({
    provider_id: ProviderId,
    provider_model_id: z.string().min(1),
    /**
     * Only deployments of these modes (a page that gives a different limit for, say, batch
     * deployments); absent = every deployment of the model. A fact naming modes beats one that
     * does not.
     */
    modes: z.array(IdPart).min(1).optional(),
    context_tokens: z.int().positive().nullable().optional(),
    max_output_tokens: z.int().positive().nullable().optional(),
    capabilities: Capabilities.optional(),
    /**
     * The day the page states the model was released (launched) at this provider, as printed
     * ("Model launch date: Oct 16, 2025"); absent where the page states none. Never inferred
     * from a dated model id (docs/finding-deployments.md).
     */
    released_at: IsoDate.optional(),
    /**
     * The status the page declares in words for this model id (the Gemini API models page's
     * Versions row: "Preview: `gemini-2.5-flash-preview-09-2025`"); absent where it declares
     * none. A current official page that names a model lists it with this status
     * (src/release/merge-lifecycle.ts officialModelListings).
     */
    status: LifecycleStatus.optional(),
    /**
     * The page names the model without a version, while the provider deploys it as
     * `<model>-<version>` (Azure: `text-embedding-3-large` is deployed as version 1, id
     * `text-embedding-3-large-1`). Besides the id as written, the fact then applies to the
     * provider's one versioned id of that model, only where the build's deployments name exactly
     * one such id, and there its values are `official_inferred` (src/release/model-facts.ts).
     */
    version_unstated: z.literal(true).optional(),
    /**
     * The one dated snapshot the page lists for this model id, which the id points to (OpenAI's
     * "Default snapshot" where the Snapshots list names no other): where no official source
     * dates the id itself, its lifecycle follows that snapshot's (src/release/alias-lifecycle.ts).
     */
    only_snapshot: z.string().min(1).optional(),
    evidence: Evidence,
  })
  .meta({ id: "ModelFact" });
export type ModelFact = z.infer<typeof ModelFact>;

/**
 * A provider's own statement that one of its model names stands for another: Mistral's
 * `codestral-latest` is an alias of the API model `codestral-2508` (a model card's
 * `identifiers.apiNames` beyond the first, and its `identifiers.aliases`). It never creates a
 * deployment; where an official source declares it, the release merge resolves community facts
 * named by the alias to the aliased deployment (src/release/declared-aliases.ts).
 */
export const ProviderAlias = withProblems(
  z.strictObject({
    provider_id: ProviderId,
    /** The name the provider also accepts (`mistral-large-latest`). */
    alias: z.string().min(1),
    /** The provider model id it stands for (`mistral-large-2512`). */
    provider_model_id: z.string().min(1),
    evidence: Evidence,
  }),
  (a) =>
    a.alias !== a.provider_model_id
      ? NO_PROBLEMS
      : [{ path: ["alias"], message: "an alias names another provider model id" }],
).meta({ id: "ProviderAlias" });
export type ProviderAlias = z.infer<typeof ProviderAlias>;

/**
 * A provider's own list of the models that have a capability (Anthropic's "Structured outputs"
 * page: its Compatibility table names every Claude model with structured outputs, and the
 * platforms, one with a shorter list in a footnote). The release stage reads it as a whole
 * (src/release/model-facts.ts, docs/provenance.md "Capability lists"), for the deployments of
 * each provider it speaks for:
 * - a model of `lab` that the list does not name has the capability `unsupported`, marked
 *   official_inferred (the page does not name it, but it lists every model that has it), where
 *   the model is known to have been out by the list's observation (a model released later is
 *   not judged);
 * - a model the list names for that provider has it `supported`, official_inferred;
 * - a model the list names, but not for that provider, is left as other sources say.
 * A capability an official source states (official_declared) is never overridden.
 */
export const CapabilityList = withProblems(
  z.strictObject({
    capability: CapabilityName,
    /** The lab whose models the list is about: the catalog's model ids `<lab>/…` (`anthropic`). */
    lab: IdPart,
    /** Every model the list names as having the capability (catalog model ids). */
    model_ids: z.array(ModelId).min(1),
    /**
     * The providers whose deployments of the lab's models the list speaks for, each with the
     * named models it states the capability for at that provider (some of `model_ids`).
     */
    providers: z.array(z.strictObject({ provider_id: ProviderId, model_ids: z.array(ModelId) })).min(1),
    /**
     * The page drops a model once it is retired (the Computer use tool page's earlier tool
     * versions name the models still served, "retired, except on Bedrock and Google Cloud"): its
     * silence says nothing about a model an official source retires at that provider by the
     * page's observation. Absent: the list is read as naming every model that ever had it.
     */
    drops_retired: z.literal(true).optional(),
    evidence: Evidence,
  }),
  (l) => {
    let found: Problem[] | undefined;
    const named = new Set(l.model_ids);
    l.model_ids.forEach((id, i) => {
      if (!id.startsWith(`${l.lab}/`))
        found = addProblem(found, ["model_ids", i], `a capability list of lab ${l.lab} names ${id}`);
    });
    l.providers.forEach((p, i) => {
      for (const id of p.model_ids)
        if (!named.has(id))
          found = addProblem(
            found,
            ["providers", i, "model_ids"],
            `${id} is not one of the list's model_ids`,
          );
    });
    return found ?? NO_PROBLEMS;
  },
).meta({ id: "CapabilityList" });
export type CapabilityList = z.infer<typeof CapabilityList>;

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
    /** Facts about provider models (limits, capabilities); absent = none. */
    model_facts: z.array(ModelFact).optional(),
    /** Names the provider declares as aliases of its provider model ids; absent = none. */
    aliases: z.array(ProviderAlias).optional(),
    /**
     * These deployments are an official availability list (docs/provenance.md "The listing
     * gate"); absent = not a list.
     * - "catalog": the provider's own list of what it serves at the places it covers (Azure's
     *   deployment-type and region tables, xAI's models page, DeepSeek's pricing page, Together
     *   AI's serverless models, Mistral's model cards): a model it does not place at a place it
     *   covers is not offered there. `true` is what releases before the catalog kind wrote for
     *   Azure's tables; it is read the same.
     * - "per_model": a list of one model's places (a Bedrock model card's inference profiles and
     *   Regional Availability, Anthropic's Claude-on-Bedrock table): for each model it names, it
     *   lists every place of `availability_covers` where the model is offered, and says nothing
     *   about other models.
     */
    availability_list: z.union([z.literal(true), z.literal("per_model"), z.literal("catalog")]).optional(),
    /**
     * The places a list speaks for, on the provider of its deployments; absent = the places it
     * lists some model in. A "per_model" list's: a table's columns, the profiles a card's cell
     * can name. A "catalog"'s: places where it may list no model at all (Azure's tables speak,
     * for each deployment type, for every region the page names).
     */
    availability_covers: z
      .array(z.strictObject({ api_surface: IdPart, mode: IdPart, region: IdPart }))
      .min(1)
      .optional(),
    /**
     * This output is a provider's list of the models that have a capability (CapabilityList):
     * the models of the lab it does not name lack it; absent = not a capability list.
     */
    capability_lists: z.array(CapabilityList).min(1).optional(),
    skipped: z.array(SkipCount),
  })
  .meta({ id: "ParseOutput" });
export type ParseOutput = z.infer<typeof ParseOutput>;
