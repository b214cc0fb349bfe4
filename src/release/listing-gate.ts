/**
 * Merge step 0b, the listing gate (docs/provenance.md): what community facts may say before any
 * candidate is ranked. Pure.
 *
 * 1. Only an official source may place a deployment where the provider publishes an official
 *    availability list. A community deployment fact is dropped, and reported as an unlisted
 *    offering with the list that excludes it, when
 *    - an official catalog (a parse output marked `availability_list: "catalog"`, or `true` as
 *      releases before it wrote: Azure's deployment-type and region tables, xAI's models page,
 *      DeepSeek's pricing page, Together AI's serverless models, Mistral's model cards) covers
 *      its place (lists some model in this api_surface, mode and region) and no list places the
 *      model there: a catalog lists every model offered at the places it covers. A place no
 *      catalog has a column for (Azure Government's regions) is not theirs to exclude; or
 *    - a per-model list (`"per_model"`: a Bedrock model card's inference profiles and Regional
 *      Availability, Anthropic's Claude-on-Bedrock table) names its provider model (or a version
 *      of it, for a record of the bare name), speaks for its place (`availability_covers`) and
 *      no list places the model there; or
 *    - an official model fact says the model does not support batch (`capabilities.batch`
 *      unsupported, e.g. an OpenAI model page's endpoints) and the fact is a batch-mode
 *      deployment.
 *    A deployment an official availability list places is never vetoed (the community fact is
 *    then one more candidate, ranked below the official ones). An official source that is no
 *    list (a Bedrock lifecycle page's Regions, "the Regions covered by a model's announced EOL
 *    date"; a price list's Region) names a place as the scope of what it says: its deployment
 *    fact is dropped the same way where a list excludes the place (never for batch: official
 *    sources settle that between themselves), and reported; its lifecycle assertions stay
 *    while they are about some deployment (withoutOrphanAssertions). Where no catalog covers the
 *    place, a model that no list names is not vetoed (a per-model list speaks only for its
 *    models; a community record of another model stays, marked community_reported).
 * 2. A community zero price is unknown: a zero token price of a community rate card becomes null,
 *    and a card whose input price is zero is dropped (the deployment stays, unpriced), because a
 *    community dataset writes 0 where it does not know. Only an official source may say a use is
 *    free. Each change is reported.
 * 3. A community price of an alias (`…-latest`, `…@latest`) that no official source resolves is
 *    stale: the dataset priced whatever the alias pointed to when it was written. The aliases a
 *    provider declares were already resolved to the model they point to now (declared-aliases.ts,
 *    the step before); a community fact still named by an alias loses its rate card (the
 *    deployment stays, unpriced), reported as a stale alias price.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import { identityOf } from "../normalize/identity/index.js";
import {
  type DeploymentFact,
  type LifecycleAssertion,
  PRICE_FIELDS,
  type PriceField,
  type RateCard,
  type RateTier,
  TIER_PRICE_FIELDS,
} from "../schema/index.js";
import type { SourceFacts } from "./facts.js";
import { push, targets } from "./merge-candidates.js";
import { unversionedName } from "./model-facts.js";
import type { CommunityZeroPrice, StaleAliasPrice, UnlistedOffering } from "./types.js";

export interface GateResult {
  sources: SourceFacts[];
  unlistedOfferings: UnlistedOffering[];
  communityZeroPrices: CommunityZeroPrice[];
  staleAliasPrices: StaleAliasPrice[];
}

/** Whether a provider model id is a moving alias (`gemini-flash-latest`, `codestral@latest`). */
export function isMovingAlias(providerModelId: string): boolean {
  return /[-@]latest$/.test(providerModelId);
}

const modelKey = (provider: string, providerModelId: string) => `${provider}|${providerModelId}`;
const columnKey = (d: Pick<DeploymentFact, "provider_id" | "api_surface" | "mode" | "region">) =>
  `${d.provider_id}|${d.api_surface}|${d.mode}|${d.region}`;
const placeKey = (d: Pick<DeploymentFact, "api_surface" | "mode" | "region">) =>
  `${d.api_surface}|${d.mode}|${d.region}`;

/** What the official availability lists and model pages say is offered. */
interface OfficialListings {
  /** provider|provider_model_id -> the surface|mode|region places the lists give it. */
  placesByModel: Map<string, Set<string>>;
  /** provider|provider_model_id -> the URLs of the lists that name it. */
  listsByModel: Map<string, Set<string>>;
  /** per-model list URL -> the provider|surface|mode|region places it gives some model. */
  coveredByList: Map<string, Set<string>>;
  /** provider|surface|mode|region -> the URL of a provider's catalog of the models served there. */
  catalogs: Map<string, string>;
  /** provider|provider_model_id -> the URL of an official page saying batch is unsupported. */
  noBatch: Map<string, string>;
  /**
   * Deployment ids an official source places (an availability list, or another official source
   * where no list excludes the place): the community may speak about them.
   */
  officiallyPlaced: Set<string>;
}

function officialListings(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): OfficialListings {
  const listings: OfficialListings = {
    placesByModel: new Map(),
    listsByModel: new Map(),
    coveredByList: new Map(),
    catalogs: new Map(),
    noBatch: new Map(),
    officiallyPlaced: new Set(),
  };
  const officialStatements: DeploymentFact[] = [];
  for (const source of sources) {
    if (!isOfficial(source)) continue;
    // an availability list places what it lists; any other official source (a lifecycle page's
    // Regions, a price list's SKUs) places a deployment only where no list excludes it (below)
    if (source.output.availability_list)
      for (const d of source.output.deployments) listings.officiallyPlaced.add(d.id);
    else officialStatements.push(...source.output.deployments);
    // `true`: what releases before the catalog kind wrote for Azure's tables, read the same
    const catalog = source.output.availability_list === "catalog" || source.output.availability_list === true;
    // a catalog also speaks for the places it declares, where it may list no model at all
    if (catalog && source.archived !== true)
      for (const place of source.output.availability_covers ?? [])
        coverColumn(listings, columnKey({ ...place, provider_id: source.provider_id }), source.source_url);
    // an archived copy is not the provider's list now (it names models since withdrawn)
    if (source.output.availability_list && source.archived !== true)
      for (const d of source.output.deployments) {
        // a list row names a model at a version (Azure: `gpt-5.1-codex-mini` version
        // `2025-11-13`); a community record of the bare name is a record of that model, so the
        // bare name is listed wherever any of its versions is (unversioned-names.ts resolves it
        // where one version is placed; the gate must also see it where none is)
        // (only at a provider whose deployments are always a name at a version: elsewhere a bare
        // name is a model id of its own, or an old alias, which the list names or not)
        const bare =
          identityOf(d.provider_id)?.versionedDeployments === true
            ? unversionedName(d.provider_model_id)
            : undefined;
        for (const name of bare === undefined ? [d.provider_model_id] : [d.provider_model_id, bare]) {
          const key = modelKey(d.provider_id, name);
          const places = listings.placesByModel.get(key) ?? new Set<string>();
          places.add(placeKey(d));
          listings.placesByModel.set(key, places);
          const lists = listings.listsByModel.get(key) ?? new Set<string>();
          lists.add(d.evidence.source_url);
          listings.listsByModel.set(key, lists);
        }
        if (catalog) {
          coverColumn(listings, columnKey(d), d.evidence.source_url);
        } else if (source.output.availability_list === "per_model") {
          const covered = listings.coveredByList.get(d.evidence.source_url) ?? new Set<string>();
          const declared = source.output.availability_covers;
          if (declared)
            for (const place of declared) covered.add(columnKey({ ...place, provider_id: d.provider_id }));
          else covered.add(columnKey(d));
          listings.coveredByList.set(d.evidence.source_url, covered);
        }
      }
    for (const fact of source.output.model_facts ?? [])
      if (fact.capabilities?.batch?.status === "unsupported")
        listings.noBatch.set(modelKey(fact.provider_id, fact.provider_model_id), fact.evidence.source_url);
  }
  for (const d of officialStatements)
    if (excludedBy(d, listings, true) === null) listings.officiallyPlaced.add(d.id);
  return listings;
}

/** A catalog speaks for a column: the first list URL in code-point order is named for it. */
function coverColumn(listings: OfficialListings, column: string, url: string): void {
  const known = listings.catalogs.get(column);
  if (known === undefined || compareCodePoints(url, known) < 0) listings.catalogs.set(column, url);
}

/** Whether a mode is a batch mode (`batch`, `global-batch`, `data-zone-batch`). */
function isBatchMode(mode: string): boolean {
  return mode === "batch" || mode.endsWith("-batch");
}

/**
 * The official list that excludes a deployment fact, or null when none does. `official`: the
 * fact is an official source's that is no availability list (its place is the scope of what it
 * says, as a Bedrock lifecycle row's Regions are "the Regions covered by a model's announced EOL
 * date"): only an availability list excludes it, and only where no list places the model.
 */
function excludedBy(
  d: DeploymentFact,
  listings: OfficialListings,
  official = false,
): { list: string; reason: string } | null {
  if (listings.officiallyPlaced.has(d.id)) return null;
  const key = modelKey(d.provider_id, d.provider_model_id);
  const noBatch = listings.noBatch.get(key);
  // OpenAI's pricing page prices gpt-5.4-pro in batch while its model page says batch is
  // unsupported: official sources settle that between themselves
  if (!official && noBatch !== undefined && isBatchMode(d.mode))
    return { list: noBatch, reason: "an official model page says the model does not support batch" };
  const places = listings.placesByModel.get(key);
  if (places?.has(placeKey(d)) === true) return null;
  const column = columnKey(d);
  // a catalog lists every model offered at the places it covers
  const catalog = listings.catalogs.get(column);
  if (catalog !== undefined)
    return {
      list: catalog,
      reason:
        places === undefined
          ? "the provider's own list of the models it serves here does not name the model"
          : "the official availability list names the model but not in this mode and region",
    };
  if (places === undefined) return null;
  // a per-model list speaks for the places it declares, for the models it names
  const list = [...(listings.listsByModel.get(key) ?? [])]
    .sort(compareCodePoints)
    .find((url) => listings.coveredByList.get(url)?.has(column) === true);
  return list === undefined
    ? null
    : { list, reason: "the official availability list names the model but not in this mode and region" };
}

/** The prices a zero makes unknown (null); a zero input price drops the card or tier instead. */
const CARD_PRICES = PRICE_FIELDS.filter(
  (field): field is Exclude<PriceField, "input_micro_usd"> => field !== "input_micro_usd",
);
const TIER_PRICES = TIER_PRICE_FIELDS.filter(
  (field): field is Exclude<(typeof TIER_PRICE_FIELDS)[number], "input_micro_usd"> =>
    field !== "input_micro_usd",
);

/**
 * A community rate card with its zero prices unknown: null where a price is 0, undefined (no
 * card) where the input price is 0; the fields it changed.
 */
export function withoutZeroPrices(card: RateCard): { card: RateCard | undefined; zeros: string[] } {
  if (card.input_micro_usd === 0) return { card: undefined, zeros: ["input_micro_usd"] };
  const zeros: string[] = [];
  const out: RateCard = { ...card };
  for (const field of CARD_PRICES)
    if (out[field] === 0) {
      out[field] = null;
      zeros.push(field);
    }
  if (card.tiers) {
    const tiers: RateTier[] = [];
    card.tiers.forEach((tier, i) => {
      if (tier.input_micro_usd === 0) {
        zeros.push(`tiers[${i}].input_micro_usd`);
        return;
      }
      const t: RateTier = { ...tier };
      for (const field of TIER_PRICES)
        if (t[field] === 0) {
          t[field] = null;
          zeros.push(`tiers[${i}].${field}`);
        }
      tiers.push(t);
    });
    if (tiers.length > 0) out.tiers = tiers;
    else delete out.tiers;
  }
  return { card: zeros.length === 0 ? card : out, zeros };
}

function hasZero(card: RateCard): boolean {
  if (card.input_micro_usd === 0) return true;
  for (const field of CARD_PRICES) if (card[field] === 0) return true;
  return (card.tiers ?? []).some(
    (t) => t.input_micro_usd === 0 || TIER_PRICES.some((field) => t[field] === 0),
  );
}

/**
 * A source's lifecycle assertions without those about places the gate vetoed: a deployment-scope
 * assertion that targets deployment facts of its source, none of which passed the gate, would
 * otherwise become a fact about the whole model (merge-candidates.ts indexIdentities) and date
 * the model's other deployments.
 */
function withoutVetoedTargets(source: SourceFacts, kept: readonly DeploymentFact[]): LifecycleAssertion[] {
  // the facts by provider model, so each assertion looks only at its own model's facts
  const byModel = (facts: readonly DeploymentFact[]) => {
    const index = new Map<string, DeploymentFact[]>();
    for (const d of facts) push(index, modelKey(d.provider_id, d.provider_model_id), d);
    return index;
  };
  const all = byModel(source.output.deployments);
  const passed = byModel(kept);
  return source.output.lifecycle.filter((a) => {
    if (a.scope !== "deployment" || !a.target) return true;
    const key = modelKey(a.provider_id, a.target.provider_model_id);
    const about = (d: DeploymentFact) => targets(a.target, d);
    return !(all.get(key) ?? []).some(about) || (passed.get(key) ?? []).some(about);
  });
}

/**
 * The official sources the gate dropped facts from (`dropped`: source id -> those facts) without
 * the deployment-scope assertions that targeted a dropped place and now target no deployment
 * fact of any source: such an assertion would otherwise become a fact about the whole model
 * (withoutVetoedTargets).
 */
function withoutOrphanAssertions(
  gated: SourceFacts[],
  dropped: ReadonlyMap<string, DeploymentFact[]>,
): SourceFacts[] {
  if (dropped.size === 0) return gated;
  const kept = new Map<string, DeploymentFact[]>();
  for (const source of gated)
    for (const d of source.output.deployments) push(kept, modelKey(d.provider_id, d.provider_model_id), d);
  return gated.map((source) => {
    const lost = dropped.get(source.source_id);
    if (lost === undefined) return source;
    const lifecycle = source.output.lifecycle.filter((a) => {
      if (a.scope !== "deployment" || !a.target) return true;
      const about = (d: DeploymentFact) =>
        d.provider_id === a.provider_id &&
        d.provider_model_id === a.target?.provider_model_id &&
        targets(a.target, d);
      return (
        !lost.some(about) || (kept.get(modelKey(a.provider_id, a.target.provider_model_id)) ?? []).some(about)
      );
    });
    return lifecycle.length === source.output.lifecycle.length
      ? source
      : { ...source, output: { ...source.output, lifecycle } };
  });
}

/** The listing gate and the community zero rule over every source's facts (module comment). */
export function gateCommunityFacts(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): GateResult {
  const listings = officialListings(sources, isOfficial);
  const unlistedOfferings: UnlistedOffering[] = [];
  const communityZeroPrices: CommunityZeroPrice[] = [];
  const staleAliasPrices: StaleAliasPrice[] = [];
  const droppedOfficial = new Map<string, DeploymentFact[]>();
  const gated = sources.map((source): SourceFacts => {
    if (isOfficial(source)) return source.output.availability_list ? source : gateOfficial(source);
    let changed = false;
    const deployments: DeploymentFact[] = [];
    for (const d of source.output.deployments) {
      const excluded = excludedBy(d, listings);
      if (excluded) {
        changed = true;
        unlistedOfferings.push({
          source_id: source.source_id,
          provider_id: d.provider_id,
          deployment_id: d.id,
          excluded_by: excluded.list,
          reason: excluded.reason,
        });
        continue;
      }
      if (d.rate_card && isMovingAlias(d.provider_model_id)) {
        changed = true;
        staleAliasPrices.push({
          source_id: source.source_id,
          provider_id: d.provider_id,
          deployment_id: d.id,
        });
        const { rate_card: _, ...rest } = d;
        deployments.push(rest);
        continue;
      }
      if (d.rate_card && hasZero(d.rate_card)) {
        changed = true;
        const { card, zeros } = withoutZeroPrices(d.rate_card);
        communityZeroPrices.push({
          source_id: source.source_id,
          provider_id: d.provider_id,
          deployment_id: d.id,
          fields: zeros,
        });
        const { rate_card: _, ...rest } = d;
        deployments.push(card === undefined ? rest : { ...rest, rate_card: card });
        continue;
      }
      deployments.push(d);
    }
    if (!changed) return source;
    return {
      ...source,
      output: { ...source.output, deployments, lifecycle: withoutVetoedTargets(source, deployments) },
    };
  });
  /**
   * An official source that is no availability list: only its places a list excludes go. Its
   * lifecycle assertions stay (a lifecycle row about a Region speaks for the model's other
   * deployments there, a batch or global-endpoint price's); those left about no deployment at
   * all go at the end (withoutOrphanAssertions).
   */
  function gateOfficial(source: SourceFacts): SourceFacts {
    const lost: DeploymentFact[] = [];
    const deployments = source.output.deployments.filter((d) => {
      const excluded = excludedBy(d, listings, true);
      if (excluded) {
        lost.push(d);
        unlistedOfferings.push({
          source_id: source.source_id,
          provider_id: d.provider_id,
          deployment_id: d.id,
          excluded_by: excluded.list,
          reason: `an official page names this place as the scope of what it says, and ${excluded.reason.replace(/^the /, "the model's ")}`,
        });
      }
      return !excluded;
    });
    if (lost.length === 0) return source;
    droppedOfficial.set(source.source_id, lost);
    return { ...source, output: { ...source.output, deployments } };
  }
  const byDeployment = (a: { deployment_id: string; source_id: string }, b: typeof a) =>
    compareCodePoints(a.deployment_id, b.deployment_id) || compareCodePoints(a.source_id, b.source_id);
  return {
    sources: withoutOrphanAssertions(gated, droppedOfficial),
    unlistedOfferings: unlistedOfferings.sort(byDeployment),
    communityZeroPrices: communityZeroPrices.sort(byDeployment),
    staleAliasPrices: staleAliasPrices.sort(byDeployment),
  };
}
