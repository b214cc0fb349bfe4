/**
 * What a build keeps of the previous release's lifecycles: each record's core (the normalized
 * assertion without evidence, coverage or timestamps, as text) and when it last changed, by
 * resource type and id. The merge keeps `last_changed_at` where the core is the same
 * (merge-lifecycle.ts `lastChangedAt`). Two readings of a release give them: its stored
 * lifecycle records, and the columns serve-index.json keeps of the deployments' own lifecycles
 * where catalog.json leaves those records out (src/snapshot/deployment-lifecycles.ts). Pure.
 */
import type { Lifecycle, LifecycleRecord, LifecycleStatus, ServeIndexFile } from "../schema/index.js";
import { decodeColumn } from "../snapshot/index.js";

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
 * empty map for an index without them. Deployments share a few cores (most are "unknown"
 * alike): each distinct one is kept once, as one string and one PreviousCore per
 * last_changed_at (at 100,000 deployments, the previous release as a build reads it kept 39 MB
 * alive through the build, now 20 MB).
 */
export function deploymentCoresOf(index: ServeIndexFile): Map<string, PreviousCore> {
  const byId = new Map<string, PreviousCore>();
  const shared = new Map<string, PreviousCore>();
  const own = index.deployment_lifecycle;
  if (!own) return byId;
  const status = decodeColumn<LifecycleStatus>(index.deployments.status);
  const milestone = (kind: "deprecation" | "end_of_life") => {
    const state = decodeColumn<MilestoneCore["state"]>(own[`${kind}_state`]);
    const date = decodeColumn<string | null>(own[`${kind}_date`]);
    const precision = decodeColumn<MilestoneCore["precision"]>(own[`${kind}_precision`]);
    const dateType = decodeColumn<MilestoneCore["date_type"]>(own[`${kind}_date_type`]);
    return (i: number): MilestoneCore => ({
      state: state[i] as MilestoneCore["state"],
      date: date[i] ?? null,
      precision: precision[i] as MilestoneCore["precision"],
      date_type: dateType[i] as MilestoneCore["date_type"],
    });
  };
  const deprecation = milestone("deprecation");
  const endOfLife = milestone("end_of_life");
  const announced = decodeColumn<string | null>(own.announced_at);
  const replacements = decodeColumn<string | null>(own.replacement_ids);
  const changed = decodeColumn<string | null>(own.last_changed_at);
  index.deployments.id.forEach((id, i) => {
    const core: CoreFields = {
      status: status[i] as LifecycleStatus,
      announced_at: announced[i] ?? null,
      deprecation: deprecation(i),
      end_of_life: endOfLife(i),
      replacement_ids: JSON.parse(replacements[i] ?? "[]") as string[],
    };
    const text = lifecycleCoreText(core);
    const lastChangedAt = changed[i] ?? null;
    const key = `${lastChangedAt ?? ""}\n${text}`;
    let previous = shared.get(key);
    if (previous === undefined) {
      previous = Object.freeze({ core: text, last_changed_at: lastChangedAt });
      shared.set(key, previous);
    }
    byId.set(id, previous);
  });
  return byId;
}
