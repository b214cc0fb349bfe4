/**
 * The registry's `catalog` is an unrelated package: no command in the README's code blocks or in
 * a workflow may run `npx catalog` without `--no` (which would download and run that package
 * wherever the local bin is missing).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "..");

function codeBlocks(markdown: string): string {
  return [...markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]).join("\n");
}

describe("commands never resolve catalog from the registry", () => {
  it("every npx in the README's code blocks and in the workflows is `npx --no`", () => {
    const texts = [
      ["README.md", codeBlocks(readFileSync(join(REPO, "README.md"), "utf8"))],
      ...readdirSync(join(REPO, ".github", "workflows")).map((f) => [
        f,
        readFileSync(join(REPO, ".github", "workflows", f), "utf8"),
      ]),
    ];
    let checked = 0;
    for (const [name, text] of texts) {
      for (const line of (text as string).split("\n").filter((l) => /\bnpx\s/.test(l))) {
        checked++;
        expect(line, `${name}: ${line}`).toMatch(/\bnpx --no\b/);
      }
    }
    expect(checked).toBeGreaterThan(3);
  });
});
