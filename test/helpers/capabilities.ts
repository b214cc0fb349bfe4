/**
 * Test helper: capability entries as an official page declares them, and the modalities of a
 * text-in, text-out model (every other input and output modality declared unsupported).
 */
export const supported = { status: "supported", verification_status: "official_declared" } as const;
export const unsupported = { status: "unsupported", verification_status: "official_declared" } as const;
export const conditional = { status: "conditional", verification_status: "official_declared" } as const;

/** A text-in, text-out page's modality capabilities. */
export const textOnly = {
  vision: unsupported,
  audio_input: unsupported,
  video_input: unsupported,
  audio_output: unsupported,
  image_output: unsupported,
} as const;
