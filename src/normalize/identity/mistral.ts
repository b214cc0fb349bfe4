/**
 * Mistral (provider `mistral`): Mistral is its own lab; the canonical model is the API id
 * (`mistral-medium-2508` -> `mistral/mistral-medium-2508`). Mistral's `-latest` names move
 * from version to version, so they are not a static table: the models page publishes where
 * each one currently points ("- `mistral-small-latest`: currently points to
 * `mistral-small-2506`."), and `mistralAliasList` reads that list from the page so the parser
 * resolves the page's own `-latest` names with it.
 */
import { modelId } from "../../lib/ids.js";
import { aliasLookup, type ProviderIdentity } from "./types.js";

const ALIASES: Readonly<Record<string, string>> = Object.freeze({});

export const mistralIdentity: ProviderIdentity = {
  providerId: "mistral",
  aliases: ALIASES,
  providerModelId: (name) => aliasLookup(ALIASES, name),
  canonicalModelId: (name) => modelId("mistral", aliasLookup(ALIASES, name)),
};

const ALIAS_LINE = /^\s*[-*]\s*`([a-z0-9][a-z0-9.-]*)`\s*:\s*currently points to\s*`([a-z0-9][a-z0-9.-]*)`/i;

/** The page's alias list: `-latest` name -> the versioned API id it currently points to. */
export function mistralAliasList(markdown: string): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const line of markdown.split(/\r?\n/)) {
    const m = ALIAS_LINE.exec(line);
    if (m) aliases[m[1] as string] = m[2] as string;
  }
  return aliases;
}

/** `mistralIdentity` extended with a page's own alias list. */
export function mistralIdentityWith(pageAliases: Readonly<Record<string, string>>): ProviderIdentity {
  const aliases = Object.freeze({ ...ALIASES, ...pageAliases });
  return {
    providerId: "mistral",
    aliases,
    providerModelId: (name) => aliasLookup(aliases, name),
    canonicalModelId: (name) => modelId("mistral", aliasLookup(aliases, name)),
  };
}
