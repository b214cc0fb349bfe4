/**
 * One identity per model: each provider has one module here that every parser of that
 * provider's data uses (its official parsers and the community LiteLLM parser), so one model
 * is one record whichever source names it and however the source spells it.
 */
import { modelId } from "../../lib/ids.js";

export interface ProviderIdentity {
  /** The catalog provider these names belong to (`amazon-bedrock`, `azure`, ...). */
  readonly providerId: string;
  /**
   * The provider's own deployable model id for a name a source uses: a documented alias (a
   * short name, an old spelling, another source's spelling) resolves to the id it names; any
   * other name is returned unchanged (trimmed).
   */
  providerModelId(name: string): string;
  /** The canonical model `<lab>/<model>` of a provider model id or any of its aliases. */
  canonicalModelId(name: string): string;
  /** Every documented alias with the provider model id it names (alias -> provider model id). */
  readonly aliases: Readonly<Record<string, string>>;
  /**
   * The provider deploys a model only at one of its versions (Azure: model name + version), so
   * a bare name in a community source means the one version the official sources place there
   * (the release merge resolves it, src/release/unversioned-names.ts). Absent: bare names and
   * versioned ids are separate deployable models (OpenAI's `gpt-4o` and `gpt-4o-2024-08-06`).
   */
  readonly versionedDeployments?: true;
}

/**
 * The identity of a provider that is the lab of its models (OpenAI, Anthropic, Mistral): the
 * canonical model is `<lab>/<the provider model id the name resolves to>`.
 */
export function ownLabIdentity(
  providerId: string,
  lab: string,
  aliases: Readonly<Record<string, string>>,
): ProviderIdentity {
  return {
    providerId,
    aliases,
    providerModelId: (name) => aliasLookup(aliases, name),
    canonicalModelId: (name) => modelId(lab, aliasLookup(aliases, name)),
  };
}

/** `providerModelId` of an identity with a plain alias table. */
export function aliasLookup(aliases: Readonly<Record<string, string>>, name: string): string {
  const trimmed = name.trim();
  return (Object.hasOwn(aliases, trimmed) ? aliases[trimmed] : undefined) ?? trimmed;
}
