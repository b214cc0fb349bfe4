/** Test helpers for parser tests: expected parse failures and edited captures. */
import { expect } from "vitest";
import { CatalogError } from "../../src/lib/errors.js";
import type { ParserInput } from "../../src/normalize/types.js";

/**
 * Runs `run` and asserts it throws a `parse_failed` CatalogError (never an empty success);
 * returns the failure's message.
 */
export function expectParseFailure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).code).toBe("parse_failed");
    return (error as CatalogError).message;
  }
  throw new Error("expected a parse_failed CatalogError, but parsing succeeded");
}

/** The same parser input with other content. */
export function withContent(input: ParserInput, content: string): ParserInput {
  return { ...input, content };
}

/** The input with its content changed by `change`; asserts the change did change something. */
export function edit(input: ParserInput, change: (content: string) => string): ParserInput {
  const content = change(input.content);
  expect(content).not.toBe(input.content);
  return withContent(input, content);
}
