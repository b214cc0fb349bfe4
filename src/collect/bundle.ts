/**
 * Bundled sources (`bundle:` in a source definition): the source URL lists files as JSON (GitHub's
 * contents API for a directory answers `[{name, path, sha, download_url, ...}]`), and the monitored
 * document is every listed file that matches, fetched one by one and assembled into one JSON
 * document: `{"files": [{"name", "sha", "content"}]}` in list order. The parser reads that
 * document; the capture is real file content with each file's blob SHA as provenance.
 */
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import type { SourceDefinition } from "../schema/index.js";
import type { Fetcher } from "./fetcher.js";

export interface BundledFile {
  name: string;
  sha: string | null;
  content: string;
}

type BundleSpec = NonNullable<SourceDefinition["bundle"]>;

interface ListedFile {
  name: string;
  url: string;
  sha: string | null;
}

/** The matching entries of a listing, each URL checked against the source's hosts. */
export function listedFiles(source: SourceDefinition, spec: BundleSpec, listing: string): ListedFile[] {
  const fail = (message: string) =>
    new CatalogError("fetch_failed", `${source.provider_id}/${source.name}: ${message}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(listing);
  } catch {
    throw fail("the file listing is not JSON");
  }
  if (!Array.isArray(parsed)) throw fail("the file listing is not a JSON array");
  const match = new RegExp(spec.match);
  const hosts = new Set([new URL(source.url).hostname, ...source.allowed_hosts]);
  const files: ListedFile[] = [];
  for (const entry of parsed as unknown[]) {
    const record = (entry ?? {}) as Record<string, unknown>;
    const name = record[spec.name_field];
    if (typeof name !== "string") throw fail(`a listing entry has no string "${spec.name_field}"`);
    if (!match.test(name)) continue;
    const url = record[spec.url_field];
    if (typeof url !== "string") throw fail(`${name}: no string "${spec.url_field}"`);
    const host = new URL(url).hostname;
    if (!hosts.has(host)) throw fail(`${name}: ${host} is not an allowed host`);
    const sha = record[spec.sha_field];
    files.push({ name, url, sha: typeof sha === "string" ? sha : null });
  }
  if (files.length === 0) throw fail(`the listing has no file matching ${spec.match}`);
  if (files.length > spec.max_files)
    throw fail(`the listing has ${files.length} matching files, more than max_files ${spec.max_files}`);
  return files;
}

/** Fetches every listed file (through the same fetch policy) and returns the bundle document. */
export async function fetchBundle(
  source: SourceDefinition,
  spec: BundleSpec,
  listing: string,
  fetcher: Fetcher,
): Promise<string> {
  const files = listedFiles(source, spec, listing);
  const bundled = await Promise.all(
    files.map(async (file): Promise<BundledFile> => {
      const response = await fetcher.fetch({
        url: file.url,
        format: "markdown",
        allowedHosts: source.allowed_hosts,
      });
      if (response.kind !== "ok")
        throw new CatalogError("fetch_failed", `${file.name}: unexpected ${response.status}`);
      return { name: file.name, sha: file.sha, content: response.text };
    }),
  );
  return canonicalJson({ files: bundled });
}
