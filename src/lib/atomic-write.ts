/**
 * The one way the project replaces a file: write a sibling temporary file, then rename it over the
 * target, so a reader sees the old content or the new, never a half-written file. Temporary names
 * are `.tmp-<pid>-<random>-<name>` so a cleanup can tell a live process's file from debris.
 */
import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export const TEMP_PREFIX = ".tmp-";

/** A fresh temporary name for this process: `.tmp-<pid>-<12 hex>`. */
export function tempName(): string {
  return `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString("hex")}`;
}

/** Replace `path` with `data` atomically; the temporary file is removed when the write fails. */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | readonly Uint8Array[],
  options: { mode?: number } = {},
): Promise<void> {
  const temp = join(dirname(path), `${tempName()}-${basename(path)}`);
  try {
    await writeFile(temp, data, options.mode === undefined ? {} : { mode: options.mode });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
