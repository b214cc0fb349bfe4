/**
 * writeText hands a text's UTF-8 bytes to a sink in one reused chunk, a piece at a time: the
 * pieces joined are the text's bytes, whatever characters fall on a piece's edge.
 */
import { describe, expect, it } from "vitest";
import { writeText } from "../../src/release/serialize.js";

function written(text: string): { bytes: Buffer; pieces: number; largest: number } {
  const parts: Buffer[] = [];
  let largest = 0;
  writeText(text, (chunk) => {
    // the chunk is reused after the sink returns: copied here
    parts.push(Buffer.from(chunk));
    largest = Math.max(largest, chunk.byteLength);
  });
  return { bytes: Buffer.concat(parts), pieces: parts.length, largest };
}

describe("writeText", () => {
  it("gives the text's UTF-8 bytes in pieces of at most a mebibyte", () => {
    const text = `${"a".repeat(3_000_000)}é€`;
    const { bytes, pieces, largest } = written(text);
    expect(bytes.equals(Buffer.from(text, "utf8"))).toBe(true);
    expect(pieces).toBeGreaterThan(1);
    expect(largest).toBeLessThanOrEqual(1 << 20);
  });

  it("never splits a surrogate pair, wherever it falls", () => {
    const step = Math.floor((1 << 20) / 3);
    const face = "\u{1F600}";
    // the pair's first half at the last unit of a piece, and at every position near it
    for (const before of [step - 2, step - 1, step, step + 1]) {
      const text = `${"x".repeat(before)}${face}${"y".repeat(10)}${face.repeat(step)}`;
      expect(written(text).bytes.equals(Buffer.from(text, "utf8")), `at ${before}`).toBe(true);
    }
    expect(written("").pieces).toBe(0);
  });
});
