/**
 * Canonical JSON (src/lib/canonical-json.ts): the same bytes as `canonicalize`, RFC 8785's
 * reference implementation, for any JSON value and for every record of the committed release;
 * the same bytes in any key order; and the piecewise writer giving exactly those bytes.
 */
import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, canonicalJsonRecursive, writeCanonicalJson } from "../../src/lib/canonical-json.js";
import { committedRelease } from "../helpers/committed-release.js";

function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== "object" || value === null) return value;
  // fromEntries: a "__proto__" key stays a member (an assignment would set the prototype)
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .reverse()
      .map((key) => [key, reversed(record[key])]),
  );
}

function pieces(value: unknown, depth: number): string[] {
  const out: string[] = [];
  writeCanonicalJson(value, (piece) => out.push(piece), depth);
  return out;
}

describe("canonical JSON", () => {
  it("writes RFC 8785's canonical form (its examples of numbers, strings and key order)", () => {
    // RFC 8785 section 3.2.2.3 and appendix B: ECMAScript number serialization
    expect(canonicalJson([333333333.3333333, 1e30, 4.5, 0.002, 1e-27, -0, 1e21, 1e-7])).toBe(
      "[333333333.3333333,1e+30,4.5,0.002,1e-27,0,1e+21,1e-7]",
    );
    // keys sorted by UTF-16 code unit (RFC 8785 section 3.2.3), whatever the insertion order
    expect(
      canonicalJson({ "\u20ac": 1, "\r": 2, "\ufb33": 3, "1": 4, "\u{1F600}": 5, "\u0080": 6, "\u00f6": 7 }),
    ).toBe('{"\\r":2,"1":4,"\u0080":6,"\u00f6":7,"\u20ac":1,"\u{1F600}":5,"\ufb33":3}');
    expect(canonicalJson({ 10: "a", 9: "b", x: 1 })).toBe('{"10":"a","9":"b","x":1}');
    // control characters escaped, the rest as is
    expect(canonicalJson('a"b\\c\u0001\n\u2028\u{1F600}')).toBe('"a\\"b\\\\c\\u0001\\n\u2028\u{1F600}"');
  });

  it("gives the bytes of RFC 8785's reference implementation for any JSON value, fast path and recursive path alike", () => {
    const key = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.constantFrom("0", "1", "10", "9", "01", "a", "B", "é"),
    );
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.string({ unit: "binary" }),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(key, fc.oneof(tie("value"), fc.constant(undefined)), { maxKeys: 5 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const expected = canonicalize(value);
        expect(canonicalJson(value)).toBe(expected);
        expect(canonicalJsonRecursive(value)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("gives the reference implementation's bytes for every record of the committed release", async () => {
    const { catalog, facts } = await committedRelease();
    const records = [...catalog.deployments, ...catalog.lifecycle, ...catalog.sources, ...facts.sources];
    expect(records.length).toBeGreaterThan(3000);
    for (const record of records) {
      expect(canonicalJson(record)).toBe(canonicalize(record));
      expect(canonicalJson(reversed(record))).toBe(canonicalize(record));
    }
  });

  it("sorts keys and drops undefined members, whatever the insertion order", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, undefined], c: "x" }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[1,null]},"b":1}',
    );
  });

  it("gives the same bytes for any key order, and parses back to the value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(reversed(value))).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it("refuses what has no canonical form", () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/non-finite/);
    expect(() => canonicalJson({ x: Number.POSITIVE_INFINITY })).toThrow(/non-finite/);
    expect(() => canonicalJson({ x: 1n })).toThrow(/bigint/);
    expect(() => canonicalJson(undefined)).toThrow(/cannot serialize undefined/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/cannot serialize function/);
  });
});

describe("writeCanonicalJson", () => {
  it("writes exactly canonicalJson's bytes, in pieces no larger than one item below its depth", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4 }), (value, depth) => {
        expect(pieces(value, depth).join("")).toBe(canonicalJson(value));
        expect(pieces(reversed(value), depth).join("")).toBe(canonicalJson(value));
      }),
      { numRuns: 300 },
    );
    expect(pieces({ b: [1, undefined, { y: 2, x: 1 }], a: undefined, c: () => 1 }, 3).join("")).toBe(
      '{"b":[1,null,{"x":1,"y":2}]}',
    );
  });

  it("writes every source's facts of the committed release as canonicalJson does, a record per piece at depth 3", async () => {
    const { facts } = await committedRelease();
    expect(facts.sources.length).toBeGreaterThan(10);
    for (const source of facts.sources) {
      const written = pieces(source, 3);
      expect(written.join("")).toBe(canonicalJson(source));
      const { output } = source;
      const items = [
        ...output.deployments,
        ...output.lifecycle,
        ...(output.model_facts ?? []),
        ...(output.aliases ?? []),
        ...(output.capability_lists ?? []),
        ...output.skipped,
      ];
      const longest = Math.max(...written.map((p) => p.length));
      expect(longest).toBeLessThanOrEqual(Math.max(200, ...items.map((item) => canonicalJson(item).length)));
    }
  });
});
