import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { acceptor, parseAccepted, safeParseAccepted } from "../../src/schema/accept.js";
import { Deployment, LifecycleRecord, ParseOutput, SourceEvent } from "../../src/schema/index.js";
import { NO_PROBLEMS, withProblems } from "../../src/schema/refine.js";
import { type CommittedRelease, committedRelease } from "../helpers/committed-release.js";

let release: CommittedRelease;
beforeAll(async () => {
  release = await committedRelease();
}, 120_000);

type Path = Array<string | number>;

/** Every path into a JSON value (objects' members and arrays' items), the root excluded. */
function paths(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value))
    return value.flatMap((item, i) => [[...prefix, i], ...paths(item, [...prefix, i])]);
  if (typeof value === "object" && value !== null)
    return Object.entries(value).flatMap(([key, item]) => [
      [...prefix, key],
      ...paths(item, [...prefix, key]),
    ]);
  return [];
}

const REPLACEMENTS: unknown[] = [
  undefined,
  null,
  "",
  "x",
  "unknown",
  "available",
  "2026-11-23",
  "2026-11-23T00:00:00Z",
  "https://example.com/a",
  " https://example.com/a",
  "ftp://example.com/a",
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 60,
  true,
  [],
  {},
  [null],
  { status: "supported" },
];

type Mutation =
  | { kind: "set"; value: unknown }
  | { kind: "delete" }
  | { kind: "add"; key: string; value: unknown };

/** A deep copy of `record` with one mutation at `path` (the parent of a new key for "add"). */
function mutate(record: unknown, path: Path, mutation: Mutation): unknown {
  const copy = structuredClone(record) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (mutation.kind === "set") parent[last] = mutation.value;
  else if (mutation.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (typeof target === "object" && target !== null && !Array.isArray(target))
      (target as Record<string, unknown>)[mutation.key] = mutation.value;
  }
  return copy;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom(...REPLACEMENTS).map((value) => ({ kind: "set" as const, value })),
  fc.constant({ kind: "delete" as const }),
  fc
    .record({
      key: fc.constantFrom("extra", "status", "date", "id", "tool_calling"),
      value: fc.constantFrom(...REPLACEMENTS),
    })
    .map(({ key, value }) => ({ kind: "add" as const, key, value })),
);

/** Mutations of real records: whatever the acceptor takes, zod takes, and gives back equal. */
function holdsOn(schema: z.ZodType, records: readonly unknown[], runs: number): void {
  const accept = acceptor(schema);
  const withPaths = records.map((record) => ({ record, paths: paths(record) }));
  let accepted = 0;
  fc.assert(
    fc.property(fc.nat({ max: withPaths.length - 1 }), fc.nat(), mutation, (which, where, change) => {
      const { record, paths: all } = withPaths[which] as { record: unknown; paths: Path[] };
      if (all.length === 0) return;
      const mutated = mutate(record, all[where % all.length] as Path, change);
      if (!accept(mutated)) return;
      accepted++;
      const parsed = schema.safeParse(mutated);
      expect(parsed.success).toBe(true);
      expect(parsed.data).toStrictEqual(mutated);
    }),
    { numRuns: runs, seed: 20261123 },
  );
  // the property is not vacuous: some mutations keep a record valid
  expect(accepted).toBeGreaterThan(0);
}

describe("the acceptor compiled from a schema", () => {
  it("takes every record of the committed release as it is, as zod does", () => {
    const { catalog, facts } = release;
    expect(catalog.deployments.every(acceptor(Deployment))).toBe(true);
    expect(catalog.lifecycle.every(acceptor(LifecycleRecord))).toBe(true);
    expect(facts.sources.map((s) => s.output).every(acceptor(ParseOutput))).toBe(true);
  });

  it("never takes a mutated deployment that zod rejects or would change", () => {
    holdsOn(Deployment, release.catalog.deployments, 3000);
  });

  it("never takes a mutated lifecycle record that zod rejects or would change", () => {
    holdsOn(LifecycleRecord, release.catalog.lifecycle, 2000);
  });

  it("never takes a mutated parser output that zod rejects or would change", () => {
    const small = release.facts.sources.map((s) => s.output).filter((o) => JSON.stringify(o).length < 20_000);
    holdsOn(ParseOutput, small, 1500);
  });

  it("leaves to zod what it is not sure of: undeclared keys, defaults to apply, class instances, exclusive unions", () => {
    const Strip = z.object({ a: z.string(), b: z.string().optional() });
    expect(acceptor(Strip)({ a: "x" })).toBe(true);
    expect(acceptor(Strip)({ a: "x", b: undefined })).toBe(true);
    // zod would strip c: the value it gives back differs
    expect(acceptor(Strip)({ a: "x", c: 1 })).toBe(false);
    expect(Strip.safeParse({ a: "x", c: 1 }).success).toBe(true);
    const Defaulted = z.object({ a: z.string().default("d") });
    expect(acceptor(Defaulted)({})).toBe(false);
    expect(acceptor(Defaulted)({ a: "x" })).toBe(true);
    expect(acceptor(z.object({}))(new Date())).toBe(false);
    expect(acceptor(z.xor([z.string(), z.string().min(1)]))("a")).toBe(false);
    // an exact optional takes absence, not undefined
    const Exact = z.object({ a: z.string().exactOptional() });
    expect(acceptor(Exact)({})).toBe(true);
    expect(acceptor(Exact)({ a: undefined })).toBe(false);
    expect(Exact.safeParse({ a: undefined }).success).toBe(false);
  });

  it("runs the schema's checks and refinements as zod does", () => {
    const Checked = z
      .object({ n: z.int().nonnegative(), s: z.string().regex(/^[a-z]+$/), d: z.iso.date() })
      .refine((v) => v.n < 10);
    for (const n of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(acceptor(z.number())(n)).toBe(false);
      expect(z.number().safeParse(n).success).toBe(false);
    }
    const accept = acceptor(Checked);
    expect(accept({ n: 3, s: "ab", d: "2026-11-23" })).toBe(true);
    for (const bad of [
      { n: 3.5, s: "ab", d: "2026-11-23" },
      { n: -1, s: "ab", d: "2026-11-23" },
      { n: 3, s: "Ab", d: "2026-11-23" },
      { n: 3, s: "ab", d: "2026-13-23" },
      { n: 12, s: "ab", d: "2026-11-23" },
    ]) {
      expect(accept(bad)).toBe(false);
      expect(Checked.safeParse(bad).success).toBe(false);
    }
  });

  it("calls a rule's problems function and a refinement itself, taking only what zod takes", () => {
    const seen: unknown[] = [];
    const Ordered = withProblems(z.strictObject({ lo: z.int(), hi: z.int() }), (v) => {
      seen.push(v);
      return v.lo <= v.hi ? NO_PROBLEMS : [{ path: ["hi"], message: "hi below lo" }];
    });
    const accept = acceptor(Ordered);
    const value = { lo: 1, hi: 2 };
    expect(accept(value)).toBe(true);
    // the acceptor asked the function itself, with the value as it is (zod hands it its own copy)
    expect(seen.at(-1)).toBe(value);
    expect(Ordered.safeParse(value).success).toBe(true);
    expect(seen.at(-1)).not.toBe(value);
    expect(accept({ lo: 3, hi: 2 })).toBe(false);
    // zod words each listed problem as a custom issue at its path
    const issues = Ordered.safeParse({ lo: 3, hi: 2 }).error?.issues;
    expect(issues?.map((i) => [i.code, i.path, i.message])).toStrictEqual([
      ["custom", ["hi"], "hi below lo"],
    ]);
    // a refinement that answers anything but true is left to zod, which takes any truthy value
    const Truthy = z.string().refine((s) => (s.length > 0 ? 1 : 0) as unknown as boolean);
    expect(acceptor(Truthy)("a")).toBe(false);
    expect(Truthy.safeParse("a").success).toBe(true);
    const Async = z.string().refine(async () => true);
    expect(acceptor(Async)("a")).toBe(false);
    expect(acceptor(z.string().refine((s) => s !== "b"))("a")).toBe(true);
    expect(acceptor(z.string().refine((s) => s !== "b"))("b")).toBe(false);
  });

  it("counts string lengths as zod does (code points), passing only lengths that are sure", () => {
    const face = "\u{1F600}"; // one code point, two UTF-16 units
    const cases: Array<[z.ZodType, unknown]> = [
      [z.string().min(1), "a"],
      [z.string().min(1), ""],
      [z.string().min(2), face],
      [z.string().min(2), `${face}${face}`],
      [z.string().min(2), "ab"],
      [z.string().max(1), face],
      [z.string().max(1), "ab"],
      [z.string().max(2), `${face}a`],
      [z.array(z.int()).min(1), []],
      [z.array(z.int()).min(1), [1]],
    ];
    for (const [schema, value] of cases) {
      const zodSays = schema.safeParse(value).success;
      // the acceptor takes nothing zod rejects, and everything here that zod takes
      expect([value, acceptor(schema)(value)]).toStrictEqual([value, zodSays]);
    }
  });

  it("leaves to zod a value that a check would change, and answers a repeated string as the first time", () => {
    const Link = z.object({ url: z.url({ protocol: /^https?$/ }), n: z.int().positive().nullable() });
    const accept = acceptor(Link);
    // zod gives back the URL without its whitespace: not the value itself
    expect(Link.parse({ url: " https://example.com/a ", n: null }).url).toBe("https://example.com/a");
    for (let i = 0; i < 2; i++) {
      expect(accept({ url: " https://example.com/a ", n: null })).toBe(false);
      expect(accept({ url: "https://example.com/a", n: 1 })).toBe(true);
      expect(accept({ url: "ftp://example.com/a", n: 1 })).toBe(false);
      expect(accept({ url: "https://example.com/a", n: 0 })).toBe(false);
      expect(accept({ url: "https://example.com/a", n: 2 ** 53 })).toBe(false);
      expect(accept({ url: "https://example.com/a", n: 1.5 })).toBe(false);
    }
    // more distinct strings than a check remembers: each still answered as zod would
    for (let i = 0; i < 5000; i++) expect(accept({ url: `https://example.com/${i}`, n: 1 })).toBe(true);
    expect(accept({ url: "ftp://example.com/a", n: 1 })).toBe(false);
    expect(acceptor(z.number().min(2).max(3))(3)).toBe(true);
    expect(acceptor(z.number().gt(2).lt(3))(3)).toBe(false);
    expect(acceptor(z.number().gt(2).lt(3))(2.5)).toBe(true);
  });

  it("a record keyed by an enum takes only its declared keys when partial, and leaves an exhaustive one to zod", () => {
    const Key = z.enum(["a", "b"]);
    expect(acceptor(z.partialRecord(Key, z.int()))({ a: 1 })).toBe(true);
    expect(acceptor(z.partialRecord(Key, z.int()))({ c: 1 })).toBe(false);
    expect(acceptor(z.record(Key, z.int()))({ a: 1, b: 2 })).toBe(false);
  });

  it("parseAccepted and safeParseAccepted give zod's answer where the acceptor is not sure", () => {
    const event = release.catalog.events[0];
    const value = { n: "1" };
    const Schema = z.object({ n: z.coerce.number() });
    expect(parseAccepted(Schema, value)).toEqual({ n: 1 });
    expect(safeParseAccepted(Schema, { n: "x" }).success).toBe(false);
    const accepted = { a: "x" };
    expect(parseAccepted(z.object({ a: z.string() }), accepted)).toBe(accepted);
    if (event) expect(safeParseAccepted(SourceEvent, event).success).toBe(true);
  });
});
