/**
 * scripts/sample-facts.mjs: the fact sampler docs/fact-check.md was drawn with. It reads
 * dist/ (run `npm run build` first) and the committed release.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { loadRelease } from "../../src/release/index.js";
import type { Deployment } from "../../src/schema/deployment.js";

interface Fact {
  deployment_id: string;
  kind: string;
  field: string;
  value: unknown;
  verification_status: string;
  source_urls: string[];
}
interface Sampler {
  mulberry32(seed: number): () => number;
  factsOf(d: Deployment): Fact[];
  drawSample<T>(facts: T[], n: number, random: () => number): T[];
}

const root = join(import.meta.dirname, "../..");
const script = join(root, "scripts/sample-facts.mjs");
const run = promisify(execFile);

let sampler: Sampler;
let deployments: Deployment[];
beforeAll(async () => {
  // a variable specifier: the script is plain JavaScript with no type declarations
  const specifier = pathToFileURL(script).href;
  sampler = (await import(specifier)) as Sampler;
  deployments = (await loadRelease(join(root, "snapshots"))).catalog.deployments;
});

describe("the fact sampler", () => {
  it("draws the same facts for the same seed and other facts for another seed", () => {
    const pool = Array.from({ length: 1000 }, (_, i) => i);
    const a = sampler.drawSample(pool, 50, sampler.mulberry32(20261128));
    const b = sampler.drawSample(pool, 50, sampler.mulberry32(20261128));
    const c = sampler.drawSample(pool, 50, sampler.mulberry32(20261129));
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
  });

  it("draws without replacement and never more than the pool", () => {
    const pool = Array.from({ length: 60 }, (_, i) => i);
    const drawn = sampler.drawSample(pool, 50, sampler.mulberry32(7));
    expect(new Set(drawn).size).toBe(50);
    expect(sampler.drawSample(pool, 100, sampler.mulberry32(7)).sort((x, y) => x - y)).toEqual(pool);
  });

  it("draws each element about equally often", () => {
    const pool = Array.from({ length: 10 }, (_, i) => i);
    const counts = new Array<number>(10).fill(0);
    const random = sampler.mulberry32(1);
    for (let i = 0; i < 20_000; i++) {
      const [first] = sampler.drawSample(pool, 1, random);
      counts[first as number] = (counts[first as number] ?? 0) + 1;
    }
    for (const count of counts) expect(Math.abs(count - 2000)).toBeLessThan(200);
  });

  it("lists a deployment's listing, non-null prices, limits and capability entries with their provenance", () => {
    const d = deployments.find((x) => x.rate_card?.tiers?.length && x.context_tokens !== null);
    if (!d?.rate_card) throw new Error("the committed release has no tiered rate card with a context size");
    const facts = sampler.factsOf(d);
    const [listing] = facts;
    expect(listing).toMatchObject({
      kind: "listing",
      value: d.status,
      verification_status: d.provenance.listing.verification_status,
      source_urls: d.provenance.listing.source_urls,
    });
    expect(facts.find((f) => f.field === "input_micro_usd")).toMatchObject({
      value: d.rate_card.input_micro_usd,
      verification_status: d.provenance.rate_card?.verification_status,
    });
    expect(facts.some((f) => f.field.startsWith("tier>"))).toBe(true);
    expect(facts.find((f) => f.kind === "context_tokens")?.value).toBe(d.context_tokens);
    expect(facts.filter((f) => f.kind === "capability")).toHaveLength(Object.keys(d.capabilities).length);
    expect(facts.every((f) => f.value !== null && f.value !== undefined)).toBe(true);
  });

  it("prints the release, the seed and the drawn facts, and refuses a run without a seed", async () => {
    const { stdout } = await run("node", [script, "--seed", "20261128", "--n", "3"], { cwd: root });
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^release rel_[0-9a-f]{64}$/);
    expect(lines[1]).toMatch(/^seed 20261128, n 3, \d+ served facts /);
    expect(lines).toHaveLength(5);
    await expect(run("node", [script], { cwd: root })).rejects.toMatchObject({ code: 2 });
  });
});
