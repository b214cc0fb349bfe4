/**
 * Merge: the facts of every source into one catalog of deployments and lifecycle records.
 * Pure: a function of the gathered facts, this build's source states, the previous release's
 * lifecycle records and the build clock.
 *
 * Precedence (which source wins a field):
 *  1. Official sources (official_pricing, official_lifecycle, official_models_api,
 *     official_docs) over community sources (community_catalog).
 *  2. For lifecycle assertions, the most specific scope first: deployment > model > provider;
 *     among deployment-scope assertions, one whose target names more fields (region,
 *     api_surface, mode) beats one that names fewer.
 *  3. The newest observation (evidence.observed_at) within a tier.
 *  4. Then source_id (and the fact's order within its sorted source) so ties are deterministic.
 * The merge is field by field: identity (model_id, provider_model_id, api_surface, mode,
 * region) comes from the best fact; rate_card, context_tokens, max_output_tokens, each
 * capability (these three also from model facts, deployment-level first within a tier:
 * see model-facts.ts), status, announced_at, deprecation, end_of_life and replacements each come from
 * the best source that speaks about that field. An absent field is silence; null says
 * "unknown" and wins like a value (rate_card, limits). In lifecycle assertions a status
 * `unknown`, a milestone of state `unknown`, a null announced_at and an empty replacement list
 * are silence, because parsers write them when the page says nothing: unknown never hides a
 * lower-ranked source's knowledge.
 * A deployment's status is derived once, here, at the build's `now`, by the rule table of
 * ./status.ts from: the status declared in words by the best lifecycle assertion that states
 * one (else by the best deployment fact), the picked milestones, and whether an official
 * pricing or models source lists it in this build. Provider and model records use the same
 * table on their own assertions; their summaries count the derived deployment statuses.
 * Where an official and a community source both give a price, a limit or an end-of-life date
 * and they differ, the official value wins and the disagreement is reported as a conflict.
 */
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import { identityOf } from "../normalize/identity/index.js";
import {
  type Deployment,
  type DeploymentFact,
  type Evidence,
  type Lifecycle,
  type LifecycleAssertion,
  type LifecycleCoverage,
  type LifecycleMilestone,
  type LifecycleRecord,
  type LifecycleStatus,
  type LifecycleSummary,
  type RateCard,
  type ResourceType,
  type SourceState,
  TOKEN_PRICE_FIELDS,
  UNKNOWN_MILESTONE,
} from "../schema/index.js";
import type { FactsFile, SourceFacts } from "./facts.js";
import { indexModelFacts, mergeSpecs, modelFactKey } from "./model-facts.js";
import { deriveStatus } from "./status.js";
import type { SourceConflict, UnresolvedReason, UnresolvedReplacement } from "./types.js";

export interface MergeInput {
  now: string;
  facts: FactsFile;
  states: readonly SourceState[];
  previousLifecycle: readonly LifecycleRecord[];
}

export interface MergeResult {
  deployments: Deployment[];
  lifecycle: LifecycleRecord[];
  conflicts: SourceConflict[];
  unresolvedReplacements: UnresolvedReplacement[];
}

interface RankedFact {
  fact: DeploymentFact;
  source: SourceFacts;
  official: boolean;
  observedMs: number;
  index: number;
}

interface RankedAssertion {
  assertion: LifecycleAssertion;
  source: SourceFacts;
  official: boolean;
  specificity: number;
  observedMs: number;
  index: number;
}

const LISTING_SOURCE_TYPES = new Set(["official_pricing", "official_models_api"]);

function isOfficial(source: SourceFacts): boolean {
  return source.source_type !== "community_catalog";
}

function compareFacts(a: RankedFact, b: RankedFact): number {
  if (a.official !== b.official) return a.official ? -1 : 1;
  if (a.observedMs !== b.observedMs) return b.observedMs - a.observedMs;
  return compareCodePoints(a.source.source_id, b.source.source_id) || a.index - b.index;
}

function compareAssertions(a: RankedAssertion, b: RankedAssertion): number {
  if (a.official !== b.official) return a.official ? -1 : 1;
  if (a.specificity !== b.specificity) return b.specificity - a.specificity;
  if (a.observedMs !== b.observedMs) return b.observedMs - a.observedMs;
  return compareCodePoints(a.source.source_id, b.source.source_id) || a.index - b.index;
}

function specificityOf(assertion: LifecycleAssertion): number {
  if (assertion.scope === "provider") return 0;
  if (assertion.scope === "model") return 10;
  const target = assertion.target;
  return 20 + [target?.region, target?.api_surface, target?.mode].filter((v) => v !== undefined).length;
}

/** Whether a deployment-scope target (provider model id already matched) covers a deployment. */
function targets(target: LifecycleAssertion["target"], identity: DeploymentFact): boolean {
  return (
    (target?.region === undefined || target.region === identity.region) &&
    (target?.api_surface === undefined || target.api_surface === identity.api_surface) &&
    (target?.mode === undefined || target.mode === identity.mode)
  );
}

function uniqueSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodePoints);
}

function sortedEvidence(items: Evidence[]): Evidence[] {
  const byKey = new Map(items.map((e) => [canonicalJson(e), e]));
  return [...byKey.keys()].sort(compareCodePoints).map((k) => byKey.get(k) as Evidence);
}

function milestoneWithEvidence(milestone: LifecycleMilestone, evidence: Evidence): LifecycleMilestone {
  return {
    state: milestone.state,
    date: milestone.date,
    precision: milestone.precision,
    date_type: milestone.date_type,
    evidence: sortedEvidence([...milestone.evidence, evidence]),
  };
}

function unknownMilestone(): LifecycleMilestone {
  return { ...UNKNOWN_MILESTONE, evidence: [] };
}

/** The normalized assertion without evidence, coverage or timestamps: what last_changed_at tracks. */
function lifecycleCore(lifecycle: Omit<Lifecycle, "coverage" | "last_changed_at">): string {
  const milestone = (m: LifecycleMilestone) => [m.state, m.date, m.precision, m.date_type];
  return canonicalJson([
    lifecycle.status,
    lifecycle.announced_at,
    milestone(lifecycle.deprecation),
    milestone(lifecycle.end_of_life),
    lifecycle.replacement_ids,
  ]);
}

function isAllUnknown(lifecycle: Omit<Lifecycle, "coverage" | "last_changed_at">): boolean {
  return (
    lifecycle.status === "unknown" &&
    lifecycle.announced_at === null &&
    lifecycle.deprecation.state === "unknown" &&
    lifecycle.end_of_life.state === "unknown" &&
    lifecycle.replacement_ids.length === 0
  );
}

interface PickedLifecycle {
  /** The status declared in words by the best assertion that declares one. */
  status: LifecycleStatus | null;
  statusFrom: RankedAssertion | null;
  announced_at: string | null;
  deprecation: LifecycleMilestone;
  deprecationStatus: "legacy" | "deprecated" | undefined;
  extendedAccess: LifecycleMilestone | undefined;
  end_of_life: LifecycleMilestone;
  replacements: { ids: string[]; from: RankedAssertion } | null;
}

function pickLifecycle(ranked: readonly RankedAssertion[]): PickedLifecycle {
  const statusFrom =
    ranked.find((r) => r.assertion.status !== undefined && r.assertion.status !== "unknown") ?? null;
  const announced = ranked.find((r) => r.assertion.announced_at != null);
  const deprecationFrom = ranked.find(
    (r) => r.assertion.deprecation && r.assertion.deprecation.state !== "unknown",
  );
  const endOfLifeFrom = ranked.find(
    (r) => r.assertion.end_of_life && r.assertion.end_of_life.state !== "unknown",
  );
  const replacementsFrom = ranked.find((r) => (r.assertion.replacements?.length ?? 0) > 0);
  const extendedFrom = ranked.find(
    (r) => r.assertion.extended_access && r.assertion.extended_access.state !== "unknown",
  );
  return {
    status: statusFrom?.assertion.status ?? null,
    statusFrom,
    announced_at: announced?.assertion.announced_at ?? null,
    deprecation: deprecationFrom?.assertion.deprecation
      ? milestoneWithEvidence(deprecationFrom.assertion.deprecation, deprecationFrom.assertion.evidence)
      : unknownMilestone(),
    deprecationStatus: deprecationFrom?.assertion.deprecation_status,
    extendedAccess: extendedFrom?.assertion.extended_access,
    end_of_life: endOfLifeFrom?.assertion.end_of_life
      ? milestoneWithEvidence(endOfLifeFrom.assertion.end_of_life, endOfLifeFrom.assertion.evidence)
      : unknownMilestone(),
    replacements: replacementsFrom
      ? { ids: replacementsFrom.assertion.replacements as string[], from: replacementsFrom }
      : null,
  };
}

function firstSpeaking<K extends keyof DeploymentFact>(
  ranked: readonly RankedFact[],
  field: K,
): RankedFact | undefined {
  return ranked.find((r) => r.fact[field] !== undefined);
}

/**
 * Statuses of a version that is no longer the current one of its name: a name without its
 * version never resolves to a model whose every deployment has one of these. (`unknown` is
 * not among them: a deployment an availability source places with no lifecycle fact yet.)
 */
const SUPERSEDED: ReadonlySet<LifecycleStatus> = new Set(["legacy", "deprecated", "retired"]);

const RATE_FIELDS = TOKEN_PRICE_FIELDS;

export function mergeCatalog(input: MergeInput): MergeResult {
  const today = input.now.slice(0, 10);
  const stateById = new Map(input.states.map((s) => [s.source_id, s]));
  const sourceById = new Map(input.facts.sources.map((s) => [s.source_id, s]));
  const previousByKey = new Map(
    input.previousLifecycle.map((r) => [`${r.resource_type}|${r.resource_id}`, r]),
  );
  const conflicts: SourceConflict[] = [];
  const unresolved: UnresolvedReplacement[] = [];

  // Index every fact and assertion.
  const factsById = new Map<string, RankedFact[]>();
  const deploymentAssertions = new Map<string, RankedAssertion[]>(); // provider|provider_model_id
  const modelAssertions = new Map<string, RankedAssertion[]>(); // model_id
  const providerAssertions = new Map<string, RankedAssertion[]>(); // provider_id
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const source of input.facts.sources) {
    const official = isOfficial(source);
    source.output.deployments.forEach((fact, index) => {
      push(factsById, fact.id, {
        fact,
        source,
        official,
        observedMs: Date.parse(fact.evidence.observed_at),
        index,
      });
    });
    source.output.lifecycle.forEach((assertion, index) => {
      const ranked: RankedAssertion = {
        assertion,
        source,
        official,
        specificity: specificityOf(assertion),
        observedMs: Date.parse(assertion.evidence.observed_at),
        index,
      };
      if (assertion.scope === "deployment" && assertion.target)
        push(deploymentAssertions, `${assertion.provider_id}|${assertion.target.provider_model_id}`, ranked);
      else if (assertion.scope === "model" && assertion.model_id)
        push(modelAssertions, assertion.model_id, ranked);
      else if (assertion.scope === "provider") push(providerAssertions, assertion.provider_id, ranked);
    });
  }

  const modelFacts = indexModelFacts(input.facts.sources, isOfficial);

  // Pass 1: identities, so replacements can be resolved against the whole catalog.
  const ids = [...factsById.keys()].sort(compareCodePoints);
  const identities = new Map<string, DeploymentFact>();
  const modelByProviderModel = new Map<string, string>(); // provider|pmid -> model id
  const modelIds = new Set<string>();
  const providerIds = new Set<string>();
  for (const id of ids) {
    const ranked = (factsById.get(id) as RankedFact[]).sort(compareFacts);
    const best = (ranked[0] as RankedFact).fact;
    identities.set(id, best);
    const pmKey = `${best.provider_id}|${best.provider_model_id}`;
    const known = modelByProviderModel.get(pmKey);
    if (known === undefined || compareCodePoints(best.model_id, known) < 0)
      modelByProviderModel.set(pmKey, best.model_id);
    modelIds.add(best.model_id);
    providerIds.add(best.provider_id);
  }
  // provider|unversioned name -> model ids of "<name>-<version>" provider model ids, where the
  // version is a date or number ("-0914", "-2024-08-06", "-1", "-v2:0").
  const modelsByProviderFamily = new Map<string, Set<string>>();
  for (const [key, model] of modelByProviderModel) {
    const match = /^(.+?)-(?:\d{4}-\d{2}-\d{2}|\d+|v\d+(?::\d+)?)$/.exec(key);
    if (!match) continue;
    const family = match[1] as string;
    const set = modelsByProviderFamily.get(family) ?? new Set<string>();
    set.add(model);
    modelsByProviderFamily.set(family, set);
  }
  // A deployment-scope assertion that no deployment of this build matches (a lifecycle-only
  // source naming a model version that no availability source places) is a fact about its
  // model: it lives on the model's lifecycle record, and no deployment is invented for it.
  const placed = new Map<string, DeploymentFact[]>(); // provider|pmid -> identities
  for (const identity of identities.values())
    push(placed, `${identity.provider_id}|${identity.provider_model_id}`, identity);
  for (const [key, list] of deploymentAssertions)
    for (const ranked of list) {
      const { target, ...rest } = ranked.assertion;
      if (rest.model_id === undefined || (placed.get(key) ?? []).some((d) => targets(target, d))) continue;
      push(modelAssertions, rest.model_id, {
        ...ranked,
        assertion: { ...rest, scope: "model" },
        specificity: 10,
      });
    }
  for (const provider of providerAssertions.keys()) providerIds.add(provider);
  for (const model of modelAssertions.keys()) modelIds.add(model);

  function coverageFor(sourceIds: Iterable<string>): LifecycleCoverage {
    const ids = uniqueSorted(sourceIds);
    let lastChecked: string | null = null;
    let checked = 0;
    let degraded = false;
    let officialLifecycle = false;
    for (const id of ids) {
      const state = stateById.get(id);
      const source = sourceById.get(id);
      if (source?.source_type === "official_lifecycle") officialLifecycle = true;
      if (source?.carried_forward) degraded = true;
      if (!state) {
        degraded = true;
        continue;
      }
      checked++;
      if (state.status === "failed") degraded = true;
      if (lastChecked === null || Date.parse(state.checked_at) > Date.parse(lastChecked))
        lastChecked = state.checked_at;
    }
    const status = checked === 0 ? "unmonitored" : degraded || !officialLifecycle ? "partial" : "monitored";
    return { status, last_checked_at: lastChecked, source_count: ids.length, source_ids: ids };
  }

  function lastChangedAt(
    resourceType: ResourceType,
    resourceId: string,
    core: Omit<Lifecycle, "coverage" | "last_changed_at">,
  ) {
    if (isAllUnknown(core)) return null;
    const previous = previousByKey.get(`${resourceType}|${resourceId}`);
    if (previous && lifecycleCore(previous.lifecycle) === lifecycleCore(core))
      return previous.lifecycle.last_changed_at ?? input.now;
    return input.now;
  }

  /** provider|model of every model with a current deployment at that provider (see SUPERSEDED). */
  const currentAtProvider = new Set<string>();

  /**
   * A provider-named replacement to a canonical model id: the provider's identity module
   * resolves an alias first (`claude-sonnet-4-5` -> the dated id); then the model of that
   * provider model id at the provider; then, for a name without its version, the one current
   * versioned model of that name at the provider (never a deprecated or retired dated version);
   * then the identity's canonical id of the name when the catalog knows that model.
   */
  function resolveReplacement(
    providerId: string,
    name: string,
    own: string | null,
  ): string | UnresolvedReason {
    const module = identityOf(providerId);
    const providerModelId = module ? module.providerModelId(name) : name;
    let target = modelByProviderModel.get(`${providerId}|${providerModelId}`);
    if (target === undefined) {
      const versions = [...(modelsByProviderFamily.get(`${providerId}|${providerModelId}`) ?? [])].filter(
        (m) => m !== own && currentAtProvider.has(`${providerId}|${m}`),
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
      if (canonical !== undefined && modelIds.has(canonical)) target = canonical;
    }
    if (target === undefined && modelIds.has(name)) target = name;
    if (target === undefined) return "no_match";
    return target === own ? "self" : target;
  }

  function resolveReplacements(
    resourceType: ResourceType,
    resourceId: string,
    own: string | null,
    picked: PickedLifecycle["replacements"],
  ): string[] {
    if (!picked) return [];
    const resolved: string[] = [];
    for (const replacement of picked.ids) {
      const target = resolveReplacement(picked.from.assertion.provider_id, replacement, own);
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
      if (!resolved.includes(target)) resolved.push(target);
    }
    return resolved;
  }

  // Pass 2: deployments.
  const deployments: Deployment[] = [];
  const pendingReplacements = new Map<string, PickedLifecycle["replacements"]>();
  const deploymentSources = new Map<string, string[]>();
  for (const id of ids) {
    const ranked = factsById.get(id) as RankedFact[];
    const identity = identities.get(id) as DeploymentFact;
    const assertions = [
      ...(deploymentAssertions.get(`${identity.provider_id}|${identity.provider_model_id}`) ?? []).filter(
        (r) => targets(r.assertion.target, identity),
      ),
      ...(modelAssertions.get(identity.model_id) ?? []).filter(
        (r) => r.assertion.provider_id === identity.provider_id,
      ),
      ...(providerAssertions.get(identity.provider_id) ?? []),
    ].sort(compareAssertions);

    const rateFrom = firstSpeaking(ranked, "rate_card");
    // Limits and capabilities: this deployment's facts and its provider model's facts.
    const specs = mergeSpecs(
      identity.mode,
      ranked,
      modelFacts.get(modelFactKey(identity.provider_id, identity.provider_model_id)),
    );

    const picked = pickLifecycle(assertions);
    const factStatus = ranked.find((r) => r.fact.status !== undefined && r.fact.status !== "unknown")?.fact
      .status;
    const listedThisBuild = ranked.some(
      (r) => LISTING_SOURCE_TYPES.has(r.source.source_type) && !r.source.carried_forward,
    );
    const { status } = deriveStatus({
      today,
      declared: picked.status ?? factStatus ?? null,
      deprecation: picked.deprecation,
      end_of_life: picked.end_of_life,
      deprecationStatus: picked.deprecationStatus,
      extendedAccess: picked.extendedAccess,
      listed: listedThisBuild,
    });

    const sourceIds = uniqueSorted([
      ...ranked.map((r) => r.source.source_id),
      ...assertions.map((r) => r.source.source_id),
    ]);
    deploymentSources.set(id, sourceIds);
    const core = {
      status,
      announced_at: picked.announced_at,
      deprecation: picked.deprecation,
      end_of_life: picked.end_of_life,
      replacement_ids: [] as string[], // resolved once every deployment's status is known (below)
    };
    pendingReplacements.set(id, picked.replacements);
    const lifecycle: Lifecycle = { ...core, coverage: coverageFor(sourceIds), last_changed_at: null };
    const rateCard: RateCard | null = rateFrom?.fact.rate_card ?? null;
    const evidenceUrls = uniqueSorted([
      ...ranked.map((r) => r.fact.evidence.source_url),
      ...assertions.map((r) => r.assertion.evidence.source_url),
      ...(rateCard ? [rateCard.source_url] : []),
      ...specs.modelFactUrls,
    ]);
    deployments.push({
      id,
      model_id: identity.model_id,
      provider_id: identity.provider_id,
      provider_model_id: identity.provider_model_id,
      api_surface: identity.api_surface,
      mode: identity.mode,
      region: identity.region,
      status,
      lifecycle,
      context_tokens: specs.context_tokens,
      max_output_tokens: specs.max_output_tokens,
      capabilities: specs.capabilities,
      rate_card: rateCard,
      evidence_urls: evidenceUrls,
    });

    // Conflicts: the best official value against the best community value.
    const officialCard = ranked.find((r) => r.official && r.fact.rate_card);
    const communityCard = ranked.find((r) => !r.official && r.fact.rate_card);
    if (officialCard?.fact.rate_card && communityCard?.fact.rate_card) {
      for (const field of RATE_FIELDS) {
        const o = officialCard.fact.rate_card[field];
        const c = communityCard.fact.rate_card[field];
        if (o !== null && c !== null && o !== c)
          conflicts.push({
            resource_id: id,
            provider_id: identity.provider_id,
            field: `rate_card.${field}`,
            official: { source_id: officialCard.source.source_id, value: o },
            community: { source_id: communityCard.source.source_id, value: c },
          });
      }
    }
    for (const conflict of specs.conflicts)
      conflicts.push({ resource_id: id, provider_id: identity.provider_id, ...conflict });
    const scheduled = (r: RankedAssertion) => r.assertion.end_of_life?.state === "scheduled";
    const officialEol = assertions.find((r) => r.official && scheduled(r));
    const communityEol = assertions.find((r) => !r.official && scheduled(r));
    if (
      officialEol &&
      communityEol &&
      officialEol.assertion.end_of_life?.date !== communityEol.assertion.end_of_life?.date
    )
      conflicts.push({
        resource_id: id,
        provider_id: identity.provider_id,
        field: "end_of_life.date",
        official: {
          source_id: officialEol.source.source_id,
          value: officialEol.assertion.end_of_life?.date as string,
        },
        community: {
          source_id: communityEol.source.source_id,
          value: communityEol.assertion.end_of_life?.date as string,
        },
      });
  }

  // Pass 3: replacements, which resolve to current models, so after every status is known.
  for (const d of deployments)
    if (!SUPERSEDED.has(d.status)) currentAtProvider.add(`${d.provider_id}|${d.model_id}`);
  for (const d of deployments) {
    const { coverage, last_changed_at: _unset, ...rest } = d.lifecycle;
    const core = {
      ...rest,
      replacement_ids: resolveReplacements(
        "deployment",
        d.id,
        d.model_id,
        pendingReplacements.get(d.id) ?? null,
      ),
    };
    d.lifecycle = { ...core, coverage, last_changed_at: lastChangedAt("deployment", d.id, core) };
  }

  // Provider and model records: their own scope-level assertion (if any) plus a summary.
  const lifecycle: LifecycleRecord[] = [];
  const byProvider = new Map<string, Deployment[]>();
  const byModel = new Map<string, Deployment[]>();
  for (const deployment of deployments) {
    push(byProvider, deployment.provider_id, deployment);
    push(byModel, deployment.model_id, deployment);
  }

  function scopeRecord(
    resourceType: "provider" | "model",
    resourceId: string,
    members: readonly Deployment[],
    assertions: readonly RankedAssertion[],
  ): LifecycleRecord {
    const ranked = [...assertions].sort(compareAssertions);
    const picked = pickLifecycle(ranked);
    const core = {
      status: deriveStatus({
        today,
        declared: picked.status,
        deprecation: picked.deprecation,
        end_of_life: picked.end_of_life,
        deprecationStatus: picked.deprecationStatus,
        extendedAccess: picked.extendedAccess,
        listed: false,
      }).status,
      announced_at: picked.announced_at,
      deprecation: picked.deprecation,
      end_of_life: picked.end_of_life,
      replacement_ids: resolveReplacements(
        resourceType,
        resourceId,
        resourceType === "model" ? resourceId : null,
        picked.replacements,
      ),
    };
    const sourceIds = [
      ...members.flatMap((d) => deploymentSources.get(d.id) ?? []),
      ...ranked.map((r) => r.source.source_id),
    ];
    return {
      resource_type: resourceType,
      resource_id: resourceId,
      ...(resourceType === "provider" ? { provider_id: resourceId } : { model_id: resourceId }),
      lifecycle: {
        ...core,
        coverage: coverageFor(sourceIds),
        last_changed_at: lastChangedAt(resourceType, resourceId, core),
      },
      summary: summarize(members, today),
    };
  }

  for (const providerId of [...providerIds].sort(compareCodePoints))
    lifecycle.push(
      scopeRecord(
        "provider",
        providerId,
        byProvider.get(providerId) ?? [],
        providerAssertions.get(providerId) ?? [],
      ),
    );
  for (const model of [...modelIds].sort(compareCodePoints))
    lifecycle.push(scopeRecord("model", model, byModel.get(model) ?? [], modelAssertions.get(model) ?? []));
  for (const deployment of deployments)
    lifecycle.push({
      resource_type: "deployment",
      resource_id: deployment.id,
      provider_id: deployment.provider_id,
      model_id: deployment.model_id,
      lifecycle: deployment.lifecycle,
    });
  lifecycle.sort(
    (a, b) =>
      compareCodePoints(a.resource_type, b.resource_type) || compareCodePoints(a.resource_id, b.resource_id),
  );

  conflicts.sort(
    (a, b) => compareCodePoints(a.resource_id, b.resource_id) || compareCodePoints(a.field, b.field),
  );
  return { deployments, lifecycle, conflicts, unresolvedReplacements: unresolved };
}

/** Aggregation over a provider's or model's deployments (not a lifecycle assertion). */
export function summarize(members: readonly Deployment[], today: string): LifecycleSummary {
  const statusCounts: Partial<Record<LifecycleStatus, number>> = {};
  let known = 0;
  let next: LifecycleSummary["next_end_of_life"] = null;
  for (const d of members) {
    statusCounts[d.status] = (statusCounts[d.status] ?? 0) + 1;
    if (d.lifecycle.deprecation.state !== "unknown") known++;
    const eol = d.lifecycle.end_of_life;
    if (eol.state !== "unknown") known++;
    if (eol.state === "scheduled" && eol.date !== null && eol.date >= today) {
      if (
        next === null ||
        eol.date < next.date ||
        (eol.date === next.date && compareCodePoints(d.id, next.deployment_id) < 0)
      )
        next = { date: eol.date, date_type: eol.date_type, precision: eol.precision, deployment_id: d.id };
    }
  }
  return {
    deployment_count: members.length,
    status_counts: statusCounts,
    known_milestone_count: known,
    unknown_milestone_count: members.length * 2 - known,
    next_end_of_life: next,
  };
}
