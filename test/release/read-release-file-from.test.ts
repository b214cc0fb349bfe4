/**
 * readReleaseFileFrom (src/snapshot/objects.ts): a release file hash-checked a chunk at a time,
 * keeping only the bytes from the last marker on. The marker may sit anywhere: across the edge
 * of two read chunks, in the last two chunks it looks in, or before them (the file is then read
 * whole); the result must be the bytes a whole read would give from the marker on.
 */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReleaseManifest } from "../../src/schema/index.js";
import { objectPath, READ_CHUNK, readReleaseFileFrom } from "../../src/snapshot/objects.js";

const MARKER = '],"events":[';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "catalog-read-from-"));
  await mkdir(join(dir, "objects"), { recursive: true });
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** A release holding one file, `catalog.json`, of these bytes. */
async function releaseOf(bytes: Buffer): Promise<ReleaseManifest> {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  await writeFile(objectPath(dir, sha256), bytes);
  return {
    release_id: `rel_${"0".repeat(64)}`,
    files: { "catalog.json": { sha256, bytes: bytes.length } },
  } as unknown as ReleaseManifest;
}

/** `size` bytes of filler with the marker written at `at` (none when at is null). */
function fileWithMarkerAt(size: number, at: number | null): Buffer {
  const bytes = Buffer.alloc(size, "x");
  for (let i = 0; i < size; i += 997) bytes[i] = 0x61 + ((i / 997) % 26); // not one repeated byte
  if (at !== null) bytes.write(MARKER, at, "utf8");
  return bytes;
}

describe("readReleaseFileFrom", () => {
  // three chunks: the last two, where the marker is looked for, and one before them
  const size = 2 * READ_CHUNK + 12_345;
  const positions = [
    0,
    100,
    READ_CHUNK - MARKER.length, // ends exactly at the first chunk's end
    READ_CHUNK - 5, // across the first chunk's edge
    READ_CHUNK - 1, // one byte in the first chunk
    READ_CHUNK, // the second chunk's first byte
    2 * READ_CHUNK - 3, // across the second chunk's edge
    size - MARKER.length, // the file's last bytes
  ];

  for (const at of positions)
    it(`keeps the bytes from a marker at ${at} on, as a whole read would`, async () => {
      const bytes = fileWithMarkerAt(size, at);
      const tail = await readReleaseFileFrom(dir, await releaseOf(bytes), "catalog.json", MARKER);
      expect(tail?.length).toBe(size - at);
      expect(tail?.equals(bytes.subarray(at))).toBe(true);
    });

  it("keeps the bytes from the last marker where there are two", async () => {
    for (const [first, second] of [
      [100, READ_CHUNK + 50_000],
      [READ_CHUNK - 4, 2 * READ_CHUNK + 1_000],
      [7, 20],
    ] as const) {
      const bytes = fileWithMarkerAt(size, first);
      bytes.write(MARKER, second, "utf8");
      const tail = await readReleaseFileFrom(dir, await releaseOf(bytes), "catalog.json", MARKER);
      expect(tail?.equals(bytes.subarray(second))).toBe(true);
    }
  });

  it("finds the marker in a file of one chunk, or shorter than the marker", async () => {
    const small = fileWithMarkerAt(1_000, 500);
    expect(
      (await readReleaseFileFrom(dir, await releaseOf(small), "catalog.json", MARKER))?.equals(
        small.subarray(500),
      ),
    ).toBe(true);
    const tiny = Buffer.from("]}");
    expect(await readReleaseFileFrom(dir, await releaseOf(tiny), "catalog.json", MARKER)).toBeNull();
  });

  it("gives null without the marker or without one asked for, and refuses bytes that do not match their hash", async () => {
    const bytes = fileWithMarkerAt(size, null);
    const manifest = await releaseOf(bytes);
    expect(await readReleaseFileFrom(dir, manifest, "catalog.json", MARKER)).toBeNull();
    expect(await readReleaseFileFrom(dir, manifest, "catalog.json")).toBeNull();
    const file = manifest.files["catalog.json"];
    if (!file) throw new Error("no file");
    await writeFile(objectPath(dir, file.sha256), fileWithMarkerAt(size, 7));
    await expect(readReleaseFileFrom(dir, manifest, "catalog.json", MARKER)).rejects.toThrow(
      /does not match its sha256/,
    );
  });
});
