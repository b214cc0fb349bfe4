/** Loading a published release: manifest, hash-checked catalog.json, schema-checked content. */

import { createHash } from "node:crypto";
import { closeSync, open, read, readSync } from "node:fs";
import { z } from "zod";
import { CatalogError } from "../lib/errors.js";
import type { Deployment } from "../schema/deployment.js";
import { CapabilityName } from "../schema/deployment.js";
import { SourceEvent, SourceState } from "../schema/events.js";
import { LifecycleRecord } from "../schema/lifecycle.js";
import { CatalogContent, type ReleaseManifest } from "../schema/release.js";
import type { ServeIndexFile } from "../schema/release-files.js";
import { catalogParts } from "./catalog-parts.js";
import { withDeploymentLifecycles } from "./deployment-lifecycles.js";
import { readLatest } from "./latest.js";
import { CATALOG_FILE, readManifest } from "./manifest.js";
import { objectPath, readReleaseFile } from "./objects.js";
import { SERVE_INDEX_FILE } from "./serve-index.js";

export interface LoadedRelease {
  manifest: ReleaseManifest;
  catalog: CatalogContent;
}

/**
 * Load and verify a release (LATEST when no id is given), with every lifecycle record (the
 * deployments' own put back: withDeploymentLifecycles). Throws release_not_found / release_damaged.
 */
export async function loadRelease(snapshotsDir: string, releaseId?: string): Promise<LoadedRelease> {
  const id = releaseId ?? (await readLatest(snapshotsDir));
  if (!id) throw new CatalogError("release_not_found", `no release published in ${snapshotsDir} (no LATEST)`);
  const manifest = await readManifest(snapshotsDir, id);
  const data = await readReleaseFile(snapshotsDir, manifest, CATALOG_FILE);
  let catalog: CatalogContent;
  try {
    catalog = withDeploymentLifecycles(CatalogContent.parse(JSON.parse(data.toString("utf8"))));
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${id}: ${CATALOG_FILE} does not match the schema`,
      {},
      { cause: error },
    );
  }
  return { manifest, catalog };
}

/**
 * The catalog without the deployments' schema pass: everything but the deployments is checked
 * against the schema (a few thousand records), the deployments only for being an array of
 * objects. Their content is what the build validated before publishing it, and the hash of
 * catalog.json has just matched the manifest, which the release id covers.
 */
const TrustedCatalog = z.strictObject({
  deployments: z.array(
    z.custom<Deployment>(
      (d) => typeof d === "object" && d !== null && typeof (d as { id?: unknown }).id === "string",
      "a deployment object with an id",
    ),
  ),
  lifecycle: z.array(LifecycleRecord),
  events: z.array(SourceEvent),
  sources: z.array(SourceState),
});

/**
 * Load a release for serving (LATEST when no id is given): manifest and catalog.json
 * hash-checked like loadRelease, but the deployments are not parsed through the schema again
 * (at 100,000 deployments that pass costs more than reading, hashing and JSON.parse together).
 * Their objects keep the stored (canonical, sorted) key order and the validated values; a
 * consumer that serializes one for the API parses it through `Deployment` first.
 */
export async function loadTrustedRelease(snapshotsDir: string, releaseId?: string): Promise<LoadedRelease> {
  const id = releaseId ?? (await readLatest(snapshotsDir));
  if (!id) throw new CatalogError("release_not_found", `no release published in ${snapshotsDir} (no LATEST)`);
  const manifest = await readManifest(snapshotsDir, id);
  const data = await readReleaseFile(snapshotsDir, manifest, CATALOG_FILE);
  try {
    const raw = JSON.parse(data.toString("utf8")) as unknown;
    const checked = TrustedCatalog.parse(raw);
    return { manifest, catalog: withDeploymentLifecycles(checked) };
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${id}: ${CATALOG_FILE} does not match the schema`,
      {},
      { cause: error },
    );
  }
}

/**
 * The events of a release's catalog.json (hash-checked), without parsing its deployments (see
 * catalogParts). A manifest that counts no events needs no read at all.
 */
export async function readReleaseEvents(
  snapshotsDir: string,
  manifest: ReleaseManifest,
): Promise<SourceEvent[]> {
  // The counts are covered by the release id (readManifest checked it): none counted, none held.
  if (manifest.counts.events === 0) return [];
  const data = await readReleaseFile(snapshotsDir, manifest, CATALOG_FILE);
  try {
    return catalogParts(data, ["events"]).events;
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: ${CATALOG_FILE} has no events`,
      {},
      { cause: error },
    );
  }
}

/**
 * A release's catalog.json kept open for reading records by their byte spans: hashed through
 * the same descriptor it is then read from, so what is served is what matched the manifest
 * (objects are immutable; nothing rewrites one in place).
 */
export class OpenCatalog {
  private closed = false;
  private constructor(
    private readonly fd: number,
    readonly bytes: number,
  ) {}

  /** Opens the release's catalog.json and checks its SHA-256 and size, streaming (the file is not kept in memory). */
  static async open(snapshotsDir: string, manifest: ReleaseManifest): Promise<OpenCatalog> {
    const entry = manifest.files[CATALOG_FILE];
    if (!entry)
      throw new CatalogError("release_damaged", `release ${manifest.release_id} has no ${CATALOG_FILE}`);
    let fd: number;
    try {
      fd = await new Promise<number>((resolve, reject) =>
        open(objectPath(snapshotsDir, entry.sha256), "r", (error, opened) =>
          error ? reject(error) : resolve(opened),
        ),
      );
    } catch (error) {
      throw new CatalogError(
        "release_damaged",
        `release ${manifest.release_id}: object for ${CATALOG_FILE} is missing`,
        {},
        { cause: error },
      );
    }
    const catalog = new OpenCatalog(fd, entry.bytes);
    try {
      const actual = await sha256OfFd(fd);
      if (actual.sha256 !== entry.sha256 || actual.bytes !== entry.bytes)
        throw new CatalogError(
          "release_damaged",
          `release ${manifest.release_id}: ${CATALOG_FILE} does not match its sha256`,
        );
    } catch (error) {
      catalog.close();
      throw error;
    }
    return catalog;
  }

  private checkSpan(offset: number, length: number): void {
    if (this.closed) throw new Error(`${CATALOG_FILE} is closed`);
    if (offset < 0 || length < 0 || offset + length > this.bytes)
      throw new CatalogError("release_damaged", `span ${offset}+${length} lies outside ${CATALOG_FILE}`);
  }

  /** The bytes at [offset, offset + length): a positioned read (records are a few KB). */
  read(offset: number, length: number): Buffer {
    this.checkSpan(offset, length);
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, buffer, done, length - done, offset + done);
      if (n === 0)
        throw new CatalogError("release_damaged", `${CATALOG_FILE} ended inside span ${offset}+${length}`);
      done += n;
    }
    return buffer;
  }

  /**
   * A reader of many spans in ascending order (a walk over every record): each read is served
   * from a window of at least `window` bytes, refilled when a span leaves it, so a walk makes
   * one positioned read per window instead of one per record. The Buffer returned is a view of
   * the window, valid until the next call; copy what is kept.
   */
  spanReader(window = 1 << 20): (offset: number, length: number) => Buffer {
    let buffer = Buffer.alloc(0);
    let start = 0;
    let end = 0;
    return (offset, length) => {
      if (offset < start || offset + length > end) {
        this.checkSpan(offset, length);
        const size = Math.min(Math.max(window, length), this.bytes - offset);
        if (buffer.length < size) buffer = Buffer.allocUnsafe(size);
        let done = 0;
        while (done < size) {
          const n = readSync(this.fd, buffer, done, size - done, offset + done);
          if (n === 0)
            throw new CatalogError(
              "release_damaged",
              `${CATALOG_FILE} ended inside span ${offset}+${length}`,
            );
          done += n;
        }
        start = offset;
        end = offset + size;
      }
      return buffer.subarray(offset - start, offset - start + length);
    };
  }

  /** The same as `read`, without blocking the event loop (for large spans). */
  async readAsync(offset: number, length: number): Promise<Buffer> {
    this.checkSpan(offset, length);
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = await new Promise<number>((resolve, reject) =>
        read(this.fd, buffer, done, length - done, offset + done, (error, count) =>
          error ? reject(error) : resolve(count),
        ),
      );
      if (n === 0)
        throw new CatalogError("release_damaged", `${CATALOG_FILE} ended inside span ${offset}+${length}`);
      done += n;
    }
    return buffer;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}

/** SHA-256 and size of an open file, read in chunks through one buffer. */
async function sha256OfFd(fd: number): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  const chunk = Buffer.allocUnsafe(HASH_CHUNK);
  let bytes = 0;
  for (;;) {
    const n = await new Promise<number>((resolve, reject) =>
      read(fd, chunk, 0, chunk.length, bytes, (error, count) => (error ? reject(error) : resolve(count))),
    );
    if (n === 0) break;
    hash.update(chunk.subarray(0, n));
    bytes += n;
  }
  return { sha256: hash.digest("hex"), bytes };
}

const HASH_CHUNK = 4 << 20;

/** SHA-256 and size of a file, streaming. */
export async function sha256OfFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const fd = await new Promise<number>((resolve, reject) =>
    open(path, "r", (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  try {
    return await sha256OfFd(fd);
  } finally {
    closeSync(fd);
  }
}

export interface IndexedRelease {
  manifest: ReleaseManifest;
  index: ServeIndexFile;
  /** catalog.json, hash-checked and open; the caller closes it. */
  catalog: OpenCatalog;
  events: SourceEvent[];
}

/**
 * Opens a release that has serve-index.json for serving: catalog.json hash-checked by
 * streaming and kept open, serve-index.json hash-checked and parsed, the events read from
 * their span. Nothing else of the catalog is read; the build validated every record before
 * publishing, and the hashes have just matched the manifest, which the release id covers.
 * The index is checked against the catalog (every column as long as its list, every span
 * inside the file) so a bad index fails here as release_damaged, not in a request.
 */
export async function openIndexedRelease(
  snapshotsDir: string,
  manifest: ReleaseManifest,
): Promise<IndexedRelease> {
  const id = manifest.release_id;
  const indexData = await readReleaseFile(snapshotsDir, manifest, SERVE_INDEX_FILE);
  const catalog = await OpenCatalog.open(snapshotsDir, manifest);
  try {
    const index = parsedIndex(indexData, catalog.bytes, manifest);
    const span = index.members.events as [number, number];
    let events: SourceEvent[];
    try {
      events = z.array(SourceEvent).parse(JSON.parse(catalog.read(span[0], span[1]).toString("utf8")));
    } catch (error) {
      throw new CatalogError(
        "release_damaged",
        `release ${id}: the events of ${CATALOG_FILE} do not match the schema`,
        {},
        { cause: error },
      );
    }
    return { manifest, index, catalog, events };
  } catch (error) {
    catalog.close();
    throw error;
  }
}

/**
 * A release's serve-index.json, hash-checked, parsed and checked against its catalog.json of
 * `catalogBytes` bytes (opened by the caller); release_damaged when it does not describe it.
 */
export async function readServeIndex(
  snapshotsDir: string,
  manifest: ReleaseManifest,
  catalogBytes: number,
): Promise<ServeIndexFile> {
  return parsedIndex(await readReleaseFile(snapshotsDir, manifest, SERVE_INDEX_FILE), catalogBytes, manifest);
}

function parsedIndex(data: Buffer, catalogBytes: number, manifest: ReleaseManifest): ServeIndexFile {
  try {
    return checkedIndex(JSON.parse(data.toString("utf8")), catalogBytes, manifest);
  } catch (error) {
    throw new CatalogError(
      "release_damaged",
      `release ${manifest.release_id}: ${SERVE_INDEX_FILE} ${error instanceof IndexProblem ? error.message : "is not JSON"}`,
      {},
      { cause: error },
    );
  }
}

/** Why an index does not describe its catalog. */
class IndexProblem extends Error {}

function fail(message: string): never {
  throw new IndexProblem(message);
}

type Kind = "count" | "string" | "count or null" | "coded";
const isCount = (v: unknown): boolean => typeof v === "number" && Number.isInteger(v) && v >= 0;
const KIND_TEST: Record<Exclude<Kind, "coded">, (v: unknown) => boolean> = {
  count: isCount,
  string: (v) => typeof v === "string",
  "count or null": (v) => v === null || isCount(v),
};

/**
 * The per-record columns of each list and what each holds. Typed by the schema's keys, so a
 * column added to ServeIndexFile without a line here does not compile.
 */
const DEPLOYMENT_COLUMNS: Record<
  Exclude<keyof ServeIndexFile["deployments"], "priced" | "supported">,
  Kind
> = {
  offset: "count",
  length: "count",
  id: "string",
  provider_model_id: "string",
  provider_id: "coded",
  model_id: "coded",
  region: "coded",
  mode: "coded",
  status: "coded",
  verification: "coded",
  input_micro_usd: "count or null",
  output_micro_usd: "count or null",
  context_tokens: "count or null",
  max_output_tokens: "count or null",
};
/** Columns added after releases were published without them: checked when present. */
const OPTIONAL_DEPLOYMENT_COLUMNS: ReadonlySet<string> = new Set(["max_output_tokens"]);
const LIFECYCLE_COLUMNS: Record<Exclude<keyof ServeIndexFile["lifecycle"], "summary">, Kind> = {
  offset: "count",
  length: "count",
  resource_id: "string",
  resource_type: "coded",
  provider_id: "coded",
  model_id: "coded",
  status: "coded",
  deprecation_state: "coded",
  deprecation_date: "coded",
  end_of_life_state: "coded",
  end_of_life_date: "coded",
  coverage_status: "coded",
  last_changed_at: "coded",
};

/** Format 2's columns of the deployments' own lifecycles, one value per deployment. */
const DEPLOYMENT_LIFECYCLE_COLUMNS: Record<
  keyof NonNullable<ServeIndexFile["deployment_lifecycle"]>,
  "coded"
> = {
  announced_at: "coded",
  deprecation_state: "coded",
  deprecation_date: "coded",
  deprecation_precision: "coded",
  deprecation_date_type: "coded",
  end_of_life_state: "coded",
  end_of_life_date: "coded",
  end_of_life_precision: "coded",
  end_of_life_date_type: "coded",
  replacement_ids: "coded",
  coverage_status: "coded",
  last_changed_at: "coded",
};

function objectAt(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(`${name} is not an object`);
  return value as Record<string, unknown>;
}

function arrayAt(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) fail(`${name} is not an array`);
  return value;
}

/** Checks the columns of one list of `count` records; `optional` ones are checked when present. */
function checkColumns(
  name: string,
  list: Record<string, unknown>,
  columns: Record<string, Kind>,
  count: number,
  optional: ReadonlySet<string> = new Set(),
): void {
  for (const [column, kind] of Object.entries(columns)) {
    if (optional.has(column) && list[column] === undefined) continue;
    const where = `${name}.${column}`;
    let values: unknown[];
    if (kind === "coded") {
      const coded = objectAt(list[column], where);
      const dictionary = arrayAt(coded.values, `${where}.values`);
      if (!dictionary.every((v) => v === null || typeof v === "string"))
        fail(`${where} has a value that is not a string`);
      values = arrayAt(coded.codes, `${where}.codes`);
      if (!values.every((code) => isCount(code) && (code as number) < dictionary.length))
        fail(`${where} has a code without a value`);
    } else {
      values = arrayAt(list[column], where);
      if (!values.every(KIND_TEST[kind])) fail(`${where} holds a value that is not a ${kind}`);
    }
    if (values.length !== count) fail(`${where} holds ${values.length} values for ${count} records`);
  }
}

/** Checks one list of an index (its columns, positions and spans); returns its record count. */
function checkList(
  name: string,
  list: Record<string, unknown>,
  columns: Record<string, Kind>,
  positionLists: Record<string, unknown>,
  catalogBytes: number,
  optional: ReadonlySet<string> = new Set(),
): number {
  const count = arrayAt(list.offset, `${name}.offset`).length;
  checkColumns(name, list, columns, count, optional);
  for (const [column, positions] of Object.entries(positionLists))
    if (!arrayAt(positions, `${name}.${column}`).every((p) => isCount(p) && (p as number) < count))
      fail(`${name}.${column} names a position beyond ${count}`);
  const offset = list.offset as number[];
  const length = list.length as number[];
  for (let i = 0; i < count; i++)
    if ((offset[i] as number) + (length[i] as number) > catalogBytes)
      fail(`puts ${name} ${i} outside ${CATALOG_FILE}`);
  return count;
}

/**
 * The index, checked against the schema's shape and its catalog in one pass without copying
 * (a schema parse of its million values costs more than the rest of start-up at 100,000
 * deployments): every column as long as its list and of its type, every code and position in
 * range, every span inside catalog.json. Throws IndexProblem.
 */
function checkedIndex(raw: unknown, catalogBytes: number, manifest: ReleaseManifest): ServeIndexFile {
  const index = objectAt(raw, "the index");
  if (index.format !== 1 && index.format !== 2) fail(`has format ${String(index.format)}, not 1 or 2`);
  if (index.catalog_bytes !== catalogBytes)
    fail(`describes a catalog of ${String(index.catalog_bytes)} bytes, not ${catalogBytes}`);
  const members = objectAt(index.members, "members");
  for (const member of ["deployments", "lifecycle", "events"]) {
    const span = members[member];
    if (!Array.isArray(span) || span.length !== 2 || !span.every(isCount)) fail(`has no span for ${member}`);
    if (span[0] + span[1] > catalogBytes) fail(`puts ${member} outside ${CATALOG_FILE}`);
  }
  const deployments = objectAt(index.deployments, "deployments");
  const supported = objectAt(deployments.supported, "deployments.supported");
  const unknown = Object.keys(supported).find((name) => !CapabilityName.safeParse(name).success);
  if (unknown !== undefined) fail(`has an unknown capability ${unknown}`);
  const count = checkList(
    "deployments",
    deployments,
    DEPLOYMENT_COLUMNS,
    { priced: deployments.priced, ...supported },
    catalogBytes,
    OPTIONAL_DEPLOYMENT_COLUMNS,
  );
  if (manifest.counts.deployments !== undefined && count !== manifest.counts.deployments)
    fail(`lists ${count} deployments, the manifest counts ${manifest.counts.deployments}`);
  const lifecycle = objectAt(index.lifecycle, "lifecycle");
  checkList("lifecycle", lifecycle, LIFECYCLE_COLUMNS, { summary: lifecycle.summary }, catalogBytes);
  if (index.format === 2) {
    // the deployments' own records are not stored, so none may be listed
    const types = objectAt(lifecycle.resource_type, "lifecycle.resource_type");
    if ((types.values as unknown[]).includes("deployment"))
      fail("of format 2 lists a stored deployment lifecycle record");
    const own = objectAt(index.deployment_lifecycle, "deployment_lifecycle");
    checkColumns("deployment_lifecycle", own, DEPLOYMENT_LIFECYCLE_COLUMNS, count);
  } else if (index.deployment_lifecycle !== undefined) fail("of format 1 has deployment_lifecycle");
  return raw as ServeIndexFile;
}
