/**
 * Amazon Bedrock (provider `amazon-bedrock`). A Bedrock model id is `<vendor>.<name>-v<n>:<m>`,
 * optionally wrapped in a cross-Region inference profile prefix (`us.`, `eu.`, `apac.`,
 * `global.` ...). The canonical model is the lab's own API id where the lab has one:
 * - the Bedrock version suffix goes (`cohere.command-r-v1:0` -> `cohere/command-r`,
 *   `anthropic.claude-3-5-sonnet-20241022-v2:0` -> `anthropic/claude-3-5-sonnet-20241022`,
 *   `openai.gpt-oss-120b-1:0` -> `openai/gpt-oss-120b`);
 * - Meta's and AI21's dotted version numbers come back (`meta.llama3-2-11b-instruct-v1:0` ->
 *   `meta/llama-3.2-11b-instruct`, `ai21.jamba-1-5-large-v1:0` -> `ai21/jamba-1.5-large`);
 * - Claude 2 / Instant map to Anthropic's API names (`anthropic.claude-v2:1` -> `anthropic/claude-2.1`);
 * - Amazon's own models exist only on Bedrock, so their id keeps its version
 *   (`amazon.nova-reel-v1:1` -> `amazon/nova-reel-v1-1`, `:0` dropped: `amazon/nova-lite-v1`);
 * - NVIDIA's "v2" is part of the model's name (`nvidia.nemotron-nano-12b-v2`).
 * One spelling difference between sources is an alias of the provider model id: Kimi K2
 * Thinking is `moonshot.kimi-k2-thinking` on Bedrock, LiteLLM's regional keys spell it
 * `moonshotai.kimi-k2-thinking`.
 */
import { modelId } from "../../lib/ids.js";
import { deploymentVocabulary, placedDeployment } from "./deployment.js";
import { aliasLookup, type ProviderIdentity } from "./types.js";

const ALIASES: Readonly<Record<string, string>> = Object.freeze({
  "moonshotai.kimi-k2-thinking": "moonshot.kimi-k2-thinking",
});

/** Bedrock ids whose lab publishes the model under another name (after the version suffix is gone). */
const LAB_NAMES: Readonly<Record<string, string>> = Object.freeze({
  "anthropic.claude-v2:1": "anthropic/claude-2.1",
  "anthropic.claude-v2": "anthropic/claude-2.0",
  "anthropic.claude-instant-v1": "anthropic/claude-instant-1.2",
  // Qwen's Instruct-2507 model: the Bedrock model card's license link names
  // Qwen/Qwen3-235B-A22B-Instruct-2507 (sources/amazon-bedrock/model-card-qwen3-235b-a22b-2507)
  "qwen.qwen3-235b-a22b-2507-v1": "qwen/qwen3-235b-a22b-instruct-2507",
});

/** Bedrock vendor prefix -> lab slug, where they differ. */
const VENDOR_LAB: Readonly<Record<string, string>> = Object.freeze({ moonshotai: "moonshot" });

/**
 * The geographies of cross-Region inference profiles (`us.`, `global.` ...), as their model id
 * prefixes spell them; a community key's prefix is the deployment's region.
 */
const GEOGRAPHIES = Object.freeze({
  us: "us",
  eu: "eu",
  apac: "apac",
  jp: "jp",
  au: "au",
  ca: "ca",
  usGov: "us-gov",
  global: "global",
} as const);

/** Every inference profile geography prefix (without its dot). */
export const BEDROCK_GEOGRAPHIES: readonly string[] = Object.freeze(Object.values(GEOGRAPHIES));

/**
 * Whether a geographic cross-Region inference profile (`us`, `eu`, `apac`, `jp`, `au`, `ca`,
 * `us-gov`, `global`) sends requests to an AWS Region: AWS's geographies, by Region code
 * (`us` the US commercial Regions, `eu` the European ones, `apac` Asia Pacific, `jp` Tokyo and
 * Osaka, `au` Sydney and Melbourne, `ca` the Canadian ones, `us-gov` GovCloud, `global` every
 * commercial Region). A vocabulary, as the geographies above are: it says where a profile may
 * route, never that a model is offered anywhere. Undefined for a name that is no geography.
 */
export function geographyIncludes(geography: string, region: string): boolean | undefined {
  switch (geography) {
    case GEOGRAPHIES.us:
      return region.startsWith("us-") && !isGovCloudRegion(region);
    case GEOGRAPHIES.eu:
      return region.startsWith("eu-");
    case GEOGRAPHIES.apac:
      return region.startsWith("ap-");
    case GEOGRAPHIES.jp:
      return region === "ap-northeast-1" || region === "ap-northeast-3";
    case GEOGRAPHIES.au:
      return region === "ap-southeast-2" || region === "ap-southeast-4";
    case GEOGRAPHIES.ca:
      return region.startsWith("ca-");
    case GEOGRAPHIES.usGov:
      return isGovCloudRegion(region);
    case GEOGRAPHIES.global:
      return !isGovCloudRegion(region);
    default:
      return undefined;
  }
}

/** Whether an AWS Region is in the GovCloud (US) partition, whose requests go to `us-gov` profiles. */
export function isGovCloudRegion(region: string): boolean {
  return region.startsWith("us-gov-");
}

/**
 * The AWS Region codes (commercial and GovCloud) as AWS spells them: a naming vocabulary, like
 * the geographies above, not a statement of where any model is offered. A Bedrock model card's
 * Regional Availability table speaks for all of them (a Region it leaves out offers the model in
 * no form); a Region missing here is simply one no card is taken to speak for.
 */
export const AWS_REGIONS: readonly string[] = Object.freeze([
  "af-south-1",
  "ap-east-1",
  "ap-east-2",
  "ap-northeast-1",
  "ap-northeast-2",
  "ap-northeast-3",
  "ap-south-1",
  "ap-south-2",
  "ap-southeast-1",
  "ap-southeast-2",
  "ap-southeast-3",
  "ap-southeast-4",
  "ap-southeast-5",
  "ap-southeast-6",
  "ap-southeast-7",
  "ca-central-1",
  "ca-west-1",
  "eu-central-1",
  "eu-central-2",
  "eu-north-1",
  "eu-south-1",
  "eu-south-2",
  "eu-west-1",
  "eu-west-2",
  "eu-west-3",
  "il-central-1",
  "me-central-1",
  "me-south-1",
  "mx-central-1",
  "sa-east-1",
  "us-east-1",
  "us-east-2",
  "us-gov-east-1",
  "us-gov-west-1",
  "us-west-1",
  "us-west-2",
]);

const GEOGRAPHY = new RegExp(`^(?:${BEDROCK_GEOGRAPHIES.join("|")})\\.(?=[a-z0-9-]+\\.)`);

function providerModelId(name: string): string {
  return aliasLookup(ALIASES, name.trim().replace(GEOGRAPHY, ""));
}

function canonicalModelId(bedrockModelId: string): string {
  const id = providerModelId(bedrockModelId);
  const dot = id.indexOf(".");
  if (dot <= 0) throw new RangeError(`"${bedrockModelId}" is not a Bedrock model id`);
  const named = LAB_NAMES[id.replace(/:0$/, "")] ?? LAB_NAMES[id];
  if (named) return named;
  const vendor = id.slice(0, dot);
  const rest = id.slice(dot + 1);
  if (vendor === "amazon") return modelId(vendor, rest.replace(/:0$/, "").replace(/:(\d+)$/, "-$1"));
  let name =
    vendor === "nvidia"
      ? rest.replace(/:\d+$/, "")
      : rest.replace(/-v\d+(?::\d+)?$/, "").replace(/-\d+:\d+$/, "");
  if (vendor === "meta")
    name = name.replace(/^llama(\d)-(\d)-/, "llama-$1.$2-").replace(/^llama(\d)-/, "llama-$1-");
  if (vendor === "ai21") name = name.replace(/^jamba-(\d)-(\d)-/, "jamba-$1.$2-");
  return modelId(VENDOR_LAB[vendor] ?? vendor, name);
}

export const bedrockIdentity: ProviderIdentity = {
  providerId: "amazon-bedrock",
  aliases: ALIASES,
  providerModelId,
  canonicalModelId,
};

/**
 * Bedrock's runtime API, per AWS Region: in-Region on demand (`standard`), batch inference
 * (`batch`) and Global cross-Region inference priced per source Region (`global`). LiteLLM
 * prices a key without a Region at US East (N. Virginia), `us-east-1`.
 */
export const BEDROCK = deploymentVocabulary({
  surfaces: { runtime: "bedrock-runtime" },
  modes: { standard: "standard", batch: "batch", global: "global" },
  regions: { usEast1: "us-east-1", ...GEOGRAPHIES },
});

/** A Bedrock mode name. */
export type BedrockMode = (typeof BEDROCK.modes)[keyof typeof BEDROCK.modes];

/** The deployment of a Bedrock model id in an AWS Region (default mode: in-Region on demand). */
export function bedrockDeployment(
  bedrockModelId: string,
  region: string,
  mode: BedrockMode = BEDROCK.modes.standard,
) {
  return placedDeployment(
    bedrockIdentity.providerId,
    bedrockModelId,
    { api_surface: BEDROCK.surfaces.runtime, mode, region },
    bedrockIdentity.canonicalModelId(bedrockModelId),
  );
}
