/**
 * Release history as the server answers it: the chain of releases that ends at the served
 * release (following previous_release_id in the snapshots directory), each release's diff,
 * and every deployment's history across that chain.
 *
 * Computed once per served release, on the first request that needs it (a release switch
 * makes a new ServedRelease and so a new history), and shared by concurrent requests. Memory
 * stays bounded: the walk holds two catalogs at a time (the newer and the older of a pair),
 * keeps only the entries of deployments that changed, each pre-serialized, and covers at most
 * MAX_HISTORY_RELEASES releases.
 */
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import { type ReleaseSummary, releaseHistory } from "../release/index.js";
import { type CatalogContent, Deployment, type HistoryChange } from "../schema/index.js";
import { CATALOG_FILE, DIFF_JSON, readManifest, readReleaseFile } from "../snapshot/index.js";
import type { ServedRelease } from "./catalog-index.js";

/** The most releases a server walks back for /v1/releases and deployment history. */
export const MAX_HISTORY_RELEASES = 500;

export interface ServedHistory {
  /** Newest first, starting with the served release. */
  releases: ReleaseSummary[];
  releaseJson: Buffer[];
  releaseIndex: Map<string, number>;
  /** Deployment id -> its history entries (pre-serialized), newest first. */
  deploymentEntries: Map<string, Buffer[]>;
}

const histories = new WeakMap<ServedRelease, Promise<ServedHistory>>();

/** The history of the chain that ends at `release`, computed on first use. */
export function servedHistory(snapshotsDir: string, release: ServedRelease): Promise<ServedHistory> {
  let history = histories.get(release);
  if (!history) {
    history = computeHistory(snapshotsDir, release);
    // A failure (e.g. an older release damaged) is not cached: the next request tries again.
    history.catch(() => histories.delete(release));
    histories.set(release, history);
  }
  return history;
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

async function readDeployments(snapshotsDir: string, releaseId: string): Promise<Deployment[]> {
  const manifest = await readManifest(snapshotsDir, releaseId);
  // Hash-verified by readReleaseFile, and schema-checked when it was published.
  const catalog = JSON.parse(
    (await readReleaseFile(snapshotsDir, manifest, CATALOG_FILE)).toString("utf8"),
  ) as CatalogContent;
  return catalog.deployments;
}

async function computeHistory(snapshotsDir: string, release: ServedRelease): Promise<ServedHistory> {
  const releases = (await releaseHistory(snapshotsDir, release.releaseId)).slice(0, MAX_HISTORY_RELEASES);
  const deploymentEntries = new Map<string, Buffer[]>();
  const push = (id: string, entry: Buffer) => {
    const list = deploymentEntries.get(id);
    if (list) list.push(entry);
    else deploymentEntries.set(id, [entry]);
  };
  let newer = new Map((await release.deployments.all()).map((d) => [d.id, d]));
  for (let i = 0; i < releases.length; i++) {
    const summary = releases[i] as ReleaseSummary;
    const olderId = summary.previous_release_id;
    // The first release of the chain: everything in it was added there.
    let older = new Map<string, Deployment>();
    if (olderId !== null) {
      try {
        older = new Map((await readDeployments(snapshotsDir, olderId)).map((d) => [d.id, d]));
      } catch (error) {
        // A pruned previous release ends what can be said: this release's changes are unknown.
        if (error instanceof CatalogError && error.code === "release_not_found") break;
        throw error;
      }
    }
    const entry = (change: HistoryChange[], before: Deployment | null, after: Deployment | null) =>
      Buffer.from(
        JSON.stringify({
          release_id: summary.id,
          created_at: summary.created_at,
          change,
          // Older releases are read without the schema pass; parsing gives every entry the
          // field order the API serves deployments in.
          before: before === null ? null : Deployment.parse(before),
          after: after === null ? null : Deployment.parse(after),
        }),
      );
    for (const [id, after] of newer) {
      const before = older.get(id);
      if (!before) push(id, entry(["added"], null, after));
      else {
        const changes = changesBetween(before, after);
        if (changes.length > 0) push(id, entry(changes, before, after));
      }
    }
    for (const [id, before] of older) if (!newer.has(id)) push(id, entry(["removed"], before, null));
    newer = older;
  }
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
  return {
    releases,
    releaseJson,
    releaseIndex: new Map(releases.map((r, i) => [r.id, i])),
    deploymentEntries,
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
