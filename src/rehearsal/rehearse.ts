/**
 * The rehearsal of the nightly (`npm run rehearse`, docs/rehearsal.md): the live build the
 * nightly runs (runBuild, offline false: the Fetcher with its pacing, retries and conditional
 * requests, pagination, bundles, secrets) against a replay of every recorded capture
 * (replay.ts), three nights in a row on a copy of the sources:
 * 1. every replayed source is fetched and the release equals the offline build of the same
 *    captures at the same clock (`catalog build --offline --now`);
 * 2. the same upstream again: conditional requests answered 304, nothing published;
 * 3. one source answers 500 and one page changed: source_failed and source_changed events, the
 *    failed source's facts carried forward, the change in the release's diff.
 * Nothing outside a temporary folder is written; no name is resolved (a URL the replay does not
 * serve fails instead of reaching the internet).
 */
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CaptureMeta, loadSourceDefinitions, type Resolver, readCapture } from "../collect/index.js";
import { fixedClock } from "../lib/clock.js";
import { silentLogger } from "../lib/logger.js";
import { type BuildSummary, runBuild } from "../pipeline/build.js";
import { FACTS_FILE, loadRelease } from "../release/index.js";
import type { SourceDefinition } from "../schema/index.js";
import { type RecordedSource, type ReplayServer, startReplay } from "./replay.js";

/** The committed snapshot's clock: night 1 is the build the snapshot is the offline twin of. */
export const DEFAULT_NOW = "2026-11-23T00:00:00Z";

/** A source named by provider and definition name. */
export interface SourceName {
  provider: string;
  name: string;
}

export interface NightThree {
  /** The source that answers 500. */
  failing: SourceName;
  /** The page whose content changes, and how. */
  changing: SourceName & { edit: (content: string) => string };
}

/** Night 3 by default: OpenAI's pricing page breaks; Anthropic raises Claude Opus 4.7's input price to $6. */
export const DEFAULT_NIGHT_THREE: NightThree = {
  failing: { provider: "openai", name: "pricing" },
  changing: {
    provider: "anthropic",
    name: "pricing",
    edit: (content) => {
      const edited = content.replace(/^(\| Claude Opus 4\.7 +\| )\$5 \/ MTok/m, "$1$6 / MTok");
      if (edited === content)
        throw new Error("anthropic/pricing: Claude Opus 4.7's $5 / MTok input row is gone");
      return edited;
    },
  },
};

export interface RehearsalOptions {
  /** The repository's sources folder (read, never written). */
  sourcesDir: string;
  /** Rehearse only these providers (their whole folders); every provider by default. */
  providers?: readonly string[];
  now?: string;
  nightThree?: NightThree;
  /**
   * The minimum time between two request starts to one host; the Fetcher's own (250 ms) by
   * default. The test's slice uses less so that a bundle of 65 files is not 16 s of waiting.
   */
  perHostIntervalMs?: number;
  /** Progress lines (the last line of a rehearsal is printed by the caller). */
  log?: (line: string) => void;
}

export interface NightReport {
  night: 1 | 2 | 3;
  now: string;
  status: BuildSummary["status"];
  releaseId: string | null;
  /** Build statuses of the replayed sources. */
  statuses: Record<string, number>;
  /** Replay answers over every request of the night, by HTTP status. */
  answers: Record<string, number>;
  seconds: number;
}

export interface RehearsalReport {
  /** Live source definitions (not archived). */
  live: number;
  /** L: live definitions with a recorded capture, replayed. */
  replayed: number;
  /** Live definitions without any capture (offline_capture false): left out. */
  liveOnly: number;
  /** Archived definitions: every build replays their capture, none fetches them. */
  archived: number;
  /** F: replayed sources that night 1 fetched from the replay and built without failing. */
  fetched: number;
  offlineReleaseId: string | null;
  /** Night 1's release is the offline build's. */
  equal: boolean;
  nights: NightReport[];
  /** Every expectation that did not hold (empty when the rehearsal passed). */
  problems: string[];
}

/** The rehearsal's last line. */
export function verdictLine(report: Pick<RehearsalReport, "fetched" | "replayed" | "equal">): string {
  return `rehearsal: fetched ${report.fetched} of ${report.replayed} live sources; release equal to the offline build: ${report.equal ? "yes" : "no"}`;
}

/** No name is resolved: a URL outside the replay fails like a host that does not exist. */
const noDns: Resolver = async (hostname) => {
  const error: NodeJS.ErrnoException = new Error(
    `getaddrinfo ENOTFOUND ${hostname} (the rehearsal resolves no name)`,
  );
  error.code = "ENOTFOUND";
  throw error;
};

export async function rehearse(options: RehearsalOptions): Promise<RehearsalReport> {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? DEFAULT_NOW;
  const work = await mkdtemp(join(tmpdir(), "catalog-rehearsal-"));
  let replay: ReplayServer | null = null;
  try {
    const sourcesDir = join(work, "sources");
    const { report, recorded } = await prepareSources(options, sourcesDir);
    log(
      `${report.live + report.archived} source definitions: ${report.live} live, of which ${report.replayed} with a recorded capture (replayed) and ${report.liveOnly} live-only without any capture (left out); ${report.archived} archived (replayed from their capture by every build)`,
    );
    const offlineDir = join(work, "offline-snapshots");
    const offline = await runBuild({
      sourcesDir,
      snapshotsDir: offlineDir,
      offline: true,
      clock: fixedClock(now),
      logger: silentLogger,
    });
    report.offlineReleaseId = offline.release_id;
    log(`offline build at ${now}: ${offline.status} ${offline.release_id}`);

    const secretValues = rehearsalSecrets(recorded.map((r) => r.source));
    replay = await startReplay(recorded, secretValues);
    const snapshotsDir = join(work, "snapshots");
    const night = nightRunner({
      sourcesDir,
      snapshotsDir,
      recorded,
      secretValues,
      replay,
      options,
      report,
      log,
    });

    // Night 1: everything fetched; the release is the offline build's.
    const first = await night(1, now);
    report.fetched = fetchedSources(first, recorded, replay).length;
    report.equal = first.release_id !== null && first.release_id === offline.release_id;
    report.problems.push(...nightOneProblems(first, recorded, replay));
    if (!report.equal)
      report.problems.push(
        `night 1: release ${first.release_id} is not the offline build's ${offline.release_id}${await describeDifference(snapshotsDir, first.release_id, offlineDir, offline.release_id)}`,
      );
    // Night 2, the same day: nothing changed upstream.
    report.problems.push(...nightTwoProblems(await night(2, laterOn(now, 18)), recorded));
    // Night 3: a failure and a change.
    const three = options.nightThree ?? DEFAULT_NIGHT_THREE;
    report.problems.push(
      ...(await nightThree(three, recorded, replay, snapshotsDir, first, log, () =>
        night(3, laterOn(now, 20)),
      )),
    );
    return report;
  } finally {
    await replay?.close();
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Copies the sources (or the named providers) to `sourcesDir` and counts the definitions. A
 * live-only source has nothing to replay: its definition leaves the copy, so neither the offline
 * build (which skips it) nor the nights (which would fetch it) count it.
 */
async function prepareSources(
  options: RehearsalOptions,
  sourcesDir: string,
): Promise<{ report: RehearsalReport; recorded: RecordedSource[] }> {
  await copySources(options.sourcesDir, sourcesDir, options.providers);
  const { definitions } = await loadSourceDefinitions(sourcesDir);
  const live = definitions.filter((d) => !d.archived);
  const recorded = await recordedSources(sourcesDir, live);
  const replayedIds = new Set(recorded.map((r) => r.source.source_id));
  for (const source of live)
    if (!replayedIds.has(source.source_id))
      await rm(join(sourcesDir, source.provider_id, `${source.name}.yaml`));
  const report: RehearsalReport = {
    live: live.length,
    replayed: recorded.length,
    liveOnly: live.length - recorded.length,
    archived: definitions.length - live.length,
    fetched: 0,
    offlineReleaseId: null,
    equal: false,
    nights: [],
    problems: [],
  };
  return { report, recorded };
}

/** Runs one night: the live build against the replay, recorded in the report and logged. */
function nightRunner(context: {
  sourcesDir: string;
  snapshotsDir: string;
  recorded: readonly RecordedSource[];
  secretValues: Readonly<Record<string, string>>;
  replay: ReplayServer;
  options: RehearsalOptions;
  report: RehearsalReport;
  log: (line: string) => void;
}): (n: 1 | 2 | 3, at: string) => Promise<BuildSummary> {
  const { recorded, replay, options } = context;
  return async (n, at) => {
    const before = answerCounts(replay, recorded);
    const started = performance.now();
    const summary = await runBuild({
      sourcesDir: context.sourcesDir,
      snapshotsDir: context.snapshotsDir,
      offline: false,
      clock: fixedClock(at),
      logger: silentLogger,
      env: { ...process.env, ...context.secretValues },
      fetcher: {
        origins: replay.origins,
        resolver: noDns,
        ...(options.perHostIntervalMs === undefined ? {} : { perHostIntervalMs: options.perHostIntervalMs }),
      },
    });
    const night: NightReport = {
      night: n,
      now: at,
      status: summary.status,
      releaseId: summary.release_id,
      statuses: countBy(replayedSummaries(summary, recorded).map((s) => s.status)),
      answers: subtract(answerCounts(replay, recorded), before),
      seconds: (performance.now() - started) / 1000,
    };
    context.report.nights.push(night);
    context.log(
      `night ${n} at ${at}: ${summary.status} ${summary.release_id ?? ""} in ${night.seconds.toFixed(1)} s; sources ${format(night.statuses)}; replay answered ${format(night.answers)}`,
    );
    return summary;
  };
}

/** The replayed sources night 1 fetched from the replay (answered 200 or 304) and built. */
function fetchedSources(first: BuildSummary, recorded: readonly RecordedSource[], replay: ReplayServer) {
  return replayedSummaries(first, recorded).filter(
    (s) => s.status !== "failed" && s.status !== "skipped" && answered(replay, s.source_id),
  );
}

function nightOneProblems(
  first: BuildSummary,
  recorded: readonly RecordedSource[],
  replay: ReplayServer,
): string[] {
  const fetched = new Set(fetchedSources(first, recorded, replay));
  return replayedSummaries(first, recorded)
    .filter((s) => !fetched.has(s))
    .map((s) => `night 1: ${s.provider_id}/${s.name} ${s.status}: ${s.error ?? "never requested"}`);
}

function nightTwoProblems(second: BuildSummary, recorded: readonly RecordedSource[]): string[] {
  const problems = replayedSummaries(second, recorded)
    .filter((s) => s.status !== "not_modified")
    .map((s) => `night 2: ${s.provider_id}/${s.name} was ${s.status}, not 304`);
  if (second.status !== "unchanged") problems.push(`night 2: ${second.status}, expected nothing published`);
  return problems;
}

async function nightThree(
  three: NightThree,
  recorded: readonly RecordedSource[],
  server: ReplayServer,
  snapshotsDir: string,
  first: BuildSummary,
  log: (line: string) => void,
  run: () => Promise<BuildSummary>,
): Promise<string[]> {
  const failing = find(recorded, three.failing);
  const changing = find(recorded, three.changing);
  server.fail(failing.source.source_id, 500);
  server.change(changing.source.source_id, three.changing.edit(changing.content));
  const third = await run();
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) problems.push(`night 3: ${what}`);
  };
  const failed = third.failed_sources.map((s) => s.source_id);
  expect(third.status === "published", `${third.status}, expected a release`);
  expect(
    failed.length === 1 && failed[0] === failing.source.source_id,
    `failed sources ${failed.join(", ") || "none"}, expected ${name(failing.source)} alone`,
  );
  if (third.status !== "published" || !third.release_id || !first.release_id) return problems;
  const release = await loadRelease(snapshotsDir, third.release_id);
  const events = release.catalog.events.map((e) => `${e.event_type} ${e.source_id}`).sort();
  const expected = [
    `lifecycle.source_changed ${changing.source.source_id}`,
    `lifecycle.source_failed ${failing.source.source_id}`,
  ].sort();
  expect(events.join() === expected.join(), `events ${events.join(", ")}, expected ${expected.join(", ")}`);
  const before = await sourceFacts(snapshotsDir, first.release_id, failing.source.source_id);
  const after = await sourceFacts(snapshotsDir, third.release_id, failing.source.source_id);
  expect(
    after?.carried_forward === true && JSON.stringify(after.output) === JSON.stringify(before?.output),
    `${name(failing.source)}'s facts were not carried forward unchanged`,
  );
  const diff = third.outcome.diff;
  const changes = [
    ...(diff?.price_changes ?? []).map((c) => ({ ...c, what: `price ${c.component} ${c.old} -> ${c.new}` })),
    ...(diff?.limit_changes ?? []).map((c) => ({ ...c, what: `${c.field} ${c.old} -> ${c.new}` })),
    ...(diff?.capability_changes ?? []).map((c) => ({ ...c, what: `${c.capability} ${c.old} -> ${c.new}` })),
  ];
  for (const c of changes) log(`night 3 diff: ${c.deployment_id} ${c.what}`);
  expect(
    changes.some((c) => c.provider_id === changing.source.provider_id),
    `the diff lists no change of ${name(changing.source)}`,
  );
  expect(
    diff?.source_events.length === 2,
    `the diff lists ${diff?.source_events.length ?? 0} source events, expected 2`,
  );
  return problems;
}

/** The sources folder, or only the named providers' folders, copied to `to`. */
async function copySources(
  from: string,
  to: string,
  providers: readonly string[] | undefined,
): Promise<void> {
  if (!providers) {
    await cp(from, to, { recursive: true });
    return;
  }
  for (const provider of providers) await cp(join(from, provider), join(to, provider), { recursive: true });
}

/** The live definitions that have a recorded capture, with it. */
async function recordedSources(
  sourcesDir: string,
  live: readonly SourceDefinition[],
): Promise<RecordedSource[]> {
  const recorded: RecordedSource[] = [];
  for (const source of live) {
    const stored = await readCapture(sourcesDir, source);
    if (stored) recorded.push({ source, meta: stored.meta as CaptureMeta, content: stored.content });
  }
  return recorded;
}

/** A value per secret's environment variable, the rehearsal's own (never a real key). */
function rehearsalSecrets(sources: readonly SourceDefinition[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const source of sources)
    for (const secret of Object.values(source.secrets ?? {}))
      values[secret.env] = `rehearsal-${secret.env.toLowerCase()}`;
  return values;
}

function replayedSummaries(summary: BuildSummary, recorded: readonly RecordedSource[]) {
  const ids = new Set(recorded.map((r) => r.source.source_id));
  return summary.sources.filter((s) => ids.has(s.source_id));
}

function answered(server: ReplayServer, sourceId: string): boolean {
  const counts = server.answered(sourceId);
  return (counts.get(200) ?? 0) + (counts.get(304) ?? 0) > 0;
}

function answerCounts(server: ReplayServer, recorded: readonly RecordedSource[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const r of recorded)
    for (const [status, n] of server.answered(r.source.source_id)) total[status] = (total[status] ?? 0) + n;
  return total;
}

function subtract(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)] as const)
      .filter(([, v]) => v > 0),
  );
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

function format(counts: Record<string, number>): string {
  const entries = Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1));
  return entries.length ? entries.map(([k, v]) => `${k} ${v}`).join(", ") : "none";
}

function laterOn(iso: string, hours: number): string {
  return new Date(Date.parse(iso) + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function find(recorded: readonly RecordedSource[], wanted: SourceName): RecordedSource {
  const found = recorded.find(
    (r) => r.source.provider_id === wanted.provider && r.source.name === wanted.name,
  );
  if (!found) throw new Error(`${wanted.provider}/${wanted.name} is not a replayed source`);
  return found;
}

function name(source: SourceDefinition): string {
  return `${source.provider_id}/${source.name}`;
}

interface FactsEntry {
  source_id: string;
  carried_forward: boolean;
  output: unknown;
}

async function sourceFacts(
  snapshotsDir: string,
  releaseId: string,
  sourceId: string,
): Promise<FactsEntry | undefined> {
  const { manifest } = await loadRelease(snapshotsDir, releaseId);
  const file = manifest.files[FACTS_FILE];
  if (!file) return undefined;
  const facts = JSON.parse(await readFile(join(snapshotsDir, "objects", file.sha256), "utf8")) as {
    sources: FactsEntry[];
  };
  return facts.sources.find((s) => s.source_id === sourceId);
}

/** Which source states differ between two releases (what makes their ids differ). */
async function describeDifference(
  liveDir: string,
  liveId: string | null,
  offlineDir: string,
  offlineId: string | null,
): Promise<string> {
  if (!liveId || !offlineId) return "";
  const [a, b] = await Promise.all([loadRelease(liveDir, liveId), loadRelease(offlineDir, offlineId)]);
  const offlineStates = new Map(b.catalog.sources.map((s) => [s.source_id, s]));
  const lines: string[] = [];
  for (const state of a.catalog.sources) {
    const other = offlineStates.get(state.source_id) as Record<string, unknown> | undefined;
    const fields = Object.entries(state)
      .filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(other?.[k]))
      .map(([k, v]) => `${k} ${JSON.stringify(other?.[k])} -> ${JSON.stringify(v)}`);
    if (fields.length) lines.push(`\n  ${state.provider_id} ${state.source_url}: ${fields.join("; ")}`);
  }
  const files = Object.entries(a.manifest.files)
    .filter(([k, f]) => b.manifest.files[k]?.sha256 !== f.sha256)
    .map(([k]) => k);
  return `; files that differ: ${files.join(", ")}${lines.join("")}`;
}
