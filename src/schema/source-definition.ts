/**
 * The definition of one monitored upstream source: `sources/<provider>/<name>.yaml`.
 * Captures live beside it in `sources/<provider>/captures/<name>/` (see src/collect).
 */
import { z } from "zod";
import { ProviderId, Url } from "./common.js";
import { SourceType } from "./evidence.js";

export const SourceFormat = z.enum(["html", "markdown", "json"]);
export type SourceFormat = z.infer<typeof SourceFormat>;

export const SourceDefinition = z
  .strictObject({
    source_id: z.uuid(),
    provider_id: ProviderId,
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "source name must be a lowercase slug"),
    url: Url,
    source_type: SourceType,
    format: SourceFormat,
    parser: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "parser must name a registered parser"),
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
    description: z.string().optional(),
  })
  .refine((d) => d.pagination === undefined || d.format === "json", {
    message: "pagination is only defined for json sources",
    path: ["pagination"],
  })
  .meta({ id: "SourceDefinition" });
export type SourceDefinition = z.infer<typeof SourceDefinition>;
