/**
 * Azure OpenAI in Foundry (provider `azure`). Azure names a model version as model + version
 * (`gpt-4o` version `2024-08-06`); the deployable provider model id joins them
 * (`gpt-4o-2024-08-06`). The canonical model is the OpenAI API id: date versions and four-digit
 * snapshot versions are part of it (`gpt-4o-2024-08-06`, `gpt-3.5-turbo-0125`), Azure's counter
 * versions ("1", "2", "001") are not (`text-embedding-ada-002` version 2 is OpenAI's
 * `text-embedding-ada-002`), and Azure's `gpt-35` spelling is OpenAI's `gpt-3.5`.
 * Version 1 of text-embedding-ada-002 is an earlier model than version 2 (2,046 instead of 8,191
 * input tokens), not the one OpenAI's API serves: `openai/text-embedding-ada-002-v1`.
 * `model-router` is Microsoft's own model; other labs' models (Cohere's, Mistral's) are their lab's.
 * LiteLLM keys Azure models with both spellings (`azure/gpt-3.5-turbo-0125` and
 * `azure/gpt-35-turbo-0125`); Azure's deployable name is the `gpt-35` one, so the other is an alias.
 * A deployment is always of one version: a bare name (LiteLLM's `azure/gpt-5.1`) is resolved by
 * the release merge to the one version the official tables place (`versionedDeployments`).
 */
import { modelId } from "../../lib/ids.js";
import { deploymentVocabulary, placedDeployment } from "./deployment.js";
import type { ProviderIdentity } from "./types.js";

/** Counter versions that are a model of their own (name|version -> canonical model id). */
const VERSION_MODELS: Readonly<Record<string, string>> = Object.freeze({
  "text-embedding-ada-002|1": "openai/text-embedding-ada-002-v1",
});

/**
 * Azure's deployable id for a model version: `gpt-4o` + `2024-08-06` -> `gpt-4o-2024-08-06`.
 * The docs write one version two ways (`dall-e-3` is "3.0" in the region matrices and "3" in
 * the retirement table): a whole-number version's ".0" is dropped so both name one deployment.
 */
export function azureProviderModelId(name: string, version: string | null): string {
  const n = providerModelId(name);
  const v = (version ?? "").trim().replace(/^(\d+)\.0$/, "$1");
  if (v === "" || n.endsWith(`-${v}`)) return n;
  return `${n}-${v}`;
}

/**
 * Azure also sells other labs' models (LiteLLM keys some of them `azure/<name>`): their
 * canonical model is their lab's, as every other provider's module names it
 * (`command-r-plus` -> `cohere/command-r-plus`, like Bedrock's `cohere.command-r-plus-v1:0`).
 */
const OTHER_LABS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^model-router/i, "microsoft"],
  [/^phi-/i, "microsoft"],
  [/^command/i, "cohere"],
  [/^(mistral|ministral|mixtral|codestral|pixtral|magistral|devstral)/i, "mistral"],
  [/^(llama|meta-llama)/i, "meta"],
  [/^deepseek/i, "deepseek"],
  [/^grok/i, "xai"],
];

/** The canonical model of an Azure model version (see the module comment). */
export function azureCanonicalModelId(name: string, version: string | null): string {
  const n = providerModelId(name);
  const v = (version ?? "").trim();
  const own = VERSION_MODELS[`${n}|${v}`];
  if (own) return own;
  const lab = OTHER_LABS.find(([re]) => re.test(n))?.[1] ?? "openai";
  const labName = lab === "openai" ? n.replace(/^gpt-35/, "gpt-3.5") : n;
  const keepsVersion =
    /^\d{4}-\d{2}-\d{2}$/.test(v) || /^\d{4}$/.test(v) || /^turbo-\d{4}-\d{2}-\d{2}$/.test(v);
  if (!keepsVersion || n.endsWith(`-${v}`)) return modelId(lab, labName);
  return modelId(lab, `${labName}-${v}`);
}

/** `gpt-3.5-turbo...` (OpenAI's spelling) -> `gpt-35-turbo...` (Azure's deployable name). */
function providerModelId(name: string): string {
  return name.trim().replace(/^gpt-3\.5-turbo/, "gpt-35-turbo");
}

export const azureIdentity: ProviderIdentity = {
  providerId: "azure",
  aliases: Object.freeze({
    "gpt-3.5-turbo": "gpt-35-turbo",
    "gpt-3.5-turbo-0125": "gpt-35-turbo-0125",
    "gpt-3.5-turbo-1106": "gpt-35-turbo-1106",
    "gpt-3.5-turbo-16k": "gpt-35-turbo-16k",
    "gpt-3.5-turbo-instruct": "gpt-35-turbo-instruct",
  }),
  providerModelId,
  versionedDeployments: true,
  /** A joined provider model id (`gpt-4o-2024-08-06`, `gpt-35-turbo-0125`) as one name. */
  canonicalModelId: (name) => azureCanonicalModelId(name, null),
};

/**
 * Azure OpenAI's deployment types are modes: Global (region `global`), Data Zone (region = the
 * zone, `us` or `eu`) and Standard/regional (region = the Azure region), each as a standard and a
 * batch type. A regional batch price meter, were Azure to publish one, is mode `batch`.
 */
export const AZURE = deploymentVocabulary({
  surfaces: { azureOpenai: "azure-openai" },
  modes: {
    globalStandard: "global-standard",
    globalBatch: "global-batch",
    dataZoneStandard: "data-zone-standard",
    dataZoneBatch: "data-zone-batch",
    standard: "standard",
    regionalBatch: "batch",
  },
  regions: { global: "global", us: "us", eu: "eu" },
});

/** Where a deployment type processes data: worldwide, in a data zone, or in the resource's region. */
export const AZURE_SCOPES = Object.freeze({
  global: "global",
  dataZone: "data-zone",
  regional: "regional",
} as const);
export type AzureScope = (typeof AZURE_SCOPES)[keyof typeof AZURE_SCOPES];

const SCOPE_MODES: Readonly<Record<AzureScope, { standard: string; batch: string }>> = Object.freeze({
  global: { standard: AZURE.modes.globalStandard, batch: AZURE.modes.globalBatch },
  "data-zone": { standard: AZURE.modes.dataZoneStandard, batch: AZURE.modes.dataZoneBatch },
  regional: { standard: AZURE.modes.standard, batch: AZURE.modes.regionalBatch },
});

/** The mode of a deployment type: its scope, standard or batch. */
export function azureMode(scope: AzureScope, batch: boolean): string {
  return batch ? SCOPE_MODES[scope].batch : SCOPE_MODES[scope].standard;
}

/** The batch deployment types (the docs' "batch deployments"). */
export const AZURE_BATCH_MODES: readonly string[] = Object.freeze([
  AZURE.modes.globalBatch,
  AZURE.modes.dataZoneBatch,
]);
/** The standard (pay-as-you-go, not provisioned, not batch) deployment types (the docs' "standard deployments"). */
export const AZURE_STANDARD_MODES: readonly string[] = Object.freeze([
  AZURE.modes.globalStandard,
  AZURE.modes.dataZoneStandard,
  AZURE.modes.standard,
]);

/** Data Zone deployments keep data in the zone of the resource's region. */
export const AZURE_DATA_ZONES: Readonly<Record<string, string>> = Object.freeze({
  eastus: AZURE.regions.us,
  eastus2: AZURE.regions.us,
  centralus: AZURE.regions.us,
  northcentralus: AZURE.regions.us,
  southcentralus: AZURE.regions.us,
  westcentralus: AZURE.regions.us,
  westus: AZURE.regions.us,
  westus2: AZURE.regions.us,
  westus3: AZURE.regions.us,
  francecentral: AZURE.regions.eu,
  germanywestcentral: AZURE.regions.eu,
  italynorth: AZURE.regions.eu,
  northeurope: AZURE.regions.eu,
  polandcentral: AZURE.regions.eu,
  spaincentral: AZURE.regions.eu,
  swedencentral: AZURE.regions.eu,
  westeurope: AZURE.regions.eu,
});

/** The data zone of an Azure region, or null when it is in no zone the catalog names. */
export function azureDataZone(azureRegion: string): string | null {
  return Object.hasOwn(AZURE_DATA_ZONES, azureRegion) ? (AZURE_DATA_ZONES[azureRegion] ?? null) : null;
}

/** The deployment of an Azure model version in a deployment type (mode) and region. */
export function azureDeployment(name: string, version: string | null, mode: string, region: string) {
  return placedDeployment(
    azureIdentity.providerId,
    azureProviderModelId(name, version),
    { api_surface: AZURE.surfaces.azureOpenai, mode, region },
    azureCanonicalModelId(name, version),
  );
}
