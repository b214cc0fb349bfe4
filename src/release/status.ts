/**
 * Lifecycle status: the one rule table. Parsers report what a source says (milestones with
 * their date, precision and date_type, and any status the source declares in words); the
 * merge derives every published `status` here, once, at the build's `now`. Pure: a function
 * of its input and nothing else, so an unchanged page still moves a model to `retired` on the
 * build after its end-of-life day has passed.
 *
 * The rules are evaluated in order and the first that applies decides. The table in
 * docs/lifecycle-status.md lists the same rules (a test holds the two together).
 */
import type { LifecycleMilestone, LifecycleStatus } from "../schema/index.js";

type Milestone = Pick<LifecycleMilestone, "state" | "date" | "precision" | "date_type">;

export interface StatusInput {
  /** The build's calendar day, YYYY-MM-DD. */
  today: string;
  /**
   * The status the best-ranked source declares in words ("Generally Available", "Legacy",
   * "Retired models" section, "Preview"), or null when no source declares one.
   */
  declared: LifecycleStatus | null;
  deprecation: Milestone;
  end_of_life: Milestone;
  /** What the source calls the state its deprecation milestone starts (Bedrock: "Legacy"). */
  deprecationStatus?: "legacy" | "deprecated";
  /** Bedrock's public extended access start (higher prices until end of life), when stated. */
  extendedAccess?: Milestone;
  /** An official pricing or models source lists the deployment in this build. */
  listed: boolean;
}

export interface StatusRule {
  name: string;
  /** The status the rule yields; `declared` rules yield the declared status. */
  yields: LifecycleStatus | "declared";
  /** The condition in words, as docs/lifecycle-status.md documents it. */
  condition: string;
  applies(input: StatusInput): boolean;
}

/** The last day a milestone's date can mean: the date itself, or the end of its month, quarter or year. */
export function latestDay(milestone: Milestone): string | null {
  if (milestone.state !== "scheduled" || milestone.date === null) return null;
  const [y, m] = milestone.date.split("-").map(Number) as [number, number];
  const monthsMore = { day: -1, month: 0, quarter: 2, year: 11, unknown: -1 }[milestone.precision];
  if (monthsMore < 0) return milestone.date;
  // Day 0 of the month after the period = the period's last day.
  const last = new Date(Date.UTC(y, m + monthsMore, 0));
  return last.toISOString().slice(0, 10);
}

/** A fixed (`on`) or latest (`not_after`) day that has come: on or before today. */
export function fixedDayPassed(milestone: Milestone, today: string): boolean {
  if (milestone.date_type !== "on" && milestone.date_type !== "not_after") return false;
  const day = latestDay(milestone);
  return day !== null && day <= today;
}

/** An earliest possible (`not_before`) day that has come: on or before today. */
export function earliestDayPassed(milestone: Milestone, today: string): boolean {
  return (
    milestone.state === "scheduled" &&
    milestone.date_type === "not_before" &&
    milestone.date !== null &&
    milestone.date <= today
  );
}

function fixedDayAhead(milestone: Milestone, today: string): boolean {
  if (milestone.date_type !== "on" && milestone.date_type !== "not_after") return false;
  const day = latestDay(milestone);
  return day !== null && day > today;
}

export const STATUS_RULES: readonly StatusRule[] = [
  {
    name: "end_of_life_passed",
    yields: "retired",
    condition:
      "the end of life has a fixed (`on`) or latest (`not_after`) day, and that day (the last day of its month, quarter or year for a coarser date) is today or earlier",
    applies: (i) => fixedDayPassed(i.end_of_life, i.today),
  },
  {
    name: "declared_retired",
    yields: "retired",
    condition:
      "the source says in words that the model is shut down (a retired-models table or section, `Retired` state)",
    applies: (i) => i.declared === "retired",
  },
  {
    name: "earliest_end_of_life_passed",
    yields: "deprecated",
    condition:
      "the end of life is an earliest possible (`not_before`) day that is today or earlier and no source says it is shut down: it may be shut down any day, so it is deprecated, not retired",
    applies: (i) => earliestDayPassed(i.end_of_life, i.today),
  },
  {
    name: "extended_access_started",
    yields: "deprecated",
    condition:
      "Bedrock's public extended access period (higher prices until end of life) has a fixed day that is today or earlier",
    applies: (i) => i.extendedAccess !== undefined && fixedDayPassed(i.extendedAccess, i.today),
  },
  {
    name: "deprecation_passed",
    yields: "deprecated",
    condition:
      "the deprecation has a fixed or latest day that is today or earlier: `legacy` where the source calls that state Legacy (Bedrock), else `deprecated`",
    applies: (i) => fixedDayPassed(i.deprecation, i.today),
  },
  {
    name: "declared",
    yields: "declared",
    condition:
      "the source declares a status in words (`Generally Available` / `Active` / listed as available -> available, `Preview`, `Legacy`, `Deprecated`)",
    applies: (i) => i.declared !== null && i.declared !== "unknown",
  },
  {
    name: "end_of_life_announced",
    yields: "deprecated",
    condition: "a fixed or latest end-of-life day is announced and still ahead",
    applies: (i) => fixedDayAhead(i.end_of_life, i.today),
  },
  {
    name: "earliest_end_of_life_ahead",
    yields: "available",
    condition:
      "only an earliest possible (`not_before`) end-of-life day still ahead is known: the model is guaranteed until then",
    applies: (i) => i.end_of_life.state === "scheduled" && i.end_of_life.date_type === "not_before",
  },
  {
    name: "listed",
    yields: "available",
    condition: "an official pricing or models source lists the deployment in this build",
    applies: (i) => i.listed,
  },
  {
    name: "nothing_known",
    yields: "unknown",
    condition: "none of the above",
    applies: () => true,
  },
];

export interface DerivedStatus {
  status: LifecycleStatus;
  rule: string;
}

/** The status of one resource at `input.today`: the first rule of STATUS_RULES that applies. */
export function deriveStatus(input: StatusInput): DerivedStatus {
  for (const rule of STATUS_RULES) {
    if (!rule.applies(input)) continue;
    if (rule.yields === "declared") return { status: input.declared as LifecycleStatus, rule: rule.name };
    if (rule.name === "deprecation_passed")
      return { status: input.deprecationStatus ?? "deprecated", rule: rule.name };
    return { status: rule.yields, rule: rule.name };
  }
  /* c8 ignore next */
  return { status: "unknown", rule: "nothing_known" };
}

/**
 * A model's status from its deployments' (docs/finding-deployments.md): the first of these that
 * any of its deployments has, so a model with one available deployment is available.
 */
export const MODEL_STATUS_PRECEDENCE: readonly LifecycleStatus[] = [
  "available",
  "preview",
  "legacy",
  "deprecated",
  "retired",
];

/** The first status of MODEL_STATUS_PRECEDENCE that one of `statuses` is; `unknown` when none is. */
export function statusFromDeployments(statuses: Iterable<LifecycleStatus>): LifecycleStatus {
  const present = new Set(statuses);
  return MODEL_STATUS_PRECEDENCE.find((status) => present.has(status)) ?? "unknown";
}
