/**
 * Merge step 0b', before the candidates: a community context window that another community
 * dataset states is the model's input limit is not used.
 *
 * LiteLLM's `max_input_tokens` is the context window for most models, but for the GPT-5 family
 * it is the input share of the window: 272,000 of GPT-5.1's 400,000. models.dev states both
 * (`limit.context` 400,000, `limit.input` 272,000; its parser keeps the second as
 * `max_input_tokens`). So where a dataset states an input limit below its own context window
 * for a provider model, another community source's context window equal to that input limit is
 * an input limit read as a context window: the fact loses its `context_tokens` (the field is
 * silent, so another candidate may give it, or it stays unknown), and the report lists it.
 *
 * The stated limit covers the provider model id it names and that id's dated snapshots
 * (`gpt-5.1` covers `gpt-5.1-2025-11-13`; model-facts.ts unversionedName), and every mode.
 * Official facts are never changed: an official page's value is its own. facts.json keeps what
 * each source said; only the merge sees the result. Pure.
 */
import type { DeploymentFact } from "../schema/index.js";
import type { SourceFacts } from "./facts.js";
import { modelFactKey, unversionedName } from "./model-facts.js";
import type { InputLimitContext } from "./types.js";

interface StatedInputLimit {
  tokens: number;
  source_id: string;
}

/** A dated snapshot's alias (`gpt-5.1-2025-11-13` -> `gpt-5.1`); undefined for any other id. */
function aliasOfSnapshot(providerModelId: string): string | undefined {
  return /-\d{4}-\d{2}-\d{2}$/.test(providerModelId) ? unversionedName(providerModelId) : undefined;
}

/** The input limits community facts state below their own context window, by provider model. */
function statedInputLimits(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): Map<string, StatedInputLimit[]> {
  const stated = new Map<string, StatedInputLimit[]>();
  for (const source of sources) {
    if (isOfficial(source)) continue;
    for (const d of source.output.deployments) {
      const tokens = d.max_input_tokens;
      if (tokens === undefined || d.context_tokens == null || tokens >= d.context_tokens) continue;
      const k = modelFactKey(d.provider_id, d.provider_model_id);
      const list = stated.get(k) ?? [];
      if (!list.some((s) => s.source_id === source.source_id && s.tokens === tokens))
        list.push({ tokens, source_id: source.source_id });
      stated.set(k, list);
    }
  }
  return stated;
}

export interface InputLimitResult {
  sources: SourceFacts[];
  /** The community context windows not used, one per deployment fact. */
  inputLimitContexts: InputLimitContext[];
}

export function withoutInputLimitContexts(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): InputLimitResult {
  const stated = statedInputLimits(sources, isOfficial);
  if (stated.size === 0) return { sources: [...sources], inputLimitContexts: [] };
  /** Another source's stated input limit equal to this fact's context window, if any. */
  const statingOther = (d: DeploymentFact, sourceId: string): StatedInputLimit | undefined => {
    const alias = aliasOfSnapshot(d.provider_model_id);
    const limits = [
      ...(stated.get(modelFactKey(d.provider_id, d.provider_model_id)) ?? []),
      ...(alias === undefined ? [] : (stated.get(modelFactKey(d.provider_id, alias)) ?? [])),
    ];
    return limits.find((s) => s.source_id !== sourceId && s.tokens === d.context_tokens);
  };
  const found: InputLimitContext[] = [];
  const kept = sources.map((source) => {
    if (isOfficial(source)) return source;
    let changed = false;
    const deployments = source.output.deployments.map((d) => {
      if (d.context_tokens == null) return d;
      const limit = statingOther(d, source.source_id);
      if (limit === undefined) return d;
      changed = true;
      found.push({
        source_id: source.source_id,
        provider_id: d.provider_id,
        deployment_id: d.id,
        context_tokens: d.context_tokens,
        input_limit_source_id: limit.source_id,
      });
      const { context_tokens: _dropped, ...rest } = d;
      return rest;
    });
    return changed ? { ...source, output: { ...source.output, deployments } } : source;
  });
  return { sources: kept, inputLimitContexts: found };
}
