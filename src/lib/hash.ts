/** SHA-256 helpers: every content address in the project is lowercase hex SHA-256. */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { pipeline } from "node:stream/promises";

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The SHA-256 of a file, streamed: a release's largest object is read in chunks instead of being
 * held whole. The error names the file.
 */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  try {
    await pipeline(createReadStream(path), hash);
  } catch (error) {
    throw new Error(`cannot hash ${path}: ${(error as Error).message}`);
  }
  return hash.digest("hex");
}
