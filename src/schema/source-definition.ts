/**
 * The definition of one monitored upstream source: `sources/<provider>/<name>.yaml`.
 * Captures live beside it in `sources/<provider>/captures/<name>/` (see src/collect).
 */

import { z } from "zod";
import { SLUG } from "../lib/ids.js";
import { ProviderId, Url } from "./common.js";
import { SourceType } from "./evidence.js";

export const SourceFormat = z.enum(["html", "markdown", "json"]);
export type SourceFormat = z.infer<typeof SourceFormat>;

/**
 * A secret a source needs (an API key): read from the environment variable `env` when the source
 * is fetched and sent as the query parameter `query_param`. It is never written to a capture, a
 * log line, an event or an error (collect redacts it); without the variable the source is
 * skipped, and the build summary says which variable is missing.
 */
export const SourceSecret = z.strictObject({
  env: z.string().regex(/^[A-Z][A-Z0-9_]*$/, "env must name an environment variable (A-Z, 0-9, _)"),
  query_param: z.string().min(1),
});
export type SourceSecret = z.infer<typeof SourceSecret>;

export const SourceDefinition = z
  .strictObject({
    source_id: z.uuid(),
    provider_id: ProviderId,
    name: z.string().regex(SLUG, "source name must be a lowercase slug"),
    url: Url,
    source_type: SourceType,
    format: SourceFormat,
    parser: z.string().regex(SLUG, "parser must name a registered parser"),
    /** Which part is monitored: a CSS selector for html, a JSON pointer for json. Absent = whole document. */
    monitor: z
      .strictObject({
        selector: z.string().min(1).optional(),
        json_pointer: z.string().startsWith("/").optional(),
      })
      .optional(),
    /**
     * A JSON API answering in pages: the collect stage follows the link at
     * `next_link_json_pointer` (absent, null or "" ends the list) up to `max_pages` pages (more
     * is a failure, never a silently truncated document) and records one document: the first
     * page with the array at `items_json_pointer` holding every page's items in page order and
     * the next link set to null. Paginated sources are fetched without validators (no
     * conditional GET): a page's ETag says nothing about the others.
     */
    pagination: z
      .strictObject({
        next_link_json_pointer: z.string().startsWith("/"),
        items_json_pointer: z.string().startsWith("/"),
        max_pages: z.int().min(1).max(10_000),
      })
      .optional(),
    /** Hosts a redirect may lead to; the URL's own host is always allowed. */
    allowed_hosts: z.array(z.string().min(1)).default([]),
    /** Offline builds skip a source without a recorded capture (e.g. community data kept out of the repo). */
    offline_capture: z.boolean().default(true),
    /**
     * A recorded earlier version of a page whose URL now serves newer content (another source
     * follows the page itself): every build, live or offline, replays the recorded capture and
     * never fetches the URL, so the facts only that version states keep their evidence and
     * observation time instead of being replaced by today's page. Needs a committed capture.
     * Absent: not archived.
     */
    archived: z.boolean().optional(),
    /**
     * The URL answers a JSON list of files (e.g. GitHub's contents API for a directory); every
     * entry whose name matches `match` is fetched from its `url_field` (a host of the URL or of
     * `allowed_hosts`), and the capture is one JSON document `{"files": [{name, sha, content}]}`
     * in list order. A 304 on the list re-confirms the stored capture.
     */
    bundle: z
      .strictObject({
        match: z.string().min(1),
        name_field: z.string().min(1).default("path"),
        url_field: z.string().min(1).default("download_url"),
        sha_field: z.string().min(1).default("sha"),
        /** At most this many files (a runaway listing is an error, not a thousand fetches). */
        max_files: z.int().positive().default(200),
      })
      .optional(),
    /**
     * A community dataset that fills values (prices, limits, capabilities) of deployments other
     * sources place and never creates one: the merge drops its facts about a deployment no
     * other source names (docs/corroboration.md). Absent: its facts may place deployments.
     */
    fills_only: z.literal(true).optional(),
    /**
     * Community datasets (source ids) this one is not independent of (it copies them, or checks
     * its values against them): an agreement with one of them corroborates nothing
     * (docs/corroboration.md). Absent: independent of every other source.
     */
    not_independent_of: z.array(z.uuid()).min(1).optional(),
    /** Secrets by name, e.g. `key: { env: GOOGLE_CLOUD_BILLING_API_KEY, query_param: key }`. */
    secrets: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), SourceSecret).optional(),
    /**
     * Token pagination of a JSON API (Google APIs' `nextPageToken`): while a page's
     * `response_field` is a non-empty string, the next page is requested with it as the query
     * parameter `query_param`; the document is the first page with `items_field` holding the
     * items of every page (and no `response_field`). More than `max_pages` pages is an error.
     */
    page_token: z
      .strictObject({
        items_field: z.string().min(1),
        response_field: z.string().min(1).default("nextPageToken"),
        query_param: z.string().min(1).default("pageToken"),
        max_pages: z.int().positive().default(100),
      })
      .optional(),
    description: z.string().optional(),
  })
  .refine((d) => d.pagination === undefined || d.format === "json", {
    message: "pagination is only defined for json sources",
    path: ["pagination"],
  })
  .refine((d) => !d.archived || d.offline_capture, {
    message: "an archived source is its recorded capture: offline_capture must be true",
    path: ["archived"],
  })
  .meta({ id: "SourceDefinition" });
export type SourceDefinition = z.infer<typeof SourceDefinition>;
