/**
 * Google Gemini API (provider `google`): Google is the lab; the canonical model is the Gemini
 * API model id without its `models/` resource prefix (`models/gemini-2.5-pro` ->
 * `google/gemini-2.5-pro`).
 */
import { modelId } from "../../lib/ids.js";
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
