/**
 * Backfill: each distinct version of an upstream file in a git repository's history, recorded as
 * a dated capture of a source (dated-captures.ts) whose observed_at is the commit date. A version
 * whose parsed facts equal the version before it (in date order, counting the dated captures
 * already recorded) is not kept; a version the parser cannot read is skipped and reported with
 * the reason. For a bundled source (`bundle:`), PATH is the directory and each version is the
 * bundle of its files matching the bundle's pattern, assembled as the collector assembles it.
 * Git is run read-only (`git log`, `git ls-tree`, `git cat-file`).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import type { SourceDefinition } from "../schema/index.js";
import {
  type DatedCapture,
  type DatedCaptureMeta,
  datedFileName,
  readDatedCaptures,
  writeDatedCaptures,
} from "./dated-captures.js";
import { extractMonitored } from "./monitor.js";

const run = promisify(execFile);

export interface GitVersion {
  commit: string;
  /** The commit date as git prints it (ISO 8601 with the committer's offset). */
  committedAt: string;
}

/** A version's content read, or why not. */
export type FactsOf = (content: string, observedAt: string) => { key: string } | { error: string };

export interface BackfillOptions {
  sourcesDir: string;
  source: SourceDefinition;
  gitDir: string;
  path: string;
  /** The repository's name as provenance (owner/name). */
  repository: string;
  licence?: string;
  /** Only commits at or after this date (YYYY-MM-DD). */
  since?: string;
  /** Read at most one version per this many days (sampleVersions); absent: every version. */
  everyDays?: number;
  factsOf: FactsOf;
}

export interface BackfillResult {
  versions: number;
  kept: DatedCaptureMeta[];
  skipped: Array<{ commit: string; committed_at: string; reason: string }>;
  /** Versions dropped because their facts equal the version before. */
  unchanged: number;
  written: boolean;
}

async function git(gitDir: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run("git", [`--git-dir=${gitDir}`, ...args], {
      maxBuffer: 512 * 1024 * 1024,
      encoding: "utf8",
    });
    return stdout;
  } catch (error) {
    throw new CatalogError("io_failed", `git ${args[0]} in ${gitDir} failed: ${(error as Error).message}`);
  }
}

/** The commits that changed PATH, oldest first (first parent order by commit date). */
export async function listVersions(gitDir: string, path: string, since?: string): Promise<GitVersion[]> {
  const args = [
    "log",
    "--format=%H %cI",
    "--reverse",
    ...(since ? [`--since=${since}T00:00:00Z`] : []),
    "--",
    path,
  ];
  return (await git(gitDir, args))
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => {
      const [commit = "", committedAt = ""] = line.split(" ");
      return { commit, committedAt };
    });
}

/** The file at a commit, or for a bundled source the bundle document of the directory's matching files. */
export async function readVersion(
  gitDir: string,
  source: Pick<SourceDefinition, "bundle">,
  commit: string,
  path: string,
): Promise<string | null> {
  if (!source.bundle) {
    const listing = await git(gitDir, ["ls-tree", commit, "--", path]);
    if (listing.trim() === "") return null;
    return git(gitDir, ["cat-file", "blob", `${commit}:${path}`]);
  }
  const pattern = new RegExp(source.bundle.match);
  const files = [];
  for (const line of (await git(gitDir, ["ls-tree", "-r", commit, "--", path])).split("\n")) {
    const match = /^\d+ blob ([0-9a-f]{40})\t(.+)$/.exec(line);
    if (!match?.[1] || !match[2] || !pattern.test(match[2])) continue;
    files.push({ name: match[2], sha: match[1], content: await git(gitDir, ["cat-file", "blob", match[1]]) });
  }
  if (files.length === 0) return null;
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return canonicalJson({ files });
}

/**
 * One version per `days` days, for a file that changes daily: the first version, then each
 * version at least `days` days after the last one taken, and always the newest. A price is
 * then dated by the first sampled copy showing it (up to `days` days late).
 */
export function sampleVersions(versions: readonly GitVersion[], days: number): GitVersion[] {
  const taken: GitVersion[] = [];
  let last = Number.NEGATIVE_INFINITY;
  versions.forEach((version, i) => {
    const at = Date.parse(version.committedAt);
    if (at - last >= days * 86_400_000 || i === versions.length - 1) {
      taken.push(version);
      last = at;
    }
  });
  return taken;
}

/** A commit date as a UTC instant in seconds. */
export function utcSeconds(committedAt: string): string {
  return new Date(committedAt).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * Keeps the first of every run of captures with equal facts, by observed_at (then SHA-256, so
 * the order never depends on the order given); captures whose facts cannot be read are left out.
 */
export function distinctByFacts<T extends { meta: { observed_at: string; sha256: string }; key: string }>(
  captures: readonly T[],
): T[] {
  const sorted = [...captures].sort(
    (a, b) =>
      a.meta.observed_at.localeCompare(b.meta.observed_at) || a.meta.sha256.localeCompare(b.meta.sha256),
  );
  const kept: T[] = [];
  for (const capture of sorted) if (kept.at(-1)?.key !== capture.key) kept.push(capture);
  return kept;
}

export async function backfill(options: BackfillOptions): Promise<BackfillResult> {
  const { source } = options;
  const listed = await listVersions(options.gitDir, options.path, options.since);
  const versions = options.everyDays === undefined ? listed : sampleVersions(listed, options.everyDays);
  const skipped: BackfillResult["skipped"] = [];
  const candidates: Array<DatedCapture & { key: string }> = [];
  for (const existing of await readDatedCaptures(options.sourcesDir, source)) {
    const facts = options.factsOf(existing.content, existing.meta.observed_at);
    if ("key" in facts) candidates.push({ ...existing, key: facts.key });
  }
  const known = new Map(
    candidates.map((c) => [
      "commit" in c.meta.provenance ? `${c.meta.provenance.commit}|${c.meta.sha256}` : "",
      c,
    ]),
  );
  for (const version of versions) {
    const text = await readVersion(options.gitDir, source, version.commit, options.path);
    if (text === null) {
      skipped.push({
        commit: version.commit,
        committed_at: version.committedAt,
        reason: "the path is absent",
      });
      continue;
    }
    const observedAt = utcSeconds(version.committedAt);
    let monitored: { content: string; sha256: string };
    try {
      monitored = extractMonitored(source, text);
    } catch (error) {
      skipped.push({
        commit: version.commit,
        committed_at: version.committedAt,
        reason: (error as Error).message,
      });
      continue;
    }
    const recorded = known.get(`${version.commit}|${monitored.sha256}`);
    if (recorded) {
      // recorded before: only a licence given now is added to its provenance
      if (options.licence) recorded.meta = { ...recorded.meta, licence: options.licence };
      continue;
    }
    const facts = options.factsOf(monitored.content, observedAt);
    if ("error" in facts) {
      skipped.push({ commit: version.commit, committed_at: version.committedAt, reason: facts.error });
      continue;
    }
    candidates.push({
      content: monitored.content,
      key: facts.key,
      meta: {
        file: datedFileName(source, monitored.sha256),
        sha256: monitored.sha256,
        observed_at: observedAt,
        url: source.url,
        provenance: {
          repository: options.repository,
          commit: version.commit,
          committed_at: version.committedAt,
          path: options.path,
        },
        ...(options.licence ? { licence: options.licence } : {}),
      },
    });
  }
  const kept = distinctByFacts(candidates);
  const written = await writeDatedCaptures(
    options.sourcesDir,
    source,
    kept.map(({ meta, content }) => ({ meta, content })),
  );
  return {
    versions: versions.length,
    kept: kept.map((k) => k.meta),
    skipped,
    unchanged: candidates.length - kept.length,
    written,
  };
}
