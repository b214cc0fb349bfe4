/**
 * `catalog build`: collect -> normalize -> release. Each stage is called through its public
 * entry; this module only wires them and decides what a failed source means for the build:
 * a source whose fetch or parse failed keeps its last good facts (the release stage carries
 * them forward) and raises `lifecycle.source_failed`; a build where more than
 * `failureThreshold` of the checked sources failed refuses to publish (model pages, which only
 * add limits and capabilities, are not counted).
 */
import {
  addDatedCapture,
  collectSources,
  countFailures,
  datedFileName,
  deriveSourceStates,
  type FetcherOptions,
  loadCorrections,
  loadSourceDefinitions,
  readCapture,
  readDatedCaptures,
  refusesToPublish,
  type SecretEnv,
  type SourceOutcome,
  type StoredCapture,
} from "../collect/index.js";
import { type Clock, toIsoSeconds } from "../lib/clock.js";
import { CatalogError } from "../lib/errors.js";
import type { Logger } from "../lib/logger.js";
import { applyCorrections, modelFactParsers, normalizeSource } from "../normalize/index.js";
import {
  cleanTemporary,
  type LifecycleObservation,
  lockSnapshots,
  type PriceObservation,
  pricesKey,
  type ReleaseOutcome,
  readPreviousRelease,
  runRelease,
  type SourceContribution,
  shownPrices,
  statedMilestones,
} from "../release/index.js";
import type { Correction, CorrectionOutcome, ParseOutput, SourceDefinition } from "../schema/index.js";

export interface BuildOptions {
  sourcesDir: string;
  snapshotsDir: string;
  offline: boolean;
  clock: Clock;
  logger: Logger;
  /** Fraction of checked sources that may fail before the build refuses to publish. */
  failureThreshold?: number;
  /** Restrict the build to these source ids or provider ids. */
  only?: string[];
  progress?: boolean;
  /** Fetch policy overrides for live builds (tests: allowLoopback, no retries). */
  fetcher?: FetcherOptions;
  /** Where source secrets are read from in live builds; process.env by default. */
  env?: SecretEnv;
}

export interface SourceSummary {
  source_id: string;
  provider_id: string;
  name: string;
  url: string;
  status: "ok" | "changed" | "not_modified" | "failed" | "skipped";
  error: string | null;
  deployments: number;
  lifecycle_assertions: number;
}

export interface BuildSummary {
  status: ReleaseOutcome["status"];
  release_id: string | null;
  previous_release_id: string | null;
  now: string;
  sources: SourceSummary[];
  failed_sources: Array<{ source_id: string; provider_id: string; url: string; error: string }>;
  outcome: ReleaseOutcome;
}

export async function runBuild(options: BuildOptions): Promise<BuildSummary> {
  const now = toIsoSeconds(options.clock.now());
  const log = options.logger.child({ stage: "build" });
  const { definitions: allDefinitions, errors } = await loadSourceDefinitions(options.sourcesDir);
  if (errors.length > 0)
    throw new CatalogError(
      "invalid_source_definition",
      `invalid source definitions:\n${errors.map((e) => `  ${e.file}: ${e.message}`).join("\n")}`,
    );
  const selected = (d: SourceDefinition) =>
    !options.only?.length || options.only.includes(d.source_id) || options.only.includes(d.provider_id);
  const definitions = allDefinitions.filter(selected);
  if (definitions.length === 0) throw new CatalogError("invalid_argument", "no sources to build");
  const { corrections, errors: correctionErrors } = await loadCorrections(options.sourcesDir, allDefinitions);
  if (correctionErrors.length > 0)
    throw new CatalogError(
      "invalid_source_definition",
      `invalid corrections:\n${correctionErrors.map((e) => `  ${e.file}: ${e.message}`).join("\n")}`,
    );
  // `--only` narrows what is checked, never what is published: every source it leaves out is
  // skipped like an offline source without a capture, so it keeps its previous facts and state.
  const notSelected = allDefinitions.filter((d) => !selected(d));

  // One build at a time per snapshots directory: from reading the previous release to
  // publishing (two builds on one previous release would orphan one of their releases).
  const unlock = await lockSnapshots(options.snapshotsDir);
  try {
    const removed = await cleanTemporary(options.snapshotsDir);
    if (removed > 0) log.info({ removed }, "removed leftovers of an interrupted build");
    return await buildLocked(options, { definitions, notSelected, corrections }, now, log);
  } finally {
    await unlock();
  }
}

async function buildLocked(
  options: BuildOptions,
  selection: {
    definitions: SourceDefinition[];
    notSelected: SourceDefinition[];
    corrections: ReadonlyMap<string, readonly Correction[]>;
  },
  now: string,
  log: Logger,
): Promise<BuildSummary> {
  const { definitions, notSelected, corrections } = selection;
  // Read once: its source states feed collect, and the release stage takes the rest over.
  const previous = await readPreviousRelease(options.snapshotsDir);
  const previousStates = previous?.catalog.sources ?? [];
  // A live build may replace captures: the ones it replaces are read first (keepSuperseded)
  const capturesBefore = options.offline ? null : await currentCaptures(options.sourcesDir, definitions);

  const results = await collectSources({
    sourcesDir: options.sourcesDir,
    definitions,
    offline: options.offline,
    clock: options.clock,
    logger: options.logger,
    previousStates,
    progress: options.progress ?? false,
    ...(options.fetcher ? { fetcher: options.fetcher } : {}),
    ...(options.env ? { env: options.env } : {}),
  });

  const contributions: SourceContribution[] = [];
  const outcomes: SourceOutcome[] = [];
  const summaries: SourceSummary[] = [];
  const correctionOutcomes: CorrectionOutcome[] = [];
  for (const result of results) {
    const source: SourceDefinition = result.source;
    let output: ParseOutput | null = null;
    let error = result.error ?? null;
    if ((result.status === "ok" || result.status === "not_modified") && result.content !== undefined) {
      // Reviewed upstream corrections are applied to what the parser reads, never silently.
      const corrected = applyCorrections(source, result.content, corrections.get(source.provider_id) ?? []);
      correctionOutcomes.push(...corrected.outcomes);
      try {
        output = normalizeSource({
          source,
          content: corrected.content,
          observedAt: result.observedAt ?? now,
        });
      } catch (parseError) {
        error = (parseError as Error).message;
        log.warn({ source_id: source.source_id, err: error }, "parse failed");
      }
    }
    const skipped = result.status === "skipped";
    const failed = !skipped && output === null;
    if (!skipped) {
      outcomes.push({
        source,
        ok: !failed,
        httpStatus: result.httpStatus ?? null,
        rawSha256: result.rawSha256 ?? null,
        monitoredSha256: failed ? null : (result.monitoredSha256 ?? null),
        observedAt: failed ? null : (result.observedAt ?? now),
        error: failed ? (error ?? "failed") : null,
      });
    }
    contributions.push({ source, output, failed, observedAt: result.observedAt ?? null });
    const changed = !failed && !skipped && result.changed === true;
    summaries.push({
      source_id: source.source_id,
      provider_id: source.provider_id,
      name: source.name,
      url: source.url,
      status: skipped
        ? "skipped"
        : failed
          ? "failed"
          : changed
            ? "changed"
            : result.status === "not_modified"
              ? "not_modified"
              : "ok",
      error: skipped ? (result.skippedReason ?? null) : failed ? error : null,
      deployments: output?.deployments.length ?? 0,
      lifecycle_assertions: output?.lifecycle.length ?? 0,
    });
  }

  for (const source of notSelected) {
    contributions.push({ source, output: null, failed: false, observedAt: null });
    summaries.push({
      source_id: source.source_id,
      provider_id: source.provider_id,
      name: source.name,
      url: source.url,
      status: "skipped",
      error: "not selected by --only; keeps its previous facts",
      deployments: 0,
      lifecycle_assertions: 0,
    });
  }

  const failedSources = summaries
    .filter((s) => s.status === "failed")
    .map((s) => ({
      source_id: s.source_id,
      provider_id: s.provider_id,
      url: s.url,
      error: s.error ?? "failed",
    }));
  const threshold = options.failureThreshold ?? 0.5;
  // Model pages are left out of the ratio (see modelFactParsers): the threshold guards the
  // sources that list deployments, prices and dates.
  const guarded = countFailures(outcomes.filter((o) => !modelFactParsers.has(o.source.parser)));
  if (refusesToPublish(guarded, threshold)) {
    throw new CatalogError(
      "too_many_sources_failed",
      `${guarded.failed} of ${guarded.checked} sources that list deployments failed (threshold ${Math.round(threshold * 100)}%; model pages not counted, ${failedSources.length} failed in all); nothing published`,
      { failed_sources: failedSources },
    );
  }

  if (capturesBefore) await keepSuperseded(options.sourcesDir, definitions, capturesBefore, corrections, log);
  const { datedPrices, datedLifecycle } = await readDated(
    options.sourcesDir,
    [...definitions, ...notSelected],
    corrections,
    log,
  );
  const defined = new Set([...definitions, ...notSelected].map((d) => d.source_id));
  const { states, events } = deriveSourceStates(previousStates, outcomes, now, defined);
  const outcome = await runRelease({
    snapshotsDir: options.snapshotsDir,
    now,
    contributions,
    states,
    newEvents: events,
    previous,
    corrections: correctionOutcomes,
    datedPrices,
    datedLifecycle,
  });
  return {
    status: outcome.status,
    release_id: outcome.releaseId,
    previous_release_id: outcome.previousReleaseId,
    now,
    sources: summaries,
    failed_sources: failedSources,
    outcome,
  };
}

/**
 * The prices and the lifecycle milestones each source's dated captures show
 * (src/collect/dated-captures.ts), parsed as the source's current capture is (corrections
 * applied). A dated capture its parser no longer reads is left out of the history and logged: it
 * was readable when it was recorded.
 */
async function readDated(
  sourcesDir: string,
  definitions: readonly SourceDefinition[],
  corrections: ReadonlyMap<string, readonly Correction[]>,
  log: Logger,
): Promise<{ datedPrices: PriceObservation[]; datedLifecycle: LifecycleObservation[] }> {
  const observations: PriceObservation[] = [];
  const lifecycle: LifecycleObservation[] = [];
  for (const source of definitions) {
    for (const dated of await readDatedCaptures(sourcesDir, source)) {
      const corrected = applyCorrections(source, dated.content, corrections.get(source.provider_id) ?? []);
      try {
        const output = normalizeSource({
          source,
          content: corrected.content,
          observedAt: dated.meta.observed_at,
        });
        observations.push({
          source_id: source.source_id,
          official: source.source_type !== "community_catalog",
          observed_at: dated.meta.observed_at,
          prices: shownPrices(output.deployments),
        });
        lifecycle.push({
          source_id: source.source_id,
          observed_at: dated.meta.observed_at,
          stated: statedMilestones(output.lifecycle, dated.meta.observed_at),
        });
      } catch (error) {
        log.warn(
          { source_id: source.source_id, file: dated.meta.file, err: (error as Error).message },
          "dated capture not read; left out of the price history",
        );
      }
    }
  }
  return { datedPrices: observations, datedLifecycle: lifecycle };
}

/** Each source's current capture (those without one are left out). */
async function currentCaptures(
  sourcesDir: string,
  definitions: readonly SourceDefinition[],
): Promise<Map<string, StoredCapture>> {
  const captures = new Map<string, StoredCapture>();
  for (const source of definitions) {
    const stored = await readCapture(sourcesDir, source).catch(() => null);
    if (stored) captures.set(source.source_id, stored);
  }
  return captures;
}

/** The prices a capture's content shows, as backfill compares them; null when it does not parse. */
function pricesOf(
  source: SourceDefinition,
  content: string,
  observedAt: string,
  corrections: ReadonlyMap<string, readonly Correction[]>,
): string | null {
  const corrected = applyCorrections(source, content, corrections.get(source.provider_id) ?? []);
  try {
    return pricesKey(normalizeSource({ source, content: corrected.content, observedAt }).deployments);
  } catch {
    return null;
  }
}

/**
 * The nightly extends the price history (docs/price-history.md): a capture this live build
 * replaced becomes a dated capture of its source when its prices differ from the newest dated
 * capture's (or the source has none), so the days it covered keep their price.
 */
async function keepSuperseded(
  sourcesDir: string,
  definitions: readonly SourceDefinition[],
  before: ReadonlyMap<string, StoredCapture>,
  corrections: ReadonlyMap<string, readonly Correction[]>,
  log: Logger,
): Promise<void> {
  for (const source of definitions) {
    const old = before.get(source.source_id);
    if (!old) continue;
    const now = await readCapture(sourcesDir, source).catch(() => null);
    if (!now || now.sha256 === old.sha256) continue;
    const observedAt = old.meta.fetched_at;
    const key = pricesOf(source, old.content, observedAt, corrections);
    if (key === null) {
      log.warn({ source_id: source.source_id }, "superseded capture not read; not kept as a dated capture");
      continue;
    }
    const newest = (await readDatedCaptures(sourcesDir, source)).at(-1);
    if (newest && pricesOf(source, newest.content, newest.meta.observed_at, corrections) === key) continue;
    await addDatedCapture(sourcesDir, source, {
      content: old.content,
      meta: {
        file: datedFileName(source, old.sha256),
        sha256: old.sha256,
        observed_at: observedAt,
        url: old.meta.url,
        provenance: {
          superseded_capture: {
            fetched_at: old.meta.fetched_at,
            ...(old.meta.note === undefined ? {} : { note: old.meta.note }),
          },
        },
      },
    });
  }
}
