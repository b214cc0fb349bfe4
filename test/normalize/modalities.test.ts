/** Modalities as Google's and OpenAI's model pages state them (src/normalize/modalities.ts). */
import { describe, expect, it } from "vitest";
import { modalityPairs, modalityUse, setModality } from "../../src/normalize/modalities.js";
import type { CapabilityName, CapabilityStatus } from "../../src/schema/index.js";

describe("modalities", () => {
  it("reads the four uses and nothing else", () => {
    expect(modalityUse("Input and output")).toEqual({ input: "supported", output: "supported" });
    expect(modalityUse("Input only")).toEqual({ input: "supported", output: "unsupported" });
    expect(modalityUse("Output only")).toEqual({ input: "unsupported", output: "supported" });
    expect(modalityUse("Not supported")).toEqual({ input: "unsupported", output: "unsupported" });
    expect(modalityUse("Supported")).toBeNull();
    expect(modalityUse("")).toBeNull();
  });

  it("reads a Modalities row's pairs in order and states each modality's input and output capabilities", () => {
    const pairs = modalityPairs(
      "Text Input and output Image Input only Audio Not supported Video Input only",
    );
    expect(pairs.map((p) => p.kind)).toEqual(["Text", "Image", "Audio", "Video"]);
    const stated: Array<[CapabilityName, CapabilityStatus]> = [];
    for (const { kind, use } of pairs) setModality((name, status) => stated.push([name, status]), kind, use);
    expect(stated).toEqual([
      ["vision", "supported"],
      ["image_output", "unsupported"],
      ["audio_input", "unsupported"],
      ["audio_output", "unsupported"],
      ["video_input", "supported"],
    ]);
  });
});
