/**
 * Merge step 1, gather candidates: every deployment fact and lifecycle assertion of the gathered
 * facts, ranked (precedence.ts), indexed by what they speak about; then each
 * deployment's identity from its best fact, and the indexes replacement resolution needs.
 * Pure functions of the facts.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import type { DeploymentFact, Evidence, LifecycleAssertion, LifecycleMilestone } from "../schema/index.js";
import type { SourceFacts } from "./facts.js";
import {
  indexModelFacts,
  type ModelFactIndex,
  onlyVersion,
  unversionedName,
  versionsByName,
} from "./model-facts.js";
import { comparePrecedence, factLevel, type PrecedenceKey } from "./precedence.js";

/** A deployment fact with what ranks it (precedence.ts; a fact has no scope: specificity 0). */
export interface RankedFact extends PrecedenceKey {
  fact: DeploymentFact;
  source: SourceFacts;
  /** Its source only fills deployments other sources place (fills.ts). */
  fillsOnly: boolean;
  /** Datasets its source is not independent of (precedence.ts independent). */
  notIndependentOf: readonly string[];
}

/** A lifecycle assertion with what ranks it (its specificity: specificityOf). */
export interface RankedAssertion extends PrecedenceKey {
  assertion: LifecycleAssertion;
  source: SourceFacts;
}

export function isOfficial(source: SourceFacts): boolean {
  return source.source_type !== "community_catalog";
}

export const compareFacts: (a: RankedFact, b: RankedFact) => number = comparePrecedence;
export const compareAssertions: (a: RankedAssertion, b: RankedAssertion) => number = comparePrecedence;

/** A deployment fact of a source, ranked. */
export function rankFact(
  fact: DeploymentFact,
  source: SourceFacts,
  official: boolean,
  index: number,
): RankedFact {
  return {
    fact,
    source,
    fillsOnly: source.fills_only === true,
    notIndependentOf: source.not_independent_of ?? [],
    official,
    specificity: 0,
    verification: factLevel(official, fact.evidence.verification_status),
    observedMs: Date.parse(fact.evidence.observed_at),
    sourceId: source.source_id,
    index,
  };
}

export function specificityOf(assertion: LifecycleAssertion): number {
  if (assertion.scope === "provider") return 0;
  if (assertion.scope === "model") return 10;
  const target = assertion.target;
  return 20 + [target?.region, target?.api_surface, target?.mode].filter((v) => v !== undefined).length;
}

/** Whether a deployment-scope target (provider model id already matched) covers a deployment. */
export function targets(target: LifecycleAssertion["target"], identity: DeploymentFact): boolean {
  return (
    (target?.region === undefined || target.region === identity.region) &&
    (target?.api_surface === undefined || target.api_surface === identity.api_surface) &&
    (target?.mode === undefined || target.mode === identity.mode)
  );
}

export function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export interface Candidates {
  /** Deployment id -> its facts, best first. */
  factsById: Map<string, RankedFact[]>;
  /** provider|provider_model_id -> deployment-scope assertions (unsorted). */
  deploymentAssertions: Map<string, RankedAssertion[]>;
  /** model id -> model-scope assertions (unsorted). */
  modelAssertions: Map<string, RankedAssertion[]>;
  /** provider id -> provider-scope assertions (unsorted). */
  providerAssertions: Map<string, RankedAssertion[]>;
  modelFacts: ModelFactIndex;
}

export function gatherCandidates(sources: readonly SourceFacts[]): Candidates {
  const factsById = new Map<string, RankedFact[]>();
  const deploymentAssertions = new Map<string, RankedAssertion[]>();
  const modelAssertions = new Map<string, RankedAssertion[]>();
  const providerAssertions = new Map<string, RankedAssertion[]>();
  for (const source of sources) {
    const official = isOfficial(source);
    source.output.deployments.forEach((fact, index) => {
      push(factsById, fact.id, rankFact(fact, source, official, index));
    });
    source.output.lifecycle.forEach((assertion, index) => {
      const ranked: RankedAssertion = {
        assertion,
        source,
        official,
        specificity: specificityOf(assertion),
        verification: factLevel(official, assertion.evidence.verification_status),
        observedMs: Date.parse(assertion.evidence.observed_at),
        sourceId: source.source_id,
        index,
      };
      if (assertion.scope === "deployment" && assertion.target)
        push(deploymentAssertions, `${assertion.provider_id}|${assertion.target.provider_model_id}`, ranked);
      else if (assertion.scope === "model" && assertion.model_id)
        push(modelAssertions, assertion.model_id, ranked);
      else if (assertion.scope === "provider") push(providerAssertions, assertion.provider_id, ranked);
    });
  }
  for (const ranked of factsById.values()) ranked.sort(compareFacts);
  applyToOnlyVersion(sources, deploymentAssertions);
  return {
    factsById,
    deploymentAssertions,
    modelAssertions,
    providerAssertions,
    modelFacts: indexModelFacts(sources, isOfficial),
  };
}

/**
 * An official deployment-scope assertion that names a model without the `@<version>` its
 * provider deploys it at (Vertex AI's partner model deprecations page: "Model ID
 * `claude-3-haiku`", deployed as `claude-3-haiku@20240307`) also speaks for that version, where
 * the build's deployment facts name exactly one `<name>@<version>` at the provider; there it is
 * `official_inferred` (the page does not name that id). Where they name two or more versions
 * (`mistral-large@2407`, `mistral-large@2411-001`), it applies to none: a version is never
 * guessed. Adds to `deploymentAssertions` in place.
 */
function applyToOnlyVersion(
  sources: readonly SourceFacts[],
  deploymentAssertions: Map<string, RankedAssertion[]>,
): void {
  const versions = versionsByName(
    sources,
    () => true,
    (d) => atVersionName(d.provider_model_id),
  );
  for (const [key, list] of [...deploymentAssertions]) {
    // deploymentAssertions' keys are provider|provider_model_id: versionKey's without a scope
    const versioned = onlyVersion(versions, key)?.provider_model_id;
    if (versioned === undefined) continue;
    const provider = key.slice(0, key.indexOf("|"));
    for (const ranked of list) {
      const { assertion } = ranked;
      if (!ranked.official || !assertion.target) continue;
      push(deploymentAssertions, `${provider}|${versioned}`, {
        ...ranked,
        verification: "official_inferred",
        assertion: {
          ...assertion,
          evidence: inferred(assertion.evidence),
          target: { ...assertion.target, provider_model_id: versioned },
          ...(assertion.deprecation ? { deprecation: inferredMilestone(assertion.deprecation) } : {}),
          ...(assertion.end_of_life ? { end_of_life: inferredMilestone(assertion.end_of_life) } : {}),
        },
      });
    }
  }
}

/** `claude-3-haiku@20240307` -> `claude-3-haiku`; undefined for an id without an `@` version. */
function atVersionName(providerModelId: string): string | undefined {
  const at = providerModelId.indexOf("@");
  return at > 0 ? providerModelId.slice(0, at) : undefined;
}

/**
 * An official deployment-scope statement stated for a target it does not name (another id, a
 * profile's Region): the same statement at `official_inferred`, its evidence and every milestone's.
 */
export function inferredStatement(
  assertion: LifecycleAssertion,
  target: NonNullable<LifecycleAssertion["target"]>,
): LifecycleAssertion {
  return {
    ...assertion,
    target,
    evidence: inferred(assertion.evidence),
    ...(assertion.deprecation ? { deprecation: inferredMilestone(assertion.deprecation) } : {}),
    ...(assertion.end_of_life ? { end_of_life: inferredMilestone(assertion.end_of_life) } : {}),
    ...(assertion.extended_access ? { extended_access: inferredMilestone(assertion.extended_access) } : {}),
  };
}

/** Evidence at the level `official_inferred` (an official page's statement applied to an id it does not name). */
export function inferred(evidence: Evidence): Evidence {
  return { ...evidence, verification_status: "official_inferred" };
}

/** A milestone whose evidence is `official_inferred` (inferred). */
export function inferredMilestone(milestone: LifecycleMilestone): LifecycleMilestone {
  return { ...milestone, evidence: milestone.evidence.map(inferred) };
}

export interface CatalogIdentities {
  /** Every deployment id, sorted. */
  ids: string[];
  /** The facts of `ids[i]`, best first: the best is its identity (the deployment takes its identity fields). */
  ranked: RankedFact[][];
  /** provider|provider_model_id -> model id (the smallest when facts disagree). */
  modelByProviderModel: Map<string, string>;
  /** provider|unversioned name -> model ids of "<name>-<version>" provider model ids. */
  modelsByProviderFamily: Map<string, Set<string>>;
  modelIds: Set<string>;
  providerIds: Set<string>;
  /**
   * Model-scope assertions, plus every deployment-scope assertion that no deployment of this
   * build matches (a lifecycle-only source naming a model version that no availability source
   * places): that is a fact about its model, and no deployment is invented for it.
   */
  modelAssertions: Map<string, RankedAssertion[]>;
}

export function indexIdentities(candidates: Candidates): CatalogIdentities {
  // the default sort's order is compareCodePoints' (both compare UTF-16 code units), without a
  // call into JS per comparison
  const ids = [...candidates.factsById.keys()].sort();
  // (arrays beside ids, not maps by id: at 100,000 deployments each map of ids cost 50-100 ms)
  const ranked = ids.map((id) => candidates.factsById.get(id) ?? []);
  const modelByProviderModel = new Map<string, string>();
  const modelIds = new Set<string>();
  const providerIds = new Set<string>();
  // provider|pmid -> the identities placed there, kept only where a deployment-scope assertion names it
  const placed = new Map<string, DeploymentFact[]>();
  for (const facts of ranked) {
    const best = facts[0]?.fact;
    if (best === undefined) continue;
    const pmKey = `${best.provider_id}|${best.provider_model_id}`;
    const known = modelByProviderModel.get(pmKey);
    if (known === undefined || compareCodePoints(best.model_id, known) < 0)
      modelByProviderModel.set(pmKey, best.model_id);
    modelIds.add(best.model_id);
    providerIds.add(best.provider_id);
    if (candidates.deploymentAssertions.has(pmKey)) push(placed, pmKey, best);
  }
  const modelsByProviderFamily = new Map<string, Set<string>>();
  for (const [key, model] of modelByProviderModel) {
    const family = unversionedName(key);
    if (family === undefined) continue;
    const set = modelsByProviderFamily.get(family) ?? new Set<string>();
    set.add(model);
    modelsByProviderFamily.set(family, set);
  }
  const modelAssertions = new Map<string, RankedAssertion[]>();
  for (const [model, list] of candidates.modelAssertions) modelAssertions.set(model, [...list]);
  for (const [key, list] of candidates.deploymentAssertions)
    for (const ranked of list) {
      const { target, ...rest } = ranked.assertion;
      if (rest.model_id === undefined || (placed.get(key) ?? []).some((d) => targets(target, d))) continue;
      push(modelAssertions, rest.model_id, {
        ...ranked,
        assertion: { ...rest, scope: "model" },
        specificity: 10,
      });
    }
  for (const provider of candidates.providerAssertions.keys()) providerIds.add(provider);
  for (const model of modelAssertions.keys()) modelIds.add(model);
  return {
    ids,
    ranked,
    modelByProviderModel,
    modelsByProviderFamily,
    modelIds,
    providerIds,
    modelAssertions,
  };
}

/** A deployment's lifecycle assertions, best first: its own targets, its model's at its provider, its provider's. */
export function assertionsFor(
  identity: DeploymentFact,
  candidates: Candidates,
  modelAssertions: ReadonlyMap<string, readonly RankedAssertion[]>,
): RankedAssertion[] {
  return [
    ...(
      candidates.deploymentAssertions.get(`${identity.provider_id}|${identity.provider_model_id}`) ?? []
    ).filter((r) => targets(r.assertion.target, identity)),
    ...(modelAssertions.get(identity.model_id) ?? []).filter(
      (r) => r.assertion.provider_id === identity.provider_id,
    ),
    ...(candidates.providerAssertions.get(identity.provider_id) ?? []),
  ].sort(compareAssertions);
}
