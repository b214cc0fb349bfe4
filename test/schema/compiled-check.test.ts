/**
 * The compiled checks (src/schema/compiled-check.ts) judge exactly as zod does: on every record
 * of the committed release and every source's parse output in its facts.json, and on those
 * records altered at random (a member replaced, removed or added, anywhere in the record).
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkParseOutput } from "../../src/normalize/index.js";
import { compileCheck } from "../../src/schema/compiled-check.js";
import {
  Deployment,
  LifecycleRecord,
  ParseOutput,
  SourceEvent,
  SourceState,
} from "../../src/schema/index.js";
import { committedRelease } from "../helpers/committed-release.js";

const REPO = join(import.meta.dirname, "..", "..");

const checkDeployment = compileCheck(Deployment);
const checkLifecycle = compileCheck(LifecycleRecord);
const checkEvent = compileCheck(SourceEvent);

/** Every path to a value inside `value` (objects' members and arrays' items), the root first. */
function paths(value: unknown, at: PropertyKey[] = []): PropertyKey[][] {
  const found = [at];
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) found.push(...paths(item, [...at, i]));
  } else if (value !== null && typeof value === "object")
    for (const [key, member] of Object.entries(value)) found.push(...paths(member, [...at, key]));
  return found;
}

type Alteration = { kind: "replace"; with: unknown } | { kind: "remove" } | { kind: "add"; key: string };

/** A copy of `record` with the value at `path` altered. */
function altered(record: unknown, path: PropertyKey[], alteration: Alteration): unknown {
  const copy = structuredClone(record);
  if (path.length === 0) return alteration.kind === "replace" ? alteration.with : copy;
  let parent = copy as Record<PropertyKey, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<PropertyKey, unknown>;
  const last = path[path.length - 1] as PropertyKey;
  if (alteration.kind === "replace") parent[last] = alteration.with;
  else if (alteration.kind === "remove") {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (target !== null && typeof target === "object" && !Array.isArray(target))
      (target as Record<string, unknown>)[alteration.key] = "extra";
  }
  return copy;
}

const replacement = fc.oneof(
  fc.constantFrom(null, "", "x", 0, -1, 1.5, 2 ** 53, true, [], {}, "2026-13-01", "ftp://example.com/"),
  fc.constantFrom("2026-02-30", "2026-11-23T00:00:00+01:00", "not a url", "dep_x", "unknown", "scheduled"),
  fc.string(),
  fc.integer(),
);
const alteration: fc.Arbitrary<Alteration> = fc.oneof(
  replacement.map((value) => ({ kind: "replace" as const, with: value })),
  fc.constant({ kind: "remove" as const }),
  fc.constantFrom("extra", "status", "date").map((key) => ({ kind: "add" as const, key })),
);

function sameVerdict<T>(
  schema: z.ZodType<T>,
  check: (value: unknown) => { success: boolean },
  records: unknown[],
) {
  fc.assert(
    fc.property(fc.nat(records.length - 1), fc.nat(), alteration, (index, pick, change) => {
      const record = records[index];
      const all = paths(record);
      const value = altered(record, all[pick % all.length] as PropertyKey[], change);
      expect(check(value).success).toBe(schema.safeParse(value).success);
    }),
    { numRuns: 400, seed: 20261128 },
  );
}

describe("compiled checks", () => {
  it("accept every record of the committed release and every parse output in its facts, returning the value itself", async () => {
    const { catalog, facts } = await committedRelease();
    for (const d of catalog.deployments) {
      const result = checkDeployment(d);
      expect(result.success, d.id).toBe(true);
      expect(result.success && result.data).toBe(d);
    }
    for (const r of catalog.lifecycle) expect(checkLifecycle(r).success).toBe(true);
    for (const e of catalog.events) expect(checkEvent(e).success).toBe(true);
    expect(facts.sources.length).toBeGreaterThan(200);
    for (const s of facts.sources) {
      const result = checkParseOutput(s.output);
      expect(result.success, s.source_id).toBe(true);
      expect(result.success && result.data).toBe(s.output);
    }
  });

  it("judge altered deployments, lifecycle records and parse outputs as zod does", async () => {
    const { catalog, facts } = await committedRelease();
    sameVerdict(Deployment, checkDeployment, catalog.deployments.slice(0, 300));
    sameVerdict(LifecycleRecord, checkLifecycle, catalog.lifecycle.slice(0, 300));
    const small = facts.sources.map((s) => s.output).filter((o) => JSON.stringify(o).length < 20_000);
    expect(small.length).toBeGreaterThan(20);
    sameVerdict(ParseOutput, checkParseOutput, small);
  });

  it("give zod's issues, with the schemas' own wording, for a value they refuse", async () => {
    const { catalog } = await committedRelease();
    const d = structuredClone(catalog.deployments[0]);
    if (!d) throw new Error("no deployment");
    d.status = d.status === "retired" ? "available" : "retired";
    const result = checkDeployment(d);
    expect(result.success).toBe(false);
    expect(result.success ? [] : result.error.issues.map((i) => [i.path, i.message])).toEqual([
      [["status"], "status must equal lifecycle.status"],
    ]);
  });

  it("refuse at compile time a schema whose parse would change the value or that ajv counts differently", () => {
    // SourceState's parse fills content_observed_at: a check that returns the value would not
    expect(() => compileCheck(SourceState)({})).toThrow(/changes values/);
    expect(() => compileCheck(z.string().max(3))("abc")).toThrow(/maxLength/);
    expect(() => compileCheck(z.object({ a: z.string() }))({ a: "x" })).toThrow(/changes values/);
  });

  it("have every cross-field rule of the record schemas written through withProblems", async () => {
    // a bare .refine would be checked by zod but not by the compiled check; only the schemas
    // zod alone parses (query parameters, corrections, source definitions) may use one
    const zodOnly = new Set(["api.ts", "corrections.ts", "source-definition.ts", "refine.ts"]);
    const dir = join(REPO, "src", "schema");
    const offending: string[] = [];
    for (const file of await readdir(dir)) {
      if (!file.endsWith(".ts") || zodOnly.has(file)) continue;
      const text = await readFile(join(dir, file), "utf8");
      if (/\.(refine|superRefine|check)\(/.test(text)) offending.push(file);
    }
    expect(offending).toEqual([]);
  });
});
