/**
 * GET /docs: an HTML API reference rendered in the browser by Redoc from /v1/openapi.json.
 * Redoc's standalone bundle is an npm dependency, served from the package's own files
 * (/docs/redoc.standalone.js): no CDN, nothing fetched from elsewhere at run time. The bundle
 * has one reference to another origin that it loads by itself, the Redocly logo of the sidebar
 * footer (an <img> from cdn.redoc.ly, with no option to turn it off); the served copy points
 * it at an empty inline image instead. If an upgrade of redoc changes that URL, loading the
 * bundle fails loudly rather than serving a page that calls out.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { sha256Hex } from "../lib/hash.js";

export const DOCS_PATH = "/docs";
export const DOCS_SCRIPT_PATH = "/docs/redoc.standalone.js";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>LLM Deployment Catalog API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="/v1/openapi.json" hide-download-button="false"></redoc>
<script src="${DOCS_SCRIPT_PATH}"></script>
</body>
</html>
`;

export interface StaticAsset {
  body: Buffer;
  contentType: string;
  digest: string;
}

let page: StaticAsset | null = null;
let script: StaticAsset | null = null;

export function docsPage(): StaticAsset {
  if (!page) {
    const body = Buffer.from(PAGE, "utf8");
    page = { body, contentType: "text/html; charset=utf-8", digest: sha256Hex(body) };
  }
  return page;
}

const REDOC_LOGO = '"https://cdn.redoc.ly/redoc/logo-mini.svg"';
const EMPTY_IMAGE = '"data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27/%3E"';

/** Redoc's standalone bundle, read once from node_modules (redoc/bundles/redoc.standalone.js). */
export function docsScript(): StaticAsset {
  if (!script) {
    const path = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");
    const text = readFileSync(path, "utf8");
    if (text.split(REDOC_LOGO).length !== 2)
      throw new Error(`${path}: expected exactly one ${REDOC_LOGO}; check the new redoc version`);
    const body = Buffer.from(text.replace(REDOC_LOGO, EMPTY_IMAGE), "utf8");
    script = { body, contentType: "text/javascript; charset=utf-8", digest: sha256Hex(body) };
  }
  return script;
}
