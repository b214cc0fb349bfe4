/**
 * What a build keeps of the previous release's lifecycles: each record's core (the normalized
 * assertion without evidence, coverage or timestamps, as text) and when it last changed, by
 * resource type and id. The merge keeps `last_changed_at` where the core is the same
 * (merge-lifecycle.ts `lastChangedAt`). Two readings of a release give them: its stored
 * lifecycle records, and the columns serve-index.json keeps of the deployments' own lifecycles
 * where catalog.json leaves those records out (src/snapshot/deployment-lifecycles.ts). Pure.
 */
import type {
  CodedColumn,
  Lifecycle,
  LifecycleRecord,
  LifecycleStatus,
  ServeIndexFile,
} from "../schema/index.js";

/** What a build keeps of a previous lifecycle: its core text (lifecycleCoreText) and when it last changed. */
export interface PreviousCore {
  core: string;
  last_changed_at: string | null;
}

/** The previous release's lifecycle cores by resource type, then resource id. */
export type PreviousCores = ReadonlyMap<string, ReadonlyMap<string, PreviousCore>>;

/** What a milestone contributes to a core: no evidence. */
type MilestoneCore = Pick<Lifecycle["deprecation"], "state" | "date" | "precision" | "date_type">;

/** The members of a lifecycle that its core holds. */
export type CoreFields = Pick<Lifecycle, "status" | "announced_at" | "replacement_ids"> & {
  deprecation: MilestoneCore;
  end_of_life: MilestoneCore;
};

/**
 * The core as text. (Its canonical JSON: every member is a string, null or an array of
 * strings, which JSON.stringify writes canonically.)
 */
export function lifecycleCoreText(lifecycle: CoreFields): string {
  const d = lifecycle.deprecation;
  const e = lifecycle.end_of_life;
  return JSON.stringify([
    lifecycle.status,
    lifecycle.announced_at,
    [d.state, d.date, d.precision, d.date_type],
    [e.state, e.date, e.precision, e.date_type],
    lifecycle.replacement_ids,
  ]);
}

/** The cores of lifecycle records (by resource type, then id). */
export function previousCoresOf(records: readonly LifecycleRecord[]): Map<string, Map<string, PreviousCore>> {
  const byType = new Map<string, Map<string, PreviousCore>>();
  for (const r of records) {
    let byId = byType.get(r.resource_type);
    if (byId === undefined) {
      byId = new Map();
      byType.set(r.resource_type, byId);
    }
    byId.set(r.resource_id, {
      core: lifecycleCoreText(r.lifecycle),
      last_changed_at: r.lifecycle.last_changed_at,
    });
  }
  return byType;
}

/**
 * The cores of the deployments' own lifecycle records from a format 2 serve-index.json's
 * columns (`deployment_lifecycle`, the status in `deployments.status`), by deployment id; an
 * empty map for an index without them. The columns are dictionary-coded, and deployments share
 * a few cores (most are "unknown" alike): the codes of a deployment's columns are folded into
 * one code per distinct combination (combinationCodes), and each combination's core is made
 * once, as one string and one frozen PreviousCore (at 100,000 deployments: 20 MB kept alive
 * through the build, not 39 MB; about 30 ms, not 200 ms as a core made and compared per
 * deployment).
 */
export function deploymentCoresOf(index: ServeIndexFile): Map<string, PreviousCore> {
  const byId = new Map<string, PreviousCore>();
  const own = index.deployment_lifecycle;
  if (!own) return byId;
  const status = index.deployments.status;
  const combination = combinationCodes(index.deployments.id.length, [
    status,
    own.announced_at,
    own.deprecation_state,
    own.deprecation_date,
    own.deprecation_precision,
    own.deprecation_date_type,
    own.end_of_life_state,
    own.end_of_life_date,
    own.end_of_life_precision,
    own.end_of_life_date_type,
    own.replacement_ids,
    own.last_changed_at,
  ]);
  const shared: PreviousCore[] = [];
  index.deployments.id.forEach((id, i) => {
    const code = combination[i] as number;
    let previous = shared[code];
    if (previous === undefined) {
      const value = <T extends string | null>(column: CodedColumn) =>
        (column.values[column.codes[i] as number] ?? null) as T;
      const milestone = (kind: "deprecation" | "end_of_life"): MilestoneCore => ({
        state: value(own[`${kind}_state`]),
        date: value(own[`${kind}_date`]),
        precision: value(own[`${kind}_precision`]),
        date_type: value(own[`${kind}_date_type`]),
      });
      const core = lifecycleCoreText({
        status: value<LifecycleStatus>(status),
        announced_at: value(own.announced_at),
        deprecation: milestone("deprecation"),
        end_of_life: milestone("end_of_life"),
        replacement_ids: JSON.parse(value(own.replacement_ids) ?? "[]") as string[],
      });
      previous = Object.freeze({ core, last_changed_at: value(own.last_changed_at) });
      shared[code] = previous;
    }
    byId.set(id, previous);
  });
  return byId;
}

/**
 * One code per row for the combination of its codes in `columns` (rows alike in every column
 * get the same code; codes count up from 0 in order of first use). The columns are folded in one
 * at a time: a row's code so far times the column's width plus its code in the column names the
 * combination, numbered again, so every number stays below rows x width.
 */
function combinationCodes(rows: number, columns: readonly CodedColumn[]): number[] {
  const combination = new Array<number>(rows).fill(0);
  for (const column of columns) {
    const width = column.values.length;
    const numbered = new Map<number, number>();
    for (let i = 0; i < rows; i++) {
      const pair = (combination[i] as number) * width + (column.codes[i] as number);
      let code = numbered.get(pair);
      if (code === undefined) {
        code = numbered.size;
        numbered.set(pair, code);
      }
      combination[i] = code;
    }
  }
  return combination;
}
