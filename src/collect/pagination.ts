/**
 * Paged JSON APIs (a source definition's `pagination`): fetch the first page, follow the link at
 * `next_link_json_pointer` page after page, and join every page's items (the array at
 * `items_json_pointer`) into one document, so a paged API is one monitored document like any
 * other source. The joined document is the first page with the items array replaced by all
 * items (page order kept) and the next link set to null; its text is what the monitored-content
 * extraction then reads.
 *
 * Every page goes through the same fetcher (SSRF guard, retries, timeouts, size cap); a next
 * link must be http(s) on the source's own host or one of its `allowed_hosts`. More pages than
 * `max_pages`, a page without the items array, a repeated link or a page that is not JSON fail
 * the source: a silently truncated document would drop facts.
 */
import { CatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import type { SourceDefinition } from "../schema/index.js";
import type { FetchedBody, Fetcher } from "./fetcher.js";

export type Pagination = NonNullable<SourceDefinition["pagination"]>;

export interface PagedDocument {
  /** The joined document as JSON text. */
  text: string;
  /** SHA-256 of every page's raw bytes in order, each page's hash joined by newlines. */
  rawSha256: string;
  /** The first page's response (URL, status, content type) stands for the document. */
  first: FetchedBody;
  pages: number;
  items: number;
}

function tokensOf(pointer: string): string[] {
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The value at a JSON pointer, or undefined when the path does not exist. */
export function valueAt(document: unknown, pointer: string): unknown {
  let value = document;
  for (const token of tokensOf(pointer)) {
    if (Array.isArray(value) && /^(0|[1-9]\d*)$/.test(token)) value = value[Number(token)];
    else if (value !== null && typeof value === "object" && Object.hasOwn(value, token))
      value = (value as Record<string, unknown>)[token];
    else return undefined;
  }
  return value;
}

/** A copy of `document` with the value at `pointer` replaced (the parent must exist). */
function withValueAt(document: unknown, pointer: string, replacement: unknown): unknown {
  const tokens = tokensOf(pointer);
  const set = (value: unknown, depth: number): unknown => {
    if (depth === tokens.length) return replacement;
    const token = tokens[depth] as string;
    if (Array.isArray(value)) {
      const copy = [...value];
      copy[Number(token)] = set(value[Number(token)], depth + 1);
      return copy;
    }
    const record = (value ?? {}) as Record<string, unknown>;
    return { ...record, [token]: set(record[token], depth + 1) };
  };
  return set(document, 0);
}

function pagingError(source: SourceDefinition, message: string): CatalogError {
  return new CatalogError("fetch_failed", `${source.url}: ${message}`, { source_url: source.url });
}

function nextUrl(source: SourceDefinition, link: unknown, current: string): string | null {
  if (link === undefined || link === null || link === "") return null;
  if (typeof link !== "string") throw pagingError(source, "the next-page link is not a string");
  let url: URL;
  try {
    url = new URL(link, current);
  } catch {
    throw pagingError(source, `the next-page link "${link}" is not a URL`);
  }
  const allowed = new Set([new URL(source.url).host, ...source.allowed_hosts]);
  if (!/^https?:$/.test(url.protocol) || !(allowed.has(url.host) || allowed.has(url.hostname)))
    throw pagingError(source, `the next-page link "${url.href}" leaves the source's allowed hosts`);
  return url.href;
}

/** Fetches every page of a paginated source and joins them into one document. */
export async function fetchPages(
  source: SourceDefinition,
  pagination: Pagination,
  fetcher: Pick<Fetcher, "fetch">,
): Promise<PagedDocument> {
  const items: unknown[] = [];
  const pageHashes: string[] = [];
  const seen = new Set<string>();
  let first: FetchedBody | null = null;
  let firstDocument: unknown;
  let url: string | null = source.url;
  let pages = 0;
  while (url !== null) {
    if (pages === pagination.max_pages)
      throw pagingError(source, `more than max_pages (${pagination.max_pages}) pages`);
    if (seen.has(url)) throw pagingError(source, `the next-page link "${url}" was already fetched`);
    seen.add(url);
    const response = await fetcher.fetch({
      url,
      format: "json",
      allowedHosts: source.allowed_hosts,
      conditional: null,
    });
    if (response.kind !== "ok") throw pagingError(source, `page ${pages + 1} answered ${response.status}`);
    pages += 1;
    let document: unknown;
    try {
      document = JSON.parse(response.text);
    } catch (error) {
      throw new CatalogError("parse_failed", `${url}: page ${pages} is not valid JSON`, undefined, {
        cause: error,
      });
    }
    const pageItems = valueAt(document, pagination.items_json_pointer);
    if (!Array.isArray(pageItems))
      throw new CatalogError(
        "parse_failed",
        `${url}: page ${pages} has no array at "${pagination.items_json_pointer}"`,
      );
    items.push(...pageItems);
    pageHashes.push(sha256Hex(response.bytes));
    if (first === null) {
      first = response;
      firstDocument = document;
    }
    url = nextUrl(source, valueAt(document, pagination.next_link_json_pointer), response.url);
  }
  const joined = withValueAt(
    withValueAt(firstDocument, pagination.items_json_pointer, items),
    pagination.next_link_json_pointer,
    null,
  );
  return {
    text: JSON.stringify(joined),
    rawSha256: sha256Hex(pageHashes.join("\n")),
    first: first as FetchedBody,
    pages,
    items: items.length,
  };
}
