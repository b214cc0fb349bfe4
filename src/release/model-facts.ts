/**
 * Token limits and capabilities of a deployment, from the facts about that deployment and the
 * facts about its provider model (official models pages: `ParseOutput.model_facts`). Pure.
 *
 * A model fact never creates a deployment: it applies to every deployment of its provider whose
 * provider_model_id matches. Each field (context_tokens, max_output_tokens, each capability)
 * comes from the first candidate that speaks about it, in the order of precedence.ts:
 *  1. official sources before community sources;
 *  2. deployment-level facts before model-level facts, and a model fact that names the
 *     deployment's mode (`modes`) before one that applies to every mode;
 *  3. a value an official page states (official_declared) before one it implies
 *     (official_inferred: a version-unstated row applied to the one listed version, Anthropic's
 *     page giving its model's limits to the Bedrock and Vertex AI ids): a Bedrock model card's
 *     own 64,000 max output for Claude Sonnet 4.6 beats the 128,000 of Anthropic's newer page;
 *  4. the newest observation (evidence.observed_at);
 *  5. then source_id and the fact's index in its sorted source, so ties are deterministic.
 * An absent field is silence; null says "unknown" and wins like a value. Where the best
 * official and the best community value of a limit differ, the official one wins and the
 * disagreement is returned as a conflict.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import type {
  Capabilities,
  CapabilityEntry,
  CapabilityList,
  CapabilityName,
  DeploymentFact,
  Evidence,
  FactProvenance,
  ModelFact,
} from "../schema/index.js";
import type { SourceFacts } from "./facts.js";
import { comparePrecedence, corroborate, factLevel, type PrecedenceKey } from "./precedence.js";
import { factProvenance } from "./shared-values.js";
import type { CommunityDisagreement, OfficialDisagreement, SourceConflict } from "./types.js";

/** A deployment fact as the merge ranks it (merge.ts's RankedFact fits this shape). */
export interface DeploymentCandidate {
  fact: Pick<DeploymentFact, "context_tokens" | "max_output_tokens" | "capabilities" | "evidence">;
  source: Pick<SourceFacts, "source_id" | "fills_only" | "not_independent_of">;
  official: boolean;
  observedMs: number;
  index: number;
}

/** A model fact with what ranks it. */
export interface ModelFactCandidate {
  fact: ModelFact;
  source: Pick<SourceFacts, "source_id">;
  official: boolean;
  observedMs: number;
  index: number;
}

/** Model facts by `provider_id|provider_model_id`. */
export type ModelFactIndex = ReadonlyMap<string, readonly ModelFactCandidate[]>;

export function modelFactKey(providerId: string, providerModelId: string): string {
  return `${providerId}|${providerModelId}`;
}

/**
 * The name of a versioned provider model id without its version, or undefined when it carries
 * none: the version is a date or a number ("-0914", "-2024-08-06", "-1", "-001", "-v2:0").
 * `text-embedding-3-large-1` -> `text-embedding-3-large`.
 */
export function unversionedName(providerModelId: string): string | undefined {
  return /^(.+?)-(?:\d{4}-\d{2}-\d{2}|\d+|v\d+(?::\d+)?)$/.exec(providerModelId)?.[1];
}

/**
 * Every source's model facts, indexed by provider and provider model id.
 *
 * A fact marked `version_unstated` (the page names the model without the version its provider
 * deploys) is also indexed under the provider's one versioned id of that model, where the
 * deployment facts of the official sources name exactly one (`text-embedding-3-large` ->
 * `text-embedding-3-large-1`, the only version Azure's region tables list); there its values are
 * `official_inferred` (the page does not name that id: the catalog's official listings leave no
 * other reading). Where they name two or more versions, or none, it applies to none of them: a
 * version is never guessed.
 *
 * The facts official capability lists imply are indexed too (capabilityListFacts).
 */
export function indexModelFacts(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): ModelFactIndex {
  const index = new Map<string, ModelFactCandidate[]>();
  const add = (key: string, candidate: ModelFactCandidate) => {
    const list = index.get(key);
    if (list) list.push(candidate);
    else index.set(key, [candidate]);
  };
  const unstated: ModelFactCandidate[] = [];
  for (const source of sources) {
    const official = isOfficial(source);
    (source.output.model_facts ?? []).forEach((fact, i) => {
      const candidate: ModelFactCandidate = {
        fact,
        source,
        official,
        observedMs: Date.parse(fact.evidence.observed_at),
        index: i,
      };
      add(modelFactKey(fact.provider_id, fact.provider_model_id), candidate);
      if (fact.version_unstated) unstated.push(candidate);
    });
  }
  for (const candidate of capabilityListFacts(sources, isOfficial))
    add(modelFactKey(candidate.fact.provider_id, candidate.fact.provider_model_id), candidate);
  if (unstated.length === 0) return index;
  const versions = versionsByName(sources, isOfficial, (d) => unversionedName(d.provider_model_id));
  for (const candidate of unstated) {
    const { provider_id, provider_model_id } = candidate.fact;
    const only = onlyVersion(versions, versionKey(provider_id, provider_model_id))?.provider_model_id;
    if (only === undefined) continue;
    add(modelFactKey(provider_id, only), { ...candidate, fact: inferredFor(candidate.fact, only) });
  }
  return index;
}

/**
 * The model facts official capability lists imply (ParseOutput.capability_lists, docs/provenance.md
 * "Capability lists"), official_inferred, one per provider model of the lists' providers whose
 * deployments (of any source) are of the list's lab:
 * - named for that provider: the capability `supported`;
 * - not named at all: `unsupported`, but only where the model is known to have been out when the
 *   list was observed: a model fact states its release (released_at, the earliest of any of its
 *   provider models) on or before that day, or, where none states one, some source observed a
 *   fact about it (a deployment or model fact of any of its provider models) by then. A model
 *   stated to be released later, or first seen later, is not judged (the list may predate it);
 *   and where the list `drops_retired`, nor is one an official source retires on that provider
 *   by then (declared `retired`, or an end of life `on` a day up to the list's): such a page
 *   names no retired model, whatever it could do (Claude 3.5 Sonnet v2's computer use);
 * - named, but not for that provider: nothing (the list says nothing there).
 * Lists of archived sources are not read (a model may have gained the capability since). A
 * capability an official source states (official_declared) still wins: these facts are
 * official_inferred, and precedence.ts ranks declared before inferred.
 */
export function capabilityListFacts(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): ModelFactCandidate[] {
  const lists: Array<{ list: CapabilityList; source: SourceFacts }> = [];
  for (const source of sources)
    if (isOfficial(source) && source.archived !== true)
      for (const list of source.output.capability_lists ?? []) lists.push({ list, source });
  if (lists.length === 0) return [];

  // provider|provider_model_id -> model id, and per model id: first observation, earliest stated release
  const modelOf = new Map<string, string>();
  for (const source of sources)
    for (const d of source.output.deployments)
      modelOf.set(modelFactKey(d.provider_id, d.provider_model_id), d.model_id);
  const firstSeen = new Map<string, number>();
  const released = new Map<string, string>();
  const seen = (modelId: string | undefined, observedAt: string) => {
    if (modelId === undefined) return;
    const ms = Date.parse(observedAt);
    if (ms < (firstSeen.get(modelId) ?? Number.POSITIVE_INFINITY)) firstSeen.set(modelId, ms);
  };
  for (const source of sources) {
    for (const d of source.output.deployments) seen(d.model_id, d.evidence.observed_at);
    for (const f of source.output.model_facts ?? []) {
      const modelId = modelOf.get(modelFactKey(f.provider_id, f.provider_model_id));
      seen(modelId, f.evidence.observed_at);
      if (modelId !== undefined && f.released_at !== undefined) {
        const known = released.get(modelId);
        if (known === undefined || f.released_at < known) released.set(modelId, f.released_at);
      }
    }
  }
  // provider|provider_model_id -> the earliest day an official source retires it there ("" for
  // a declared `retired` without a date)
  const retiredOn = new Map<string, string>();
  for (const source of sources) {
    if (!isOfficial(source)) continue;
    for (const a of source.output.lifecycle) {
      const target = a.target?.provider_model_id;
      if (a.scope !== "deployment" || target === undefined) continue;
      const eol = a.end_of_life;
      const day =
        a.status === "retired"
          ? (eol?.date ?? "")
          : eol?.state === "scheduled" && eol.date_type === "on"
            ? eol.date
            : null;
      if (day === null || day === undefined) continue;
      const key = modelFactKey(a.provider_id, target);
      const known = retiredOn.get(key);
      if (known === undefined || day < known) retiredOn.set(key, day);
    }
  }
  const retiredBy = (key: string, observedAt: string): boolean => {
    const day = retiredOn.get(key);
    return day !== undefined && day <= observedAt.slice(0, 10);
  };
  const outBy = (modelId: string, observedAt: string): boolean => {
    const day = released.get(modelId);
    if (day !== undefined) return day <= observedAt.slice(0, 10);
    return (firstSeen.get(modelId) ?? Number.POSITIVE_INFINITY) <= Date.parse(observedAt);
  };

  const found: ModelFactCandidate[] = [];
  const keys = [...modelOf.keys()].sort(compareCodePoints);
  for (const { list, source } of lists) {
    const named = new Set(list.model_ids);
    const evidence: Evidence = { ...list.evidence, verification_status: "official_inferred" };
    for (const p of list.providers) {
      const here = new Set(p.model_ids);
      for (const key of keys) {
        const modelId = modelOf.get(key) ?? "";
        if (!key.startsWith(`${p.provider_id}|`) || !modelId.startsWith(`${list.lab}/`)) continue;
        const status = here.has(modelId)
          ? "supported"
          : !named.has(modelId) &&
              outBy(modelId, list.evidence.observed_at) &&
              !(list.drops_retired === true && retiredBy(key, list.evidence.observed_at))
            ? "unsupported"
            : null;
        if (status === null) continue;
        found.push({
          fact: {
            provider_id: p.provider_id,
            provider_model_id: key.slice(p.provider_id.length + 1),
            capabilities: { [list.capability]: { status, verification_status: "official_inferred" } },
            evidence,
          },
          source,
          official: true,
          observedMs: Date.parse(evidence.observed_at),
          index: (source.output.model_facts?.length ?? 0) + found.length,
        });
      }
    }
  }
  return found;
}

/**
 * The versions of a model that a name without its version can mean, by `versionKey`: every
 * provider model id that the deployment facts of the included sources name under that name
 * (`nameOf` of the fact; a fact it gives no name is left out), with the first fact that names
 * it. The one mechanism behind "a name without its version speaks for its only version"
 * (onlyVersion): model facts marked `version_unstated` (indexModelFacts, here), official
 * assertions naming a Vertex AI model without its `@version` (merge-candidates.ts
 * applyToOnlyVersion) and community records of a bare Azure name, per surface and region
 * (`scopeOf`; unversioned-names.ts).
 */
export function versionsByName(
  sources: readonly SourceFacts[],
  include: (source: SourceFacts) => boolean,
  nameOf: (fact: DeploymentFact) => string | undefined,
  scopeOf?: (fact: DeploymentFact) => string,
): Map<string, Map<string, DeploymentFact>> {
  const versions = new Map<string, Map<string, DeploymentFact>>();
  for (const source of sources) {
    if (!include(source)) continue;
    for (const d of source.output.deployments) {
      const name = nameOf(d);
      if (name === undefined) continue;
      const key = versionKey(d.provider_id, name, scopeOf?.(d));
      const found = versions.get(key) ?? new Map<string, DeploymentFact>();
      if (!found.has(d.provider_model_id)) found.set(d.provider_model_id, d);
      versions.set(key, found);
    }
  }
  return versions;
}

/** The key of versionsByName: provider, name and, when the versions are counted per scope, the scope. */
export function versionKey(providerId: string, name: string, scope?: string): string {
  const key = modelFactKey(providerId, name);
  return scope === undefined ? key : `${key}|${scope}`;
}

/** The first deployment fact of the one version under `key`, or undefined for none or two or more: a version is never guessed. */
export function onlyVersion(
  versions: ReadonlyMap<string, ReadonlyMap<string, DeploymentFact>>,
  key: string,
): DeploymentFact | undefined {
  const found = versions.get(key);
  if (found?.size !== 1) return undefined;
  const [only] = found.values();
  return only;
}

/** A version-unstated fact as a fact about its one versioned id: official values become official_inferred. */
function inferredFor(fact: ModelFact, providerModelId: string): ModelFact {
  const inferred = (status: Evidence["verification_status"]) =>
    status === "official_declared" ? "official_inferred" : status;
  const capabilities: Capabilities = {};
  for (const [name, entry] of Object.entries(fact.capabilities ?? {}) as Array<
    [CapabilityName, CapabilityEntry]
  >)
    capabilities[name] = {
      status: entry.status,
      verification_status: inferred(entry.verification_status ?? fact.evidence.verification_status),
    };
  const { version_unstated: _, ...rest } = fact;
  return {
    ...rest,
    provider_model_id: providerModelId,
    ...(fact.capabilities ? { capabilities } : {}),
    evidence: { ...fact.evidence, verification_status: inferred(fact.evidence.verification_status) },
  };
}

/**
 * The day the model facts of a provider model state it was released at that provider, or null
 * when none states one: the first in the one precedence order (precedence.ts).
 */
export function statedReleaseDay(candidates: readonly ModelFactCandidate[] | undefined): string | null {
  const stating = (candidates ?? []).filter((c) => c.fact.released_at !== undefined);
  const key = (c: ModelFactCandidate): PrecedenceKey => ({
    official: c.official,
    specificity: 0,
    verification: factLevel(c.official, c.fact.evidence.verification_status),
    observedMs: c.observedMs,
    sourceId: c.source.source_id,
    index: c.index,
  });
  const [best] = stating.sort((a, b) => comparePrecedence(key(a), key(b)));
  return best?.fact.released_at ?? null;
}

/** One source of limits or capabilities, deployment- or model-level, ranked by precedence.ts. */
interface Candidate extends PrecedenceKey {
  /** 0 = a fact about the deployment, 1 = about the model in this mode, 2 = about the model. */
  level: 0 | 1 | 2;
  /** Its source only fills deployments other sources place (fills.ts). */
  fillsOnly: boolean;
  /** Datasets its source is not independent of (precedence.ts independent). */
  notIndependentOf: readonly string[];
  evidence: Evidence;
  context_tokens?: number | null;
  max_output_tokens?: number | null;
  capabilities?: Capabilities;
}

const compareCandidates: (a: Candidate, b: Candidate) => number = comparePrecedence;

/**
 * Where official model facts about the same provider model (and the same modes) disagree on a
 * limit or a capability: the value the merge keeps (the first in precedence order: declared
 * before inferred, then the newest observation, then source id) and each other official
 * source's different value. The merge
 * settles them as it settles any field; these are reported so a reader sees that official
 * sources contradict each other (e.g. the Gemini API's model list and its models pages on an
 * image model's input limit). Community facts are not compared here (they are conflicts).
 */
export function officialDisagreements(index: ModelFactIndex): OfficialDisagreement[] {
  const found: OfficialDisagreement[] = [];
  for (const list of index.values()) {
    const byModes = new Map<string, Candidate[]>();
    for (const r of list) {
      if (!r.official) continue;
      const modes = r.fact.modes === undefined ? "*" : [...r.fact.modes].sort(compareCodePoints).join(",");
      const group = byModes.get(modes) ?? [];
      group.push(candidate(r, r.fact.modes === undefined ? 2 : 1));
      byModes.set(modes, group);
    }
    const first = list[0];
    if (first === undefined) continue;
    const { provider_id, provider_model_id } = first.fact;
    for (const [modes, group] of byModes) {
      if (group.length < 2) continue;
      group.sort(compareCandidates);
      for (const [field, read] of comparedFields(group)) {
        const kept = group.find((c) => read(c) !== undefined);
        if (kept === undefined) continue;
        for (const difference of differingFrom(kept, group, field, read))
          found.push({
            provider_id,
            provider_model_id,
            ...(modes === "*" ? {} : { modes: modes.split(",") }),
            ...difference,
          });
      }
    }
  }
  return found.sort(compareDisagreements);
}

/** Provider, provider model, the model-level ones before each deployment's, field, other source. */
export function compareDisagreements(a: OfficialDisagreement, b: OfficialDisagreement): number {
  return (
    compareCodePoints(a.provider_id, b.provider_id) ||
    compareCodePoints(a.provider_model_id, b.provider_model_id) ||
    compareCodePoints(a.deployment_id ?? "", b.deployment_id ?? "") ||
    compareCodePoints(a.field, b.field) ||
    compareCodePoints(a.other.source_id, b.other.source_id)
  );
}

export interface MergedSpecs {
  context_tokens: number | null;
  max_output_tokens: number | null;
  capabilities: Partial<Record<CapabilityName, CapabilityEntry>>;
  /** Source URLs of the model facts that supplied at least one of the values above. */
  modelFactUrls: string[];
  /** Official-vs-community disagreements about a limit (the official value won). */
  conflicts: Array<Pick<SourceConflict, "field" | "official" | "community">>;
  /** The context window is an official fact's value (not null): community facts did not give it. */
  officialContext: boolean;
  /** The max output is an official fact's value (not null). */
  officialMaxOutput: boolean;
  /** Where the context window came from (null where it is null). */
  contextProvenance: FactProvenance | null;
  /** Where the max output came from (null where it is null). */
  maxOutputProvenance: FactProvenance | null;
  /**
   * Where an official fact about this deployment was kept for a limit or a capability and an
   * official fact about its model says otherwise (deploymentDisagreements).
   */
  disagreements: Array<Pick<OfficialDisagreement, "field" | "kept" | "other">>;
  /** Community datasets that differ on a limit or capability no official source gives. */
  communityDisagreements: Array<Pick<CommunityDisagreement, "field" | "kept" | "other">>;
}

/** The candidate that gives a field, the level of its value and the datasets that agree on it. */
interface Picked {
  from: Candidate;
  level: Candidate["verification"];
  agreeing: readonly Candidate[];
}

/**
 * The candidate that gives a field: the first in precedence that speaks about it when that is
 * official (or an explicit null); otherwise the community candidates' corroboration
 * (precedence.ts corroborate), whose disagreements are added to `found`.
 */
function pickField(
  candidates: readonly Candidate[],
  field: string,
  read: FieldReader,
  found: MergedSpecs["communityDisagreements"],
): Picked | undefined {
  const first = candidates.find((c) => read(c) !== undefined);
  if (first === undefined) return undefined;
  if (first.official || read(first) === null) return { from: first, level: first.verification, agreeing: [] };
  const decided = corroborate(
    candidates.filter((c) => !c.official && read(c) != null),
    (a, b) => read(a) === read(b),
  );
  if (decided === null) return { from: first, level: first.verification, agreeing: [] };
  const side = (c: Candidate) => ({
    source_id: c.sourceId,
    value: read(c) ?? null,
    observed_at: c.evidence.observed_at,
  });
  for (const other of decided.differing) found.push({ field, kept: side(decided.kept), other: side(other) });
  return { from: decided.kept, level: decided.level, agreeing: decided.agreeing };
}

const LIMIT_FIELDS = ["context_tokens", "max_output_tokens"] as const;

function candidate(r: DeploymentCandidate | ModelFactCandidate, level: Candidate["level"]): Candidate {
  return {
    official: r.official,
    level,
    fillsOnly: "fills_only" in r.source && r.source.fills_only === true,
    notIndependentOf: ("not_independent_of" in r.source ? r.source.not_independent_of : undefined) ?? [],
    specificity: 2 - level,
    verification: factLevel(r.official, r.fact.evidence.verification_status),
    observedMs: r.observedMs,
    sourceId: r.source.source_id,
    index: r.index,
    evidence: r.fact.evidence,
    context_tokens: r.fact.context_tokens,
    max_output_tokens: r.fact.max_output_tokens,
    capabilities: r.fact.capabilities,
  };
}

/** Whether every entry of a candidate's capabilities states its verification status. */
function selfVerified(capabilities: Capabilities): boolean {
  for (const name in capabilities)
    if (capabilities[name as CapabilityName]?.verification_status === undefined) return false;
  return true;
}

/**
 * Each capability from the first candidate (in precedence order) that states it, with the
 * candidate's verification status where the entry has none of its own; `used` gets every
 * candidate that gave one. When one candidate alone states capabilities, each with its
 * verification status, its own object is the answer, shared as a rate card is (nothing
 * mutates either; at 100,000 deployments a new object per deployment cost about 0.15 s).
 */
function mergeCapabilities(
  candidates: readonly Candidate[],
  used: Set<Candidate>,
  found: MergedSpecs["communityDisagreements"],
): Capabilities {
  let only: Candidate | null = null;
  let several = false;
  for (const c of candidates) {
    if (c.capabilities === undefined) continue;
    let stated = false;
    for (const _ in c.capabilities) {
      stated = true;
      break;
    }
    if (!stated) continue;
    if (only !== null) {
      several = true;
      break;
    }
    only = c;
  }
  if (!several) {
    if (only === null) return {};
    if (only.capabilities && selfVerified(only.capabilities)) {
      used.add(only);
      return only.capabilities;
    }
  }
  const capabilities: Capabilities = {};
  const names = [
    ...new Set(candidates.flatMap((c) => Object.keys(c.capabilities ?? {}) as CapabilityName[])),
  ].sort(compareCodePoints);
  for (const name of names) {
    const picked = pickField(
      candidates,
      `capabilities.${name}`,
      (c) => c.capabilities?.[name]?.status,
      found,
    );
    const entry = picked?.from.capabilities?.[name];
    if (!picked || !entry) continue;
    used.add(picked.from);
    capabilities[name] = {
      status: entry.status,
      verification_status: picked.from.official
        ? (entry.verification_status ?? picked.from.evidence.verification_status)
        : picked.level,
    };
  }
  return capabilities;
}

/** The limits and capabilities of one deployment from its own facts and its model's facts. */
export function mergeSpecs(
  mode: string,
  deploymentFacts: readonly DeploymentCandidate[],
  modelFacts: readonly ModelFactCandidate[] = [],
): MergedSpecs {
  const candidates: Candidate[] = [
    ...deploymentFacts.map((r) => candidate(r, 0)),
    ...modelFacts
      .filter((r) => r.fact.modes === undefined || r.fact.modes.includes(mode))
      .map((r) => candidate(r, r.fact.modes === undefined ? 2 : 1)),
  ].sort(compareCandidates);

  const used = new Set<Candidate>();
  const communityDisagreements: MergedSpecs["communityDisagreements"] = [];
  const contextPick = pickField(
    candidates,
    "context_tokens",
    (c) => c.context_tokens,
    communityDisagreements,
  );
  let outputPick = pickField(
    candidates,
    "max_output_tokens",
    (c) => c.max_output_tokens,
    communityDisagreements,
  );
  const contextFrom = contextPick?.from;
  let outputFrom = outputPick?.from;
  const context_tokens = contextFrom?.context_tokens ?? null;
  // A community max output beyond the official context window describes another offering of
  // the model (LiteLLM's 2,000,000 for Grok 4.1 Fast is xAI's own API; Vertex AI's page gives a
  // 128,000 context and no max output): it stays unknown rather than exceed the window.
  const communityOutput = outputFrom && !outputFrom.official ? outputFrom.max_output_tokens : null;
  if (
    contextFrom?.official &&
    context_tokens !== null &&
    communityOutput != null &&
    communityOutput > context_tokens
  ) {
    outputFrom = undefined;
    outputPick = undefined;
  }
  if (contextFrom) used.add(contextFrom);
  if (outputFrom) used.add(outputFrom);
  const max_output_tokens = outputFrom?.max_output_tokens ?? null;

  const capabilities = mergeCapabilities(candidates, used, communityDisagreements);

  const conflicts: MergedSpecs["conflicts"] = [];
  for (const field of LIMIT_FIELDS) {
    const o = candidates.find((c) => c.official && c[field] != null);
    const c = candidates.find((c) => !c.official && c[field] != null);
    if (o && c && o[field] !== c[field])
      conflicts.push({
        field,
        official: { source_id: o.sourceId, value: o[field] as number },
        community: { source_id: c.sourceId, value: c[field] as number },
      });
  }

  const modelFactUrls = [
    ...new Set([...used].filter((c) => c.level > 0).map((c) => c.evidence.source_url)),
  ].sort(compareCodePoints);
  const disagreements = deploymentDisagreements(candidates);
  return {
    context_tokens,
    max_output_tokens,
    capabilities,
    modelFactUrls,
    conflicts,
    disagreements,
    communityDisagreements,
    // official candidates rank first: the field's first speaker is official when any official one speaks
    officialContext: contextFrom?.official === true && context_tokens !== null,
    officialMaxOutput: outputFrom?.official === true && max_output_tokens !== null,
    contextProvenance: context_tokens === null ? null : provenanceOf(contextPick),
    maxOutputProvenance: max_output_tokens === null ? null : provenanceOf(outputPick),
  };
}

/** The provenance of a value: its level, its source and those that agree, when it was seen. */
function provenanceOf(picked: Picked | undefined): FactProvenance | null {
  if (picked === undefined) return null;
  return factProvenance(
    picked.level,
    [...new Set([picked.from, ...picked.agreeing].map((c) => c.evidence.source_url))].sort(compareCodePoints),
    picked.from.evidence.observed_at,
  );
}

/**
 * Official sources contradicting an official fact about the deployment itself: where the value
 * kept for a field (the first official candidate that speaks about it) is a deployment fact,
 * each official model fact with another value (one per source). Groq's models page gives
 * Qwen3.8-27B a 131,042-token window, its model page 131,072: the deployment's own fact wins,
 * and this reports the other. Where the kept value is a model fact, every official candidate
 * is a model fact too and officialDisagreements reports it once per model.
 */
function deploymentDisagreements(candidates: readonly Candidate[]): MergedSpecs["disagreements"] {
  const modelLevel = candidates.filter((c) => c.official && c.level > 0);
  if (modelLevel.length === 0) return [];
  const found: MergedSpecs["disagreements"] = [];
  const ownFacts = candidates.filter((c) => c.official && c.level === 0);
  for (const [field, read] of comparedFields(ownFacts)) {
    const kept = candidates.find((c) => c.official && read(c) !== undefined);
    if (kept?.level === 0) found.push(...differingFrom(kept, modelLevel, field, read));
  }
  return found;
}

/** How a compared field is read from a candidate (undefined: the candidate says nothing). */
type FieldReader = (c: Candidate) => number | string | null | undefined;

/** The limits, then each capability one of `stating` names (sorted), with their readers. */
function comparedFields(stating: readonly Candidate[]): Array<[string, FieldReader]> {
  const fields: Array<[string, FieldReader]> = LIMIT_FIELDS.map((field) => [field, (c) => c[field]]);
  const names = new Set(stating.flatMap((c) => Object.keys(c.capabilities ?? {}) as CapabilityName[]));
  for (const name of [...names].sort(compareCodePoints))
    fields.push([`capabilities.${name}`, (c) => c.capabilities?.[name]?.status]);
  return fields;
}

/** Each of `others` whose value of the field differs from the kept one's: one per source, never the kept one's. */
function differingFrom(
  kept: Candidate,
  others: readonly Candidate[],
  field: string,
  read: FieldReader,
): MergedSpecs["disagreements"] {
  const keptValue = read(kept) ?? null;
  const reported = new Set<string>([kept.sourceId]);
  const found: MergedSpecs["disagreements"] = [];
  for (const c of others) {
    const value = read(c);
    if (value === undefined || value === keptValue || reported.has(c.sourceId)) continue;
    reported.add(c.sourceId);
    found.push({
      field,
      kept: { source_id: kept.sourceId, value: keptValue, observed_at: kept.evidence.observed_at },
      other: { source_id: c.sourceId, value, observed_at: c.evidence.observed_at },
    });
  }
  return found;
}
