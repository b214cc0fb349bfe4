/**
 * Merge step 0, before the candidates: a community deployment that names a model without its
 * version, at a provider that deploys a model only at one of its versions (an identity with
 * `versionedDeployments`: Azure, where a deployment is a model name plus a version and the bare
 * name is no deployable model of its own).
 *
 * LiteLLM keys Azure models both ways: `azure/gpt-5.1` beside the official tables' `gpt-5.1`
 * version `2025-11-13` (`gpt-5.1-2025-11-13`). Kept apart, the bare name is a second deployment
 * of the same thing, with status unknown because no official source names it, even when the
 * provider's own pages retire the only version it can mean. So, where the official deployment
 * facts place exactly one version of that name on the same api_surface and region
 * (`unversionedName` of their provider model ids), the community fact is a fact about that
 * version's deployment: it takes that version's provider model id and model id, and its values
 * rank as community values there (an official value still wins, and a disagreement is a
 * reported conflict). Where they place no version or two or more (`gpt-4o` has three), it stays
 * as it is: a version is never guessed. A source that names both the bare name and that version
 * keeps its versioned fact; the bare one is its alias and is dropped. Community lifecycle
 * assertions aimed at the bare name on that surface and region follow the same rule.
 *
 * facts.json keeps what each source said; only the merge sees the resolved facts. Pure.
 */
import { deploymentId } from "../lib/ids.js";
import { identityOf } from "../normalize/identity/index.js";
import type { DeploymentFact, LifecycleAssertion } from "../schema/index.js";
import type { SourceFacts } from "./facts.js";
import { onlyVersion, unversionedName, versionKey, versionsByName } from "./model-facts.js";

interface Version {
  providerModelId: string;
  modelId: string;
}

/** Where a bare name's versions are counted: its surface and region. */
const placeOf = (d: Pick<DeploymentFact, "api_surface" | "region">) => `${d.api_surface}|${d.region}`;

export function resolveUnversionedNames(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
  versioned: (providerId: string) => boolean = (id) => identityOf(id)?.versionedDeployments === true,
): SourceFacts[] {
  // the versions official deployment facts place, per surface and region (model-facts.ts
  // versionsByName: the one "only version" mechanism)
  const places = versionsByName(
    sources,
    isOfficial,
    (d) => (versioned(d.provider_id) ? unversionedName(d.provider_model_id) : undefined),
    placeOf,
  );
  if (places.size === 0) return [...sources];
  const officialIds = new Set<string>();
  for (const source of sources)
    if (isOfficial(source))
      for (const d of source.output.deployments)
        if (versioned(d.provider_id)) officialIds.add(`${d.provider_id}|${d.provider_model_id}`);
  /** The one version the official facts place for a bare community name, or null. */
  const versionFor = (provider: string, name: string, surface: string, region: string): Version | null => {
    if (!versioned(provider) || officialIds.has(`${provider}|${name}`)) return null;
    const only = onlyVersion(places, versionKey(provider, name, placeOf({ api_surface: surface, region })));
    return only ? { providerModelId: only.provider_model_id, modelId: only.model_id } : null;
  };
  const resolved = sources.map((source): SourceFacts => {
    if (isOfficial(source)) return source;
    const ownIds = new Set(source.output.deployments.map((d) => d.id));
    let changed = false;
    const deployments: DeploymentFact[] = [];
    for (const d of source.output.deployments) {
      const version = versionFor(d.provider_id, d.provider_model_id, d.api_surface, d.region);
      if (version === null) {
        deployments.push(d);
        continue;
      }
      changed = true;
      const identity = { ...d, provider_model_id: version.providerModelId, model_id: version.modelId };
      const id = deploymentId(identity);
      if (ownIds.has(id)) continue; // the source's own versioned fact speaks for this deployment
      deployments.push({ ...identity, id });
    }
    const lifecycle: LifecycleAssertion[] = source.output.lifecycle.map((a) => {
      const target = a.target;
      if (
        a.scope !== "deployment" ||
        !target ||
        target.api_surface === undefined ||
        target.region === undefined
      )
        return a;
      const version = versionFor(a.provider_id, target.provider_model_id, target.api_surface, target.region);
      if (version === null) return a;
      changed = true;
      return {
        ...a,
        model_id: version.modelId,
        target: { ...target, provider_model_id: version.providerModelId },
      };
    });
    return changed ? { ...source, output: { ...source.output, deployments, lifecycle } } : source;
  });
  return resolved;
}
