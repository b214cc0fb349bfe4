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
 *
 * The second style, token pagination (`page_token`, as Google APIs page their lists), is in the
 * second half of this file (`fetchAllPages`).
 */
import { canonicalJson } from "../lib/canonical-json.js";
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
    const token = tokens[depth];
    if (token === undefined) return replacement; // past the last token: the place to replace
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

// ---------------------------------------------------------------------------------------------
// Token pagination
// ---------------------------------------------------------------------------------------------

/*
 * Token pagination (`page_token:` in a source definition), as Google APIs page their lists: a
 * page carries `nextPageToken` until the last one, and the next page is the same request with
 * `pageToken=<token>`. The monitored document is the first page with the items of every page
 * under `items_field` and no token, so a listing whose content is unchanged hashes the same
 * however the server cuts it into pages.
 */

type PageSpec = NonNullable<SourceDefinition["page_token"]>;

function page(source: SourceDefinition, spec: PageSpec, text: string, n: number): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CatalogError("fetch_failed", `${source.provider_id}/${source.name}: page ${n} is not JSON`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new CatalogError(
      "fetch_failed",
      `${source.provider_id}/${source.name}: page ${n} is not a JSON object`,
    );
  const record = parsed as Record<string, unknown>;
  const items = record[spec.items_field];
  if (items !== undefined && !Array.isArray(items))
    throw new CatalogError(
      "fetch_failed",
      `${source.provider_id}/${source.name}: page ${n}'s "${spec.items_field}" is not an array`,
    );
  return record;
}

/**
 * Follows the tokens from the first page's text (already fetched from `requestUrl`) and returns
 * the assembled document. Later pages are fetched without validators: the first page's ETag
 * stands for the listing.
 */
export async function fetchAllPages(
  source: SourceDefinition,
  spec: PageSpec,
  firstText: string,
  requestUrl: string,
  fetcher: Fetcher,
): Promise<string> {
  const first = page(source, spec, firstText, 1);
  const items: unknown[] = [...((first[spec.items_field] as unknown[] | undefined) ?? [])];
  let token = first[spec.response_field];
  let pages = 1;
  while (typeof token === "string" && token !== "") {
    pages++;
    if (pages > spec.max_pages)
      throw new CatalogError(
        "fetch_failed",
        `${source.provider_id}/${source.name}: more than max_pages ${spec.max_pages} pages`,
      );
    const url = new URL(requestUrl);
    url.searchParams.set(spec.query_param, token);
    const response = await fetcher.fetch({
      url: url.href,
      format: source.format,
      allowedHosts: source.allowed_hosts,
    });
    if (response.kind !== "ok")
      throw new CatalogError(
        "fetch_failed",
        `${source.provider_id}/${source.name}: page ${pages} answered ${response.status}`,
      );
    const next = page(source, spec, response.text, pages);
    items.push(...((next[spec.items_field] as unknown[] | undefined) ?? []));
    token = next[spec.response_field];
  }
  const { [spec.response_field]: _token, ...rest } = first;
  return canonicalJson({ ...rest, [spec.items_field]: items });
}
