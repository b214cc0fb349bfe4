/**
 * Release history as the server answers it: the chain of releases that ends at the served
 * release (following previous_release_id in the snapshots directory), each release's diff,
 * and every deployment's history across that chain.
 *
 * Two memos per served release, each computed on the first request that needs it (a release
 * switch makes a new ServedRelease and so new memos) and shared by concurrent requests:
 * - the chain (`servedChain`): the releases' manifests, for /v1/releases, /v1/releases/{id}
 *   and /v1/releases/{id}/diff (which reads the release's stored diff.json). Every older
 *   release is verified (its manifest against its id, every file against its hash) before it
 *   joins the chain: a damaged one ends the chain there, with a warning, like a pruned one,
 *   so the routes answer for the releases after it and never read a damaged file;
 * - deployment history (`servedDeploymentHistory`): a walk over the chain's pairs of
 *   consecutive releases. Memory stays bounded: the walk holds two catalogs open at a time
 *   (the newer and the older of a pair, hash-checked, read record by record from their spans;
 *   never parsed whole unless a release has no usable serve-index.json), keeps only the entries
 *   of deployments that changed, and covers at most MAX_HISTORY_RELEASES releases. A record
 *   whose stored bytes (canonical JSON) are those of its newer version is the same record and
 *   no change; only records whose bytes differ are parsed and compared aspect by aspect. An
 *   entry holds its before / after as a position in the served release (a record unchanged
 *   since) or the record's stored bytes, and is serialized when an answer needs it.
 */
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import type { Logger } from "../lib/logger.js";
import type { ReleaseSummary } from "../release/index.js";
import { type CatalogContent, Deployment, type HistoryChange } from "../schema/index.js";
import {
  DIFF_JSON,
  OpenCatalog,
  readManifest,
  readReleaseFile,
  readServeIndex,
  SERVE_INDEX_FILE,
  type VerifyProblem,
  verifyRelease,
} from "../snapshot/index.js";
import type { RecordJson, ServedRelease } from "./catalog-index.js";

/** The most releases a server walks back for /v1/releases and deployment history. */
export const MAX_HISTORY_RELEASES = 500;

export interface ServedChain {
  /** Newest first, starting with the served release. */
  releases: ReleaseSummary[];
  /**
   * Whether the last release of the chain is the first ever published (its previous release
   * is null), so everything in it was added there; false when the chain ends at a release whose
   * previous one is pruned, damaged, or beyond MAX_HISTORY_RELEASES: that release's changes
   * are unknown.
   */
  complete: boolean;
  releaseJson: Buffer[];
  releaseIndex: Map<string, number>;
}

/**
 * A deployment's record in one release of the chain: its position in the served release (the
 * record is the one served), or its stored bytes (canonical JSON).
 */
type Version = number | Buffer;

interface HistoryEntry {
  /** The release's index in the chain. */
  release: number;
  change: HistoryChange[];
  before: Version | null;
  after: Version | null;
}

/** Deployment id -> its history entries, newest first. */
export type DeploymentHistory = Map<string, HistoryEntry[]>;

/** Computes `compute(release)` once per served release; a failure is not kept (the next request tries again). */
function memo<T>(
  memos: WeakMap<ServedRelease, Promise<T>>,
  release: ServedRelease,
  compute: () => Promise<T>,
): Promise<T> {
  let value = memos.get(release);
  if (!value) {
    value = compute();
    value.catch(() => memos.delete(release));
    memos.set(release, value);
  }
  return value;
}

const chains = new WeakMap<ServedRelease, Promise<ServedChain>>();
const histories = new WeakMap<ServedRelease, Promise<DeploymentHistory>>();

/** Where the chain is read from, and where a damaged release of it is reported. */
export interface ChainSource {
  snapshotsDir: string;
  logger: Logger;
}

/** The chain that ends at `release`, its older releases verified, computed on first use. */
export function servedChain(source: ChainSource, release: ServedRelease): Promise<ServedChain> {
  return memo(chains, release, () => computeChain(source, release));
}

/** Every deployment's history across the chain that ends at `release`, computed on first use. */
export function servedDeploymentHistory(
  source: ChainSource,
  release: ServedRelease,
): Promise<DeploymentHistory> {
  return memo(histories, release, async () =>
    computeDeploymentHistory(source.snapshotsDir, release, await servedChain(source, release)),
  );
}

/**
 * Older releases found intact, by snapshots directory and id: a release is immutable, so a
 * release switch (the nightly's) does not hash the whole chain again, only the releases it has
 * not seen. Files damaged later are still caught when read (every read checks the hash).
 */
const intact = new Set<string>();

/**
 * Forgets the chain and history of `release`, and which releases were found intact: the next
 * request reads and verifies the whole chain again (a reload of the same release).
 */
export function forgetChain(release: ServedRelease): void {
  chains.delete(release);
  histories.delete(release);
  intact.clear();
}

/**
 * The problems of an older release of the chain (its manifest, then every file re-hashed), or
 * null when it is there and intact; "pruned" when it is not there at all.
 */
async function olderReleaseProblems(snapshotsDir: string, id: string): Promise<VerifyProblem[] | "pruned"> {
  try {
    await readManifest(snapshotsDir, id);
  } catch (error) {
    if (error instanceof CatalogError && error.code === "release_not_found") return "pruned";
    if (error instanceof CatalogError && error.code === "release_damaged")
      return [{ file: "manifest.json", problem: error.message }];
    throw error;
  }
  const key = `${snapshotsDir}\n${id}`;
  if (intact.has(key)) return [];
  const problems = await verifyRelease(snapshotsDir, id);
  if (problems.length === 0) intact.add(key);
  return problems;
}

/**
 * The served release (verified when it was loaded), then each previous release that is there
 * and intact, newest first, at most MAX_HISTORY_RELEASES.
 */
async function verifiedChain(
  { snapshotsDir, logger }: ChainSource,
  release: ServedRelease,
): Promise<{ releases: ReleaseSummary[]; complete: boolean }> {
  const summary = async (id: string): Promise<ReleaseSummary> => {
    const manifest = await readManifest(snapshotsDir, id);
    return {
      id,
      created_at: manifest.created_at,
      previous_release_id: manifest.previous_release_id,
      counts: manifest.counts,
    };
  };
  const releases: ReleaseSummary[] = [await summary(release.releaseId)];
  const seen = new Set([release.releaseId]);
  let previous = releases[0]?.previous_release_id ?? null;
  while (previous !== null && !seen.has(previous) && releases.length < MAX_HISTORY_RELEASES) {
    const problems = await olderReleaseProblems(snapshotsDir, previous);
    if (problems === "pruned") break;
    if (problems.length > 0) {
      logger.warn(
        { release: previous, served: release.releaseId, problems },
        "a release of the served chain is damaged: the chain (release history) ends after it",
      );
      break;
    }
    const older = await summary(previous);
    releases.push(older);
    seen.add(previous);
    previous = older.previous_release_id;
  }
  return { releases, complete: releases.at(-1)?.previous_release_id === null };
}

async function computeChain(source: ChainSource, release: ServedRelease): Promise<ServedChain> {
  const { releases, complete } = await verifiedChain(source, release);
  const releaseJson = releases.map((r) =>
    Buffer.from(
      JSON.stringify({
        id: r.id,
        created_at: r.created_at,
        previous_release_id: r.previous_release_id,
        counts: r.counts,
      }),
    ),
  );
  return { releases, complete, releaseJson, releaseIndex: new Map(releases.map((r, i) => [r.id, i])) };
}

type Aspect = Exclude<HistoryChange, "added" | "removed">;

/** What each aspect compares: values, never observation or check times. */
const ASPECTS: Record<Aspect, (d: Deployment) => unknown> = {
  rate_card: (d) => (d.rate_card === null ? null : { ...d.rate_card, observed_at: null }),
  limits: (d) => [d.context_tokens, d.max_output_tokens],
  capabilities: (d) => d.capabilities,
  status: (d) => d.status,
  lifecycle: (d) => {
    const l = d.lifecycle;
    const milestone = (m: typeof l.end_of_life) => [m.state, m.date, m.precision, m.date_type];
    return [
      l.status,
      l.announced_at,
      milestone(l.deprecation),
      milestone(l.end_of_life),
      l.replacement_ids,
      l.coverage.status,
    ];
  },
};
const ASPECT_NAMES = Object.keys(ASPECTS) as Aspect[];

export function changesBetween(before: Deployment, after: Deployment): Aspect[] {
  return ASPECT_NAMES.filter(
    (aspect) => canonicalJson(ASPECTS[aspect](before)) !== canonicalJson(ASPECTS[aspect](after)),
  );
}

/** One release's deployments as the walk reads them. */
interface ChainRelease {
  /** Deployment id -> its position (the last one, should an id repeat). */
  positionOf: Map<string, number>;
  /** The stored bytes of the record at a position (a view: valid until the next call). */
  bytes(position: number): Buffer;
  close(): void;
}

const NO_RELEASE: ChainRelease = { positionOf: new Map(), bytes: () => Buffer.alloc(0), close: () => {} };

function servedChainRelease(release: ServedRelease): ChainRelease {
  const read = release.deployments.bytes();
  return { positionOf: release.deploymentById, bytes: (p) => read(p) as Buffer, close: () => {} };
}

/**
 * An older release of the chain, its catalog.json hash-checked and open. Read from its spans
 * when its serve-index.json is there and describes the catalog; otherwise (a release from
 * before serve-index.json, or a damaged index: history never needed it) parsed whole.
 */
async function openChainRelease(snapshotsDir: string, releaseId: string): Promise<ChainRelease> {
  const manifest = await readManifest(snapshotsDir, releaseId);
  const catalog = await OpenCatalog.open(snapshotsDir, manifest);
  try {
    if (manifest.files[SERVE_INDEX_FILE] !== undefined) {
      const index = await readServeIndex(snapshotsDir, manifest, catalog.bytes).catch((error: unknown) => {
        if (error instanceof CatalogError && error.code === "release_damaged") return null;
        throw error;
      });
      if (index) {
        const { id, offset, length } = index.deployments;
        const read = catalog.spanReader();
        return {
          positionOf: new Map(id.map((deploymentId, i) => [deploymentId, i])),
          bytes: (p) => read(offset[p] as number, length[p] as number),
          close: () => catalog.close(),
        };
      }
    }
    // Hash-checked above, and schema-checked when it was published.
    const whole = JSON.parse((await catalog.readAsync(0, catalog.bytes)).toString("utf8")) as CatalogContent;
    const deployments = whole.deployments;
    catalog.close();
    return {
      positionOf: new Map(deployments.map((d, i) => [d.id, i])),
      bytes: (p) => Buffer.from(canonicalJson(deployments[p]), "utf8"),
      close: () => {},
    };
  } catch (error) {
    catalog.close();
    throw error;
  }
}

// One list each, shared by every entry (the first release of a chain adds all its deployments).
const ADDED: HistoryChange[] = ["added"];
const REMOVED: HistoryChange[] = ["removed"];

/** Lets other requests run during a long walk. */
const YIELD_EVERY = 2_000;
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

async function computeDeploymentHistory(
  snapshotsDir: string,
  release: ServedRelease,
  chain: ServedChain,
): Promise<DeploymentHistory> {
  const history: DeploymentHistory = new Map();
  const push = (id: string, entry: HistoryEntry) => {
    const list = history.get(id);
    if (list) list.push(entry);
    else history.set(id, [entry]);
  };
  const parse = (bytes: Buffer) => JSON.parse(bytes.toString("utf8")) as Deployment;
  let newer = servedChainRelease(release);
  // The version of each of newer's records: first the served release's positions themselves.
  let newerVersion: (position: number) => Version = (position) => position;
  try {
    for (let i = 0; i < chain.releases.length; i++) {
      const olderId = chain.releases[i + 1]?.id ?? null;
      // The last release of the chain: when it is the first ever published, everything in it
      // was added there; when its previous release is pruned or damaged, its changes are unknown.
      if (olderId === null && !chain.complete) break;
      const older = olderId === null ? NO_RELEASE : await openChainRelease(snapshotsDir, olderId);
      const olderVersions = new Array<Version>(older.positionOf.size);
      let done = 0;
      for (const [id, position] of newer.positionOf) {
        if (++done % YIELD_EVERY === 0) await yieldToRequests();
        const after = newerVersion(position);
        const olderPosition = older.positionOf.get(id);
        if (olderPosition === undefined) {
          push(id, { release: i, change: ADDED, before: null, after });
          continue;
        }
        const afterBytes = newer.bytes(position);
        const beforeBytes = older.bytes(olderPosition);
        // The same bytes are the same record: nothing changed, and the older one is that version.
        if (afterBytes.equals(beforeBytes)) {
          olderVersions[olderPosition] = after;
          continue;
        }
        const before = Buffer.from(beforeBytes);
        olderVersions[olderPosition] = before;
        const change = changesBetween(parse(before), parse(afterBytes));
        if (change.length > 0) push(id, { release: i, change, before, after });
      }
      for (const [id, position] of older.positionOf) {
        if (newer.positionOf.has(id)) continue;
        const before = Buffer.from(older.bytes(position));
        olderVersions[position] = before;
        push(id, { release: i, change: REMOVED, before, after: null });
      }
      newer.close();
      newer = older;
      newerVersion = (position) => olderVersions[position] as Version;
    }
  } finally {
    newer.close();
  }
  return history;
}

/**
 * A deployment's history entries as the API serves them, each serialized when a page needs it:
 * `{release_id, created_at, change, before, after}`, before / after in the field order the
 * API serves deployments in (stored records have the canonical, sorted one).
 */
export function historyEntriesJson(
  chain: ServedChain,
  release: ServedRelease,
  entries: readonly HistoryEntry[],
): RecordJson {
  const deploymentJson = (version: Version | null): string => {
    if (version === null) return "null";
    if (typeof version === "number") return (release.deploymentJson.at(version) as Buffer).toString("utf8");
    return JSON.stringify(Deployment.parse(JSON.parse(version.toString("utf8"))));
  };
  return {
    length: entries.length,
    at(index) {
      const entry = entries[index];
      if (entry === undefined) return undefined;
      const summary = chain.releases[entry.release] as ReleaseSummary;
      return Buffer.from(
        `{"release_id":${JSON.stringify(summary.id)},"created_at":${JSON.stringify(summary.created_at)},` +
          `"change":${JSON.stringify(entry.change)},"before":${deploymentJson(entry.before)},` +
          `"after":${deploymentJson(entry.after)}}`,
      );
    },
  };
}

/**
 * A release's diff against its previous release, as `catalog diff --format json` prints it:
 * the release's stored diff.json with `to_release_id` set to the release.
 */
export async function releaseDiffJson(snapshotsDir: string, releaseId: string): Promise<Buffer> {
  const manifest = await readManifest(snapshotsDir, releaseId);
  const stored = JSON.parse((await readReleaseFile(snapshotsDir, manifest, DIFF_JSON)).toString("utf8")) as {
    to_release_id: string | null;
  };
  return Buffer.from(JSON.stringify({ ...stored, to_release_id: releaseId }));
}
