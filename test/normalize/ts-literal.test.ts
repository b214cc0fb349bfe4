import { describe, expect, it } from "vitest";
import {
  readDefaultExport,
  TsFunction,
  TsLiteralError,
  type TsNumber,
} from "../../src/normalize/ts-literal.js";

describe("reading a data-only TypeScript module", () => {
  it("reads the default export's object literal with exact number text and skips arrow functions", () => {
    const value = readDefaultExport(`import { StaticModel } from '../schema';
// a comment
export default {
  name: 'Codestral', /* block */ "quoted key": "x\\n",
  describe: (l) => ({ description: l.text(\`prose, with { braces }\`, { context: 'c' }) }),
  price: 0.3, negative: -1, list: [1.50, 'a', null, undefined, true,],
  nested: { empty: {}, tpl: \`two
lines\` },
} as const satisfies StaticModel;
`) as Record<string, unknown>;
    expect(value["name"]).toBe("Codestral");
    expect(value["quoted key"]).toBe("x\n");
    expect(value["describe"]).toBeInstanceOf(TsFunction);
    expect((value["price"] as TsNumber).raw).toBe("0.3");
    expect((value["negative"] as TsNumber).raw).toBe("-1");
    const list = value["list"] as unknown[];
    expect((list[0] as TsNumber).raw).toBe("1.50");
    expect(list.slice(1)).toEqual(["a", null, undefined, true]);
    expect(value["nested"]).toEqual({ empty: {}, tpl: "two\nlines" });
  });

  it("refuses code where data is expected, naming the line", () => {
    const cases = [
      "export default { a: someVariable };",
      "export default { ...spread };",
      "export default { a };",
      "export default { [computed]: 1 };",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the interpolation is the point
      "export default { a: `${x}` };",
      "export default { a: 1, a: 2 };",
      "export default { a: 1 };\nexport const b = 2;",
      "const x = 1;\nexport default { a: 1 };",
      "export default { a: 'unterminated };",
    ];
    for (const source of cases) expect(() => readDefaultExport(source), source).toThrow(TsLiteralError);
    expect(() => readDefaultExport("export default {\n  a: nope,\n};")).toThrow(/line 2/);
  });
});
