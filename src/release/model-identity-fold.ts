/**
 * Merge step 0, before the candidates, beside unversioned-names.ts and declared-aliases.ts: one
 * identity for one model that two official sources of a provider name differently.
 *
 * OpenAI's deprecations page names the snapshot `gpt-3.5-turbo-0301` (shut down 2024-09-13);
 * the legacy table of its pricing page prices the same snapshot as `gpt-3.5-0301`. Kept apart,
 * they are two deployments of one model, one retired and the other `available` with a price.
 * Google's deprecations page shortens `gemini-embedding-2-preview` to `embedding-2-preview`.
 * The build finds such pairs itself, from the names alone, under a small set of rules
 * (docs/model-identity.md), and folds one name into the other only when the facts allow it:
 *
 * - Two names of one provider are related when, once lowercased, a leading vendor prefix
 *   (`org/`) that only one of them has set aside and an ISO date written `YYYYMMDD`, they are
 *   - spellings of one name: equal but for separators (`-`, `_`, `.`, `:`, space), or
 *   - an abbreviation: both end in the same snapshot tag (a run of 4 to 8 digits: `0301`,
 *     `2405`, `20240620`), both start with the same word, and the shorter one's words are the
 *     longer one's with one or more left out (`gpt-3.5-0301` < `gpt-3.5-turbo-0301`), or
 *   - a brand word pair: the longer one is the shorter one (two words or more) with the
 *     provider's brand word in front, the first word of at least half of the provider's official
 *     names (Google's deprecations page's `embedding-2-preview`, its pricing page's model code
 *     `gemini-embedding-2-preview`).
 * - A related pair folds only when each name is named by an official source, no one official
 *   source names both (a source listing both lists two models), neither name is related to a
 *   third official name (ambiguous), for an abbreviation no other official name of the provider
 *   has the short name's words without its tag (else those words name a model of their own),
 *   and nothing the official sources say of the two contradicts: no price, context window or
 *   max output given for both on one api_surface, mode and region differs, and the scheduled
 *   deprecation and end-of-life dates, where both have some, are the same.
 * - Names that are near but not related (equal once a trailing snapshot tag and `latest` are set
 *   aside: a moving alias and a snapshot it may point to) never fold; like a related pair that
 *   failed a condition, they are reported as kept apart, with why, when no official source
 *   names both (a source naming both already says they are two).
 *
 * A fold renames the other name to the kept one (the longer name of an abbreviation or a brand
 * word pair; of two spellings the one more official sources use, then the one a lifecycle or
 * models source uses, then the first in code-point order) in every source's deployment facts,
 * deployment-scope
 * lifecycle assertions, model facts and aliases; a source's fact that lands on a deployment the
 * same source already states is dropped (its own fact under the kept name speaks). facts.json
 * keeps what each source said; only the merge sees the folded facts. Pure.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import { deploymentId } from "../lib/ids.js";
import { identityOf } from "../normalize/identity/index.js";
import {
  type DeploymentFact,
  type LifecycleAssertion,
  type ModelFact,
  type ModelIdentityReport,
  type ProviderAlias,
  TOKEN_PRICE_FIELDS,
} from "../schema/index.js";
import type { SourceFacts } from "./facts.js";

export type { ModelIdentityReport };

type IdentityName = ModelIdentityReport["folds"][number]["kept"];
type IdentityFold = ModelIdentityReport["folds"][number];
type IdentityKeptApart = ModelIdentityReport["kept_apart"][number];
type IdentityRelation = IdentityKeptApart["relation"];
type KeptApartReason = IdentityKeptApart["reason"];

/** A name as the rules compare it. */
export interface NameShape {
  /** The vendor prefix before the last `/`, or null. */
  prefix: string | null;
  /** The words after the prefix, a date written YYYYMMDD. */
  words: string[];
  /** The trailing snapshot tag (4 to 8 digits), or null. */
  tag: string | null;
}

const SNAPSHOT_TAG = /^\d{4,8}$/;

export function nameShape(name: string): NameShape {
  const lower = name.trim().toLowerCase();
  const slash = lower.lastIndexOf("/");
  const prefix = slash >= 0 ? lower.slice(0, slash) : null;
  const words = lower
    .slice(slash + 1)
    .replace(/(\d{4})-(\d{2})-(\d{2})(?!\d)/g, "$1$2$3")
    .split(/[-_.: ]+/)
    .filter((w) => w !== "");
  const last = words[words.length - 1];
  return { prefix, words, tag: last !== undefined && SNAPSHOT_TAG.test(last) ? last : null };
}

/** The words without the snapshot tag. */
const stemOf = (s: NameShape) => (s.tag === null ? s.words : s.words.slice(0, -1));

/** Prefixes that let two names be one: equal, or only one of them has one. */
const prefixesAgree = (a: NameShape, b: NameShape) =>
  a.prefix === null || b.prefix === null || a.prefix === b.prefix;

/** `short` is `long` with one or more words left out, in order. */
function leavesOut(short: readonly string[], long: readonly string[]): boolean {
  if (short.length === 0 || short.length >= long.length) return false;
  let i = 0;
  for (const w of long) if (w === short[i]) i++;
  return i === short.length;
}

/**
 * How two names relate under the rules (the module comment), or null: `spelling`, an
 * `abbreviation`, a `brand_word` pair (`brand`: the provider's brand word, see brandWord), or
 * `alias_or_snapshot` (near, never folded).
 */
export function relationOf(a: string, b: string, brand: string | null = null): IdentityRelation | null {
  return a === b ? null : shapesRelation(nameShape(a), nameShape(b), brand);
}

/** `long` is `short` with the brand word in front, and `short` has two words or more. */
function brandInFront(short: NameShape, long: NameShape, brand: string | null): boolean {
  return (
    brand !== null &&
    short.words.length >= 2 &&
    long.words[0] === brand &&
    short.words[0] !== brand &&
    long.words.slice(1).join("") === short.words.join("")
  );
}

/** relationOf of two names' shapes (of two different names). */
function shapesRelation(x: NameShape, y: NameShape, brand: string | null): IdentityRelation | null {
  if (!prefixesAgree(x, y)) return null;
  if (x.words.join("") === y.words.join("")) return "spelling";
  if (brandInFront(x, y, brand) || brandInFront(y, x, brand)) return "brand_word";
  const sx = stemOf(x);
  const sy = stemOf(y);
  if (x.tag !== null && x.tag === y.tag && sx[0] === sy[0]) {
    if (leavesOut(sx, sy) || leavesOut(sy, sx)) return "abbreviation";
  }
  const loose = (s: readonly string[]) => s.filter((w) => w !== "latest").join("");
  if ((x.tag === null || y.tag === null || x.tag === y.tag) && loose(sx) === loose(sy))
    return "alias_or_snapshot";
  return null;
}

/** The first word of at least half of the provider's official names, or null. */
export function brandWord(shapes: readonly NameShape[]): string | null {
  const counts = new Map<string, number>();
  for (const s of shapes) {
    const first = s.words[0];
    if (first !== undefined) counts.set(first, (counts.get(first) ?? 0) + 1);
  }
  for (const [word, n] of counts) if (n * 2 >= shapes.length && n > 1) return word;
  return null;
}

interface NameInfo {
  name: string;
  shape: NameShape;
  sources: SourceFacts[];
  /** The model id official facts give the name (null: only lifecycle assertions without one name it). */
  modelId: string | null;
  /** surface|mode|region -> official deployment facts there. */
  facts: Map<string, DeploymentFact[]>;
  eolDates: Set<string>;
  deprecationDates: Set<string>;
}

const LISTS_API_IDS = new Set(["official_lifecycle", "official_models_api"]);

/** provider -> name -> what official sources say of it. */
function officialNames(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): Map<string, Map<string, NameInfo>> {
  const byProvider = new Map<string, Map<string, NameInfo>>();
  const info = (source: SourceFacts, provider: string, name: string, modelId: string | null): NameInfo => {
    let names = byProvider.get(provider);
    if (!names) {
      names = new Map();
      byProvider.set(provider, names);
    }
    let found = names.get(name);
    if (!found) {
      found = {
        name,
        shape: nameShape(name),
        sources: [],
        modelId,
        facts: new Map(),
        eolDates: new Set(),
        deprecationDates: new Set(),
      };
      names.set(name, found);
    }
    if (!found.sources.includes(source)) found.sources.push(source);
    found.modelId ??= modelId;
    return found;
  };
  for (const source of sources) {
    if (!isOfficial(source)) continue;
    for (const d of source.output.deployments) {
      const place = `${d.api_surface}|${d.mode}|${d.region}`;
      const facts = info(source, d.provider_id, d.provider_model_id, d.model_id).facts;
      facts.set(place, [...(facts.get(place) ?? []), d]);
    }
    for (const a of source.output.lifecycle) {
      if (a.scope !== "deployment" || !a.target) continue;
      const found = info(source, a.provider_id, a.target.provider_model_id, a.model_id ?? null);
      if (a.end_of_life?.state === "scheduled" && a.end_of_life.date) found.eolDates.add(a.end_of_life.date);
      if (a.deprecation?.state === "scheduled" && a.deprecation.date)
        found.deprecationDates.add(a.deprecation.date);
    }
  }
  return byProvider;
}

const differ = (a: number | null | undefined, b: number | null | undefined) =>
  a !== null && a !== undefined && b !== null && b !== undefined && a !== b;

/** What official sources say differently of the two names, or null. */
function contradiction(a: NameInfo, b: NameInfo): { reason: KeptApartReason; detail: string } | null {
  for (const [place, facts] of a.facts) {
    const others = b.facts.get(place) ?? [];
    for (const f of facts)
      for (const o of others) {
        const field = TOKEN_PRICE_FIELDS.find((k) => differ(f.rate_card?.[k], o.rate_card?.[k]));
        if (field)
          return {
            reason: "prices_differ",
            detail: `rate_card.${field} on ${place}: ${a.name} ${f.rate_card?.[field]} vs ${b.name} ${o.rate_card?.[field]}`,
          };
        for (const k of ["context_tokens", "max_output_tokens"] as const)
          if (differ(f[k], o[k]))
            return {
              reason: "limits_differ",
              detail: `${k} on ${place}: ${a.name} ${f[k]} vs ${b.name} ${o[k]}`,
            };
      }
  }
  const dates = (x: Set<string>, y: Set<string>, what: string) =>
    x.size > 0 && y.size > 0 && [...x].sort().join() !== [...y].sort().join()
      ? {
          reason: "dates_differ" as const,
          detail: `${what}: ${a.name} ${[...x].sort().join(", ")} vs ${b.name} ${[...y].sort().join(", ")}`,
        }
      : null;
  return (
    dates(a.eolDates, b.eolDates, "end_of_life dates") ??
    dates(a.deprecationDates, b.deprecationDates, "deprecation dates")
  );
}

/** What the official sources agree on for the two (for a fold's evidence). */
function agreement(a: NameInfo, b: NameInfo): string {
  const places = [...a.facts.keys()].filter((p) => b.facts.has(p));
  const priced = places.filter(
    (p) => a.facts.get(p)?.some((f) => f.rate_card) && b.facts.get(p)?.some((f) => f.rate_card),
  );
  const both = (x: Set<string>, y: Set<string>) => x.size > 0 && y.size > 0;
  const compared = [
    priced.length > 0 ? `prices on ${priced.join(", ")}` : null,
    both(a.eolDates, b.eolDates) ? "end_of_life dates" : null,
    both(a.deprecationDates, b.deprecationDates) ? "deprecation dates" : null,
  ].filter((c) => c !== null);
  return compared.length > 0
    ? `the official sources agree on ${compared.join(" and ")}`
    : "no official price, limit or date is given for both names, so none contradicts";
}

function describe(n: NameInfo): IdentityName {
  return {
    provider_model_id: n.name,
    sources: n.sources
      .map((s) => ({ source_id: s.source_id, source_type: s.source_type, source_url: s.source_url }))
      .sort(
        (x, y) =>
          compareCodePoints(x.source_url, y.source_url) || compareCodePoints(x.source_id, y.source_id),
      ),
  };
}

/** Of two spellings, the one kept (the module comment). */
function keptSpelling(a: NameInfo, b: NameInfo): [NameInfo, NameInfo] {
  const listsIds = (n: NameInfo) => (n.sources.some((s) => LISTS_API_IDS.has(s.source_type)) ? 1 : 0);
  const order =
    b.sources.length - a.sources.length || listsIds(b) - listsIds(a) || compareCodePoints(a.name, b.name);
  return order <= 0 ? [a, b] : [b, a];
}

interface Pair {
  a: NameInfo;
  b: NameInfo;
  relation: IdentityRelation;
}

/**
 * Related and near pairs of one provider's official names: compared within a group of names that
 * start alike, and each name that starts with the brand word against the name without it.
 */
function pairsOf(names: Map<string, NameInfo>): Pair[] {
  const all = [...names.values()].sort((x, y) => compareCodePoints(x.name, y.name));
  const brand = brandWord(all.map((n) => n.shape));
  const groups = new Map<string, NameInfo[]>();
  const byJoined = new Map<string, NameInfo[]>();
  for (const n of all) {
    const joined = n.shape.words.join("");
    const key = joined.slice(0, 2);
    groups.set(key, [...(groups.get(key) ?? []), n]);
    byJoined.set(joined, [...(byJoined.get(joined) ?? []), n]);
  }
  const pairs: Pair[] = [];
  const add = (a: NameInfo, b: NameInfo) => {
    const relation = shapesRelation(a.shape, b.shape, brand);
    if (relation !== null)
      pairs.push(compareCodePoints(a.name, b.name) <= 0 ? { a, b, relation } : { a: b, b: a, relation });
  };
  for (const group of groups.values())
    for (let i = 0; i < group.length; i++)
      for (let j = i + 1; j < group.length; j++) add(group[i] as NameInfo, group[j] as NameInfo);
  if (brand !== null)
    for (const long of all) {
      if (long.shape.words[0] !== brand) continue;
      const joined = long.shape.words.slice(1).join("");
      // a short name in the same first-letters group was compared above
      if (joined.slice(0, 2) === long.shape.words.join("").slice(0, 2)) continue;
      for (const short of byJoined.get(joined) ?? []) add(short, long);
    }
  return pairs;
}

const namedTogether = (a: NameInfo, b: NameInfo) => a.sources.some((s) => b.sources.includes(s));

/** Decide the folds and the pairs kept apart of one provider. */
function decide(
  provider: string,
  names: Map<string, NameInfo>,
): { folds: Array<{ kept: NameInfo; folded: NameInfo; fold: IdentityFold }>; apart: IdentityKeptApart[] } {
  const pairs = pairsOf(names);
  const folds: Array<{ kept: NameInfo; folded: NameInfo; fold: IdentityFold }> = [];
  const apart: IdentityKeptApart[] = [];
  const keep = (p: Pair, reason: KeptApartReason, detail: string) =>
    apart.push({
      provider_id: provider,
      relation: p.relation,
      names: [describe(p.a), describe(p.b)],
      reason,
      detail,
    });
  const candidates = pairs.filter((p) => p.relation !== "alias_or_snapshot" && !namedTogether(p.a, p.b));
  const related = new Map<NameInfo, number>();
  for (const p of candidates) {
    related.set(p.a, (related.get(p.a) ?? 0) + 1);
    related.set(p.b, (related.get(p.b) ?? 0) + 1);
  }
  for (const p of pairs) {
    const together = namedTogether(p.a, p.b);
    if (p.relation === "alias_or_snapshot") {
      if (!together)
        keep(
          p,
          "moving_name",
          "a name without a snapshot tag (or a -latest name) may point to another snapshot over time",
        );
      continue;
    }
    if (together) {
      const shared = p.a.sources.find((s) => p.b.sources.includes(s));
      keep(p, "named_together", `${shared?.source_url} names both as models of their own`);
      continue;
    }
    if ((related.get(p.a) ?? 0) > 1 || (related.get(p.b) ?? 0) > 1) {
      keep(p, "ambiguous", "one of the names is related to a third official name");
      continue;
    }
    const [kept, folded] =
      p.relation === "abbreviation" || p.relation === "brand_word"
        ? p.a.shape.words.length > p.b.shape.words.length
          ? [p.a, p.b]
          : [p.b, p.a]
        : keptSpelling(p.a, p.b);
    if (p.relation === "abbreviation") {
      const stem = stemOf(folded.shape).join("");
      const other = [...names.values()].find((n) => n !== folded && stemOf(n.shape).join("") === stem);
      if (other) {
        keep(p, "words_name_another_model", `${other.name} has the words of ${folded.name} without its tag`);
        continue;
      }
    }
    const contra = contradiction(kept, folded);
    if (contra) {
      keep(p, contra.reason, contra.detail);
      continue;
    }
    const how =
      p.relation === "spelling"
        ? `${folded.name} and ${kept.name} are one name but for case, separators or a vendor prefix`
        : p.relation === "brand_word"
          ? `${kept.name} is ${folded.name} with the provider's brand word ${kept.shape.words[0]} in front (the first word of at least half of its official names)`
          : `${folded.name} is ${kept.name} with ${kept.shape.words
              .filter((w) => !folded.shape.words.includes(w))
              .join(", ")} left out, the same snapshot tag ${kept.shape.tag}`;
    folds.push({
      kept,
      folded,
      fold: {
        provider_id: provider,
        relation: p.relation,
        kept: describe(kept),
        folded: describe(folded),
        evidence: [
          how,
          "no official source names both",
          ...(p.relation === "abbreviation"
            ? [`no other official name of the provider has the words of ${folded.name} without its tag`]
            : []),
          agreement(kept, folded),
        ],
      },
    });
  }
  return { folds, apart };
}

interface Rename {
  providerModelId: string;
  /** The kept name's model id; null: its provider identity's canonical model id, else the fact's own. */
  modelId: string | null;
}

function renameSource(source: SourceFacts, renames: Map<string, Rename>): SourceFacts {
  const to = (provider: string, name: string) => renames.get(`${provider}|${name}`);
  let changed = false;
  // the ids of the facts this source states under names the fold keeps; a renamed fact whose id
  // is among them is dropped (the source's own fact under the kept name speaks). A rename that
  // changes only the case keeps the id, and that fact is then the one that speaks.
  const own = new Set(
    source.output.deployments.filter((d) => !to(d.provider_id, d.provider_model_id)).map((d) => d.id),
  );
  const deployments: DeploymentFact[] = [];
  for (const d of source.output.deployments) {
    const r = to(d.provider_id, d.provider_model_id);
    if (!r) {
      deployments.push(d);
      continue;
    }
    changed = true;
    const renamed = { ...d, provider_model_id: r.providerModelId, model_id: r.modelId ?? d.model_id };
    const id = deploymentId(renamed);
    if (own.has(id)) continue; // the source's own fact under the kept name speaks
    own.add(id);
    deployments.push({ ...renamed, id });
  }
  const lifecycle = source.output.lifecycle.map((a): LifecycleAssertion => {
    const r =
      a.scope === "deployment" && a.target ? to(a.provider_id, a.target.provider_model_id) : undefined;
    if (!r || !a.target) return a;
    changed = true;
    const target = { ...a.target, provider_model_id: r.providerModelId };
    return r.modelId === null && a.model_id === undefined
      ? { ...a, target }
      : { ...a, model_id: r.modelId ?? a.model_id, target };
  });
  const modelFacts = source.output.model_facts?.map((m): ModelFact => {
    const r = to(m.provider_id, m.provider_model_id);
    if (!r) return m;
    changed = true;
    return { ...m, provider_model_id: r.providerModelId };
  });
  const aliases = source.output.aliases
    ?.map((a): ProviderAlias => {
      const r = to(a.provider_id, a.provider_model_id);
      if (!r) return a;
      changed = true;
      return { ...a, provider_model_id: r.providerModelId };
    })
    .filter((a) => a.alias !== a.provider_model_id);
  if (!changed) return source;
  return {
    ...source,
    output: {
      ...source.output,
      deployments,
      lifecycle,
      ...(modelFacts ? { model_facts: modelFacts } : {}),
      ...(aliases ? { aliases } : {}),
    },
  };
}

const nameOrder = (a: IdentityName, b: IdentityName) =>
  compareCodePoints(a.provider_model_id, b.provider_model_id);

/** The folds of the official names, applied to every source, and the report of what folded and what stayed apart. */
export function foldModelIdentities(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): { sources: SourceFacts[]; report: ModelIdentityReport } {
  const renames = new Map<string, Rename>();
  const report: ModelIdentityReport = { folds: [], kept_apart: [] };
  for (const [provider, names] of officialNames(sources, isOfficial)) {
    const { folds, apart } = decide(provider, names);
    for (const { kept, folded, fold } of folds) {
      const modelId = kept.modelId ?? identityOf(provider)?.canonicalModelId(kept.name) ?? null;
      renames.set(`${provider}|${folded.name}`, { providerModelId: kept.name, modelId });
      report.folds.push(fold);
    }
    report.kept_apart.push(...apart);
  }
  report.folds.sort(
    (a, b) =>
      compareCodePoints(a.provider_id, b.provider_id) ||
      nameOrder(a.kept, b.kept) ||
      nameOrder(a.folded, b.folded),
  );
  report.kept_apart.sort(
    (a, b) =>
      compareCodePoints(a.provider_id, b.provider_id) ||
      nameOrder(a.names[0], b.names[0]) ||
      nameOrder(a.names[1], b.names[1]),
  );
  return {
    sources: renames.size === 0 ? [...sources] : sources.map((s) => renameSource(s, renames)),
    report,
  };
}
