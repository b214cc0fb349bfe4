/**
 * Mistral (provider `mistral`): Mistral is its own lab; the canonical model is the API id
 * (`mistral-medium-2508` -> `mistral/mistral-medium-2508`). Mistral's `-latest` names move
 * from version to version, so they are not a static table: the models page publishes where
 * each one currently points ("- `mistral-small-latest`: currently points to
 * `mistral-small-2506`."), and `mistralAliasList` reads that list from the page so the parser
 * resolves the page's own `-latest` names with it.
 */
import { group } from "../../lib/regex.js";
import { ownLabIdentity, type ProviderIdentity } from "./types.js";

export const mistralIdentity: ProviderIdentity = ownLabIdentity("mistral", "mistral", Object.freeze({}));

const ALIAS_LINE = /^\s*[-*]\s*`([a-z0-9][a-z0-9.-]*)`\s*:\s*currently points to\s*`([a-z0-9][a-z0-9.-]*)`/i;

/** The page's alias list: `-latest` name -> the versioned API id it currently points to. */
export function mistralAliasList(markdown: string): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const line of markdown.split(/\r?\n/)) {
    const m = ALIAS_LINE.exec(line);
    if (m) aliases[group(m, 1)] = group(m, 2);
  }
  return aliases;
}

/** `mistralIdentity` extended with a page's own alias list. */
export function mistralIdentityWith(pageAliases: Readonly<Record<string, string>>): ProviderIdentity {
  return ownLabIdentity("mistral", "mistral", Object.freeze({ ...mistralIdentity.aliases, ...pageAliases }));
}
