/**
 * The compiled canonical serializers give exactly canonicalJson's bytes: on every record of
 * the committed release (as read, keys sorted, and rebuilt in reverse key order, as merge and
 * zod build them), and on values that do not match their schema (which take the general path).
 */
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/lib/canonical-json.js";
import { canonicalSerializer, canonicalWriter } from "../../src/schema/canonical.js";
import { Deployment, LifecycleRecord, SourceFacts, SourceState } from "../../src/schema/index.js";
import { committedRelease } from "../helpers/committed-release.js";

function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse())
    copy[key] = reversed((value as Record<string, unknown>)[key]);
  return copy;
}

describe("compiled canonical serializers", () => {
  it("write every record of the committed release exactly as canonicalJson does, in any key order", async () => {
    const { catalog, facts } = await committedRelease();
    const cases = [
      [Deployment, catalog.deployments],
      [LifecycleRecord, catalog.lifecycle],
      [SourceState, catalog.sources],
      [SourceFacts, facts.sources],
    ] as const;
    let compared = 0;
    for (const [schema, records] of cases) {
      const serialize = canonicalSerializer(schema);
      for (const record of records) {
        const expected = canonicalJson(record);
        expect(serialize(record)).toBe(expected);
        expect(serialize(reversed(record))).toBe(expected);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(3000);
    // the piecewise writer gives the same text, an array item at most per piece
    const write = canonicalWriter(SourceFacts);
    for (const source of facts.sources) {
      const pieces: string[] = [];
      write(source, (piece) => pieces.push(piece));
      expect(pieces.join("")).toBe(canonicalJson(source));
      const longest = Math.max(...pieces.map((p) => p.length));
      const { output } = source;
      const items = [
        ...output.deployments,
        ...output.lifecycle,
        ...(output.model_facts ?? []),
        ...(output.aliases ?? []),
        ...output.skipped,
      ];
      expect(longest).toBeLessThanOrEqual(Math.max(200, ...items.map((item) => canonicalJson(item).length)));
    }
  });

  it("take the general path for what the schema does not describe, with the same bytes", async () => {
    const { catalog } = await committedRelease();
    const serialize = canonicalSerializer(Deployment);
    const d = catalog.deployments.find((x) => x.rate_card !== null);
    if (!d) throw new Error("the committed release has a priced deployment");
    const odd: unknown[] = [
      { ...d, extra: { b: 1, a: [2, undefined] } },
      { ...d, context_tokens: undefined },
      { ...d, region: 42 },
      { ...d, rate_card: { ...d.rate_card, observed_at: new Date("2026-11-23T00:00:00Z") } },
      { ...d, capabilities: { zeta: { status: "supported" }, alpha: null } },
      { ...d, evidence_urls: ["b", undefined, "a"] },
      // strings JSON.stringify escapes: quotes, backslashes, control characters, lone surrogates
      { ...d, provider_model_id: 'a"b\\c\u0001\n\ud800x\udc00 \u{1F600} \u2028' },
      { ...d, evidence_urls: ["\u007f", '"', ""] },
      // an enum member that is none of its values, or of another type
      { ...d, status: "nonexistent" },
      { ...d, mode: 5 },
      { ...d, capabilities: { vision: { status: "maybe", verification_status: null } } },
      null,
      "text",
      [d],
    ];
    for (const value of odd) expect(serialize(value)).toBe(canonicalJson(value));
    expect(() => serialize({ ...d, context_tokens: Number.NaN })).toThrow(/non-finite/);
  });
});
