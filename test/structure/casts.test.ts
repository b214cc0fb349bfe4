/**
 * src/ narrows a value to a string by a check (a regex group through `group()` of
 * src/lib/regex.ts, `?? ""` or an explicit test where it may be absent, a typed variable) and
 * never asserts it with `as string`, which would carry an `undefined` on unseen. Read with
 * TypeScript's own parser, so comments and strings are not mistaken for casts.
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../helpers/source-files.js";

const ROOT = resolve(import.meta.dirname, "../..");
const SRC = join(ROOT, "src");

/** Every `as string` assertion of a source text, as "name:line". */
function stringCasts(name: string, text: string): string[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && node.type.kind === ts.SyntaxKind.StringKeyword) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      found.push(`${name}:${line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("string casts in src/", () => {
  it("src/ has no `as string` cast: every string is narrowed by a check", () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const casts = files.flatMap((path) => stringCasts(relative(ROOT, path), readFileSync(path, "utf8")));
    expect(casts).toEqual([]);
  });

  it("finds a cast where one is written, and none in a comment, a string or another type's cast", () => {
    const text = [
      "const a = m[1] as string;",
      "// b as string",
      'const c = "d as string";',
      "const e = x as string[];",
      "const f = (y as string).length;",
    ].join("\n");
    expect(stringCasts("sample.ts", text)).toEqual(["sample.ts:1", "sample.ts:5"]);
  });
});
