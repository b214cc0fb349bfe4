/**
 * The GET routes of release history and browsing (decisions.md, "Release history, browsing and
 * exports"): /v1/providers, /v1/models, /v1/models/{id}, /v1/releases, /v1/releases/{id},
 * /v1/releases/{id}/diff and /v1/deployments/{id}/history. Each validates its query strictly and
 * fixes its ETag from the served release and the normalized request, like the other GETs.
 */

import { z } from "zod";
import { ListHistoryQuery, ListModelsQuery, ListProvidersQuery, ListReleasesQuery } from "../schema/index.js";
import { browseIndex, listModels, listProviders } from "./browse.js";
import type { ServedRelease } from "./catalog-index.js";
import { releaseDiffJson, servedHistory } from "./history.js";
import { etagFor, ProblemError, parseQuery } from "./http.js";
import { type PageResult, pageBody } from "./query.js";
import type { PreparedAnswer } from "./response-cache.js";

export type BrowseRouteName =
  | "providers"
  | "models"
  | "model"
  | "releases"
  | "release"
  | "release_diff"
  | "deployment_history";

const EMPTY_QUERY = z.strictObject({});

function decoded(param: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    return "";
  }
}

function paginate(total: number, limit: number, offset: number): PageResult {
  const positions: number[] = [];
  for (let i = offset; i < Math.min(total, offset + limit); i++) positions.push(i);
  return { meta: { total, limit, offset, has_more: offset + limit < total }, positions };
}

export async function prepareBrowseGet(
  name: BrowseRouteName,
  param: string,
  rawQuery: string,
  release: ServedRelease,
  snapshotsDir: string | undefined,
): Promise<PreparedAnswer> {
  const prepared = (normalized: unknown, build: () => Buffer): PreparedAnswer => ({
    etag: etagFor(release.releaseId, name, normalized),
    build,
    body: null,
  });
  const ready = (normalized: unknown, body: Buffer): PreparedAnswer => ({
    etag: etagFor(release.releaseId, name, normalized),
    build: () => body,
    body,
  });
  switch (name) {
    case "providers": {
      const query = parseQuery(ListProvidersQuery, rawQuery);
      const index = browseIndex(release);
      return prepared(query, () => pageBody(index.providerJson, listProviders(index, query)));
    }
    case "models": {
      const query = parseQuery(ListModelsQuery, rawQuery);
      const index = browseIndex(release);
      return prepared(query, () => pageBody(index.modelJson, listModels(index, query)));
    }
    case "model": {
      parseQuery(EMPTY_QUERY, rawQuery);
      const id = decoded(param);
      const index = browseIndex(release);
      const position = index.modelById.get(id);
      if (position === undefined)
        throw new ProblemError("not_found", `no model with id "${id}" in this release`);
      return ready({ id }, index.modelJson[position] as Buffer);
    }
    default:
      break;
  }
  if (snapshotsDir === undefined)
    throw new ProblemError("not_found", "release history is not available on this server");
  const history = await servedHistory(snapshotsDir, release);
  switch (name) {
    case "releases": {
      const query = parseQuery(ListReleasesQuery, rawQuery);
      return prepared(query, () =>
        pageBody(history.releaseJson, paginate(history.releases.length, query.limit, query.offset)),
      );
    }
    case "release":
    case "release_diff": {
      parseQuery(EMPTY_QUERY, rawQuery);
      const id = decoded(param);
      const position = history.releaseIndex.get(id);
      if (position === undefined)
        throw new ProblemError("not_found", `no release "${id}" in the chain of the served release`);
      if (name === "release") return ready({ id }, history.releaseJson[position] as Buffer);
      return ready({ id }, await releaseDiffJson(snapshotsDir, id));
    }
    default: {
      const query = parseQuery(ListHistoryQuery, rawQuery);
      const id = decoded(param);
      const entries = history.deploymentEntries.get(id);
      if (!entries)
        throw new ProblemError("not_found", `no release of the served chain ever held a deployment "${id}"`);
      return prepared({ id, ...query }, () =>
        pageBody(entries, paginate(entries.length, query.limit, query.offset)),
      );
    }
  }
}
