/**
 * The release history routes (docs/decisions.md, "Release history, browsing and exports"):
 * /v1/releases, /v1/releases/{id}, /v1/releases/{id}/diff and /v1/deployments/{id}/history,
 * read from the served release's chain in the snapshots directory.
 */
import { ListHistoryQuery, ListReleasesQuery } from "../../schema/index.js";
import {
  type ChainSource,
  historyEntriesJson,
  releaseDiffJson,
  type ServedChain,
  servedChain,
  servedDeploymentHistory,
} from "../history.js";
import { decodePathParam, ProblemError, parseNoQuery, parseQuery } from "../http.js";
import { allPositions, pageBody, paginate } from "../page.js";
import { lazyAnswer, type ResourceInput, type RouteHandler, readyAnswer } from "./handler.js";

/**
 * Where the served chain ends: part of the ETag of the answers that list it, since a reload of
 * the same release can verify its chain again and end it earlier (a release damaged since).
 */
function chainEnd(history: ServedChain): string {
  return history.releases.at(-1)?.id ?? "";
}

/** Where the chain is read; 404 on a server started without a snapshots directory. */
function sourceOf(input: ResourceInput): ChainSource {
  if (input.snapshotsDir === undefined)
    throw new ProblemError("not_found", "release history is not available on this server");
  return { snapshotsDir: input.snapshotsDir, logger: input.logger };
}

/** The snapshots directory and the served chain (its verified releases). */
async function chain(
  input: ResourceInput,
): Promise<{ source: ChainSource; snapshotsDir: string; history: ServedChain }> {
  const source = sourceOf(input);
  return { source, snapshotsDir: source.snapshotsDir, history: await servedChain(source, input.release) };
}

export const releases: RouteHandler = {
  kind: "resource",
  prepare: async (input) => {
    const { history } = await chain(input);
    const query = parseQuery(ListReleasesQuery, input.rawQuery);
    return lazyAnswer(input, { ...query, chain: chainEnd(history) }, () =>
      pageBody(
        history.releaseJson,
        paginate(allPositions(history.releases.length), query.limit, query.offset),
      ),
    );
  },
};

/** The position of the release named by the path in the served chain, or 404. */
async function releaseAt(
  input: ResourceInput,
): Promise<{ id: string; position: number; snapshotsDir: string; history: ServedChain }> {
  const { snapshotsDir, history } = await chain(input);
  parseNoQuery(input.rawQuery);
  const id = decodePathParam(input.param);
  const position = history.releaseIndex.get(id);
  if (position === undefined)
    throw new ProblemError("not_found", `no release "${id}" in the chain of the served release`);
  return { id, position, snapshotsDir, history };
}

export const release: RouteHandler = {
  kind: "resource",
  prepare: async (input) => {
    const { id, position, history } = await releaseAt(input);
    const body = history.releaseJson[position];
    if (body === undefined)
      throw new ProblemError("not_found", `no release "${id}" in the chain of the served release`);
    return readyAnswer(input, { id }, body);
  },
};

export const releaseDiff: RouteHandler = {
  kind: "resource",
  prepare: async (input) => {
    const { id, snapshotsDir } = await releaseAt(input);
    return readyAnswer(input, { id }, await releaseDiffJson(snapshotsDir, id));
  },
};

export const deploymentHistory: RouteHandler = {
  kind: "resource",
  prepare: async (input) => {
    const { source, history } = await chain(input);
    const deployments = await servedDeploymentHistory(source, input.release);
    const query = parseQuery(ListHistoryQuery, input.rawQuery);
    const id = decodePathParam(input.param);
    const entries = deployments.get(id);
    if (!entries)
      throw new ProblemError("not_found", `no release of the served chain ever held a deployment "${id}"`);
    return lazyAnswer(input, { id, ...query, chain: chainEnd(history) }, () =>
      pageBody(
        historyEntriesJson(history, input.release, entries),
        paginate(allPositions(entries.length), query.limit, query.offset),
      ),
    );
  },
};
