/**
 * Browsing a served release: providers and models (each with its lifecycle record and
 * summary), and the sort orders of GET /v1/deployments. Built on first use per release and
 * kept beside it (a WeakMap keyed by the ServedRelease), so a release switch drops them with
 * the release and the shared index stays as it is.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import {
  type DeploymentSort,
  LifecycleRecord,
  type ListModelsQuery,
  type ListProvidersQuery,
  type Model,
  type Provider,
} from "../schema/index.js";
import type { DeploymentFields, ServedRelease } from "./catalog-index.js";
import { allPositions, nullsLastOrder, type PageResult, paginate } from "./page.js";

export interface BrowseIndex {
  /** Sorted by id. */
  providers: Provider[];
  providerJson: Buffer[];
  /** Sorted by id. */
  models: Model[];
  modelJson: Buffer[];
  modelById: Map<string, number>;
  modelsByProvider: Map<string, number[]>;
}

const browseIndexes = new WeakMap<ServedRelease, BrowseIndex>();

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), "utf8");
}

export function browseIndex(release: ServedRelease): BrowseIndex {
  const cached = browseIndexes.get(release);
  if (cached) return cached;
  const providersOf = new Map<string, Set<string>>();
  const { model_id: modelOf, provider_id: providerOf } = release.deploymentFields;
  providerOf.forEach((provider, i) => {
    const model = modelOf[i] ?? "";
    const set = providersOf.get(model) ?? new Set<string>();
    set.add(provider);
    providersOf.set(model, set);
  });
  const providers: Provider[] = [];
  const models: Model[] = [];
  // Lifecycle records are sorted by (resource_type, resource_id), so each list is in id order;
  // only the records with a summary (providers and models) are read, each through the schema
  // for the API's field order (stored records have the canonical one).
  for (const position of release.lifecycleFields.summary) {
    const stored = release.lifecycle.at(position);
    const record = stored === undefined ? undefined : LifecycleRecord.parse(stored);
    if (!record?.summary) continue;
    if (record.resource_type === "provider")
      providers.push({ id: record.resource_id, lifecycle: record.lifecycle, summary: record.summary });
    else if (record.resource_type === "model")
      models.push({
        id: record.resource_id,
        provider_ids: [...(providersOf.get(record.resource_id) ?? [])].sort(compareCodePoints),
        lifecycle: record.lifecycle,
        summary: record.summary,
      });
  }
  const modelsByProvider = new Map<string, number[]>();
  models.forEach((m, i) => {
    for (const p of m.provider_ids) {
      const list = modelsByProvider.get(p);
      if (list) list.push(i);
      else modelsByProvider.set(p, [i]);
    }
  });
  const index: BrowseIndex = {
    providers,
    providerJson: providers.map(json),
    models,
    modelJson: models.map(json),
    modelById: new Map(models.map((m, i) => [m.id, i])),
    modelsByProvider,
  };
  browseIndexes.set(release, index);
  return index;
}

export function listProviders(index: BrowseIndex, query: ListProvidersQuery): PageResult {
  return paginate(allPositions(index.providers.length), query.limit, query.offset);
}

/**
 * Models by provider and free text (every whitespace-separated term in the model id,
 * case-insensitively), ordered by id or by the stated release day (nulls last, ties by id).
 */
export function listModels(index: BrowseIndex, query: ListModelsQuery): PageResult {
  const candidates =
    query.provider === undefined
      ? allPositions(index.models.length)
      : (index.modelsByProvider.get(query.provider) ?? []);
  const terms = query.q === undefined ? [] : query.q.toLowerCase().split(/\s+/).filter(Boolean);
  const matches =
    terms.length === 0
      ? candidates
      : candidates.filter((i) => {
          const id = index.models[i]?.id.toLowerCase() ?? "";
          return terms.every((t) => id.includes(t));
        });
  if (query.sort === "id") return paginate(matches, query.limit, query.offset);
  const rank = releasedRanks(index, query.sort === "-released_at");
  return paginate(
    [...matches].sort((a, b) => (rank[a] as number) - (rank[b] as number)),
    query.limit,
    query.offset,
  );
}

/** Per model position, its rank by `summary.released_at` (nulls last in both orders, ties by id). */
function releasedRanks(index: BrowseIndex, descending: boolean): Uint32Array {
  const order = nullsLastOrder(
    index.models.map((m) => m.summary.released_at ?? null),
    compareCodePoints,
    descending,
  );
  const rank = new Uint32Array(order.length);
  order.forEach((position, r) => {
    rank[position] = r;
  });
  return rank;
}

// --- Deployment sort orders -----------------------------------------------------------------

type SortKey = "input_price" | "output_price" | "context_tokens";

const SORT_VALUES: Record<SortKey, (d: DeploymentFields) => ReadonlyArray<number | null>> = {
  input_price: (d) => d.input_micro_usd,
  output_price: (d) => d.output_micro_usd,
  context_tokens: (d) => d.context_tokens,
};

/** Per release and sort: the rank of every deployment position (nulls last, ties by id). */
const sortRanks = new WeakMap<ServedRelease, Map<DeploymentSort, Uint32Array>>();

function ranks(release: ServedRelease, sort: DeploymentSort): Uint32Array {
  let byRelease = sortRanks.get(release);
  if (!byRelease) {
    byRelease = new Map();
    sortRanks.set(release, byRelease);
  }
  const cached = byRelease.get(sort);
  if (cached) return cached;
  const descending = sort.startsWith("-");
  const key = (descending ? sort.slice(1) : sort) as SortKey | "id";
  let positions: number[];
  if (key === "id") {
    // positions are id order already
    positions = allPositions(release.deploymentCount);
    if (descending) positions.reverse();
  } else {
    positions = nullsLastOrder(SORT_VALUES[key](release.deploymentFields), (a, b) => a - b, descending);
  }
  const rank = new Uint32Array(positions.length);
  positions.forEach((position, r) => {
    rank[position] = r;
  });
  byRelease.set(sort, rank);
  return rank;
}

/** Orders matching deployment positions (given in id order) by the requested sort. */
export function sortDeployments(release: ServedRelease, matches: number[], sort: DeploymentSort): number[] {
  if (sort === "id") return matches;
  const rank = ranks(release, sort);
  return matches.sort((a, b) => (rank[a] as number) - (rank[b] as number));
}
