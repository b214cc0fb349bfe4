/**
 * The release plan: the previous release, this build's facts and the clock in, the release's
 * content out (the catalog, the facts it keeps, and its report but for the checks DuckDB runs).
 * Pure: no I/O, no DuckDB, no clock of its own, and none of its inputs changed. Gathering the
 * facts (carrying failed sources forward), the merge (last_changed_at against the previous
 * lifecycle included), the event log and the report all happen here; run.ts only writes what
 * this returns, checks it in DuckDB, diffs it and publishes it (docs/lean-core.md).
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import type {
  CatalogContent,
  CorrectionOutcome,
  PricesFile,
  SourceEvent,
  SourceState,
} from "../schema/index.js";
import { firstAnnouncements, type LifecycleObservation } from "./announcements.js";
import type { SourceContribution } from "./contribution.js";
import { type FactsFile, gatherFacts } from "./facts.js";
import type { PreviousCores } from "./lifecycle-cores.js";
import { mergeCatalog } from "./merge.js";
import { isOfficial } from "./merge-candidates.js";
import { currentObservations, type PriceObservation, priceHistory } from "./price-history.js";
import { reportWithoutChecks } from "./report.js";
import type { BuildReport } from "./types.js";

/** What the plan takes from the previous release. */
export interface PlanPrevious {
  releaseId: string;
  /** Its lifecycle records' cores, what last_changed_at is kept against (previous-release.ts). */
  cores: PreviousCores;
  events: readonly SourceEvent[];
  /** Its facts.json: needed only when a source failed or was skipped (needsPreviousFacts). */
  facts: FactsFile | null;
}

export interface ReleasePlanInput {
  /** ISO instant, the build clock. */
  now: string;
  contributions: readonly SourceContribution[];
  /** This build's source states. */
  states: readonly SourceState[];
  /** Events detected by this build. */
  newEvents: readonly SourceEvent[];
  /** What became of each reviewed upstream correction (listed in the report). */
  corrections?: readonly CorrectionOutcome[];
  /** Null before the first release. */
  previous: PlanPrevious | null;
  /** The prices the sources' dated captures show (price-history.ts); absent: none. */
  datedPrices?: readonly PriceObservation[];
  /** The lifecycle milestones the sources' dated captures state (announcements.ts); absent: none. */
  datedLifecycle?: readonly LifecycleObservation[];
}

export interface ReleasePlan {
  catalog: CatalogContent;
  /** The facts the release keeps (facts.json), carried-forward sources included. */
  facts: FactsFile;
  /** The build report without the checks' results (withCheckResults adds them). */
  report: BuildReport;
  /** prices.json: every deployment's rate-card intervals, from the current facts and the dated captures. */
  prices: PricesFile;
  /** The manifest's counts. */
  counts: Record<string, number>;
}

/** Whether the plan needs the previous release's facts: only to carry a failed or skipped source forward. */
export function needsPreviousFacts(contributions: readonly SourceContribution[]): boolean {
  return contributions.some((c) => c.failed || !c.output);
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
  const { now, previous } = input;
  const gathered = gatherFacts(input.contributions, previous?.facts ?? null);
  const merged = mergeCatalog({
    now,
    facts: gathered.facts,
    states: input.states,
    previousCores: previous?.cores ?? new Map(),
    firstAnnouncements: firstAnnouncements(input.datedLifecycle ?? []),
  });
  const catalog: CatalogContent = {
    deployments: merged.deployments,
    lifecycle: merged.lifecycle,
    events: mergeEvents(previous?.events ?? [], input.newEvents),
    sources: [...input.states].sort((a, b) => compareCodePoints(a.source_id, b.source_id)),
  };
  const report = reportWithoutChecks({
    now,
    previousReleaseId: previous?.releaseId ?? null,
    catalog,
    conflicts: merged.conflicts,
    officialDisagreements: merged.officialDisagreements,
    communityDisagreements: merged.communityDisagreements,
    officialSpecs: merged.officialSpecs,
    unlistedOfferings: merged.unlistedOfferings,
    modelIdentity: merged.modelIdentity,
    communityZeroPrices: merged.communityZeroPrices,
    inputLimitContexts: merged.inputLimitContexts,
    staleAliasPrices: merged.staleAliasPrices,
    unresolvedReplacements: merged.unresolvedReplacements,
    carriedForward: gathered.carriedForward,
    failedWithoutFacts: gathered.failedWithoutFacts,
    corrections: input.corrections ?? [],
  });
  const prices = priceHistory(
    [...currentObservations(gathered.facts.sources, isOfficial), ...(input.datedPrices ?? [])],
    new Set(catalog.deployments.map((d) => d.id)),
  );
  return {
    catalog,
    facts: gathered.facts,
    report,
    prices,
    counts: {
      deployments: catalog.deployments.length,
      priced_deployments: report.totals.priced,
      lifecycle_records: catalog.lifecycle.length,
      events: catalog.events.length,
      sources: catalog.sources.length,
    },
  };
}
