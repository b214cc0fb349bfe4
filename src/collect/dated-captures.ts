/**
 * Dated captures: earlier versions of a source's monitored content, each with the date a copy
 * shows it (a docs repository's commit date), kept beside the current capture in
 * `sources/<provider>/captures/<name>/dated/`:
 *   INDEX.json             { captures: DatedCaptureMeta[] } by observed_at
 *   <sha256>.<ext>.gz      the monitored content, gzip-compressed, named by the SHA-256 of the
 *                          uncompressed bytes
 * A live build that replaces a source's current capture keeps the superseded one here when its
 * prices differ from the newest dated capture's, so each night extends the history.
 * They are build inputs for the price history only (docs/price-history.md): the current capture
 * alone speaks for today's facts. The index is written only when it changes, so recording the
 * same history twice leaves the folder untouched.
 */

import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { CatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import type { SourceDefinition } from "../schema/index.js";
import { CAPTURE_EXTENSION } from "./captures.js";
import { captureDir } from "./definitions.js";

export const DATED_DIR = "dated";
export const DATED_INDEX = "INDEX.json";

/** Where a dated copy came from: a file at a commit of a git repository. */
export const GitProvenance = z.strictObject({
  repository: z.string().min(1),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  committed_at: z.iso.datetime({ offset: true }),
  path: z.string().min(1),
});
export type GitProvenance = z.infer<typeof GitProvenance>;

/** A capture this project recorded (CURRENT.json) that a live build superseded with a newer one. */
export const SupersededProvenance = z.strictObject({
  superseded_capture: z.strictObject({
    fetched_at: z.iso.datetime({ offset: false }),
    note: z.string().optional(),
  }),
});
export type SupersededProvenance = z.infer<typeof SupersededProvenance>;

export const DatedCaptureMeta = z.strictObject({
  file: z.string().regex(/^[0-9a-f]{64}\.(html|md|json)\.gz$/),
  /** SHA-256 of the uncompressed monitored content. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** When the copy shows this content (UTC, seconds). */
  observed_at: z.iso.datetime({ offset: false }),
  url: z.url(),
  provenance: z.union([GitProvenance, SupersededProvenance]),
  /** Licence of the copy's repository, where it states one. */
  licence: z.string().optional(),
});
export type DatedCaptureMeta = z.infer<typeof DatedCaptureMeta>;

export const DatedIndex = z.strictObject({ captures: z.array(DatedCaptureMeta) });
export type DatedIndex = z.infer<typeof DatedIndex>;

export interface DatedCapture {
  meta: DatedCaptureMeta;
  content: string;
}

type DatedSource = Pick<SourceDefinition, "provider_id" | "name" | "format">;

export function datedDir(sourcesDir: string, source: Pick<SourceDefinition, "provider_id" | "name">): string {
  return join(captureDir(sourcesDir, source), DATED_DIR);
}

/** The recorded dated captures' index (empty when the source has none). */
export async function readDatedIndex(sourcesDir: string, source: DatedSource): Promise<DatedCaptureMeta[]> {
  const path = join(datedDir(sourcesDir, source), DATED_INDEX);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const parsed = DatedIndex.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new CatalogError(
      "io_failed",
      `${relative(sourcesDir, path)} is not a valid dated capture index: ${parsed.error.issues[0]?.message}`,
    );
  return parsed.data.captures;
}

/** Every dated capture of a source, oldest first, each checked against its SHA-256. */
export async function readDatedCaptures(sourcesDir: string, source: DatedSource): Promise<DatedCapture[]> {
  const dir = datedDir(sourcesDir, source);
  const captures: DatedCapture[] = [];
  for (const meta of await readDatedIndex(sourcesDir, source)) {
    const bytes = gunzipSync(await readFile(join(dir, meta.file)));
    if (sha256Hex(bytes) !== meta.sha256)
      throw new CatalogError(
        "io_failed",
        `dated capture ${relative(sourcesDir, join(dir, meta.file))} is damaged: its content does not match its SHA-256`,
      );
    captures.push({ meta, content: new TextDecoder("utf-8", { fatal: true }).decode(bytes) });
  }
  return captures;
}

/** The file name of a dated capture of `content`. */
export function datedFileName(source: DatedSource, sha256: string): string {
  return `${sha256}.${CAPTURE_EXTENSION[source.format]}.gz`;
}

/**
 * Replaces the source's dated captures with `captures` (sorted by observed_at): writes the
 * content files not yet present, the index when it differs, and removes files no entry names.
 * Returns whether anything changed.
 */
export async function writeDatedCaptures(
  sourcesDir: string,
  source: DatedSource,
  captures: readonly DatedCapture[],
): Promise<boolean> {
  const dir = datedDir(sourcesDir, source);
  const index = `${JSON.stringify({ captures: captures.map((c) => c.meta) }, null, 2)}\n`;
  const before = await readFile(join(dir, DATED_INDEX), "utf8").catch(() => null);
  const present = new Set(await readdir(dir).catch(() => [] as string[]));
  const missing = captures.filter((c) => !present.has(c.meta.file));
  if (before === index && missing.length === 0) return false;
  await mkdir(dir, { recursive: true });
  // level 9, no file name or time in the header: the same content gives the same bytes
  for (const capture of missing)
    await writeFileAtomic(
      join(dir, capture.meta.file),
      gzipSync(Buffer.from(capture.content, "utf8"), { level: 9 }),
    );
  await writeFileAtomic(join(dir, DATED_INDEX), index);
  const named = new Set(captures.map((c) => c.meta.file));
  for (const name of present)
    if (name !== DATED_INDEX && !named.has(name)) await rm(join(dir, name), { force: true });
  return true;
}

/** Adds one dated capture to the source's (kept in date order); false when it is recorded already. */
export async function addDatedCapture(
  sourcesDir: string,
  source: DatedSource,
  capture: DatedCapture,
): Promise<boolean> {
  const existing = await readDatedCaptures(sourcesDir, source);
  if (
    existing.some(
      (c) => c.meta.sha256 === capture.meta.sha256 && c.meta.observed_at === capture.meta.observed_at,
    )
  )
    return false;
  const all = [...existing, capture].sort(
    (a, b) =>
      a.meta.observed_at.localeCompare(b.meta.observed_at) || a.meta.sha256.localeCompare(b.meta.sha256),
  );
  return writeDatedCaptures(sourcesDir, source, all);
}
