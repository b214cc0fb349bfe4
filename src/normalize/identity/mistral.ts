/**
 * Mistral (provider `mistral`): Mistral is its own lab; the canonical model is the API id
 * (`mistral-medium-2508` -> `mistral/mistral-medium-2508`). Mistral's `-latest` names move
 * from version to version, so they are not a static table: the models page publishes where
 * each one currently points ("- `mistral-small-latest`: currently points to
 * `mistral-small-2506`."), and `mistralAliasList` reads that list from the page so the parser
 * resolves the page's own `-latest` names with it. Other sources' fixed spellings of an API id
 * are a static table (`OTHER_SPELLINGS`).
 */
import { modelId } from "../../lib/ids.js";
import { group } from "../../lib/regex.js";
import { deploymentVocabulary, type Placement, placedDeployment } from "./deployment.js";
import { ownLabIdentity, type ProviderIdentity } from "./types.js";

/**
 * Other sources' spellings of a Mistral API id (LiteLLM's keys): the model card's slug with its
 * version written without the dash (card `ministral-3-14b-25-12`, LiteLLM `ministral-3-14b-2512`),
 * or the card's name (`mistral-large-3`, Mistral Large 3). The card's API name is the id: the
 * model cards of mistralai/platform-docs-public (`identifiers.apiNames`, 222f4ba9).
 */
const OTHER_SPELLINGS: Readonly<Record<string, string>> = Object.freeze({
  "ministral-3-14b-2512": "ministral-14b-2512",
  "ministral-3-8b-2512": "ministral-8b-2512",
  "ministral-3-3b-2512": "ministral-3b-2512",
  "magistral-medium-1-2-2509": "magistral-medium-2509",
  "magistral-small-1-2-2509": "magistral-small-2509",
  "mistral-medium-3-1-2508": "mistral-medium-2508",
  "mistral-small-3-2-2506": "mistral-small-2506",
  "mistral-large-3": "mistral-large-2512",
});

export const mistralIdentity: ProviderIdentity = ownLabIdentity("mistral", "mistral", OTHER_SPELLINGS);

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

/** Mistral's API (La Plateforme): one global endpoint in the standard mode. */
export const MISTRAL = deploymentVocabulary({
  surfaces: { api: "api" },
  modes: { standard: "standard" },
  regions: { global: "global" },
});

/** Mistral's API in the standard mode. */
export const MISTRAL_STANDARD: Placement = Object.freeze({
  api_surface: MISTRAL.surfaces.api,
  mode: MISTRAL.modes.standard,
  region: MISTRAL.regions.global,
});

/**
 * The deployment of a model the models page names by its own API name: the name is the model
 * (`mistral/<api name>`), as a card's API name is an id of its own, never another's alias.
 */
export function mistralDeployment(apiName: string) {
  return placedDeployment(
    mistralIdentity.providerId,
    apiName,
    { api_surface: MISTRAL.surfaces.api, mode: MISTRAL.modes.standard, region: MISTRAL.regions.global },
    modelId("mistral", apiName),
  );
}
