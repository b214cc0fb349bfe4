/**
 * Merge step 0, before the candidates, beside unversioned-names.ts: a community deployment fact
 * named by an alias that the provider's own source declares (`ParseOutput.aliases`).
 *
 * LiteLLM keys Mistral's moving names as models of their own: `mistral-large-latest` beside
 * `mistral-large-2512`, `codestral-latest` beside `codestral-2508`. Mistral's model cards say
 * what each of those names stands for (`identifiers.apiNames` beyond the first, and
 * `identifiers.aliases`), so kept apart the alias is a second deployment of the same thing, with
 * status unknown because no official source lists it as a deployment. So, where an official
 * source of the provider declares the name an alias of exactly one provider model id, and the
 * official deployment facts place that model on the fact's api_surface, mode and region, the
 * community fact is a fact about that deployment: it takes its provider model id and model id,
 * and its values rank as community values there (an official value still wins, and a
 * disagreement is a reported conflict). Where no official source declares the name, where
 * official sources declare it for two different models, where the official facts list the name
 * as a deployment of its own, or where they place no deployment of the aliased model on that
 * surface, mode and region, the fact stays as it is: an alias is never guessed. A source that
 * names both the alias and the model it stands for keeps its own fact for the model, and the
 * alias one is dropped (as is a second alias of the same source for the same deployment: the
 * first in the source's fact order speaks). An alias moves: a community fact that becomes the
 * source's only fact about the deployment but disagrees with an official value there (a price of
 * its rate card or a token limit both give, differently) describes an earlier target of the
 * name, so it stays as it is rather than lend that deployment its stale values (LiteLLM's
 * `mistral-small-latest` prices an older Mistral Small than the `mistral-small-2603` the card
 * names today), and so do the source's lifecycle assertions aimed at it there. Community
 * lifecycle assertions aimed at the alias on a surface and region (and, if they name one, a
 * mode) where it resolves follow the same rule.
 *
 * facts.json keeps what each source said; only the merge sees the resolved facts. Pure.
 */
import { deploymentId } from "../lib/ids.js";
import { type DeploymentFact, type LifecycleAssertion, TOKEN_PRICE_FIELDS } from "../schema/index.js";
import type { SourceFacts } from "./facts.js";

interface Target {
  providerModelId: string;
  /** mode -> the model id of the official deployment there. */
  modes: Map<string, string>;
}

const nameKey = (provider: string, name: string) => `${provider}|${name}`;
const placeKey = (provider: string, name: string, surface: string, region: string) =>
  `${provider}|${name}|${surface}|${region}`;

/** provider|alias -> the one provider model id official sources declare it for (null: two or more). */
function declaredAliases(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): Map<string, string | null> {
  const declared = new Map<string, string | null>();
  for (const source of sources) {
    if (!isOfficial(source)) continue;
    for (const a of source.output.aliases ?? []) {
      const key = nameKey(a.provider_id, a.alias);
      const known = declared.get(key);
      if (known === undefined) declared.set(key, a.provider_model_id);
      else if (known !== a.provider_model_id) declared.set(key, null);
    }
  }
  return declared;
}

/** Whether a community fact gives a price or a token limit that an official fact of the deployment gives differently. */
function disagrees(fact: DeploymentFact, official: readonly DeploymentFact[]): boolean {
  const differ = (a: number | null | undefined, b: number | null | undefined) =>
    a !== null && a !== undefined && b !== null && b !== undefined && a !== b;
  return official.some(
    (o) =>
      differ(fact.context_tokens, o.context_tokens) ||
      differ(fact.max_output_tokens, o.max_output_tokens) ||
      (fact.rate_card != null &&
        o.rate_card != null &&
        TOKEN_PRICE_FIELDS.some((field) => differ(fact.rate_card?.[field], o.rate_card?.[field]))),
  );
}

export function resolveDeclaredAliases(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): SourceFacts[] {
  const declared = declaredAliases(sources, isOfficial);
  if (declared.size === 0) return [...sources];
  const officialIds = new Set<string>();
  const places = new Map<string, Map<string, string>>();
  const officialFacts = new Map<string, DeploymentFact[]>();
  for (const source of sources) {
    if (!isOfficial(source)) continue;
    for (const d of source.output.deployments) {
      officialIds.add(nameKey(d.provider_id, d.provider_model_id));
      const facts = officialFacts.get(d.id) ?? [];
      facts.push(d);
      officialFacts.set(d.id, facts);
      const key = placeKey(d.provider_id, d.provider_model_id, d.api_surface, d.region);
      const modes = places.get(key) ?? new Map<string, string>();
      if (!modes.has(d.mode)) modes.set(d.mode, d.model_id);
      places.set(key, modes);
    }
  }
  /** The official deployments a community name stands for on this surface and region, or null. */
  const targetFor = (provider: string, name: string, surface: string, region: string): Target | null => {
    if (officialIds.has(nameKey(provider, name))) return null;
    const providerModelId = declared.get(nameKey(provider, name));
    if (providerModelId === undefined || providerModelId === null) return null;
    const modes = places.get(placeKey(provider, providerModelId, surface, region));
    return modes ? { providerModelId, modes } : null;
  };
  return sources.map((source): SourceFacts => {
    if (isOfficial(source)) return source;
    const ownIds = new Set(source.output.deployments.map((d) => d.id));
    const taken = new Set<string>();
    /** Where this source's fact for an alias stayed apart (its values an earlier target's). */
    const keptApart = new Set<string>();
    let changed = false;
    const deployments: DeploymentFact[] = [];
    for (const d of source.output.deployments) {
      const target = targetFor(d.provider_id, d.provider_model_id, d.api_surface, d.region);
      const modelId = target?.modes.get(d.mode);
      if (target === null || modelId === undefined) {
        deployments.push(d);
        continue;
      }
      changed = true;
      const identity = { ...d, provider_model_id: target.providerModelId, model_id: modelId };
      const id = deploymentId(identity);
      // the source's own fact for that deployment speaks, or an alias of it met before
      if (ownIds.has(id) || taken.has(id)) continue;
      // values of an earlier target of the name: the fact stays where it was
      if (disagrees(d, officialFacts.get(id) ?? [])) {
        keptApart.add(placeKey(d.provider_id, d.provider_model_id, d.api_surface, d.region));
        deployments.push(d);
        continue;
      }
      taken.add(id);
      deployments.push({ ...identity, id });
    }
    const lifecycle: LifecycleAssertion[] = source.output.lifecycle.map((a) => {
      const t = a.target;
      if (a.scope !== "deployment" || !t || t.api_surface === undefined || t.region === undefined) return a;
      if (keptApart.has(placeKey(a.provider_id, t.provider_model_id, t.api_surface, t.region))) return a;
      const target = targetFor(a.provider_id, t.provider_model_id, t.api_surface, t.region);
      if (target === null) return a;
      const modelId = t.mode === undefined ? [...target.modes.values()][0] : target.modes.get(t.mode);
      if (modelId === undefined) return a;
      changed = true;
      return { ...a, model_id: modelId, target: { ...t, provider_model_id: target.providerModelId } };
    });
    return changed ? { ...source, output: { ...source.output, deployments, lifecycle } } : source;
  });
}
