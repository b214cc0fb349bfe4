/**
 * Merge step: resolve replacements. A lifecycle names its replacements as the provider does;
 * the catalog lists canonical model ids, and says why a name could not be resolved. Runs once
 * every deployment's status is known, because a name without its version resolves to the
 * current version only. Pure functions.
 */
import { identityOf } from "../normalize/identity/index.js";
import type { Deployment, LifecycleStatus, ResourceType } from "../schema/index.js";
import type { CatalogIdentities } from "./merge-candidates.js";
import type { PickedLifecycle } from "./merge-lifecycle.js";
import type { UnresolvedReason, UnresolvedReplacement } from "./types.js";

/**
 * Statuses of a version that is no longer the current one of its name: a name without its
 * version never resolves to a model whose every deployment has one of these. (`unknown` is
 * not among them: a deployment an availability source places with no lifecycle fact yet.)
 */
const SUPERSEDED: ReadonlySet<LifecycleStatus> = new Set(["legacy", "deprecated", "retired"]);

export interface ReplacementIndex {
  modelByProviderModel: ReadonlyMap<string, string>;
  modelsByProviderFamily: ReadonlyMap<string, ReadonlySet<string>>;
  modelIds: ReadonlySet<string>;
  /** provider|model of every model with a current (not superseded) deployment at that provider. */
  currentAtProvider: ReadonlySet<string>;
}

export function replacementIndex(
  identities: Pick<CatalogIdentities, "modelByProviderModel" | "modelsByProviderFamily" | "modelIds">,
  deployments: readonly Deployment[],
): ReplacementIndex {
  const currentAtProvider = new Set<string>();
  for (const d of deployments)
    if (!SUPERSEDED.has(d.status)) currentAtProvider.add(`${d.provider_id}|${d.model_id}`);
  return {
    modelByProviderModel: identities.modelByProviderModel,
    modelsByProviderFamily: identities.modelsByProviderFamily,
    modelIds: identities.modelIds,
    currentAtProvider,
  };
}

/**
 * A provider-named replacement to a canonical model id: the provider's identity module
 * resolves an alias first (`claude-sonnet-4-5` -> the dated id); then the model of that
 * provider model id at the provider; then, for a name without its version, the one current
 * versioned model of that name at the provider (never a deprecated or retired dated version);
 * then the identity's canonical id of the name when the catalog knows that model.
 */
export function resolveReplacement(
  index: ReplacementIndex,
  providerId: string,
  name: string,
  own: string | null,
): string | UnresolvedReason {
  const module = identityOf(providerId);
  const providerModelId = module ? module.providerModelId(name) : name;
  let target = index.modelByProviderModel.get(`${providerId}|${providerModelId}`);
  if (target === undefined) {
    const versions = [...(index.modelsByProviderFamily.get(`${providerId}|${providerModelId}`) ?? [])].filter(
      (m) => m !== own && index.currentAtProvider.has(`${providerId}|${m}`),
    );
    if (versions.length > 1) return "ambiguous";
    target = versions[0];
  }
  if (target === undefined && module) {
    let canonical: string | undefined;
    try {
      canonical = module.canonicalModelId(providerModelId);
    } catch {
      canonical = undefined;
    }
    if (canonical !== undefined && index.modelIds.has(canonical)) target = canonical;
  }
  if (target === undefined && index.modelIds.has(name)) target = name;
  if (target === undefined) return "no_match";
  return target === own ? "self" : target;
}

/** Every picked replacement of one resource resolved (in order, without repeats), and those that were not. */
export function resolveReplacements(
  index: ReplacementIndex,
  resourceType: ResourceType,
  resourceId: string,
  own: string | null,
  picked: PickedLifecycle["replacements"],
): { ids: string[]; unresolved: UnresolvedReplacement[] } {
  const ids: string[] = [];
  const unresolved: UnresolvedReplacement[] = [];
  if (!picked) return { ids, unresolved };
  for (const replacement of picked.ids) {
    const target = resolveReplacement(index, picked.from.assertion.provider_id, replacement, own);
    if (target === "no_match" || target === "ambiguous" || target === "self") {
      unresolved.push({
        resource_type: resourceType,
        resource_id: resourceId,
        replacement,
        reason: target,
        source_id: picked.from.source.source_id,
      });
      continue;
    }
    if (!ids.includes(target)) ids.push(target);
  }
  return { ids, unresolved };
}
