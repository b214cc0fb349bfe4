/**
 * Google Gemini API (provider `google`): Google is the lab; the canonical model is the Gemini
 * API model id without its `models/` resource prefix (`models/gemini-2.5-pro` ->
 * `google/gemini-2.5-pro`).
 */
import { modelId } from "../../lib/ids.js";
import { deploymentVocabulary, type Placement, placedDeployment } from "./deployment.js";
import { aliasLookup, type ProviderIdentity } from "./types.js";

const ALIASES: Readonly<Record<string, string>> = Object.freeze({});

/** Canonical model id of a model Google itself makes, from its Gemini API / Vertex model id. */
export function googleModelId(providerModelId: string): string {
  return modelId("google", providerModelId.trim().replace(/^models\//, ""));
}

export const googleIdentity: ProviderIdentity = {
  providerId: "google",
  aliases: ALIASES,
  providerModelId: (name) => aliasLookup(ALIASES, name).replace(/^models\//, ""),
  canonicalModelId: (name) => googleModelId(aliasLookup(ALIASES, name)),
};

/** The Gemini API: one global endpoint, with the Batch API as mode `batch`. */
export const GOOGLE = deploymentVocabulary({
  surfaces: { geminiApi: "gemini-api" },
  modes: { standard: "standard", batch: "batch" },
  regions: { global: "global" },
});

/** The Gemini API in the standard mode. */
export const GOOGLE_STANDARD: Placement = Object.freeze({
  api_surface: GOOGLE.surfaces.geminiApi,
  mode: GOOGLE.modes.standard,
  region: GOOGLE.regions.global,
});

/** The deployment of a Gemini API model id (default mode: standard). */
export function googleDeployment(providerModelId: string, mode: string = GOOGLE.modes.standard) {
  return placedDeployment(
    googleIdentity.providerId,
    providerModelId,
    { api_surface: GOOGLE.surfaces.geminiApi, mode, region: GOOGLE.regions.global },
    googleModelId(providerModelId),
  );
}
