/**
 * The pure part of a release: gather the facts (carrying failed sources forward), merge them
 * into the catalog and append the events. No I/O and no DuckDB: the checks, the diff,
 * serializing (with the content fingerprint, serialize.ts) and publishing (run.ts) work on what
 * this returns.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import type { CatalogContent, LifecycleRecord, SourceEvent, SourceState } from "../schema/index.js";
import type { SourceContribution } from "./contribution.js";
import { type FactsFile, type GatheredFacts, gatherFacts } from "./facts.js";
import { type MergeResult, mergeCatalog } from "./merge.js";

export interface ReleasePlanInput {
  now: string;
  contributions: readonly SourceContribution[];
  /** This build's source states. */
  states: readonly SourceState[];
  /** Events detected by this build. */
  newEvents: readonly SourceEvent[];
  /** What the plan takes from the previous release (empty before the first). */
  previous: {
    lifecycle: readonly LifecycleRecord[];
    events: readonly SourceEvent[];
    facts: FactsFile | null;
  };
}

export interface ReleasePlan {
  gathered: GatheredFacts;
  merged: MergeResult;
  catalog: CatalogContent;
}

/** Append-only event log: the previous release's events plus this build's, by (detected_at, id). */
export function mergeEvents(previous: readonly SourceEvent[], added: readonly SourceEvent[]): SourceEvent[] {
  const byId = new Map<string, SourceEvent>();
  for (const event of [...previous, ...added]) if (!byId.has(event.id)) byId.set(event.id, event);
  return [...byId.values()].sort(
    (a, b) => Date.parse(a.detected_at) - Date.parse(b.detected_at) || compareCodePoints(a.id, b.id),
  );
}

export function planRelease(input: ReleasePlanInput): ReleasePlan {
  const gathered = gatherFacts(input.contributions, input.previous.facts);
  const merged = mergeCatalog({
    now: input.now,
    facts: gathered.facts,
    states: input.states,
    previousLifecycle: input.previous.lifecycle,
  });
  const catalog: CatalogContent = {
    deployments: merged.deployments,
    lifecycle: merged.lifecycle,
    events: mergeEvents(input.previous.events, input.newEvents),
    sources: [...input.states].sort((a, b) => compareCodePoints(a.source_id, b.source_id)),
  };
  return { gathered, merged, catalog };
}
