/**
 * Every parser by id, as named in source definitions' `parser:` field. A parser module exports
 * `parsers: Record<string, Parser>`; adding a provider means adding its module here.
 */

import { parsers as amazonBedrock } from "./parsers/amazon-bedrock.js";
import { parsers as amazonBedrockFeatures } from "./parsers/amazon-bedrock-features.js";
import { parsers as amazonBedrockModelFacts } from "./parsers/amazon-bedrock-model-facts.js";
import { parsers as amazonBedrockPricing } from "./parsers/amazon-bedrock-pricing.js";
import { parsers as anthropic } from "./parsers/anthropic.js";
import { parsers as anthropicModelFacts } from "./parsers/anthropic-model-facts.js";
import { parsers as azure } from "./parsers/azure.js";
import { parsers as azureModelFacts } from "./parsers/azure-model-facts.js";
import { parsers as azurePrices } from "./parsers/azure-prices.js";
import { parsers as azureReasoningFeatures } from "./parsers/azure-reasoning-features.js";
import { parsers as claudePartnerPlatforms } from "./parsers/claude-partner-platforms.js";
import { parsers as cohere } from "./parsers/cohere.js";
import { parsers as deepseek } from "./parsers/deepseek.js";
import { parsers as genaiPrices } from "./parsers/genai-prices.js";
import { parsers as google } from "./parsers/google.js";
import { parsers as googleModelFacts } from "./parsers/google-model-facts.js";
import { parsers as googleModelsApi } from "./parsers/google-models-api.js";
import { parsers as googleVertex } from "./parsers/google-vertex.js";
import { parsers as googleVertexBilling } from "./parsers/google-vertex-billing.js";
import { parsers as googleVertexMaas } from "./parsers/google-vertex-maas.js";
import { parsers as googleVertexModelFacts } from "./parsers/google-vertex-model-facts.js";
import { parsers as googleVertexOpenModelDeprecations } from "./parsers/google-vertex-open-model-deprecations.js";
import { parsers as googleVertexPartnerModels } from "./parsers/google-vertex-partner-models.js";
import { parsers as groq } from "./parsers/groq.js";
import { parsers as groqModelFacts } from "./parsers/groq-model-facts.js";
import { parsers as litellm } from "./parsers/litellm.js";
import { parsers as mistralModels } from "./parsers/mistral-models.js";
import { parsers as modelsDev } from "./parsers/models-dev.js";
import { parsers as openai } from "./parsers/openai.js";
import { parsers as openaiModelFacts } from "./parsers/openai-model-facts.js";
import { parsers as togetherAi } from "./parsers/together-ai.js";
import { parsers as togetherAiDeprecations } from "./parsers/together-ai-deprecations.js";
import { parsers as xai } from "./parsers/xai.js";
import type { Parser } from "./types.js";

function combine(...modules: Array<Record<string, Parser>>): Record<string, Parser> {
  const registry: Record<string, Parser> = {};
  for (const module of modules)
    for (const [id, parser] of Object.entries(module)) {
      if (registry[id]) throw new Error(`parser id "${id}" is registered twice`);
      registry[id] = parser;
    }
  return registry;
}

export const parserRegistry: Readonly<Record<string, Parser>> = Object.freeze(
  combine(
    amazonBedrockFeatures,
    amazonBedrockModelFacts,
    amazonBedrockPricing,
    amazonBedrock,
    anthropicModelFacts,
    anthropic,
    azureModelFacts,
    azurePrices,
    azureReasoningFeatures,
    azure,
    claudePartnerPlatforms,
    cohere,
    deepseek,
    genaiPrices,
    googleModelFacts,
    googleModelsApi,
    googleVertexBilling,
    googleVertexMaas,
    googleVertexModelFacts,
    googleVertexOpenModelDeprecations,
    googleVertexPartnerModels,
    googleVertex,
    google,
    groqModelFacts,
    groq,
    litellm,
    mistralModels,
    modelsDev,
    openaiModelFacts,
    openai,
    togetherAi,
    togetherAiDeprecations,
    xai,
  ),
);

/**
 * The parsers of model pages (token limits and capabilities of models other sources list; they
 * create no deployments, and only the Vertex AI MaaS pages assert a lifecycle: their endpoint's
 * retirement banner). A failed model page is reported and its facts are carried forward like any
 * source's, but it does not count toward the build's failed-sources threshold, which guards what
 * shapes the catalog: 200 of the 244 sources are model pages, and their failing together must not
 * stop a night's prices and dates (the 13 MaaS pages fail every live fetch: their URLs serve HTML).
 */
export const modelFactParsers: ReadonlySet<string> = new Set(
  [
    amazonBedrockModelFacts,
    anthropicModelFacts,
    azureModelFacts,
    azureReasoningFeatures,
    googleModelFacts,
    googleModelsApi,
    googleVertexModelFacts,
    googleVertexMaas,
    groqModelFacts,
    openaiModelFacts,
  ].flatMap((module) => Object.keys(module)),
);
