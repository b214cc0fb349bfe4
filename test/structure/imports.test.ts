/**
 * The house's import rules, read from the source itself (TypeScript's own import scanner, so
 * comments and strings are not mistaken for imports): layers point down only
 * (cli -> pipeline -> stages -> schema -> lib), a stage imports another stage only where the table
 * below allows it, serve reaches the release stage only through its public entry, normalize does no
 * I/O, and no two files import each other, even for types only.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../helpers/source-files.js";

const ROOT = resolve(import.meta.dirname, "../..");
const SRC = join(ROOT, "src");

/** Top-level directories of src/ and what each may import besides itself. */
const ALLOWED: Record<string, readonly string[]> = {
  lib: [],
  schema: ["lib"],
  collect: ["schema", "lib"],
  normalize: ["schema", "lib"],
  pricing: ["schema", "lib"],
  // The on-disk release format, when it has a module of its own (a stage the others read through).
  snapshot: ["schema", "lib"],
  // release formats money with pricing/money.ts (one money formatter).
  release: ["normalize", "snapshot", "pricing", "schema", "lib"],
  serve: ["release", "snapshot", "pricing", "schema", "lib"],
  pipeline: ["collect", "normalize", "release", "snapshot", "pricing", "schema", "lib"],
  cli: ["pipeline", "collect", "normalize", "release", "snapshot", "pricing", "serve", "schema", "lib"],
  // `npm run rehearse`: the pipeline's live build against a replay (docs/rehearsal.md).
  rehearsal: ["pipeline", "collect", "release", "snapshot", "schema", "lib"],
};

/** Cross-stage imports narrower than a whole directory: the only files of the target a stage may import. */
const ONLY_THROUGH: Record<string, Record<string, RegExp>> = {
  // The release stage uses normalize's identity modules (replacement resolution), nothing else of it.
  release: { normalize: /^normalize\/identity\// },
  // serve reads releases through the release stage's public entry, never its internals.
  serve: { release: /^release\/index\.ts$/ },
};

/** Modules that would make normalize do I/O (it is a pure stage: captures in, facts out). */
const NORMALIZE_FORBIDDEN =
  /^(?:node:)?(?:fs|fs\/promises|net|http|https|http2|dgram|child_process)$|^undici$/;

interface ImportEdge {
  from: string;
  specifier: string;
  /** Repository-relative path under src/ of the imported file, or null for a package or builtin. */
  to: string | null;
}

function importsOf(file: string): ImportEdge[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const from = relative(SRC, file);
  return info.importedFiles.map(({ fileName: specifier }) => {
    if (!specifier.startsWith(".")) return { from, specifier, to: null };
    const target = resolve(dirname(file), specifier).replace(/\.js$/, ".ts");
    return { from, specifier, to: relative(SRC, target) };
  });
}

const FILES = sourceFiles(SRC);
const EDGES = FILES.flatMap(importsOf);
const topOf = (path: string) => path.split("/")[0] ?? path;

/** Every rule broken by `edges`, as one line each. */
function boundaryViolations(edges: readonly ImportEdge[]): string[] {
  const violations: string[] = [];
  for (const edge of edges) {
    const fromTop = topOf(edge.from);
    if (edge.to === null) {
      if (fromTop === "normalize" && NORMALIZE_FORBIDDEN.test(edge.specifier))
        violations.push(`${edge.from} imports ${edge.specifier}: normalize does no I/O`);
      continue;
    }
    if (edge.to.startsWith("..")) {
      violations.push(`${edge.from} imports ${edge.specifier}, outside src/`);
      continue;
    }
    const toTop = topOf(edge.to);
    if (toTop === fromTop) continue;
    const allowed = ALLOWED[fromTop];
    if (allowed === undefined) {
      violations.push(`${edge.from}: src/${fromTop}/ has no place in the layer table`);
      continue;
    }
    if (!allowed.includes(toTop)) {
      violations.push(`${edge.from} imports ${edge.to}: ${fromTop} may not import ${toTop}`);
      continue;
    }
    const only = ONLY_THROUGH[fromTop]?.[toTop];
    if (only && !only.test(edge.to))
      violations.push(
        `${edge.from} imports ${edge.to}: ${fromTop} reaches ${toTop} only through ${only.source}`,
      );
  }
  return violations;
}

/** Every import cycle among `edges` (type-only imports included), each as its files in order. */
function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.to === null) continue;
    const list = next.get(edge.from) ?? [];
    list.push(edge.to);
    next.set(edge.from, list);
  }
  // Tarjan's strongly connected components; a component of two or more files is a cycle.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    indexOf.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!indexOf.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) ?? 0, indexOf.get(to) ?? 0));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!indexOf.has(node)) visit(node);
  return cycles;
}

describe("the import boundaries of src/", () => {
  it("reads the imports of every source file", () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(EDGES.filter((e) => e.to !== null).length).toBeGreaterThan(300);
    const directories = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(directories.map((e) => e.name).filter((name) => ALLOWED[name] === undefined)).toEqual([]);
  });

  it("has no import that breaks a layer, a stage boundary or normalize's purity", () => {
    expect(boundaryViolations(EDGES)).toEqual([]);
  });

  it("has no import cycle, not even a type-only one", () => {
    expect(importCycles(EDGES)).toEqual([]);
  });

  it("names each kind of violation when one is made", () => {
    const made: ImportEdge[] = [
      { from: "lib/a.ts", specifier: "../schema/b.js", to: "schema/b.ts" },
      { from: "serve/a.ts", specifier: "../release/merge.js", to: "release/merge.ts" },
      { from: "serve/a.ts", specifier: "../release/index.js", to: "release/index.ts" },
      { from: "normalize/a.ts", specifier: "node:fs/promises", to: null },
      { from: "normalize/a.ts", specifier: "undici", to: null },
      { from: "normalize/a.ts", specifier: "cheerio", to: null },
      { from: "release/a.ts", specifier: "../normalize/helpers.js", to: "normalize/helpers.ts" },
      {
        from: "release/a.ts",
        specifier: "../normalize/identity/index.js",
        to: "normalize/identity/index.ts",
      },
    ];
    expect(boundaryViolations(made)).toEqual([
      "lib/a.ts imports schema/b.ts: lib may not import schema",
      "serve/a.ts imports release/merge.ts: serve reaches release only through ^release\\/index\\.ts$",
      "normalize/a.ts imports node:fs/promises: normalize does no I/O",
      "normalize/a.ts imports undici: normalize does no I/O",
      "release/a.ts imports normalize/helpers.ts: release reaches normalize only through ^normalize\\/identity\\/",
    ]);
    expect(
      importCycles([
        { from: "a.ts", specifier: "./b.js", to: "b.ts" },
        { from: "b.ts", specifier: "./c.js", to: "c.ts" },
        { from: "c.ts", specifier: "./a.js", to: "a.ts" },
        { from: "c.ts", specifier: "./d.js", to: "d.ts" },
      ]),
    ).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });
});
