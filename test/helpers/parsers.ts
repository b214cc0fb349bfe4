/** Test helpers for parser tests: expected parse failures and edited captures. */
import { expect } from "vitest";
import { CatalogError } from "../../src/lib/errors.js";
import type { ParserInput } from "../../src/normalize/types.js";

/**
 * Runs `run` and asserts it throws a `parse_failed` CatalogError (never an empty success)
 * whose message names the failure expected: it contains `expected` (a string) or matches it
 * (a RegExp), so a test of one failure does not pass on another. Returns the message.
 */
export function expectParseFailure(run: () => unknown, expected: string | RegExp): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).code).toBe("parse_failed");
    const message = (error as CatalogError).message;
    if (typeof expected === "string") expect(message).toContain(expected);
    else expect(message).toMatch(expected);
    return message;
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
