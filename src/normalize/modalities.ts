/**
 * Modalities as Google's and OpenAI's model pages state them: a modality (Image, Audio, Video)
 * and its use ("Input and output", "Input only", "Output only", "Not supported"), read as the
 * capabilities of that modality as an input and as an output.
 */
import type { CapabilityName, CapabilityStatus } from "../schema/index.js";

/** Modality -> [capability when it is an input, capability when it is an output]. */
export const MODALITY_CAPABILITIES: Readonly<
  Record<string, readonly [CapabilityName | null, CapabilityName | null]>
> = Object.freeze({
  image: ["vision", "image_output"],
  audio: ["audio_input", "audio_output"],
  video: ["video_input", null],
});

/** What a modality's use says of it as an input and as an output; null for any other words. */
export function modalityUse(how: string): { input: CapabilityStatus; output: CapabilityStatus } | null {
  switch (how) {
    case "Input and output":
      return { input: "supported", output: "supported" };
    case "Input only":
      return { input: "supported", output: "unsupported" };
    case "Output only":
      return { input: "unsupported", output: "supported" };
    case "Not supported":
      return { input: "unsupported", output: "unsupported" };
    default:
      return null;
  }
}

/**
 * The "<Modality> <use>" pairs of one line ("Text Input and output Image Input only ..."), a Vertex
 * AI page's Modalities row, in order.
 */
export function modalityPairs(
  text: string,
): Array<{ kind: string; use: NonNullable<ReturnType<typeof modalityUse>> }> {
  const pairs: Array<{ kind: string; use: NonNullable<ReturnType<typeof modalityUse>> }> = [];
  for (const m of text.matchAll(
    /\b(Text|Image|Audio|Video|PDF)\s+(Input and output|Input only|Output only|Not supported)/g,
  )) {
    const use = modalityUse(m[2] ?? "");
    if (use) pairs.push({ kind: m[1] ?? "", use });
  }
  return pairs;
}

/** States a modality's use through `set`: its input and output capabilities (MODALITY_CAPABILITIES). */
export function setModality(
  set: (name: CapabilityName, status: CapabilityStatus) => void,
  kind: string,
  use: { input: CapabilityStatus; output: CapabilityStatus },
): void {
  const [asInput, asOutput] = MODALITY_CAPABILITIES[kind.toLowerCase()] ?? [null, null];
  if (asInput) set(asInput, use.input);
  if (asOutput) set(asOutput, use.output);
}
