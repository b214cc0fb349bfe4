/**
 * Errors are values with names. Stages throw a CatalogError with a stable snake_case code;
 * only the CLI (exit codes) and the server (problem bodies) catch them.
 */
export type CatalogErrorCode =
  | "invalid_source_definition"
  | "fetch_failed"
  | "parse_failed"
  | "validation_failed"
  | "release_not_found"
  | "release_damaged"
  | "release_exists"
  | "too_many_sources_failed"
  | "invalid_argument"
  | "io_failed"
  | "locked";

export class CatalogError extends Error {
  override readonly name = "CatalogError";
  constructor(
    readonly code: CatalogErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isCatalogError(error: unknown): error is CatalogError {
  return error instanceof CatalogError;
}
