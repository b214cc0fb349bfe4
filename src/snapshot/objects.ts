/**
 * Content-addressed objects: `snapshots/objects/<sha256>`, immutable files shared by releases.
 * Every write goes through a temporary name and a rename, so a reader never sees half a file.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { open, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { tempName, writeFileAtomic } from "../lib/atomic-write.js";
import { CatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import type { ReleaseManifest } from "../schema/release.js";

export const OBJECTS_DIR = "objects";

export function objectPath(snapshotsDir: string, sha256: string): string {
  return join(snapshotsDir, OBJECTS_DIR, sha256);
}

// `.tmp-<pid>-<random>`: the names that no reader looks at and cleanup removes.
export { tempName };

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** A file's bytes: one buffer, or chunks in order (a large file is never one string or buffer). */
export type FileBytes = Uint8Array | readonly Uint8Array[];

export function byteLength(data: FileBytes): number {
  if (data instanceof Uint8Array) return data.byteLength;
  let total = 0;
  for (const chunk of data) total += chunk.byteLength;
  return total;
}

function sha256Of(data: FileBytes): string {
  if (data instanceof Uint8Array) return sha256Hex(data);
  const hash = createHash("sha256");
  for (const chunk of data) hash.update(chunk);
  return hash.digest("hex");
}

export async function writeAtomically(dir: string, name: string, data: FileBytes | string): Promise<void> {
  await writeFileAtomic(join(dir, name), data);
}

/** Stores bytes as an object (skipped when it exists); resolves to its sha256. */
export async function writeObject(snapshotsDir: string, data: FileBytes): Promise<string> {
  const sha256 = sha256Of(data);
  if (!(await exists(objectPath(snapshotsDir, sha256))))
    await writeAtomically(join(snapshotsDir, OBJECTS_DIR), sha256, data);
  return sha256;
}

/** An object written by an ObjectWriter under a temporary name, not yet stored. */
export interface StagedObject {
  tempPath: string;
  sha256: string;
  bytes: number;
}

/**
 * Writes one object chunk by chunk into a temporary file of the objects directory, hashing
 * on the way, so a large release file is never held in memory whole. `close` gives the staged
 * object, which `storeStaged` renames into place (or drops when the object exists) and
 * `discardStaged` removes; a crash leaves only a temporary name that cleanup removes.
 */
export class ObjectWriter {
  private readonly hash: Hash = createHash("sha256");
  private fd: number | null;
  private bytes = 0;
  readonly tempPath: string;

  constructor(snapshotsDir: string) {
    const dir = join(snapshotsDir, OBJECTS_DIR);
    mkdirSync(dir, { recursive: true });
    this.tempPath = join(dir, tempName());
    this.fd = openSync(this.tempPath, "w");
  }

  write(chunk: Uint8Array): void {
    if (this.fd === null) throw new CatalogError("io_failed", `object ${this.tempPath} is closed`);
    let offset = 0;
    while (offset < chunk.byteLength) offset += writeSync(this.fd, chunk, offset);
    this.hash.update(chunk);
    this.bytes += chunk.byteLength;
  }

  close(): StagedObject {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    return { tempPath: this.tempPath, sha256: this.hash.digest("hex"), bytes: this.bytes };
  }

  /** Close and remove the temporary file (after a failure). */
  abort(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.tempPath, { force: true });
  }
}

/** Stores a staged object under its sha256 (dropping the temporary file when it exists). */
export async function storeStaged(snapshotsDir: string, staged: StagedObject): Promise<string> {
  if (await exists(objectPath(snapshotsDir, staged.sha256))) await rm(staged.tempPath, { force: true });
  else await rename(staged.tempPath, objectPath(snapshotsDir, staged.sha256));
  return staged.sha256;
}

export async function discardStaged(staged: StagedObject): Promise<void> {
  await rm(staged.tempPath, { force: true });
}

/** Files are read this many bytes at a time where they are not kept whole. */
export const READ_CHUNK = 4 << 20;

/**
 * One file of a release hash-checked as readReleaseFile does, read a chunk at a time, of which
 * only the bytes from the last occurrence of `from` to the end are kept (null when `from` does
 * not occur): a previous release's catalog.json is 240 MB at 100,000 deployments, and a build
 * needs only its parts after the deployments (catalog-parts.ts), which end the file. The marker
 * is looked for in the last two chunks read (searching every chunk cost 90 ms of the 240 MB);
 * only when it is not there is the file read whole, and checked again. Without `from`, nothing is
 * kept (a Parquet file DuckDB reads itself).
 */
export async function readReleaseFileFrom(
  snapshotsDir: string,
  manifest: ReleaseManifest,
  name: string,
  from?: string,
): Promise<Buffer | null> {
  const file = manifest.files[name];
  if (!file) throw new CatalogError("release_damaged", `release ${manifest.release_id} has no ${name}`);
  const hash = createHash("sha256");
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(objectPath(snapshotsDir, file.sha256), "r");
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: object for ${name} is missing`,
      {},
      { cause: error },
    );
  }
  // read into two buffers in turn, so the chunk before the last one read is still whole
  const buffers: readonly Buffer[] = [Buffer.allocUnsafe(READ_CHUNK), Buffer.allocUnsafe(READ_CHUNK)];
  let last: Buffer = Buffer.alloc(0);
  let before: Buffer = last;
  let size = 0;
  try {
    for (let turn = 0; ; turn = 1 - turn) {
      const buffer = buffers[turn] as Buffer;
      const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, null);
      if (bytesRead === 0) break;
      before = last;
      last = buffer.subarray(0, bytesRead);
      hash.update(last);
      size += bytesRead;
    }
  } finally {
    await handle.close();
  }
  if (hash.digest("hex") !== file.sha256)
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: ${name} does not match its sha256`,
    );
  if (from === undefined) return null;
  const marker = Buffer.from(from, "utf8");
  const end = Buffer.concat([before, last]);
  const at = end.lastIndexOf(marker);
  if (at >= 0) return end.subarray(at);
  if (end.length === size) return null;
  const whole = await readReleaseFile(snapshotsDir, manifest, name);
  const wholeAt = whole.lastIndexOf(marker);
  return wholeAt < 0 ? null : Buffer.from(whole.subarray(wholeAt));
}

/** Read one file of a release, verifying its hash. */
export async function readReleaseFile(
  snapshotsDir: string,
  manifest: ReleaseManifest,
  name: string,
): Promise<Buffer> {
  const file = manifest.files[name];
  if (!file) throw new CatalogError("release_damaged", `release ${manifest.release_id} has no ${name}`);
  let data: Buffer;
  try {
    data = await readFile(objectPath(snapshotsDir, file.sha256));
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: object for ${name} is missing`,
      {},
      { cause: error },
    );
  }
  if (sha256Hex(data) !== file.sha256)
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: ${name} does not match its sha256`,
    );
  return data;
}
