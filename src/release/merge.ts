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
 *  3. The newest observation (evidence.observed_at) within a tier (for limits and capabilities,
 *     an official value a page states before one it implies: see model-facts.ts).
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
 * and they differ, the official value wins and the disagreement is reported as a conflict;
 * where official model facts contradict each other, the first in that precedence wins and the
 * contradiction is reported as an official disagreement.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import {
  type CapabilityName,
  type Deployment,
  type DeploymentFact,
  type FactProvenance,
  type FactsFile,
  type Lifecycle,
  type LifecycleRecord,
  type LifecycleStatus,
  type LifecycleSummary,
  PRICE_FIELDS,
  type Provenance,
  type RateCard,
  type SourceState,
  TOKEN_PRICE_FIELDS,
} from "../schema/index.js";
import { byTypeAndId, deploymentLifecycleRecord } from "../snapshot/index.js";
import { withAliasStatements } from "./alias-lifecycle.js";
import type { FirstAnnouncements } from "./announcements.js";
import { resolveDeclaredAliases } from "./declared-aliases.js";
import { withoutUnplacedFills } from "./fills.js";
import { withoutInputLimitContexts } from "./input-limits.js";
import type { PreviousCore, PreviousCores } from "./lifecycle-cores.js";
import { gateCommunityFacts } from "./listing-gate.js";
import {
  assertionsFor,
  type Candidates,
  type CatalogIdentities,
  compareAssertions,
  gatherCandidates,
  indexIdentities,
  isOfficial,
  push,
  type RankedAssertion,
  type RankedFact,
} from "./merge-candidates.js";
import {
  coverageFor,
  deploymentStatus,
  lastChangedAt,
  type ModelListing,
  officialModelListings,
  type PickedLifecycle,
  pickLifecycle,
  scopeStatus,
  uniqueSorted,
} from "./merge-lifecycle.js";
import {
  compareDisagreements,
  type MergedSpecs,
  type ModelFactIndex,
  mergeSpecs,
  modelFactKey,
  officialDisagreements,
  statedReleaseDay,
} from "./model-facts.js";
import { foldModelIdentities, type ModelIdentityReport } from "./model-identity-fold.js";
import { comparePrecedence, corroborate, factLevel } from "./precedence.js";
import { withProfileStatements } from "./profile-lifecycle.js";
import { type ReplacementIndex, replacementIndex, resolveReplacements } from "./replacements.js";
import { factProvenance } from "./shared-values.js";
import { statusFromDeployments } from "./status.js";
import type {
  CommunityDisagreement,
  CommunityZeroPrice,
  InputLimitContext,
  OfficialDisagreement,
  OfficialSpecCounts,
  SourceConflict,
  StaleAliasPrice,
  UnlistedOffering,
  UnresolvedReplacement,
} from "./types.js";
import { resolveUnversionedNames } from "./unversioned-names.js";

export interface MergeInput {
  now: string;
  facts: FactsFile;
  states: readonly SourceState[];
  /** The previous release's lifecycle cores (previousCoresOf; empty for a first release). */
  previousCores: PreviousCores;
  /** The first dated copy stating each milestone, per source (announcements.ts); absent: none. */
  firstAnnouncements?: FirstAnnouncements;
}

export interface MergeResult {
  deployments: Deployment[];
  lifecycle: LifecycleRecord[];
  conflicts: SourceConflict[];
  /** Official model facts that contradict each other (model-facts.ts officialDisagreements). */
  officialDisagreements: OfficialDisagreement[];
  /** Community datasets that disagree where no official source speaks (precedence.ts corroborate). */
  communityDisagreements: CommunityDisagreement[];
  unresolvedReplacements: UnresolvedReplacement[];
  /** By provider: the deployments not retired and what official sources give them. */
  officialSpecs: Map<string, OfficialSpecCounts>;
  /** Community deployment facts the listing gate dropped (listing-gate.ts). */
  unlistedOfferings: UnlistedOffering[];
  /** Community zero prices read as unknown (listing-gate.ts). */
  communityZeroPrices: CommunityZeroPrice[];
  /** Community context windows another dataset states are input limits, not used (input-limits.ts). */
  inputLimitContexts: InputLimitContext[];
  /** Community prices of unresolved moving aliases, dropped (listing-gate.ts). */
  staleAliasPrices: StaleAliasPrice[];
  /** Names of one model that official sources spell differently: folded, or kept apart and why. */
  modelIdentity: ModelIdentityReport;
}

/** A conflict of one resource, before the resource's ids are attached. */
export type FieldConflict = Omit<SourceConflict, "resource_id" | "provider_id">;

/** A community disagreement of one deployment, before its ids are attached. */
export type FieldDisagreement = Omit<CommunityDisagreement, "resource_id" | "provider_id">;

export interface DeploymentFields {
  rate_card: RateCard | null;
  context_tokens: Deployment["context_tokens"];
  max_output_tokens: Deployment["max_output_tokens"];
  capabilities: Deployment["capabilities"];
  /** Source URLs of the model facts the limits and capabilities came from. */
  modelFactUrls: string[];
  /** Where the best official value and a community dataset's value of a price or limit differ. */
  conflicts: FieldConflict[];
  /** Where community datasets differ on a field no official source gives. */
  communityDisagreements: FieldDisagreement[];
  /** Official model facts contradicting the official deployment fact that was kept. */
  disagreements: MergedSpecs["disagreements"];
  /** The limits came from official facts (report.ts's official_specs counts them). */
  officialLimits: Pick<MergedSpecs, "officialContext" | "officialMaxOutput">;
  /** The day a model fact states the provider model was released at the provider, or null. */
  releasedAt: string | null;
  /** Where the rate card and the limits came from. */
  provenance: Omit<Provenance, "listing">;
}

/** The rate card the merge keeps, with the facts that agree on it (corroboration). */
interface KeptCard {
  from: RankedFact;
  level: RankedFact["verification"];
  agreeing: readonly RankedFact[];
}

/**
 * The provenance of the rate card the merge kept: its level, its page and the card's own (and
 * those of the datasets that agree on it), observed when the kept card was.
 */
function rateCardProvenance(kept: KeptCard | undefined): FactProvenance | null {
  const card = kept?.from.fact.rate_card;
  if (kept === undefined || !card) return null;
  return factProvenance(
    kept.level,
    uniqueSorted(
      [kept.from, ...kept.agreeing]
        .flatMap((r) => [r.fact.evidence.source_url, r.fact.rate_card?.source_url ?? ""])
        .filter((u) => u !== ""),
    ),
    card.observed_at,
  );
}

/**
 * Two community rate cards agree: the same input and output price (both stated), and every
 * other token price that both state the same.
 */
export function cardsAgree(a: RateCard, b: RateCard): boolean {
  if (a.output_micro_usd === null || b.output_micro_usd === null) return false;
  for (const field of TOKEN_PRICE_FIELDS) {
    const x = a[field];
    const y = b[field];
    if (x !== null && y !== null && x !== y) return false;
  }
  return true;
}

/** How many prices a card states: its components (cache writes too) and its tiers. */
function statedPrices(card: RateCard | null | undefined): number {
  if (!card) return 0;
  return PRICE_FIELDS.filter((field) => (card[field] ?? null) !== null).length + (card.tiers?.length ?? 0);
}

/** Each token price of `other` that differs from the kept card's (both stated). */
function cardDifferences(kept: RankedFact, other: RankedFact): FieldDisagreement[] {
  const a = kept.fact.rate_card;
  const b = other.fact.rate_card;
  if (!a || !b) return [];
  const found: FieldDisagreement[] = [];
  for (const field of TOKEN_PRICE_FIELDS) {
    const x = a[field];
    const y = b[field];
    if (x !== null && y !== null && x !== y)
      found.push({
        field: `rate_card.${field}`,
        kept: { source_id: kept.source.source_id, value: x, observed_at: a.observed_at },
        other: { source_id: other.source.source_id, value: y, observed_at: b.observed_at },
      });
  }
  return found;
}

/**
 * The rate card of a deployment: the best fact's that speaks about it when that is official
 * (or an explicit null); otherwise the community cards' corroboration (precedence.ts).
 */
function keptCard(ranked: readonly RankedFact[]): {
  kept: KeptCard | undefined;
  disagreements: FieldDisagreement[];
} {
  const first = ranked.find((r) => r.fact.rate_card !== undefined);
  if (first === undefined || first.official || !first.fact.rate_card)
    return { kept: first && { from: first, level: first.verification, agreeing: [] }, disagreements: [] };
  const community = ranked.filter((r) => !r.official && r.fact.rate_card);
  const decided = corroborate(community, (a, b) =>
    a.fact.rate_card && b.fact.rate_card ? cardsAgree(a.fact.rate_card, b.fact.rate_card) : false,
  );
  if (decided === null) return { kept: undefined, disagreements: [] };
  // corroborating cards may differ in what they state: the one that states the most is served
  // (not a dependent dataset's card: what only it states would pass as corroborated)
  const served = [decided.kept, ...decided.agreeing].reduce((best, r) =>
    statedPrices(r.fact.rate_card) > statedPrices(best.fact.rate_card) ? r : best,
  );
  return {
    kept: {
      from: served,
      level: decided.level,
      agreeing: [decided.kept, ...decided.agreeing].filter((r) => r !== served),
    },
    disagreements: decided.differing.flatMap((other) => cardDifferences(decided.kept, other)),
  };
}

/**
 * Why a deployment exists: the sources whose facts place it at the strongest level any of them
 * has (`ranked` is in precedence order, so the first fact has it), seen last when the newest
 * of them was.
 */
export function listingProvenance(ranked: readonly RankedFact[]): FactProvenance {
  // a fill-only dataset fills the deployment's values; it does not place it (fills.ts)
  const placers = ranked.filter((r) => !r.source.fills_only);
  const best = placers[0];
  if (best === undefined) throw new Error("a deployment without facts has no listing");
  if (placers.length === 1)
    return factProvenance(best.verification, [best.fact.evidence.source_url], best.fact.evidence.observed_at);
  const placing = placers.filter((r) => r.verification === best.verification);
  let newest = best;
  for (const r of placing) if (r.observedMs > newest.observedMs) newest = r;
  return factProvenance(
    best.verification,
    uniqueSorted(placing.map((r) => r.fact.evidence.source_url)),
    newest.fact.evidence.observed_at,
  );
}

/** Whether a rate card prices cached input or cache writes (at its base or in a tier). */
function pricesCaching(card: RateCard): boolean {
  return (
    card.cached_input_micro_usd !== null ||
    (card.cache_write_micro_usd ?? null) !== null ||
    (card.tiers ?? []).some(
      (t) => t.cached_input_micro_usd !== null || (t.cache_write_micro_usd ?? null) !== null,
    )
  );
}

/**
 * A capability an official price implies: `supported`, `official_inferred`, unless an official
 * source states the capability itself (kept as it is); a community statement gives way.
 */
function withPriceImplied(
  capabilities: Deployment["capabilities"],
  name: CapabilityName,
): Deployment["capabilities"] {
  if (capabilities[name]?.verification_status?.startsWith("official_")) return capabilities;
  return { ...capabilities, [name]: { status: "supported", verification_status: "official_inferred" } };
}

/**
 * `prompt_caching` from an official price: a deployment whose official rate card prices cached
 * input (or cache writes) supports prompt caching (the price list's own row says so; its URL is
 * the rate card's), as withPriceImplied marks it.
 */
export function withPricedCaching(
  capabilities: Deployment["capabilities"],
  officialCard: RateCard | null,
): Deployment["capabilities"] {
  return officialCard && pricesCaching(officialCard)
    ? withPriceImplied(capabilities, "prompt_caching")
    : capabilities;
}

/**
 * `batch` from an official batch price: where an official rate card prices a provider model in
 * batch mode on an api_surface and region, the model is available through that batch API there,
 * so that deployment and its other-mode twins on the same surface and region support `batch`
 * (the price list's batch row says so), as withPriceImplied marks it.
 */
export function withBatchPrice(capabilities: Deployment["capabilities"]): Deployment["capabilities"] {
  return withPriceImplied(capabilities, "batch");
}

/** Where a deployment is offered, whatever its mode: provider, provider model, api_surface, region. */
const offeredAt = (d: Pick<Deployment, "provider_id" | "provider_model_id" | "api_surface" | "region">) =>
  `${d.provider_id}|${d.provider_model_id}|${d.api_surface}|${d.region}`;

/**
 * Merge deployment fields: the rate card from the best fact that speaks about it; limits and
 * capabilities from this deployment's facts and its provider model's facts (model-facts.ts);
 * and the price and limit conflicts between official and community sources.
 */
export function mergeDeploymentFields(
  identity: DeploymentFact,
  ranked: readonly RankedFact[],
  modelFacts: Candidates["modelFacts"],
): DeploymentFields {
  const card = keptCard(ranked);
  const rateFrom = card.kept?.from;
  const ofModel = modelFacts.get(modelFactKey(identity.provider_id, identity.provider_model_id));
  const specs = mergeSpecs(identity.mode, ranked, ofModel);
  const conflicts: FieldConflict[] = [];
  const officialCard = ranked.find((r) => r.official && r.fact.rate_card);
  if (officialCard?.fact.rate_card) {
    // each community dataset's card (its first) against the official one
    const seen = new Set<string>();
    for (const communityCard of ranked) {
      if (communityCard.official || !communityCard.fact.rate_card || seen.has(communityCard.source.source_id))
        continue;
      seen.add(communityCard.source.source_id);
      for (const field of TOKEN_PRICE_FIELDS) {
        const o = officialCard.fact.rate_card[field];
        const c = communityCard.fact.rate_card[field];
        if (o !== null && c !== null && o !== c)
          conflicts.push({
            field: `rate_card.${field}`,
            official: { source_id: officialCard.source.source_id, value: o },
            community: { source_id: communityCard.source.source_id, value: c },
          });
      }
    }
  }
  conflicts.push(...specs.conflicts);
  return {
    rate_card: rateFrom?.fact.rate_card ?? null,
    context_tokens: specs.context_tokens,
    max_output_tokens: specs.max_output_tokens,
    capabilities: withPricedCaching(specs.capabilities, officialCard?.fact.rate_card ?? null),
    modelFactUrls: specs.modelFactUrls,
    conflicts,
    communityDisagreements: [...card.disagreements, ...specs.communityDisagreements],
    disagreements: specs.disagreements,
    officialLimits: { officialContext: specs.officialContext, officialMaxOutput: specs.officialMaxOutput },
    releasedAt: statedReleaseDay(ofModel),
    provenance: {
      rate_card: rateCardProvenance(card.kept),
      context_tokens: specs.contextProvenance,
      max_output_tokens: specs.maxOutputProvenance,
    },
  };
}

/** The best official and the best community scheduled end of life, when their dates differ. */
export function endOfLifeConflict(assertions: readonly RankedAssertion[]): FieldConflict | null {
  const scheduled = (r: RankedAssertion) => r.assertion.end_of_life?.state === "scheduled";
  const officialDate = assertions.find((r) => r.official && scheduled(r));
  const communityDate = assertions.find((r) => !r.official && scheduled(r));
  const official = officialDate?.assertion.end_of_life?.date;
  const community = communityDate?.assertion.end_of_life?.date;
  // A scheduled milestone always has a date (the schema requires it).
  if (!officialDate || !communityDate || official == null || community == null || official === community)
    return null;
  return {
    field: "end_of_life.date",
    official: { source_id: officialDate.source.source_id, value: official },
    community: { source_id: communityDate.source.source_id, value: community },
  };
}

interface MergeContext {
  today: string;
  now: string;
  stateById: ReadonlyMap<string, SourceState>;
  sourceById: ReadonlyMap<string, FactsFile["sources"][number]>;
  /** The previous release's lifecycle cores by resource type, then resource id. */
  previousCores: PreviousCores;
  /** provider|provider_model_id -> what an official current listing says of the model. */
  modelListings: ReadonlyMap<string, ModelListing>;
  firstAnnouncements: FirstAnnouncements;
}

/** The previous release's lifecycle core of a resource (for its last_changed_at), if any. */
function previousCore(context: MergeContext, type: string, id: string): PreviousCore | undefined {
  return context.previousCores.get(type)?.get(id);
}

interface MergedDeployment {
  deployment: Deployment;
  /**
   * The first official source that prices it (its rate card may still be a community one's
   * where the official card is null), or null.
   */
  officialPrice: { source_id: string; observed_at: string } | null;
  sourceIds: string[];
  replacements: PickedLifecycle["replacements"];
  conflicts: FieldConflict[];
  communityDisagreements: FieldDisagreement[];
  disagreements: MergedSpecs["disagreements"];
  officialLimits: DeploymentFields["officialLimits"];
  releasedAt: string | null;
}

/** One deployment from its facts and assertions, its replacements still unresolved. */
function mergeDeployment(
  id: string,
  ranked: readonly RankedFact[],
  identity: DeploymentFact,
  candidates: Candidates,
  identities: CatalogIdentities,
  context: MergeContext,
): MergedDeployment {
  const assertions = assertionsFor(identity, candidates, identities.modelAssertions);
  const fields = mergeDeploymentFields(identity, ranked, candidates.modelFacts);
  const picked = pickLifecycle(assertions, context.firstAnnouncements);
  const status = deploymentStatus(
    picked,
    ranked,
    context.today,
    context.modelListings.get(`${identity.provider_id}|${identity.provider_model_id}`),
  );
  const sourceIds = uniqueSorted([
    ...ranked.map((r) => r.source.source_id),
    ...assertions.map((r) => r.source.source_id),
  ]);
  const lifecycle: Lifecycle = {
    status,
    announced_at: picked.announced_at,
    deprecation: picked.deprecation,
    end_of_life: picked.end_of_life,
    replacement_ids: [], // resolved once every deployment's status is known
    coverage: coverageFor(sourceIds, context.stateById, context.sourceById),
    last_changed_at: null,
  };
  const evidenceUrls = uniqueSorted([
    ...ranked.map((r) => r.fact.evidence.source_url),
    ...assertions.map((r) => r.assertion.evidence.source_url),
    ...(fields.rate_card ? [fields.rate_card.source_url] : []),
    ...fields.modelFactUrls,
  ]);
  const eolConflict = endOfLifeConflict(assertions);
  return {
    deployment: {
      id,
      model_id: identity.model_id,
      provider_id: identity.provider_id,
      provider_model_id: identity.provider_model_id,
      api_surface: identity.api_surface,
      mode: identity.mode,
      region: identity.region,
      status,
      lifecycle,
      context_tokens: fields.context_tokens,
      max_output_tokens: fields.max_output_tokens,
      capabilities: fields.capabilities,
      rate_card: fields.rate_card,
      evidence_urls: evidenceUrls,
      provenance: { listing: listingProvenance(ranked), ...fields.provenance },
    },
    sourceIds,
    officialPrice: officialPriceOf(ranked),
    replacements: picked.replacements,
    conflicts: eolConflict ? [...fields.conflicts, eolConflict] : fields.conflicts,
    communityDisagreements: fields.communityDisagreements,
    disagreements: fields.disagreements,
    officialLimits: fields.officialLimits,
    releasedAt: fields.releasedAt,
  };
}

/** The first official fact (in precedence order) that prices a deployment, as a disagreement side names it. */
function officialPriceOf(ranked: readonly RankedFact[]): MergedDeployment["officialPrice"] {
  const priced = ranked.find((r) => r.official && r.fact.rate_card);
  return priced === undefined
    ? null
    : { source_id: priced.source.source_id, observed_at: priced.fact.evidence.observed_at };
}

/**
 * An official batch price against an official "batch: unsupported": OpenAI's pricing page prices
 * gpt-5.4-pro in Batch while its model page says Batch is not supported. The merge keeps both
 * (the batch deployment, and the capability the model page states); this names the two sources
 * so that a reader of report.json sees which official page is out of date. Null when the
 * deployment's `batch` is not an official `unsupported`, or no official model fact states it.
 */
function batchPriceDisagreement(
  deployment: Deployment,
  price: NonNullable<MergedDeployment["officialPrice"]>,
  modelFacts: ModelFactIndex,
): OfficialDisagreement | null {
  const batch = deployment.capabilities.batch;
  if (batch?.status !== "unsupported" || !batch.verification_status?.startsWith("official_")) return null;
  // the statement the merge serves: the first in the one precedence order (precedence.ts), a
  // fact about the model in this mode before one about it in every mode
  const stated = (modelFacts.get(modelFactKey(deployment.provider_id, deployment.provider_model_id)) ?? [])
    .filter(
      (r) =>
        r.official &&
        r.fact.capabilities?.batch?.status === "unsupported" &&
        (r.fact.modes === undefined || r.fact.modes.includes(deployment.mode)),
    )
    .map((r) => ({
      r,
      key: {
        official: true,
        specificity: r.fact.modes === undefined ? 0 : 1,
        verification: factLevel(
          true,
          r.fact.capabilities?.batch?.verification_status ?? r.fact.evidence.verification_status,
        ),
        observedMs: r.observedMs,
        sourceId: r.source.source_id,
        index: r.index,
      },
    }))
    .sort((a, b) => comparePrecedence(a.key, b.key))[0]?.r;
  if (stated === undefined) return null;
  return {
    provider_id: deployment.provider_id,
    provider_model_id: deployment.provider_model_id,
    deployment_id: deployment.id,
    field: "capabilities.batch",
    kept: {
      source_id: stated.source.source_id,
      value: "unsupported",
      observed_at: stated.fact.evidence.observed_at,
    },
    other: { source_id: price.source_id, value: "supported", observed_at: price.observed_at },
  };
}

/** A provider's or model's record: its own scope-level assertions (if any) plus a summary of its deployments. */
function mergeScopeRecord(
  resourceType: "provider" | "model",
  resourceId: string,
  members: readonly Deployment[],
  assertions: readonly RankedAssertion[],
  memberSourceIds: (deployment: Deployment) => readonly string[],
  memberReleasedAt: (deployment: Deployment) => string | null,
  replacements: ReplacementIndex,
  context: MergeContext,
): { record: LifecycleRecord; unresolved: UnresolvedReplacement[] } {
  const ranked = [...assertions].sort(compareAssertions);
  const picked = pickLifecycle(ranked, context.firstAnnouncements);
  const resolved = resolveReplacements(
    replacements,
    resourceType,
    resourceId,
    resourceType === "model" ? resourceId : null,
    picked.replacements,
  );
  // A model's status is its deployments' (statusFromDeployments); a provider's, or a model's
  // whose deployments are all unknown or that has none, is what its own assertions say (a model
  // whose fixed end-of-life day has passed is retired even where no deployment's status is known).
  const fromDeployments =
    resourceType === "model" ? statusFromDeployments(members.map((d) => d.status)) : "unknown";
  const core = {
    status: fromDeployments !== "unknown" ? fromDeployments : scopeStatus(picked, context.today),
    announced_at: picked.announced_at,
    deprecation: picked.deprecation,
    end_of_life: picked.end_of_life,
    replacement_ids: resolved.ids,
  };
  const sourceIds = [...members.flatMap(memberSourceIds), ...ranked.map((r) => r.source.source_id)];
  return {
    record: {
      resource_type: resourceType,
      resource_id: resourceId,
      ...(resourceType === "provider" ? { provider_id: resourceId } : { model_id: resourceId }),
      lifecycle: {
        ...core,
        coverage: coverageFor(sourceIds, context.stateById, context.sourceById),
        last_changed_at: lastChangedAt(previousCore(context, resourceType, resourceId), core, context.now),
      },
      summary:
        resourceType === "model"
          ? { ...summarize(members, context.today), ...releaseSummary(members, memberReleasedAt) }
          : summarize(members, context.today),
    },
    unresolved: resolved.unresolved,
  };
}

export function mergeCatalog(input: MergeInput): MergeResult {
  const context: MergeContext = {
    today: input.now.slice(0, 10),
    now: input.now,
    stateById: new Map(input.states.map((s) => [s.source_id, s])),
    sourceById: new Map(input.facts.sources.map((s) => [s.source_id, s])),
    previousCores: input.previousCores,
    modelListings: officialModelListings(input.facts.sources, isOfficial),
    firstAnnouncements: input.firstAnnouncements ?? new Map(),
  };
  // Step 0: two names official sources use for one model folded into one (model-identity-fold.ts);
  // then community facts that name an Azure model without its version, resolved to the one
  // version the official sources place (unversioned-names.ts), and community facts named by an
  // alias the provider's official source declares, resolved to the model it stands for
  // (declared-aliases.ts). Then Region-scoped official lifecycle statements that cover every
  // Region sending requests into a cross-Region profile are stated for the profile too
  // (profile-lifecycle.ts), and an official statement about a snapshot is stated for the name
  // that points to it as its only snapshot (alias-lifecycle.ts).
  const folded = foldModelIdentities(input.facts.sources, isOfficial);
  const resolved = withAliasStatements(
    withProfileStatements(
      resolveDeclaredAliases(resolveUnversionedNames(folded.sources, isOfficial), isOfficial),
      isOfficial,
    ),
    isOfficial,
  );
  // Step 0b: the listing gate: community facts an official availability list excludes create
  // nothing, and community zero prices are unknown (listing-gate.ts).
  const gate = gateCommunityFacts(resolved, isOfficial);
  // Step 0c: a fill-only community dataset's facts about deployments no other source places
  // (after the gate: a vetoed place is no place) are dropped: it creates nothing (fills.ts).
  const filled = withoutUnplacedFills(gate.sources);
  // Step 0d: a community context window another community dataset states is the model's input
  // limit is not used (input-limits.ts).
  const limited = withoutInputLimitContexts(filled.sources, isOfficial);
  const sources = limited.sources;
  // Step 1: candidates, and identities so replacements can be resolved against the whole catalog.
  const candidates = gatherCandidates(sources);
  const identities = indexIdentities(candidates);
  const conflicts: SourceConflict[] = [];
  const disagreements: OfficialDisagreement[] = officialDisagreements(candidates.modelFacts);
  const communityDisagreements: CommunityDisagreement[] = [];
  const unresolved: UnresolvedReplacement[] = [];

  // Step 2: deployments (fields, lifecycle, status).
  const merged: MergedDeployment[] = [];
  identities.ids.forEach((id, i) => {
    const ranked = identities.ranked[i] ?? [];
    const identity = ranked[0]?.fact;
    if (identity === undefined) return;
    const one = mergeDeployment(id, ranked, identity, candidates, identities, context);
    merged.push(one);
    for (const conflict of one.conflicts)
      conflicts.push({ resource_id: id, provider_id: identity.provider_id, ...conflict });
    for (const disagreement of one.communityDisagreements)
      communityDisagreements.push({ resource_id: id, provider_id: identity.provider_id, ...disagreement });
    for (const disagreement of one.disagreements)
      disagreements.push({
        provider_id: identity.provider_id,
        provider_model_id: identity.provider_model_id,
        deployment_id: id,
        ...disagreement,
      });
  });
  // Step 2b: `batch` where an official source prices the model in batch mode (withBatchPrice);
  // where an official fact says batch is unsupported instead, that fact stays and the two
  // official sources are reported as disagreeing (batchPriceDisagreement).
  const batchPriced = new Map<string, NonNullable<MergedDeployment["officialPrice"]>>();
  for (const m of merged)
    if (m.deployment.mode === "batch" && m.officialPrice !== null)
      batchPriced.set(offeredAt(m.deployment), m.officialPrice);
  for (const { deployment } of merged) {
    const price = batchPriced.get(offeredAt(deployment));
    if (price === undefined) continue;
    deployment.capabilities = withBatchPrice(deployment.capabilities);
    const disagreement = batchPriceDisagreement(deployment, price, candidates.modelFacts);
    if (disagreement !== null) disagreements.push(disagreement);
  }
  const deployments = merged.map((m) => m.deployment);
  const officialSpecs = countOfficialSpecs(merged);

  // Step 3: replacements, which resolve to current models, so after every status is known.
  const replacements = replacementIndex(identities, deployments);
  for (const { deployment: d, replacements: picked } of merged) {
    const resolved = resolveReplacements(replacements, "deployment", d.id, d.model_id, picked);
    for (const u of resolved.unresolved) unresolved.push(u);
    // completed in place: the lifecycle mergeDeployment made for this deployment alone, every
    // member already there in order (a new object per deployment, by spreads, was a tenth of
    // the merge; nothing holds the lifecycle before this)
    const l = d.lifecycle;
    l.replacement_ids = resolved.ids;
    l.last_changed_at = lastChangedAt(previousCore(context, "deployment", d.id), l, context.now);
  }

  // Step 4: provider and model records, with summaries.
  // by the deployment itself: its id's string would be hashed again
  const sourcesOf = new Map<Deployment, string[]>();
  for (const m of merged) sourcesOf.set(m.deployment, m.sourceIds);
  const memberSourceIds = (d: Deployment) => sourcesOf.get(d) ?? [];
  const releasedOf = new Map<Deployment, string | null>();
  for (const m of merged) releasedOf.set(m.deployment, m.releasedAt);
  const memberReleasedAt = (d: Deployment) => releasedOf.get(d) ?? null;
  const byProvider = new Map<string, Deployment[]>();
  const byModel = new Map<string, Deployment[]>();
  for (const deployment of deployments) {
    push(byProvider, deployment.provider_id, deployment);
    push(byModel, deployment.model_id, deployment);
  }
  const lifecycle: LifecycleRecord[] = [];
  const scope = (
    type: "provider" | "model",
    id: string,
    members: Deployment[],
    assertions: RankedAssertion[],
  ) => {
    const { record, unresolved: dropped } = mergeScopeRecord(
      type,
      id,
      members,
      assertions,
      memberSourceIds,
      memberReleasedAt,
      replacements,
      context,
    );
    unresolved.push(...dropped);
    lifecycle.push(record);
  };
  for (const providerId of [...identities.providerIds].sort(compareCodePoints))
    scope(
      "provider",
      providerId,
      byProvider.get(providerId) ?? [],
      candidates.providerAssertions.get(providerId) ?? [],
    );
  for (const model of [...identities.modelIds].sort(compareCodePoints))
    scope("model", model, byModel.get(model) ?? [], identities.modelAssertions.get(model) ?? []);
  for (const deployment of deployments) lifecycle.push(deploymentLifecycleRecord(deployment));
  lifecycle.sort(byTypeAndId);
  conflicts.sort(
    (a, b) => compareCodePoints(a.resource_id, b.resource_id) || compareCodePoints(a.field, b.field),
  );
  return {
    deployments,
    lifecycle,
    conflicts,
    officialDisagreements: disagreements.sort(compareDisagreements),
    communityDisagreements: communityDisagreements.sort(
      (a, b) =>
        compareCodePoints(a.resource_id, b.resource_id) ||
        compareCodePoints(a.field, b.field) ||
        compareCodePoints(a.other.source_id, b.other.source_id),
    ),
    officialSpecs,
    unresolvedReplacements: unresolved,
    unlistedOfferings: gate.unlistedOfferings,
    communityZeroPrices: gate.communityZeroPrices,
    inputLimitContexts: limited.inputLimitContexts,
    staleAliasPrices: gate.staleAliasPrices,
    modelIdentity: folded.report,
  };
}

/** Whether an official source states one of the deployment's capabilities. */
function officialCapability(capabilities: Deployment["capabilities"]): boolean {
  for (const name in capabilities)
    if (capabilities[name as CapabilityName]?.verification_status?.startsWith("official_")) return true;
  return false;
}

/** By provider (every provider with a deployment): the non-retired deployments' official specs. */
function countOfficialSpecs(merged: readonly MergedDeployment[]): Map<string, OfficialSpecCounts> {
  const counts = new Map<string, OfficialSpecCounts>();
  for (const { deployment: d, officialLimits } of merged) {
    let c = counts.get(d.provider_id);
    if (!c) {
      c = { non_retired: 0, context_tokens: 0, max_output_tokens: 0, capability: 0 };
      counts.set(d.provider_id, c);
    }
    if (d.status === "retired") continue;
    c.non_retired++;
    if (officialLimits.officialContext) c.context_tokens++;
    if (officialLimits.officialMaxOutput) c.max_output_tokens++;
    if (officialCapability(d.capabilities)) c.capability++;
  }
  return counts;
}

/**
 * A model's release days as its sources state them (docs/finding-deployments.md): the earliest
 * day a source states one of its deployments was released, and the deployment with the latest
 * such day (ties by id); null where no source states one. Never a date read from an id.
 */
export function releaseSummary(
  members: readonly Deployment[],
  releasedAt: (deployment: Deployment) => string | null,
): Pick<LifecycleSummary, "released_at" | "newest_deployment"> {
  let first: string | null = null;
  let newest: { deployment_id: string; released_at: string } | null = null;
  for (const d of members) {
    const day = releasedAt(d);
    if (day === null) continue;
    if (first === null || day < first) first = day;
    if (
      newest === null ||
      day > newest.released_at ||
      (day === newest.released_at && compareCodePoints(d.id, newest.deployment_id) < 0)
    )
      newest = { deployment_id: d.id, released_at: day };
  }
  return { released_at: first, newest_deployment: newest };
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
