/**
 * OpenAI (provider `openai`): OpenAI is its own lab; the canonical model is the API model id as
 * OpenAI prints it (`gpt-4o-2024-08-06` -> `openai/gpt-4o-2024-08-06`). OpenAI's moving
 * aliases (`gpt-4o` points at whichever snapshot is current) are models of their own in the
 * API and in its price list, so no alias table: `gpt-4o` stays `openai/gpt-4o`.
 */
import { deploymentVocabulary, type Placement, placedDeployment } from "./deployment.js";
import { ownLabIdentity, type ProviderIdentity } from "./types.js";

export const openaiIdentity: ProviderIdentity = ownLabIdentity("openai", "openai", Object.freeze({}));

/** OpenAI's API: one global endpoint, priced by processing tier (the pricing page's tiers). */
export const OPENAI = deploymentVocabulary({
  surfaces: { api: "api" },
  modes: { standard: "standard", batch: "batch", flex: "flex", priority: "priority" },
  regions: { global: "global" },
});

/** OpenAI's API in the standard tier. */
export const OPENAI_STANDARD: Placement = Object.freeze({
  api_surface: OPENAI.surfaces.api,
  mode: OPENAI.modes.standard,
  region: OPENAI.regions.global,
});

/** The deployment of an OpenAI API model id in a processing tier (default: standard). */
export function openaiDeployment(providerModelId: string, mode: string = OPENAI.modes.standard) {
  return placedDeployment(
    openaiIdentity.providerId,
    providerModelId,
    { api_surface: OPENAI.surfaces.api, mode, region: OPENAI.regions.global },
    openaiIdentity.canonicalModelId(providerModelId),
  );
}
