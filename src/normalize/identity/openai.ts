/**
 * OpenAI (provider `openai`): OpenAI is its own lab; the canonical model is the API model id as
 * OpenAI prints it (`gpt-4o-2024-08-06` -> `openai/gpt-4o-2024-08-06`). OpenAI's moving
 * aliases (`gpt-4o` points at whichever snapshot is current) are models of their own in the
 * API and in its price list, so no alias table: `gpt-4o` stays `openai/gpt-4o`.
 */
import { ownLabIdentity, type ProviderIdentity } from "./types.js";

export const openaiIdentity: ProviderIdentity = ownLabIdentity("openai", "openai", Object.freeze({}));
