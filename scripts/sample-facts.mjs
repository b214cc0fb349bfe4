/**
 * A reproducible random sample of a release's served facts, for checking them by hand against
 * official copies (docs/fact-check.md).
 *
 *   npm run build
 *   node scripts/sample-facts.mjs --seed 20261128 [--n 50] [--snapshots snapshots] [--release rel_…] [--json]
 *
 * A served fact is one of: a deployment's listing (that it exists), one price component of its
 * rate card (a top-level price or a long-context tier's price), its context_tokens, its
 * max_output_tokens, one capability entry. Null values are not facts (null is "unknown").
 * Every fact of the release is enumerated in a fixed order (deployments by id), then N are drawn
 * uniformly without replacement by a partial Fisher–Yates shuffle driven by mulberry32(seed).
 * The same seed on the same release always gives the same sample.
 */
import { parseArgs } from "node:util";
import { loadRelease } from "../dist/src/release/index.js";
import { PRICE_FIELDS, TIER_PRICE_FIELDS } from "../dist/src/schema/price-components.js";

/** mulberry32: a small seeded 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function provenanceOf(p) {
  return { verification_status: p.verification_status, source_urls: p.source_urls };
}

/** Every served fact of one deployment, in a fixed order. */
export function factsOf(d) {
  const base = { deployment_id: d.id, provider_model_id: d.provider_model_id };
  const facts = [
    { ...base, kind: "listing", field: "listing", value: d.status, ...provenanceOf(d.provenance.listing) },
  ];
  if (d.rate_card) {
    const prov = provenanceOf(d.provenance.rate_card);
    for (const field of PRICE_FIELDS) {
      const value = d.rate_card[field];
      if (value !== null && value !== undefined)
        facts.push({ ...base, kind: "price", field, value, ...prov });
    }
    for (const tier of d.rate_card.tiers ?? []) {
      for (const field of TIER_PRICE_FIELDS) {
        const value = tier[field];
        if (value !== null && value !== undefined)
          facts.push({
            ...base,
            kind: "price",
            field: `tier>${tier.above_input_tokens}.${field}`,
            value,
            ...prov,
          });
      }
    }
  }
  for (const field of ["context_tokens", "max_output_tokens"]) {
    if (d[field] !== null)
      facts.push({ ...base, kind: field, field, value: d[field], ...provenanceOf(d.provenance[field]) });
  }
  for (const [name, entry] of Object.entries(d.capabilities).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    facts.push({
      ...base,
      kind: "capability",
      field: name,
      value: entry.status,
      verification_status: entry.verification_status ?? "(none)",
      // a capability entry carries no URLs of its own: the deployment's evidence URLs
      source_urls: d.evidence_urls,
    });
  }
  return facts;
}

/** N facts drawn uniformly without replacement (partial Fisher–Yates). */
export function drawSample(facts, n, random) {
  const pool = facts.slice();
  const count = Math.min(n, pool.length);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

async function main() {
  const { values } = parseArgs({
    options: {
      seed: { type: "string" },
      n: { type: "string", default: "50" },
      snapshots: { type: "string", default: "snapshots" },
      release: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (values.seed === undefined || !/^\d+$/.test(values.seed)) {
    process.stderr.write(
      "usage: node scripts/sample-facts.mjs --seed <non-negative integer> [--n 50] [--json]\n",
    );
    process.exit(2);
  }
  const seed = Number(values.seed);
  const n = Number(values.n);
  const { manifest, catalog } = await loadRelease(values.snapshots, values.release);
  const deployments = catalog.deployments.slice().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const all = deployments.flatMap(factsOf);
  const byKind = {};
  for (const f of all) byKind[f.kind] = (byKind[f.kind] ?? 0) + 1;
  const sample = drawSample(all, n, mulberry32(seed));
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ release_id: manifest.release_id, seed, n, total_facts: all.length, by_kind: byKind, sample }, null, 2)}\n`,
    );
    return;
  }
  process.stdout.write(
    `release ${manifest.release_id}\nseed ${seed}, n ${n}, ${all.length} served facts ${JSON.stringify(byKind)}\n`,
  );
  sample.forEach((f, i) => {
    process.stdout.write(
      `${i + 1}\t${f.deployment_id}\t${f.field}\t${f.value}\t${f.verification_status}\t${f.source_urls.join(" ")}\n`,
    );
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
