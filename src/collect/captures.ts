/**
 * The capture store: the monitored content of each source under
 * `sources/<provider>/captures/<name>/<sha256>.<ext>` with `CURRENT.json` (CaptureMeta) naming
 * the current one. Captures are committed with the catalog and replayed by offline builds.
 *
 * A capture is written only when the monitored content changed (a new fetch of the same content
 * writes nothing, so repeated builds leave the folder untouched, apart from CURRENT.json taking
 * new ETag / Last-Modified validators when the server sends other ones); files are written to a
 * temporary name and renamed into place (content file first, then CURRENT.json), so a crash
 * never leaves a CURRENT.json pointing at a half-written file; superseded capture files of the
 * source are removed afterwards.
 */
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { CatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import type { SourceDefinition, SourceFormat } from "../schema/index.js";
import { CaptureMeta, captureDir, readCaptureMeta } from "./definitions.js";

export const CAPTURE_EXTENSION: Record<SourceFormat, "html" | "md" | "json"> = {
  html: "html",
  markdown: "md",
  json: "json",
};

const CAPTURE_FILE = /^[0-9a-f]{64}\.(html|md|json)$/;
const TEMP_FILE = /^\.tmp-/;

export interface StoredCapture {
  meta: CaptureMeta;
  /** The capture file's text (UTF-8). */
  content: string;
  /** SHA-256 of the capture file's bytes (equal to meta.sha256, which is checked). */
  sha256: string;
}

export interface NewCapture {
  content: string;
  /** SHA-256 of `content` (the monitored content hash). */
  sha256: string;
  url: string;
  fetchedAt: string;
  httpStatus: number;
  contentType: string;
  etag: string | null;
  lastModified: string | null;
  /** How the capture was made (provenance); recorded in CURRENT.json. */
  note?: string;
}

type CaptureSource = Pick<SourceDefinition, "provider_id" | "name" | "format">;

/**
 * The recorded capture of a source; null when it has none (no CURRENT.json). A CURRENT.json that
 * is invalid, or a capture file that is missing or whose bytes do not match its hash, throws
 * CatalogError("io_failed").
 */
export async function readCapture(
  sourcesDir: string,
  source: SourceDefinition,
): Promise<StoredCapture | null> {
  const dir = captureDir(sourcesDir, source);
  // Messages name paths relative to the sources directory: a failed source's error is published
  // (events, report, diff), and a published file never holds a path of the building machine.
  const shown = (name: string) => relative(sourcesDir, join(dir, name));
  let meta: CaptureMeta | null;
  try {
    meta = await readCaptureMeta(sourcesDir, source);
  } catch (error) {
    throw new CatalogError(
      "io_failed",
      `${shown("CURRENT.json")} is not a valid capture record: ${reason(error)}`,
      undefined,
      { cause: error },
    );
  }
  if (!meta) return null;
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, meta.file));
  } catch (error) {
    throw new CatalogError(
      "io_failed",
      `capture file ${shown(meta.file)} named by CURRENT.json cannot be read: ${reason(error)}`,
      undefined,
      { cause: error },
    );
  }
  const sha256 = sha256Hex(bytes);
  if (sha256 !== meta.sha256 || !meta.file.startsWith(meta.sha256))
    throw new CatalogError(
      "io_failed",
      `capture file ${shown(meta.file)} is damaged: its SHA-256 is ${sha256}, CURRENT.json says ${meta.sha256}`,
    );
  let content: string;
  try {
    content = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new CatalogError("io_failed", `capture file ${shown(meta.file)} is not valid UTF-8`, undefined, {
      cause: error,
    });
  }
  return { meta, content, sha256 };
}

/**
 * Records `capture` as the source's current capture unless the current one already has the same
 * content; returns whether anything was written and the CaptureMeta now current.
 */
export async function writeCapture(
  sourcesDir: string,
  source: CaptureSource,
  capture: NewCapture,
): Promise<{ written: boolean; meta: CaptureMeta }> {
  const dir = captureDir(sourcesDir, source);
  const file = `${capture.sha256}.${CAPTURE_EXTENSION[source.format]}`;
  const existing = await currentIfIntact(dir);
  if (
    existing &&
    existing.sha256 === capture.sha256 &&
    existing.file === file &&
    (capture.note === undefined || capture.note === existing.note)
  )
    return { written: false, meta: await refreshValidators(dir, sourcesDir, existing, capture) };
  const bytes = Buffer.from(capture.content, "utf8");
  if (sha256Hex(bytes) !== capture.sha256)
    throw new CatalogError(
      "io_failed",
      `capture for ${source.provider_id}/${source.name}: content does not match its hash`,
    );
  const meta = CaptureMeta.parse({
    file,
    sha256: capture.sha256,
    url: capture.url,
    fetched_at: capture.fetchedAt,
    http_status: capture.httpStatus,
    content_type: capture.contentType,
    etag: capture.etag,
    last_modified: capture.lastModified,
    ...(capture.note === undefined ? {} : { note: capture.note }),
  });
  try {
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(join(dir, file), bytes);
    await writeFileAtomic(join(dir, "CURRENT.json"), `${JSON.stringify(meta, null, 2)}\n`);
    for (const name of await readdir(dir))
      if (name !== file && (CAPTURE_FILE.test(name) || TEMP_FILE.test(name)))
        await rm(join(dir, name), { force: true });
  } catch (error) {
    throw new CatalogError(
      "io_failed",
      `cannot write the capture in ${relative(sourcesDir, dir)}: ${reason(error)}`,
      undefined,
      {
        cause: error,
      },
    );
  }
  return { written: true, meta };
}

/**
 * The same content answered with other validators (a first ETag for a capture recorded without
 * one, or a server that changed its ETag): CURRENT.json takes the new ETag / Last-Modified, so
 * the next fetch is a conditional request that can be answered 304. The rest of the record (when
 * the content was fetched, from where) is kept: the content did not change.
 */
async function refreshValidators(
  dir: string,
  sourcesDir: string,
  existing: CaptureMeta,
  capture: NewCapture,
): Promise<CaptureMeta> {
  if (existing.etag === capture.etag && existing.last_modified === capture.lastModified) return existing;
  const meta = CaptureMeta.parse({ ...existing, etag: capture.etag, last_modified: capture.lastModified });
  try {
    await writeFileAtomic(join(dir, "CURRENT.json"), `${JSON.stringify(meta, null, 2)}\n`);
  } catch (error) {
    throw new CatalogError(
      "io_failed",
      `cannot update the validators in ${relative(sourcesDir, dir)}: ${reason(error)}`,
      undefined,
      { cause: error },
    );
  }
  return meta;
}

/** Why an operation failed, without the absolute path Node's file-system errors carry. */
function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === "string" && /^E[A-Z]+$/.test(code) ? code : (error as Error).message;
}

async function currentIfIntact(dir: string): Promise<CaptureMeta | null> {
  try {
    const meta = CaptureMeta.parse(JSON.parse(await readFile(join(dir, "CURRENT.json"), "utf8")));
    return sha256Hex(await readFile(join(dir, meta.file))) === meta.sha256 ? meta : null;
  } catch {
    // Absent or damaged: either way the new capture replaces it.
    return null;
  }
}
