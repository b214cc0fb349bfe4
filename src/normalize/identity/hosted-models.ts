/**
 * Canonical model ids of open models served by hosting providers (Groq, Together AI): the lab
 * that makes the model, then the model's name as the host spells it without its publisher
 * prefix (`meta-llama/llama-4-scout-17b-16e-instruct` on Groq -> `meta/llama-4-scout-17b-16e-instruct`).
 * Small pure functions, shared by the official parsers and the LiteLLM parser so both name the
 * same model the same way.
 */
import { modelId, slugPart } from "../../lib/ids.js";

/** Publisher prefixes of hosted model ids (Hugging Face organisations, lowercased) -> the lab. */
const PUBLISHER_LABS: Record<string, string> = {
  "meta-llama": "meta",
  meta: "meta",
  "deepseek-ai": "deepseek",
  deepseek: "deepseek",
  qwen: "qwen",
  moonshotai: "moonshot",
  "zai-org": "zai",
  openai: "openai",
  mistralai: "mistral",
  google: "google",
  nvidia: "nvidia",
  minimaxai: "minimax",
};

/** The lab behind a publisher prefix; an unknown publisher is its own lab (slugged). */
export function publisherLab(publisher: string): string {
  return PUBLISHER_LABS[publisher.toLowerCase()] ?? slugPart(publisher);
}

/** `publisher/name` -> [publisher, name]; null when the id has no publisher prefix. */
export function splitPublisher(providerModelId: string): [string, string] | null {
  const slash = providerModelId.indexOf("/");
  if (slash <= 0 || slash === providerModelId.length - 1) return null;
  return [providerModelId.slice(0, slash), providerModelId.slice(slash + 1)];
}

/** Makers of Groq's unprefixed model ids, by name (Groq prints no maker on its deprecations page). */
const GROQ_NAME_LABS: Array<[RegExp, string]> = [
  [/^(llama|llava-v)/, "meta"],
  [/^gemma/, "google"],
  [/^(mistral|mixtral)/, "mistral"],
  [/^deepseek/, "deepseek"],
  [/^(qwen|qwq)/, "qwen"],
  [/^whisper/, "openai"],
  [/^distil-whisper/, "huggingface"],
  [/^playai/, "playai"],
];

/**
 * Canonical model id of a Groq model id, or null when the maker cannot be told from the id:
 * prefixed ids name their publisher (`qwen/qwen3-32b` -> `qwen/qwen3-32b`); unprefixed ids are
 * Groq's own names of a lab's model (`llama-3.3-70b-versatile` -> `meta/llama-3.3-70b-versatile`).
 */
export function groqModelId(providerModelId: string): string | null {
  const id = providerModelId.toLowerCase();
  const split = splitPublisher(id);
  if (split) return modelId(publisherLab(split[0]), split[1]);
  const lab = GROQ_NAME_LABS.find(([re]) => re.test(id))?.[1];
  return lab ? modelId(lab, id) : null;
}

/** Together's serving variants of one model: quantization and throughput suffixes, free tier. */
const TOGETHER_VARIANT_SUFFIX = /-(?:turbo(?:-free)?|free|tput|fp8|lite)$/;

/**
 * Canonical model id of a Together AI API model string: the publisher's lab and the model name
 * without Together's serving-variant suffixes (`-Turbo` = FP8, `-Lite` = INT4, `-tput`, `-FP8`,
 * `-Free`) and without Meta's `Meta-` name prefix, so
 * `meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo` -> `meta/llama-3.1-8b-instruct` (the name the
 * Bedrock parser gives the same model). Null when the string has no publisher prefix.
 */
export function togetherModelId(apiModelString: string): string | null {
  const split = splitPublisher(apiModelString.trim().toLowerCase());
  if (!split) return null;
  const lab = publisherLab(split[0]);
  let name = split[1];
  for (let previous = ""; previous !== name; ) {
    previous = name;
    name = name.replace(TOGETHER_VARIANT_SUFFIX, "");
  }
  if (lab === "meta") name = name.replace(/^meta-(?=llama)/, "");
  return modelId(lab, name);
}

/**
 * The inference mode of a Together AI API model string: Together serves a free tier of some
 * models as its own endpoint (`...-Turbo-Free`, with its own rate limits and no price), the same
 * model as the paid endpoint, so it is mode `free` beside the paid `standard` deployment.
 */
export function togetherMode(apiModelString: string): "free" | "standard" {
  return /-free$/i.test(apiModelString.trim()) ? "free" : "standard";
}
