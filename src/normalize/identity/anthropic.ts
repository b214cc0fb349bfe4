/**
 * Anthropic (provider `anthropic`): the canonical model is the Claude API model id. Models before
 * Claude 4.6 have dated ids and Anthropic documents short aliases for them (models overview:
 * `claude-sonnet-4-5` -> `claude-sonnet-4-5-20250929`, `claude-3-7-sonnet-latest`,
 * `claude-opus-4-0`); the short name and the dated id are one model, so both resolve to the
 * dated id. Claude 4.6 and later have undated ids that follow from the display name.
 */
import { group } from "../../lib/regex.js";
import { deploymentVocabulary, type Placement, placedDeployment } from "./deployment.js";
import { ownLabIdentity, type ProviderIdentity } from "./types.js";

/**
 * Display names of models whose API id carries a snapshot date, as the deprecations page and
 * the models overview list them.
 */
export const ANTHROPIC_DATED_IDS: Readonly<Record<string, string>> = Object.freeze({
  "Claude Opus 4.5": "claude-opus-4-5-20251101",
  "Claude Opus 4.1": "claude-opus-4-1-20250805",
  "Claude Opus 4": "claude-opus-4-20250514",
  "Claude Sonnet 4.5": "claude-sonnet-4-5-20250929",
  "Claude Sonnet 4": "claude-sonnet-4-20250514",
  "Claude Sonnet 3.7": "claude-3-7-sonnet-20250219",
  "Claude Haiku 4.5": "claude-haiku-4-5-20251001",
  "Claude Haiku 3.5": "claude-3-5-haiku-20241022",
  "Claude Haiku 3": "claude-3-haiku-20240307",
  "Claude Opus 3": "claude-3-opus-20240229",
});

/**
 * Display names of models whose API id follows from no version number, as Anthropic's pages
 * print them: the deprecations page's "Claude Mythos Preview (`claude-mythos-preview`)".
 */
const ANTHROPIC_NAMED_IDS: Readonly<Record<string, string>> = Object.freeze({
  "Claude Mythos Preview": "claude-mythos-preview",
});

/** Anthropic's documented `-latest` / `-0` aliases (models overview, "Model aliases"). */
const DOCUMENTED_ALIASES: Readonly<Record<string, string>> = {
  "claude-3-7-sonnet-latest": "claude-3-7-sonnet-20250219",
  "claude-3-5-sonnet-latest": "claude-3-5-sonnet-20241022",
  "claude-3-5-haiku-latest": "claude-3-5-haiku-20241022",
  "claude-3-opus-latest": "claude-3-opus-20240229",
  "claude-opus-4-0": "claude-opus-4-20250514",
  "claude-sonnet-4-0": "claude-sonnet-4-20250514",
};

/**
 * Other sources' spellings of a Claude API id (LiteLLM's keys): the words of the name in another
 * order (`claude-4-opus-20250514`), or a release date appended to a Claude 4.6+ id, which has
 * none (`claude-opus-4-6-20260205`: Claude Opus 4.6's page gives "Model ID: claude-opus-4-6",
 * released February 5, 2026). One model each, so one deployment.
 */
const OTHER_SPELLINGS: Readonly<Record<string, string>> = {
  "claude-4-opus-20250514": "claude-opus-4-20250514",
  "claude-4-sonnet-20250514": "claude-sonnet-4-20250514",
  "claude-opus-4-6-20260205": "claude-opus-4-6",
  "claude-opus-4-7-20260416": "claude-opus-4-7",
};

function buildAliases(): Readonly<Record<string, string>> {
  const aliases: Record<string, string> = { ...DOCUMENTED_ALIASES, ...OTHER_SPELLINGS };
  // The dated id without its date is the model's short alias (`claude-haiku-4-5`).
  for (const dated of Object.values(ANTHROPIC_DATED_IDS)) aliases[dated.replace(/-\d{8}$/, "")] = dated;
  return Object.freeze(aliases);
}

const ALIASES = buildAliases();

export const anthropicIdentity: ProviderIdentity = ownLabIdentity("anthropic", "anthropic", ALIASES);

/**
 * The Claude API model id for a display name ("Claude Opus 4.5"), or null when the name is not
 * one that can be mapped (never guessed). Claude 4.6 and later have undated ids:
 * "Claude Opus 4.6" -> "claude-opus-4-6", "Claude Fable 5.1" -> "claude-fable-5-1"; Claude
 * Mythos Preview's is the one the deprecations page gives (ANTHROPIC_NAMED_IDS).
 */
export function anthropicModelIdForName(displayName: string): string | null {
  const dated = ANTHROPIC_DATED_IDS[displayName] ?? ANTHROPIC_NAMED_IDS[displayName];
  if (dated) return dated;
  const m = /^Claude ([A-Z][a-z]+) (\d+)(?:\.(\d+))?$/.exec(displayName);
  if (!m) return null;
  const major = Number(m[2]);
  const minor = m[3] === undefined ? 0 : Number(m[3]);
  if (major < 4 || (major === 4 && minor < 6)) return null;
  return `claude-${group(m, 1).toLowerCase()}-${m[2]}${m[3] === undefined ? "" : `-${m[3]}`}`;
}

/** The Claude API: one global endpoint, with the Message Batches API as mode `batch`. */
export const ANTHROPIC = deploymentVocabulary({
  surfaces: { api: "api" },
  modes: { standard: "standard", batch: "batch" },
  regions: { global: "global" },
});

/** The Claude API in the standard mode. */
export const ANTHROPIC_STANDARD: Placement = Object.freeze({
  api_surface: ANTHROPIC.surfaces.api,
  mode: ANTHROPIC.modes.standard,
  region: ANTHROPIC.regions.global,
});

/** The deployment of a Claude API model id on Anthropic's API (default mode: standard). */
export function anthropicDeployment(providerModelId: string, mode: string = ANTHROPIC.modes.standard) {
  return placedDeployment(
    anthropicIdentity.providerId,
    providerModelId,
    { api_surface: ANTHROPIC.surfaces.api, mode, region: ANTHROPIC.regions.global },
    anthropicIdentity.canonicalModelId(providerModelId),
  );
}
