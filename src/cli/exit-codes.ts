/**
 * Exit codes of `catalog` (docs/decisions.md "Command line additions"): 0 success or nothing to
 * publish, 2 a usage error, and one code per other failure class. The table is a
 * Record over CatalogErrorCode, so a new error code without an exit code fails typecheck.
 */
import type { CatalogErrorCode } from "../lib/errors.js";

export const EXIT_OK = 0;
/** A bug: an error that is not a CatalogError (the message names it; CATALOG_DEBUG=1 adds the stack). */
export const EXIT_UNEXPECTED = 1;
/** Unknown command or option, a missing or bad value. */
export const EXIT_USAGE = 2;

export const EXIT_CODES: Record<CatalogErrorCode, number> = {
  invalid_argument: EXIT_USAGE,
  too_many_sources_failed: 3,
  release_damaged: 4,
  release_not_found: 5,
  invalid_source_definition: 6,
  validation_failed: 7,
  io_failed: 8,
  fetch_failed: 9,
  parse_failed: 10,
  release_exists: 11,
  locked: 12,
};

const MEANING: Record<CatalogErrorCode, string> = {
  invalid_argument: "usage error: unknown command or option, missing or bad value",
  too_many_sources_failed: "build: more than --failure-threshold of the sources that list deployments failed",
  release_damaged: "a release (or LATEST) is damaged: a file or the manifest does not match its hash",
  release_not_found: "no such release, or nothing published yet",
  invalid_source_definition: "a source definition is invalid",
  validation_failed: "build: validation failed, nothing published",
  io_failed: "a file, directory, port or Redis cannot be used (missing, unreadable, in use, unreachable)",
  fetch_failed: "an upstream page cannot be fetched",
  parse_failed: "a page or capture cannot be parsed",
  release_exists: "the release already exists",
  locked:
    "a lock is held by another process: a build (or gc) working in the same snapshots directory, or a keys command on the same keys file",
};

/** The exit-code table for `catalog --help`. */
export function exitCodeHelp(): string {
  const rows: Array<[number, string]> = [
    [EXIT_OK, "success, or nothing to publish"],
    [EXIT_UNEXPECTED, "unexpected internal error (a bug; CATALOG_DEBUG=1 prints the stack)"],
  ];
  for (const code of Object.keys(EXIT_CODES) as CatalogErrorCode[])
    if (!rows.some(([n]) => n === EXIT_CODES[code])) rows.push([EXIT_CODES[code], MEANING[code]]);
  rows.sort(([a], [b]) => a - b);
  return `\nExit codes:\n${rows.map(([n, text]) => `  ${String(n).padStart(2)}  ${text}`).join("\n")}\n`;
}
