/**
 * Token pagination (`page_token:` in a source definition), as Google APIs page their lists: a
 * page carries `nextPageToken` until the last one, and the next page is the same request with
 * `pageToken=<token>`. The monitored document is the first page with the items of every page
 * under `items_field` and no token, so a listing whose content is unchanged hashes the same
 * however the server cuts it into pages.
 */
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import type { SourceDefinition } from "../schema/index.js";
import type { Fetcher } from "./fetcher.js";

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
