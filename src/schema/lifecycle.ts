/**
 * Lifecycle object, milestones and coverage (spec 2.2) with the rules of spec section 3
 * enforced by the schema itself.
 */
import { z } from "zod";
import { DeploymentId, IsoDate, IsoDateTime, ModelId, ProviderId } from "./common.js";
import { Evidence } from "./evidence.js";
import { addProblem, NO_PROBLEMS, type Problem, withProblems } from "./refine.js";

export const LifecycleStatus = z.enum(["preview", "available", "legacy", "deprecated", "retired", "unknown"]);
export type LifecycleStatus = z.infer<typeof LifecycleStatus>;

/** `not_announced`: the source says no date is announced. `unknown`: nothing is known. */
export const MilestoneState = z.enum(["unknown", "not_announced", "scheduled"]);
export type MilestoneState = z.infer<typeof MilestoneState>;

/** Dates are always YYYY-MM-DD; a month-precision date is the first day of that month. */
export const DatePrecision = z.enum(["day", "month", "quarter", "year", "unknown"]);
export type DatePrecision = z.infer<typeof DatePrecision>;

/** `on`: the fixed date. `not_before`: "not sooner than" / "earliest". `not_after`: "no later than" / "by". */
export const DateType = z.enum(["on", "not_before", "not_after", "unknown"]);
export type DateType = z.infer<typeof DateType>;

export const LifecycleMilestone = withProblems(
  z.strictObject({
    state: MilestoneState,
    date: IsoDate.nullable(),
    precision: DatePrecision,
    date_type: DateType,
    evidence: z.array(Evidence),
  }),
  (milestone) => {
    let found: Problem[] | undefined;
    if (milestone.state === "scheduled") {
      if (milestone.date === null) found = addProblem(found, ["date"], "a scheduled milestone needs a date");
      if (milestone.precision === "unknown")
        found = addProblem(found, ["precision"], "a scheduled milestone needs a known precision");
      if (milestone.date_type === "unknown")
        found = addProblem(found, ["date_type"], "a scheduled milestone needs a known date_type");
    } else {
      if (milestone.date !== null)
        found = addProblem(found, ["date"], `a ${milestone.state} milestone has a null date`);
      if (milestone.precision !== "unknown")
        found = addProblem(found, ["precision"], `a ${milestone.state} milestone has precision unknown`);
      if (milestone.date_type !== "unknown")
        found = addProblem(found, ["date_type"], `a ${milestone.state} milestone has date_type unknown`);
    }
    return found ?? NO_PROBLEMS;
  },
).meta({ id: "LifecycleMilestone" });
export type LifecycleMilestone = z.infer<typeof LifecycleMilestone>;

export const UNKNOWN_MILESTONE: LifecycleMilestone = Object.freeze({
  // members in code-point order, as canonical JSON writes them (the merge shares this value)
  date: null,
  date_type: "unknown",
  evidence: Object.freeze([]) as unknown as LifecycleMilestone["evidence"],
  precision: "unknown",
  state: "unknown",
}) as LifecycleMilestone;

/**
 * `monitored`: every source behind the record was checked successfully in the build that
 * produced the release and one of them is an official lifecycle source. `partial`: some
 * source failed (its last good facts were carried forward) or no official lifecycle source
 * covers the record. `unmonitored`: no monitored source covers it.
 */
export const CoverageStatus = z.enum(["monitored", "partial", "unmonitored"]);
export type CoverageStatus = z.infer<typeof CoverageStatus>;

export const LifecycleCoverage = withProblems(
  z.strictObject({
    status: CoverageStatus,
    last_checked_at: IsoDateTime.nullable(),
    source_count: z.int().nonnegative(),
    source_ids: z.array(z.uuid()),
  }),
  (c) =>
    c.source_count === c.source_ids.length
      ? NO_PROBLEMS
      : [{ path: [], message: "source_count must equal source_ids.length" }],
).meta({ id: "LifecycleCoverage" });
export type LifecycleCoverage = z.infer<typeof LifecycleCoverage>;

export const Lifecycle = z
  .strictObject({
    status: LifecycleStatus,
    announced_at: IsoDateTime.nullable(),
    deprecation: LifecycleMilestone,
    end_of_life: LifecycleMilestone,
    replacement_ids: z.array(z.string()),
    coverage: LifecycleCoverage,
    last_changed_at: IsoDateTime.nullable(),
  })
  .meta({ id: "Lifecycle" });
export type Lifecycle = z.infer<typeof Lifecycle>;

export const ResourceType = z.enum(["provider", "model", "deployment"]);
export type ResourceType = z.infer<typeof ResourceType>;

export const NextEndOfLife = z.strictObject({
  date: IsoDate,
  date_type: DateType,
  precision: DatePrecision,
  deployment_id: DeploymentId,
});

/** Aggregation over the deployments under a provider or model; not a lifecycle assertion. */
export const LifecycleSummary = z
  .strictObject({
    deployment_count: z.int().nonnegative(),
    status_counts: z.partialRecord(LifecycleStatus, z.int().nonnegative()),
    known_milestone_count: z.int().nonnegative(),
    unknown_milestone_count: z.int().nonnegative(),
    next_end_of_life: NextEndOfLife.nullable(),
    /**
     * Model records only: the earliest day a source states one of the model's deployments was
     * released (launched), or null when no source states one. Absent on provider records and
     * in releases published before it was stored.
     */
    released_at: IsoDate.nullable().optional().meta({
      description:
        "Models only: the earliest day a source states one of the model's deployments was released, or null when no source states one (never read from a dated model id). Absent on providers.",
    }),
    /** Model records only: the deployment with the latest stated release day (ties by id), or null. */
    newest_deployment: z
      .strictObject({ deployment_id: DeploymentId, released_at: IsoDate })
      .nullable()
      .optional()
      .meta({
        description:
          "Models only: the deployment with the latest day a source states it was released (ties by id), or null when no source states one. Absent on providers.",
      }),
  })
  .meta({ id: "LifecycleSummary" });
export type LifecycleSummary = z.infer<typeof LifecycleSummary>;

export const LifecycleRecord = withProblems(
  z.strictObject({
    resource_type: ResourceType,
    resource_id: z.string().min(1),
    provider_id: ProviderId.optional(),
    model_id: ModelId.optional(),
    lifecycle: Lifecycle,
    summary: LifecycleSummary.optional(),
  }),
  (record) => {
    let found: Problem[] | undefined;
    if (record.resource_type === "deployment" && record.summary !== undefined)
      found = addProblem(found, ["summary"], "deployment records carry no summary");
    if (record.resource_type !== "deployment" && record.summary === undefined)
      found = addProblem(found, ["summary"], "provider and model records carry a summary");
    if (record.resource_type === "deployment" && (!record.provider_id || !record.model_id))
      found = addProblem(found, ["model_id"], "deployment records carry provider_id and model_id");
    return found ?? NO_PROBLEMS;
  },
).meta({ id: "LifecycleRecord" });
export type LifecycleRecord = z.infer<typeof LifecycleRecord>;
