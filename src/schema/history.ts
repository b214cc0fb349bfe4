/**
 * Shapes of release history and browsing (docs/decisions.md, "Release history, browsing and
 * exports"): providers and models with their lifecycle and summary, the releases of the served
 * chain, a release's diff (the JSON `catalog diff --format json` prints), and a deployment's
 * history across releases.
 */

import { z } from "zod";
import { LimitParam, OffsetParam, pageOf } from "./api.js";
import { IsoDateTime, ModelId, ProviderId, ReleaseId } from "./common.js";
import { Deployment } from "./deployment.js";
import { Lifecycle, LifecycleSummary, ResourceType } from "./lifecycle.js";
import { PRICE_COMPONENTS } from "./price-components.js";

export const Provider = z
  .strictObject({
    id: ProviderId,
    lifecycle: Lifecycle,
    summary: LifecycleSummary,
  })
  .meta({
    id: "Provider",
    description: "A provider with its lifecycle record and the summary of its deployments.",
  });
export type Provider = z.infer<typeof Provider>;

export const Model = z
  .strictObject({
    id: ModelId,
    provider_ids: z
      .array(ProviderId)
      .meta({ description: "Providers offering a deployment of the model, sorted." }),
    lifecycle: Lifecycle,
    summary: LifecycleSummary,
  })
  .meta({
    id: "Model",
    description: "A canonical model with its lifecycle record and the summary of its deployments.",
  });
export type Model = z.infer<typeof Model>;

export const ProviderPage = pageOf(Provider, "ProviderPage");
export const ModelPage = pageOf(Model, "ModelPage");

export const ListProvidersQuery = z.strictObject({ limit: LimitParam, offset: OffsetParam });
export type ListProvidersQuery = z.infer<typeof ListProvidersQuery>;

/** Sort keys of GET /v1/models: a `-` prefix sorts descending; models without the value last. */
export const ModelSort = z.enum(["id", "released_at", "-released_at"]);
export type ModelSort = z.infer<typeof ModelSort>;

export const ListModelsQuery = z.strictObject({
  q: z.string().min(1).max(200).optional(),
  provider: ProviderId.optional(),
  sort: ModelSort.default("id"),
  limit: LimitParam,
  offset: OffsetParam,
});
export type ListModelsQuery = z.infer<typeof ListModelsQuery>;

export const ReleaseItem = z
  .strictObject({
    id: ReleaseId,
    created_at: IsoDateTime,
    previous_release_id: ReleaseId.nullable(),
    counts: z.record(z.string(), z.int().nonnegative()),
  })
  .meta({ id: "Release", description: "A published release of the served chain." });
export type ReleaseItem = z.infer<typeof ReleaseItem>;
export const ReleasePage = pageOf(ReleaseItem, "ReleasePage");

export const ListReleasesQuery = z.strictObject({ limit: LimitParam, offset: OffsetParam });
export type ListReleasesQuery = z.infer<typeof ListReleasesQuery>;

// --- The release diff (src/release/types.ts ReleaseDiff, as JSON) ---------------------------

const DeploymentRef = z.strictObject({
  id: z.string(),
  provider_id: z.string(),
  model_id: z.string(),
  status: z.string(),
});
const PriceComponentName = z.enum(PRICE_COMPONENTS);

/**
 * The kinds of a lifecycle change in a diff: a milestone (deprecation, end of life) moved
 * earlier or later, newly scheduled or unscheduled, or a replacement added or removed.
 */
export const LifecycleChangeKind = z.enum([
  "end_of_life_earlier",
  "end_of_life_later",
  "end_of_life_scheduled",
  "end_of_life_unscheduled",
  "deprecation_earlier",
  "deprecation_later",
  "deprecation_scheduled",
  "deprecation_unscheduled",
  "replacement_added",
  "replacement_removed",
]);
export type LifecycleChangeKind = z.infer<typeof LifecycleChangeKind>;

export const ReleaseDiff = z
  .strictObject({
    from_release_id: ReleaseId.nullable().meta({ description: "null when there is no earlier release." }),
    to_release_id: ReleaseId.nullable(),
    counts: z.strictObject({
      deployments_added: z.int().nonnegative(),
      deployments_removed: z.int().nonnegative(),
      price_changes: z.int().nonnegative(),
      price_increases: z.int().nonnegative(),
      limit_changes: z.int().nonnegative(),
      capability_changes: z.int().nonnegative(),
      model_changes: z
        .int()
        .nonnegative()
        .optional()
        .meta({ description: "Absent in the diff of a release published before it was counted." }),
      status_changes: z.int().nonnegative(),
      lifecycle_changes: z.int().nonnegative(),
      end_of_life_earlier: z.int().nonnegative(),
      source_events: z.int().nonnegative(),
    }),
    deployments_added: z.array(DeploymentRef),
    deployments_removed: z.array(DeploymentRef),
    price_changes: z.array(
      z.strictObject({
        deployment_id: z.string(),
        provider_id: z.string(),
        component: PriceComponentName,
        old: z.int().nullable().meta({ description: "Micro-USD per million tokens; null = no such price." }),
        new: z.int().nullable(),
        percent: z.number().nullable().meta({ description: "(new - old) / old in percent, two decimals." }),
      }),
    ),
    limit_changes: z.array(
      z.strictObject({
        deployment_id: z.string(),
        provider_id: z.string(),
        field: z.enum(["context_tokens", "max_output_tokens"]),
        old: z.int().nullable(),
        new: z.int().nullable(),
      }),
    ),
    capability_changes: z.array(
      z.strictObject({
        deployment_id: z.string(),
        provider_id: z.string(),
        capability: z.string(),
        old: z.string().nullable(),
        new: z.string().nullable(),
      }),
    ),
    model_changes: z
      .array(
        z.strictObject({
          deployment_id: z.string(),
          provider_id: z.string(),
          old: z.string().meta({ description: "The canonical model id the deployment had." }),
          new: z.string().meta({ description: "The canonical model id it has now." }),
        }),
      )
      .optional()
      .meta({
        description:
          "Deployments attributed to another canonical model (an identity fix: the same provider model id, a corrected `model_id`). Absent in the diff of a release published before it was reported.",
      }),
    status_changes: z.array(
      z.strictObject({
        deployment_id: z.string(),
        provider_id: z.string(),
        old: z.string(),
        new: z.string(),
      }),
    ),
    lifecycle_changes: z.array(
      z.strictObject({
        resource_type: ResourceType,
        resource_id: z.string(),
        provider_id: z.string().nullable(),
        kind: LifecycleChangeKind,
        old: z.string().nullable().meta({ description: "A date (YYYY-MM-DD) or a replacement id." }),
        new: z.string().nullable(),
        days: z.int().nullable(),
      }),
    ),
    source_events: z.array(
      z.strictObject({
        event_id: z.string(),
        event_type: z.string(),
        provider_id: z.string(),
        source_id: z.string(),
        source_url: z.string(),
        detected_at: IsoDateTime,
        previous_sha256: z.string().nullable(),
        current_sha256: z.string().nullable(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({
    id: "ReleaseDiff",
    description:
      "What changed from the previous release to this one: the JSON `catalog diff --format json` prints.",
  });
export type ReleaseDiffJson = z.infer<typeof ReleaseDiff>;

// --- Deployment history ------------------------------------------------------------------------

export const HistoryChange = z.enum([
  "added",
  "removed",
  "rate_card",
  "limits",
  "capabilities",
  "status",
  "lifecycle",
]);
export type HistoryChange = z.infer<typeof HistoryChange>;

export const DeploymentHistoryEntry = z
  .strictObject({
    release_id: ReleaseId,
    created_at: IsoDateTime,
    change: z.array(HistoryChange).min(1).meta({
      description:
        "What changed in this release: `added` / `removed`, or each of `rate_card` (prices, ignoring when they were observed), `limits`, `capabilities`, `status`, `lifecycle` (status, announcement, milestones, replacements, coverage status; not evidence or check times) that changed.",
    }),
    before: Deployment.nullable().meta({
      description: "The deployment in the previous release; null when added.",
    }),
    after: Deployment.nullable().meta({ description: "The deployment in this release; null when removed." }),
  })
  .meta({ id: "DeploymentHistoryEntry" });
export type DeploymentHistoryEntry = z.infer<typeof DeploymentHistoryEntry>;
export const DeploymentHistoryPage = pageOf(DeploymentHistoryEntry, "DeploymentHistoryPage");

export const ListHistoryQuery = z.strictObject({ limit: LimitParam, offset: OffsetParam });
export type ListHistoryQuery = z.infer<typeof ListHistoryQuery>;
