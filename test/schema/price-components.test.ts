/**
 * Price components are declared once (src/schema/price-components.ts) and everything is made
 * from that declaration: the zod shapes, the DuckDB columns and export columns, the diff's
 * components. The scan below fails when a second list of them appears anywhere in src/: an
 * array or union of their names, a SQL text or type naming three or more of their fields, or
 * object members (columns, zod shapes, SELECT maps) declaring three or more of them. A use of
 * one component at a time (a switch case, a parser's map from a page's labels to components,
 * a parser building a rate card from what it read) is not a list and passes.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { RateCard, RateTier } from "../../src/schema/deployment.js";
import {
  PRICE_COMPONENTS,
  PRICE_FIELDS,
  TIER_PRICE_FIELDS,
  TOKEN_PRICE_COMPONENTS,
} from "../../src/schema/price-components.js";

const SRC = join(import.meta.dirname, "..", "..", "src");
const DECLARATION = join("schema", "price-components.ts");
const COMPONENTS: readonly string[] = PRICE_COMPONENTS;

/** Which components a string literal's text names: the whole text is one, or names their fields. */
function namedIn(text: string): Set<string> {
  const named = new Set<string>();
  for (const c of COMPONENTS) if (text === c || new RegExp(`\\b${c}_micro_usd\\b`).test(text)) named.add(c);
  return named;
}

const STRING = String.raw`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\x60(?:[^\x60\\]|\\.)*\x60`;
/**
 * A member named for a price field and declared with a constant (a literal, a schema, a type),
 * value included: a table's column, a zod shape's member, an interface's field.
 */
const MEMBER = String.raw`\b(${COMPONENTS.map((c) => `${c}_micro_usd`).join("|")})\??\s*:\s*(?:${STRING}|(?:\d|MicroUsd\b|z\.|number\b|string\b|bigint\b)[^,;\n{}]*)`;
const TOKEN = new RegExp(`${MEMBER}|${STRING}`, "g");
/** What may stand between two items of one list: separators, brackets, other string literals. */
const GAP = new RegExp(String.raw`^(?:[\s,|\[\]();]|${STRING})*$`);

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'\x60\\])\/\/.*$/gm, "$1");
}

/** The lists of three or more components in `source`, as the components each names. */
function componentLists(source: string): string[][] {
  const code = withoutComments(source);
  const lists: string[][] = [];
  let chain = new Set<string>();
  let chainEnd = 0;
  const close = () => {
    if (chain.size >= 3) lists.push([...chain]);
    chain = new Set();
  };
  for (const match of code.matchAll(TOKEN)) {
    const member = match[1];
    const named =
      member !== undefined ? new Set([member.replace(/_micro_usd$/, "")]) : namedIn(match[0].slice(1, -1));
    if (named.size === 0) continue;
    // one string naming three or more (a SQL column list, a STRUCT type) is a list by itself
    if (named.size >= 3) lists.push([...named]);
    if (!GAP.test(code.slice(chainEnd, match.index))) close();
    for (const c of named) chain.add(c);
    chainEnd = (match.index ?? 0) + match[0].length;
  }
  close();
  return lists;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

describe("price components", () => {
  it("are listed nowhere in src/ but their declaration", async () => {
    const files = await sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const found: Record<string, string[][]> = {};
    for (const file of files) {
      const path = relative(SRC, file);
      if (path === DECLARATION) continue;
      const lists = componentLists(await readFile(file, "utf8"));
      if (lists.length > 0) found[path] = lists;
    }
    expect(found).toEqual({});
    // the components written out as a list, as they are declared, are found
    expect(componentLists(`const C = ${JSON.stringify(PRICE_COMPONENTS)};`)).toEqual([[...PRICE_COMPONENTS]]);
  });

  it("the scan finds the second lists this project once had, and passes single uses", () => {
    const lists = [
      `export const PRICE_COMPONENTS = ["input", "cached_input", "output"] as const;`,
      `export type PricePart = "input" | "cached_input" | "output" | "cache_write" | "cache_write_1h";`,
      `const TIER_TYPE =\n  "STRUCT(above_input_tokens BIGINT, input_micro_usd BIGINT, cached_input_micro_usd BIGINT, output_micro_usd BIGINT)";`,
      `const C = [\n  ["unit", "VARCHAR"],\n  ["input_micro_usd", "BIGINT"],\n  ["cached_input_micro_usd", "BIGINT"], // cached\n  ["output_micro_usd", "BIGINT"],\n];`,
      `const S = {\n  input_micro_usd: "r.rate_card.input_micro_usd",\n  cached_input_micro_usd: "r.rate_card.cached_input_micro_usd",\n  output_micro_usd: "r.rate_card.output_micro_usd",\n};`,
      `z.strictObject({\n  input_micro_usd: MicroUsd,\n  cached_input_micro_usd: MicroUsd.nullable(),\n  output_micro_usd: MicroUsd.nullable(),\n})`,
      `interface P {\n  input_micro_usd: number;\n  output_micro_usd: number | null;\n  cache_write_micro_usd?: number | null;\n}`,
    ];
    for (const source of lists) expect(componentLists(source), source).not.toEqual([]);
    const uses = [
      `const LABELS = {\n  "Input tokens": "input",\n  "Output tokens": "output",\n  "Prompt cache read input tokens": "cached_input",\n};`,
      `switch (c) {\n  case "input":\n    return a;\n  case "cached_input":\n    return b;\n  case "output":\n    return d;\n}`,
      `const input = this.price("input", x);\nconst cached = this.price("cached_input", x);\nconst output = this.price("output", x);`,
      `return {\n  input_micro_usd: inputPrice,\n  cached_input_micro_usd: cached,\n  output_micro_usd: null,\n};`,
      `const sql = "SELECT input_micro_usd, cached_input_micro_usd FROM deployments";`,
    ];
    for (const source of uses) expect(componentLists(source), source).toEqual([]);
  });

  it("the declaration gives the schemas and lists their members in one order", () => {
    expect(PRICE_COMPONENTS).toEqual(["input", "cached_input", "output", "cache_write", "cache_write_1h"]);
    expect(TOKEN_PRICE_COMPONENTS).toEqual(["input", "cached_input", "output"]);
    const cardFields = Object.keys(RateCard.shape).filter((k) => k.endsWith("_micro_usd"));
    expect(cardFields).toEqual([...PRICE_FIELDS]);
    expect(Object.keys(RateTier.shape).filter((k) => k.endsWith("_micro_usd"))).toEqual([
      ...TIER_PRICE_FIELDS,
    ]);
    const card = {
      currency: "USD",
      unit: "million_tokens",
      input_micro_usd: 1,
      cached_input_micro_usd: null,
      output_micro_usd: null,
      source_url: "https://example.com/pricing",
      observed_at: "2026-11-23T00:00:00Z",
    };
    // input required; cached input and output nullable but present; cache writes optional
    expect(RateCard.safeParse(card).success).toBe(true);
    expect(RateCard.safeParse({ ...card, input_micro_usd: null }).success).toBe(false);
    const { output_micro_usd: _, ...noOutput } = card;
    expect(RateCard.safeParse(noOutput).success).toBe(false);
    expect(RateCard.safeParse({ ...card, cache_write_1h_micro_usd: null }).success).toBe(true);
    expect(
      RateTier.safeParse({
        above_input_tokens: 1,
        input_micro_usd: 1,
        cached_input_micro_usd: null,
        output_micro_usd: 2,
        cache_write_1h_micro_usd: 3,
      }).success,
    ).toBe(false);
  });
});
