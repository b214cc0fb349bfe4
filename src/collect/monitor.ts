/**
 * The monitored content of a source: the part of a fetched document whose change is a change
 * of the source, with volatile noise removed, so that a page whose only change is a build id,
 * a nonce, a timestamp in a script or its whitespace hashes the same.
 *
 * Extraction is idempotent: extracting from already-extracted content gives the same bytes. The
 * capture store keeps extracted content, and offline builds replay it through this same function.
 *
 * html: the outerHTML of every element `monitor.selector` matches (the body when there is no
 * selector), inside a marker `<div data-catalog-monitor="SELECTOR">`. The marker is how a second
 * extraction recognises extracted content: it takes the marker's children as the selection
 * instead of applying the selector again (a selector such as `main > table:nth-of-type(2)` would
 * not match the selection on its own). Table parts (`tr`, `td`, ...) are emitted inside the table
 * elements they need so that they survive being parsed again. Noise removed:
 * - elements that are code or embedding, not content: script, style, noscript, template, iframe,
 *   link (preload hints and stylesheets with hashed asset names);
 * - comments;
 * - attributes whose values are per-build or per-request by definition: `nonce`, `integrity`,
 *   the framework render ids listed in VOLATILE_ATTRIBUTES, Vue scoped-style `data-v-<hash>` and
 *   Angular `_ngcontent-*` / `_nghost-*`. `id`, `class` and every other attribute are kept even
 *   when they look like hashes: they may be real content or what a selector relies on;
 * - whitespace: runs collapse to one space, and whitespace at the edge of a block element or
 *   between block elements is dropped (outside pre/textarea, whose text is kept as is apart from
 *   leading newlines, which HTML parsing drops anyway).
 *
 * json: the value at `monitor.json_pointer` (the whole document without one), kept at its path so
 * parsers see the document's own shape (`{"data":{"models":[...]}}` for `/data/models`; array
 * positions before an index are null), serialized as canonical JSON with `volatileJsonKeys`
 * removed at any depth inside the monitored value.
 *
 * markdown: a leading BOM dropped, CRLF/CR -> LF, trailing whitespace on each line removed, runs
 * of blank lines collapsed to one, no blank lines at the start, exactly one newline at the end.
 */
import { type CheerioAPI, load } from "cheerio";
import { canonicalJson } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import { sha256Hex } from "../lib/hash.js";
import type { SourceDefinition } from "../schema/index.js";

export const MONITOR_MARKER = "data-catalog-monitor";

export interface ExtractOptions {
  /** JSON object keys whose values change without the source changing (e.g. "generated_at"). */
  volatileJsonKeys?: readonly string[];
}

export interface MonitoredContent {
  content: string;
  /** SHA-256 of `content`'s UTF-8 bytes. */
  sha256: string;
}

type MonitorSource = Pick<SourceDefinition, "format" | "monitor" | "url">;

/** Extracts the monitored content of a fetched (or already extracted) document. */
export function extractMonitored(
  source: MonitorSource,
  text: string,
  options: ExtractOptions = {},
): MonitoredContent {
  let content: string;
  switch (source.format) {
    case "html":
      content = extractHtml(text, source.monitor?.selector ?? null, source.url);
      break;
    case "json":
      content = extractJson(
        text,
        source.monitor?.json_pointer ?? null,
        options.volatileJsonKeys ?? [],
        source.url,
      );
      break;
    case "markdown":
      content = normalizeMarkdown(text);
      break;
  }
  return { content, sha256: monitoredContentHash(content) };
}

export function monitoredContentHash(content: string): string {
  return sha256Hex(Buffer.from(content, "utf8"));
}

// ---------------------------------------------------------------- html

const NOISE_ELEMENTS = "script, style, noscript, template, iframe, link";

/** data-* attributes that frameworks fill with per-render or per-build values. */
const VOLATILE_ATTRIBUTES = new Set([
  "nonce",
  "integrity",
  "data-reactid",
  "data-react-checksum",
  "data-reactroot",
  "data-build-id",
  "data-buildid",
  "data-build",
  "data-nonce",
  "data-csrf",
  "data-csrf-token",
  "data-request-id",
  "data-timestamp",
  "data-rendered-at",
  "data-n-head",
  "data-n-head-ssr",
  "data-server-rendered",
  "data-hydrated",
  "data-emotion",
]);
const VOLATILE_ATTRIBUTE_PATTERNS = [/^data-v-[0-9a-f]{6,}$/, /^_ngcontent-/, /^_nghost-/];

const BLOCK_ELEMENTS = new Set(
  (
    "address article aside blockquote body caption col colgroup dd details dialog div dl dt fieldset " +
    "figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main nav ol p pre section " +
    "summary table tbody td tfoot th thead tr ul"
  ).split(" "),
);
const PRESERVE_WHITESPACE = new Set(["pre", "textarea", "listing"]);

/** The table elements a table part must sit in to be parsed back in place. */
const TABLE_CONTEXT: Record<string, [string, string]> = {
  tr: ["<table><tbody>", "</tbody></table>"],
  td: ["<table><tbody><tr>", "</tr></tbody></table>"],
  th: ["<table><tbody><tr>", "</tr></tbody></table>"],
  thead: ["<table>", "</table>"],
  tbody: ["<table>", "</table>"],
  tfoot: ["<table>", "</table>"],
  caption: ["<table>", "</table>"],
  colgroup: ["<table>", "</table>"],
  col: ["<table><colgroup>", "</colgroup></table>"],
};

/** The parts of a domhandler node this module touches. */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  parent: DomNode | null;
}

function extractHtml(text: string, selector: string | null, url: string): string {
  const $ = load(text);
  const wanted = selector ?? "";
  const marker = existingMarker($);
  let parts: string[];
  if (marker) {
    const recorded = marker.attribs?.[MONITOR_MARKER] ?? "";
    if (recorded !== wanted)
      throw new CatalogError(
        "parse_failed",
        `${url}: the capture was extracted with selector "${recorded}" but the source now monitors "${wanted}"; record it again`,
      );
    removeNoise($, marker);
    normalizeWhitespace(marker);
    parts =
      selector === null
        ? [$(marker as never).html() ?? ""]
        : (marker.children ?? []).filter((n) => n.type === "tag").map((n) => $.html(n as never));
  } else if (selector === null) {
    const body = $("body").get(0) as DomNode | undefined;
    if (!body) throw new CatalogError("parse_failed", `${url}: the document has no body`);
    removeNoise($, body);
    normalizeWhitespace(body);
    parts = [$(body as never).html() ?? ""];
  } else {
    let matched: DomNode[];
    try {
      matched = $(selector).toArray() as unknown as DomNode[];
    } catch (error) {
      throw new CatalogError("parse_failed", `${url}: invalid monitor selector "${selector}"`, undefined, {
        cause: error,
      });
    }
    // An element inside another matched element is already part of the selection.
    const chosen = new Set(matched);
    const outermost = matched.filter((node) => !hasAncestorIn(node, chosen));
    if (outermost.length === 0)
      throw new CatalogError("parse_failed", `${url}: the monitor selector "${selector}" matches nothing`);
    parts = outermost.map((node) => {
      removeNoise($, node);
      normalizeWhitespace(node);
      const html = $.html(node as never);
      const context = TABLE_CONTEXT[node.name ?? ""];
      return context ? `${context[0]}${html}${context[1]}` : html;
    });
  }
  const open = `<div ${MONITOR_MARKER}="${escapeAttribute(wanted)}">`;
  const inner = selector === null ? (parts[0] ?? "") : parts.join("\n");
  return `${open}\n${inner}\n</div>\n`;
}

/** The marker element when the document is extracted content: the body's only content. */
function existingMarker($: CheerioAPI): DomNode | null {
  const body = $("body").get(0) as DomNode | undefined;
  const children = (body?.children ?? []).filter(
    (n) => n.type !== "comment" && !(n.type === "text" && !(n.data ?? "").trim()),
  );
  const only = children[0];
  if (children.length !== 1 || !only || only.type !== "tag" || only.name !== "div") return null;
  return only.attribs && MONITOR_MARKER in only.attribs ? only : null;
}

function hasAncestorIn(node: DomNode, set: Set<DomNode>): boolean {
  for (let p = node.parent; p; p = p.parent) if (set.has(p)) return true;
  return false;
}

function removeNoise($: CheerioAPI, root: DomNode): void {
  const wrapped = $(root as never);
  wrapped.find(NOISE_ELEMENTS).remove();
  const visit = (node: DomNode) => {
    for (const child of [...(node.children ?? [])]) {
      if (child.type === "comment") $(child as never).remove();
      else if (child.type === "tag") {
        for (const name of Object.keys(child.attribs ?? {}))
          if (VOLATILE_ATTRIBUTES.has(name) || VOLATILE_ATTRIBUTE_PATTERNS.some((p) => p.test(name)))
            delete child.attribs?.[name];
        visit(child);
      }
    }
  };
  if (root.attribs)
    for (const name of Object.keys(root.attribs))
      if (VOLATILE_ATTRIBUTES.has(name) || VOLATILE_ATTRIBUTE_PATTERNS.some((p) => p.test(name)))
        delete root.attribs[name];
  visit(root);
}

const isBlock = (node: DomNode | undefined | null): boolean =>
  !node || (node.type === "tag" && BLOCK_ELEMENTS.has(node.name ?? ""));

/** Collapses whitespace as described in the module header; mutates the tree under `root`. */
function normalizeWhitespace(root: DomNode): void {
  const children = root.children;
  if (!children) return;
  if (PRESERVE_WHITESPACE.has(root.name ?? "")) {
    const first = children[0];
    if (first?.type === "text") first.data = (first.data ?? "").replace(/^[\r\n]+/, "");
    return;
  }
  // Adjacent text nodes (left behind by removed comments and scripts) merge into one.
  for (let i = children.length - 1; i > 0; i--) {
    const node = children[i];
    const prev = children[i - 1];
    if (node?.type === "text" && prev?.type === "text") {
      prev.data = (prev.data ?? "") + (node.data ?? "");
      removeChild(root, i);
    }
  }
  const rootIsBlock = isBlock(root);
  for (let i = 0; i < children.length; i++) {
    const node = children[i];
    if (!node) continue;
    if (node.type !== "text") {
      normalizeWhitespace(node);
      continue;
    }
    let data = (node.data ?? "").replace(/[ \t\n\r\f]+/g, " ");
    const prev = children[i - 1];
    const next = children[i + 1];
    if (prev ? isBlock(prev) : rootIsBlock) data = data.replace(/^ /, "");
    if (next ? isBlock(next) : rootIsBlock) data = data.replace(/ $/, "");
    if (data === "") {
      removeChild(root, i);
      i--;
    } else node.data = data;
  }
}

function removeChild(parent: DomNode, index: number): void {
  const children = parent.children as Array<DomNode & { prev?: DomNode | null; next?: DomNode | null }>;
  const [removed] = children.splice(index, 1);
  const prev = children[index - 1] ?? null;
  const next = children[index] ?? null;
  if (prev) prev.next = next;
  if (next) next.prev = prev;
  if (removed) removed.parent = null;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

// ---------------------------------------------------------------- json

function extractJson(
  text: string,
  pointer: string | null,
  volatileKeys: readonly string[],
  url: string,
): string {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new CatalogError("parse_failed", `${url}: not valid JSON: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  }
  const drop = new Set(volatileKeys);
  if (pointer === null) return canonicalJson(withoutKeys(document, drop));
  const tokens = pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const keep = (value: unknown, depth: number): unknown => {
    const token = tokens[depth];
    if (token === undefined) return withoutKeys(value, drop); // depth === tokens.length: the pointed-to value
    if (Array.isArray(value)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= value.length)
        throw missing(pointer, tokens.slice(0, depth + 1), url);
      const index = Number(token);
      return [...Array(index).fill(null), keep(value[index], depth + 1)];
    }
    if (value !== null && typeof value === "object" && Object.hasOwn(value, token))
      return { [token]: keep((value as Record<string, unknown>)[token], depth + 1) };
    throw missing(pointer, tokens.slice(0, depth + 1), url);
  };
  return canonicalJson(keep(document, 0));
}

function missing(pointer: string, reached: string[], url: string): CatalogError {
  return new CatalogError(
    "parse_failed",
    `${url}: the monitor json_pointer "${pointer}" matches nothing (no "/${reached.join("/")}")`,
  );
}

function withoutKeys(value: unknown, drop: Set<string>): unknown {
  if (drop.size === 0 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => withoutKeys(item, drop));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !drop.has(key))
      .map(([key, item]) => [key, withoutKeys(item, drop)]),
  );
}

// ---------------------------------------------------------------- markdown

function normalizeMarkdown(text: string): string {
  const lines = text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[ \t\f\v]+$/, ""));
  const out: string[] = [];
  for (const line of lines) {
    if (line === "" && (out.length === 0 || out[out.length - 1] === "")) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return `${out.join("\n")}\n`;
}
