import { describe, expect, it } from "vitest";
import {
  cleanCell,
  isSeparatorRow,
  markdownTables,
  plainCell,
  requireColumn,
  splitTableRow,
} from "../../src/normalize/markdown.js";
import { expectParseFailure } from "../helpers/parsers.js";

describe("markdown pipe tables", () => {
  it("splits rows on unescaped pipes only and unescapes \\|", () => {
    expect(splitTableRow("| `a` \\| `b` | c |")).toEqual(["`a` | `b`", "c"]);
    expect(splitTableRow("a | b \\|")).toEqual(["a", "b |"]);
    const [table] = markdownTables("### 2026-01-01: x\n\n| A | B |\n| --- | --- |\n| `a` \\| `b` | c |\n");
    expect(table?.rows).toEqual([["`a` | `b`", "c"]]);
    expect(table?.headings[3]).toBe("2026-01-01: x");
  });

  it("recognises delimiter rows with alignment colons and single dashes, nothing else", () => {
    for (const row of ["|---|---|", "| :-- | :-: | --: |", "|:--|", "---|---", "  | - |  "])
      expect(isSeparatorRow(row)).toBe(true);
    for (const row of ["| a | b |", "|---| x |", "", "| |"]) expect(isSeparatorRow(row)).toBe(false);
  });

  it("keeps the headings each table sits under, drops empty rows and ends a table at a non-row line", () => {
    const text = [
      "# Top",
      "## Section ##",
      "### Sub",
      "| **H** | I |",
      "|:--|:-:|",
      "| a | b |",
      "|   |   |",
      "",
      "| not | a table |",
      "## Next",
      "| X |",
      "| --- |",
      "| 1 |",
      "text",
      "| 2 |",
    ].join("\r\n");
    expect(markdownTables(text)).toEqual([
      {
        heading: "Sub",
        headings: { 1: "Top", 2: "Section", 3: "Sub" },
        headers: ["**H**", "I"],
        rows: [["a", "b"]],
      },
      { heading: "Next", headings: { 1: "Top", 2: "Next" }, headers: ["X"], rows: [["1"]] },
    ]);
  });

  it("cleans cells two ways: plain reading text, or markup-free with link syntax kept", () => {
    const cell = "**[Claude](x.md)**<sup>1</sup> `id`<br>*new*\u00a0\\_v";
    expect(plainCell(cell)).toBe("Claude id<br>new \\_v");
    expect(cleanCell(cell)).toBe("[Claude](x.md) id *new* _v");
  });

  it("finds a column by its plain header text, or fails the parse", () => {
    const source = { name: "t", url: "https://example.com/t" };
    expect(requireColumn(source, ["`Model`", "**Shutdown date**"], /^shutdown date$/i)).toBe(1);
    expectParseFailure(
      () => requireColumn(source, ["Model"], /^shutdown date$/i),
      "t: column ^shutdown date$ missing (headers: Model)",
    );
  });
});
