/**
 * The named steps of a release, each on its own: gather candidates, merge deployment fields,
 * merge lifecycle, derive status, resolve replacements, coverage, summarize, the pure plan and
 * the content fingerprint. mergeCatalog's behaviour as a whole is held by merge.test.ts.
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { canonicalJson } from "../../src/lib/canonical-json.js";
import { gatherFacts } from "../../src/release/facts.js";
import {
  contentFingerprint,
  Fingerprint,
  fingerprintLine,
  fingerprintPieces,
} from "../../src/release/fingerprint.js";
import { previousCoresOf } from "../../src/release/lifecycle-cores.js";
import {
  endOfLifeConflict,
  mergeCatalog,
  mergeDeploymentFields,
  summarize,
  withBatchPrice,
  withPricedCaching,
} from "../../src/release/merge.js";
import {
  assertionsFor,
  type CatalogIdentities,
  gatherCandidates,
  indexIdentities,
} from "../../src/release/merge-candidates.js";
import {
  coverageFor,
  deploymentStatus,
  lastChangedAt,
  pickLifecycle,
  scopeStatus,
} from "../../src/release/merge-lifecycle.js";
import { planRelease } from "../../src/release/plan.js";
import { replacementIndex, resolveReplacement, resolveReplacements } from "../../src/release/replacements.js";
import { serializeRelease } from "../../src/release/serialize.js";
import { CatalogContent, type DeploymentFact, type LifecycleRecord } from "../../src/schema/index.js";
import { committedRelease } from "../helpers/committed-release.js";
import {
  assertion,
  COMMUNITY_ID,
  contributionsFor,
  depId,
  LATER,
  LIFECYCLE_ID,
  NOW,
  PRICING_ID,
  scheduled,
  source,
  standardWorld,
  state,
} from "./fixtures.js";

const TODAY = NOW.slice(0, 10);
const TURBO = depId("gpt-4-turbo");
const GPT4O = depId("gpt-4o");

function gathered(world = standardWorld(), failed: string[] = []) {
  const { contributions, states } = contributionsFor(world, failed, NOW);
  return { facts: gatherFacts(contributions, null).facts, states, contributions };
}

/** A deployment's identity: its best fact. */
function identityOf(identities: CatalogIdentities, id: string): DeploymentFact | undefined {
  return identities.ranked[identities.ids.indexOf(id)]?.[0]?.fact;
}

function candidatesOf(world = standardWorld()) {
  const candidates = gatherCandidates(gathered(world).facts.sources);
  return { candidates, identities: indexIdentities(candidates) };
}

describe("gather candidates", () => {
  test("ranks each deployment's facts official first and indexes assertions by what they name", () => {
    const { candidates, identities } = candidatesOf();
    expect(identities.ids).toEqual([...candidates.factsById.keys()].sort());
    const turbo = candidates.factsById.get(TURBO) ?? [];
    expect(turbo.map((r) => r.official)).toEqual([true, true, false]);
    expect(turbo.at(-1)?.source.source_id).toBe(COMMUNITY_ID);
    expect([...candidates.deploymentAssertions.keys()].sort()).toEqual([
      "openai|gpt-4-turbo",
      "openai|gpt-4o",
    ]);
    expect(identities.modelByProviderModel.get("openai|gpt-4o")).toBe("openai/gpt-4o");
    expect([...identities.providerIds]).toEqual(["openai"]);
  });

  test("a deployment-scope assertion that no deployment matches becomes its model's, without a deployment", () => {
    const world = standardWorld();
    world.lifecycle.push(
      assertion(source("lifecycle"), "gpt-3.5-turbo-0613", {
        model_id: "openai/gpt-3.5-turbo-0613",
        status: "retired",
      }),
    );
    const { candidates, identities } = candidatesOf(world);
    expect(identities.ids).not.toContain(depId("gpt-3.5-turbo-0613"));
    const moved = identities.modelAssertions.get("openai/gpt-3.5-turbo-0613") ?? [];
    expect(moved.map((r) => [r.assertion.scope, r.specificity])).toEqual([["model", 10]]);
    expect(identities.modelIds.has("openai/gpt-3.5-turbo-0613")).toBe(true);
    // the candidates themselves are left as they were
    expect(candidates.modelAssertions.has("openai/gpt-3.5-turbo-0613")).toBe(false);
  });
});

describe("merge deployment fields", () => {
  test("the official rate card wins and a differing community price is a conflict", () => {
    const world = standardWorld();
    const community = source("community");
    const card = world.community[0]?.rate_card;
    if (!card) throw new Error("the standard world has a community rate card for gpt-4o");
    card.input_micro_usd = 3_000_000;
    const { candidates, identities } = candidatesOf(world);
    const identity = identityOf(identities, GPT4O);
    if (!identity) throw new Error("gpt-4o is placed");
    const fields = mergeDeploymentFields(
      identity,
      candidates.factsById.get(GPT4O) ?? [],
      candidates.modelFacts,
    );
    expect(fields.rate_card?.input_micro_usd).toBe(2_500_000);
    expect(fields.max_output_tokens).toBe(16_384);
    expect(fields.conflicts).toEqual([
      {
        field: "rate_card.input_micro_usd",
        official: { source_id: PRICING_ID, value: 2_500_000 },
        community: { source_id: community.source_id, value: 3_000_000 },
      },
    ]);
  });

  test("an official price of cached input makes prompt_caching supported, official_inferred; an official statement is kept", () => {
    const { candidates, identities } = candidatesOf(standardWorld());
    const fieldsOf = (id: string) => {
      const identity = identityOf(identities, id);
      if (!identity) throw new Error(`${id} is placed`);
      return mergeDeploymentFields(identity, candidates.factsById.get(id) ?? [], candidates.modelFacts);
    };
    // gpt-4o's official card prices cached input; gpt-4-turbo's does not
    expect(fieldsOf(GPT4O).capabilities.prompt_caching).toEqual({
      status: "supported",
      verification_status: "official_inferred",
    });
    expect(fieldsOf(TURBO).capabilities.prompt_caching).toBeUndefined();
    const card = {
      currency: "USD",
      unit: "million_tokens",
      input_micro_usd: 1,
      cached_input_micro_usd: null,
      output_micro_usd: 2,
      source_url: "https://example.com/p",
      observed_at: NOW,
    } as const;
    // a community statement gives way; an official one stays, whatever it says
    expect(
      withPricedCaching(
        { prompt_caching: { status: "unsupported", verification_status: "community_reported" } },
        { ...card, cached_input_micro_usd: 5 },
      ),
    ).toEqual({ prompt_caching: { status: "supported", verification_status: "official_inferred" } });
    expect(
      withPricedCaching(
        { prompt_caching: { status: "conditional", verification_status: "official_declared" } },
        { ...card, cached_input_micro_usd: 5 },
      ),
    ).toEqual({ prompt_caching: { status: "conditional", verification_status: "official_declared" } });
    // cache writes, or a tier's cached price, count too; no official card, or no cached price, says nothing
    expect(withPricedCaching({}, { ...card, cache_write_micro_usd: 7 }).prompt_caching?.status).toBe(
      "supported",
    );
    expect(
      withPricedCaching(
        {},
        {
          ...card,
          tiers: [
            {
              above_input_tokens: 200_000,
              input_micro_usd: 2,
              cached_input_micro_usd: 1,
              output_micro_usd: 4,
            },
          ],
        },
      ).prompt_caching?.status,
    ).toBe("supported");
    expect(withPricedCaching({}, card)).toEqual({});
    expect(withPricedCaching({}, null)).toEqual({});
  });

  test("an official batch price makes the model's deployments on that surface and region support batch, official_inferred", () => {
    const { facts, states } = gathered();
    const merged = mergeCatalog({ now: NOW, facts, states, previousCores: new Map() });
    const batchOf = (id: string) => merged.deployments.find((d) => d.id === id)?.capabilities.batch;
    // gpt-4o is priced officially in batch mode: both its deployments; gpt-4-turbo is not
    for (const id of [GPT4O, depId("gpt-4o", "batch")])
      expect(batchOf(id)).toEqual({ status: "supported", verification_status: "official_inferred" });
    expect(batchOf(TURBO)).toBeUndefined();
    expect(
      withBatchPrice({ batch: { status: "unsupported", verification_status: "community_reported" } }),
    ).toEqual({
      batch: { status: "supported", verification_status: "official_inferred" },
    });
    expect(
      withBatchPrice({ batch: { status: "conditional", verification_status: "official_declared" } }),
    ).toEqual({
      batch: { status: "conditional", verification_status: "official_declared" },
    });
  });

  test("an official and a community end of life on different days is a conflict, the same day is not", () => {
    const { contributions } = contributionsFor(standardWorld(), [], NOW);
    contributions
      .find((c) => c.source.source_id === COMMUNITY_ID)
      ?.output?.lifecycle.push(
        assertion(source("community"), "gpt-4-turbo", { end_of_life: scheduled("2027-02-01") }),
      );
    const candidates = gatherCandidates(gatherFacts(contributions, null).facts.sources);
    const identities = indexIdentities(candidates);
    const identity = identityOf(identities, TURBO);
    if (!identity) throw new Error("gpt-4-turbo is placed");
    const assertions = assertionsFor(identity, candidates, identities.modelAssertions);
    expect(endOfLifeConflict(assertions)).toEqual({
      field: "end_of_life.date",
      official: { source_id: LIFECYCLE_ID, value: "2027-01-15" },
      community: { source_id: COMMUNITY_ID, value: "2027-02-01" },
    });
    expect(endOfLifeConflict(assertions.filter((r) => r.official))).toBeNull();
  });
});

describe("merge lifecycle and derive status", () => {
  test("each field comes from the best assertion that speaks about it, and the status follows from it", () => {
    const { candidates, identities } = candidatesOf();
    const identity = identityOf(identities, TURBO);
    if (!identity) throw new Error("gpt-4-turbo is placed");
    const picked = pickLifecycle(assertionsFor(identity, candidates, identities.modelAssertions));
    expect(picked.status).toBe("deprecated");
    expect(picked.end_of_life.date).toBe("2027-01-15");
    expect(picked.end_of_life.evidence.map((e) => e.source_url)).toEqual([source("lifecycle").url]);
    expect(picked.replacements?.ids).toEqual(["gpt-4.1"]);
    expect(deploymentStatus(picked, candidates.factsById.get(TURBO) ?? [], TODAY)).toBe("deprecated");
    // after the end of life the same assertions derive "retired"
    expect(deploymentStatus(picked, candidates.factsById.get(TURBO) ?? [], "2027-01-16")).toBe("retired");
    expect(scopeStatus(pickLifecycle([]), TODAY)).toBe("unknown");
  });

  test("coverage is monitored only when every source was checked and an official lifecycle source is among them", () => {
    const { facts } = gathered();
    const sourceById = new Map(facts.sources.map((s) => [s.source_id, s]));
    const lifecycleState = state(source("lifecycle"));
    const all = new Map([[LIFECYCLE_ID, lifecycleState]]);
    expect(coverageFor([LIFECYCLE_ID], all, sourceById)).toEqual({
      status: "monitored",
      last_checked_at: NOW,
      source_count: 1,
      source_ids: [LIFECYCLE_ID],
    });
    expect(coverageFor([LIFECYCLE_ID, PRICING_ID], all, sourceById).status).toBe("partial");
    expect(coverageFor([PRICING_ID], new Map(), sourceById).status).toBe("unmonitored");
  });

  test("last_changed_at keeps the previous time while the lifecycle's core is the same", () => {
    const merged = mergeCatalog({ now: NOW, ...gathered(), previousCores: new Map() });
    const record = merged.lifecycle.find((r) => r.resource_id === TURBO);
    if (!record) throw new Error("gpt-4-turbo has a record");
    const { coverage: _c, last_changed_at: _l, ...core } = record.lifecycle;
    const previous = previousCoresOf([record]).get("deployment")?.get(TURBO);
    expect(previous?.last_changed_at).toBe(NOW);
    expect(lastChangedAt(previous, core, LATER)).toBe(NOW);
    expect(lastChangedAt(previous, { ...core, status: "retired" }, LATER)).toBe(LATER);
    expect(lastChangedAt(undefined, core, LATER)).toBe(LATER);
  });

  test("mergeCatalog on a previous release is pure: last_changed_at kept where nothing changed, now where the assertion changed", () => {
    const first = mergeCatalog({ now: NOW, ...gathered(), previousCores: new Map() });
    const said = first.lifecycle.filter((r) => r.lifecycle.last_changed_at !== null);
    expect(said.length).toBeGreaterThan(3);
    for (const r of said) expect(r.lifecycle.last_changed_at).toBe(NOW);

    // the same facts a day later: every lifecycle that says something keeps the previous time
    const previousLifecycle = structuredClone(first.lifecycle);
    const previousCores = previousCoresOf(previousLifecycle);
    const sameInput = { now: LATER, ...gathered(), previousCores };
    const before = structuredClone(sameInput);
    const same = mergeCatalog(sameInput);
    expect(sameInput).toEqual(before);
    expect(same.lifecycle.map((r) => r.lifecycle.last_changed_at)).toEqual(
      first.lifecycle.map((r) => r.lifecycle.last_changed_at),
    );
    expect(mergeCatalog(sameInput)).toEqual(same);

    // gpt-4-turbo's end of life moves: its deployment's lifecycle changed now, gpt-4o's did not
    const world = standardWorld();
    const turbo = world.lifecycle[0];
    if (!turbo) throw new Error("the world asserts gpt-4-turbo's lifecycle");
    turbo.end_of_life = scheduled("2027-03-01");
    const moved = mergeCatalog({ now: LATER, ...gathered(world), previousCores });
    const changedAt = (catalog: typeof moved, type: string, id: string) =>
      catalog.lifecycle.find((r) => r.resource_type === type && r.resource_id === id)?.lifecycle
        .last_changed_at;
    expect(changedAt(moved, "deployment", TURBO)).toBe(LATER);
    expect(moved.deployments.find((d) => d.id === TURBO)?.lifecycle.last_changed_at).toBe(LATER);
    expect(changedAt(moved, "deployment", GPT4O)).toBe(NOW);
    expect(moved.deployments.find((d) => d.id === GPT4O)?.lifecycle.last_changed_at).toBe(NOW);
    // a resource the previous release did not have changed now
    const fresh = mergeCatalog({
      now: LATER,
      ...gathered(),
      previousCores: previousCoresOf(previousLifecycle.filter((r) => r.resource_id !== GPT4O)),
    });
    expect(changedAt(fresh, "deployment", GPT4O)).toBe(LATER);
    expect(changedAt(fresh, "deployment", TURBO)).toBe(NOW);
  });
});

describe("resolve replacements", () => {
  test("a provider's name resolves to the catalog's model; an unknown or own name is reported", () => {
    const { deployments } = mergeCatalog({ now: NOW, ...gathered(), previousCores: new Map() });
    const { identities } = candidatesOf();
    const index = replacementIndex(identities, deployments);
    expect(resolveReplacement(index, "openai", "gpt-4.1", null)).toBe("openai/gpt-4.1");
    expect(resolveReplacement(index, "openai", "gpt-4.1", "openai/gpt-4.1")).toBe("self");
    expect(resolveReplacement(index, "openai", "gpt-9", null)).toBe("no_match");
    const { candidates } = candidatesOf();
    const from = candidates.deploymentAssertions.get("openai|gpt-4-turbo")?.[0];
    if (!from) throw new Error("gpt-4-turbo has an assertion");
    expect(
      resolveReplacements(index, "deployment", TURBO, "openai/gpt-4-turbo", {
        ids: ["gpt-4.1", "gpt-9", "gpt-4.1"],
        from,
      }),
    ).toEqual({
      ids: ["openai/gpt-4.1"],
      unresolved: [
        {
          resource_type: "deployment",
          resource_id: TURBO,
          replacement: "gpt-9",
          reason: "no_match",
          source_id: LIFECYCLE_ID,
        },
      ],
    });
  });
});

describe("summarize", () => {
  test("counts statuses and known milestones and finds the next end of life", () => {
    const { deployments } = mergeCatalog({ now: NOW, ...gathered(), previousCores: new Map() });
    const summary = summarize(deployments, TODAY);
    expect(summary.deployment_count).toBe(deployments.length);
    expect(summary.known_milestone_count + summary.unknown_milestone_count).toBe(deployments.length * 2);
    expect(summary.next_end_of_life).toEqual({
      date: "2027-01-15",
      date_type: "on",
      precision: "day",
      deployment_id: TURBO,
    });
    expect(summarize(deployments, "2027-01-16").next_end_of_life).toBeNull();
  });
});

describe("the release plan and its fingerprint", () => {
  test("planRelease is the merge of the gathered facts with the events appended, and changes none of its inputs", () => {
    const { contributions, states } = contributionsFor(standardWorld(), [], NOW);
    const input = {
      now: NOW,
      contributions,
      states,
      newEvents: [],
      previous: null,
    };
    const before = structuredClone(input);
    const plan = planRelease(input);
    expect(input).toEqual(before);
    const merged = mergeCatalog({ now: NOW, facts: plan.facts, states, previousCores: new Map() });
    expect(plan.catalog.deployments).toEqual(merged.deployments);
    expect(plan.catalog.sources.map((s) => s.source_id)).toEqual(states.map((s) => s.source_id).sort());
  });

  test("a release's files are serialized once: catalog.json and facts.json are the canonical JSON of the plan, and the fingerprint is the content fingerprint", () => {
    const { contributions, states } = contributionsFor(standardWorld(), [], NOW);
    const plan = planRelease({
      now: NOW,
      contributions,
      states: states.map((s) => ({ ...s, checked_at: LATER })),
      newEvents: [],
      previous: null,
    });
    const catalog: Uint8Array[] = [];
    const facts: Uint8Array[] = [];
    const fingerprint = serializeRelease(plan.catalog, plan.facts, {
      catalog: (chunk) => catalog.push(Buffer.from(chunk)),
      facts: (chunk) => facts.push(Buffer.from(chunk)),
    });
    const text = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString("utf8");
    expect(text(catalog)).toBe(canonicalJson(plan.catalog));
    // a catalog of several mebibytes arrives in several chunks, the same bytes joined
    const big = {
      ...plan.catalog,
      deployments: Array.from({ length: 4000 }, (_, i) =>
        plan.catalog.deployments.map((d) => ({ ...d, id: `${d.id}_${String(i).padStart(4, "0")}` })),
      ).flat(),
    };
    const bigChunks: Uint8Array[] = [];
    serializeRelease(big, plan.facts, {
      catalog: (c) => bigChunks.push(Buffer.from(c)),
      facts: () => {},
    });
    expect(bigChunks.length).toBeGreaterThan(2);
    expect(text(bigChunks)).toBe(canonicalJson(big));
    expect(text(facts)).toBe(canonicalJson(plan.facts));
    expect(fingerprint).toBe(contentFingerprint(plan.catalog, plan.facts));
    // The fingerprint line nulls the check time in the text exactly as in the value: the only
    // object of a catalog with a last_checked_at member is a lifecycle's coverage.
    const owners: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (typeof node !== "object" || node === null) return;
      for (const [key, child] of Object.entries(node)) {
        if (key === "properties" && typeof child === "object" && child !== null && "last_checked_at" in child)
          owners.push(path);
        walk(child, `${path}/${key}`);
      }
    };
    walk(z.toJSONSchema(CatalogContent), "");
    expect(owners).toEqual(["/$defs/LifecycleCoverage"]);
    for (const d of plan.catalog.deployments) {
      expect(d.lifecycle.coverage.last_checked_at).toBe(LATER);
      const withoutCheckTime = {
        ...d,
        lifecycle: { ...d.lifecycle, coverage: { ...d.lifecycle.coverage, last_checked_at: null } },
      };
      expect(fingerprintLine(canonicalJson(d))).toBe(canonicalJson(withoutCheckTime));
    }
  });

  /** Records' canonical JSON with check times to null, and the cases around them. */
  const CHECK_TIME_TEXTS = [
    '{"a":1}',
    '{"coverage":{"last_checked_at":"2026-11-23T00:00:00Z","status":"partial"},"id":"x"}',
    // null stays, and a later check time is still nulled
    '{"a":{"last_checked_at":null},"b":{"last_checked_at":"2026-11-23T00:00:00Z"},"c":"é"}',
    '{"x":{"last_checked_at":"2026-01-01T00:00:00Z"},"y":{"last_checked_at":"2026-02-01T00:00:00Z"}}',
    // non-ASCII before and after; a key that only ends like it is not the member
    '{"name":"Ünïcödé ✓","not_last_checked_at":"kept","z":{"last_checked_at":"t"},"é":"漢字"}',
    // a member at the very end, values shorter than null (the fingerprint's batch cannot shrink
    // them in place), and an unterminated one
    '{"last_checked_at":"t"}',
    '{"a":{"last_checked_at":""},"b":{"last_checked_at":"2026-11-23T00:00:00Z"}}',
    '{"last_checked_at":"unterminated',
  ];

  test("the fingerprint line of a record's bytes is the bytes of its text's fingerprint line", () => {
    // searched in the bytes, or in the text given beside them (used when it is ASCII)
    const line = (text: string, withText = false) => {
      const pieces: Uint8Array[] = [];
      fingerprintPieces(
        Buffer.from(text, "utf8"),
        (piece) => pieces.push(Buffer.from(piece)),
        withText ? text : undefined,
      );
      return Buffer.concat(pieces).toString("utf8");
    };
    for (const text of CHECK_TIME_TEXTS) {
      expect(line(text)).toBe(fingerprintLine(text));
      expect(line(text, true)).toBe(fingerprintLine(text));
    }
  });

  test("a record's bytes hashed in the batch are its fingerprint line, whichever way it is searched", () => {
    const texts = [
      ...CHECK_TIME_TEXTS,
      // larger than the batch (64 KiB), and many records in a row so the batch fills and flushes
      `{"big":"${"x".repeat(70_000)}","z":{"last_checked_at":"2026-11-23T00:00:00Z"}}`,
      ...Array.from(
        { length: 3000 },
        (_, i) =>
          `{"i":${i},"coverage":{"last_checked_at":"2026-11-${String((i % 28) + 1).padStart(2, "0")}T00:00:00Z"}}`,
      ),
    ];
    const expected = createHash("sha256");
    const withText = new Fingerprint();
    const bytesOnly = new Fingerprint();
    for (const text of texts) {
      expected.update(`${fingerprintLine(text)}\n`, "utf8");
      withText.recordBytes(Buffer.from(text, "utf8"), text);
      // a view into a larger buffer, as the build's chunk hands it over
      const padded = Buffer.from(`..${text}..`, "utf8");
      bytesOnly.recordBytes(new Uint8Array(padded.buffer, padded.byteOffset + 2, padded.byteLength - 4));
    }
    const digest = expected.digest("hex");
    expect(withText.digest()).toBe(digest);
    expect(bytesOnly.digest()).toBe(digest);
  });

  test("the fingerprint ignores when sources were checked but not what they say", () => {
    const { contributions, states } = contributionsFor(standardWorld(), [], NOW);
    const plan = (now: string, checked = states) =>
      planRelease({
        now,
        contributions,
        states: checked,
        newEvents: [],
        previous: null,
      });
    const fingerprint = (p: ReturnType<typeof plan>) => contentFingerprint(p.catalog, p.facts);
    const first = plan(NOW);
    const later = plan(
      NOW,
      states.map((s) => ({ ...s, checked_at: LATER })),
    );
    expect(later.catalog.deployments[0]?.lifecycle.coverage.last_checked_at).toBe(LATER);
    expect(fingerprint(later)).toBe(fingerprint(first));
    const changed = structuredClone(first.catalog);
    const card = changed.deployments[0]?.rate_card;
    if (!card) throw new Error("the first deployment has a price");
    card.input_micro_usd += 1;
    expect(contentFingerprint(changed, first.facts)).not.toBe(fingerprint(first));
    const facts = structuredClone(first.facts);
    facts.sources.pop();
    expect(contentFingerprint(first.catalog, facts)).not.toBe(fingerprint(first));
  });
});

describe("the merge and its facts", () => {
  /** The value, every object and array in it frozen (an assignment to it throws: modules are strict). */
  function deepFreeze<T>(value: T): T {
    if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
      for (const item of Object.values(value)) deepFreeze(item);
      Object.freeze(value);
    }
    return value;
  }

  test("reads the committed release's facts and never changes them (deployments share a fact's rate card and capabilities)", async () => {
    const { facts, catalog } = await committedRelease();
    const now = "2026-11-23T00:00:00Z";
    const states = catalog.sources;
    const expected = canonicalJson(
      mergeCatalog({ now, facts: structuredClone(facts), states, previousCores: new Map() }),
    );
    const frozen = deepFreeze(structuredClone(facts));
    const merged = mergeCatalog({ now, facts: frozen, states, previousCores: new Map() });
    expect(canonicalJson(merged)).toBe(expected);
    // some capabilities are a fact's own object, not a copy
    const shared = new Set(frozen.sources.flatMap((s) => s.output.deployments.map((d) => d.capabilities)));
    expect(merged.deployments.some((d) => shared.has(d.capabilities))).toBe(true);
  }, 60_000);
});

describe("last_changed_at against the previous release", () => {
  /** The core as the build compares it: its canonical JSON (an absent value is null there). */
  function coreText(l: LifecycleRecord["lifecycle"]): string {
    const milestone = (m: LifecycleRecord["lifecycle"]["deprecation"]) => [
      m.state,
      m.date,
      m.precision,
      m.date_type,
    ];
    return canonicalJson([
      l.status,
      l.announced_at,
      milestone(l.deprecation),
      milestone(l.end_of_life),
      l.replacement_ids,
    ]);
  }

  test("keeps the previous time exactly when the core's canonical text is the same, on every record of the committed release and changes of each value", async () => {
    const { catalog } = await committedRelease();
    const later = "2030-01-01T00:00:00Z";
    const changes: Array<(l: LifecycleRecord["lifecycle"]) => LifecycleRecord["lifecycle"]> = [
      (l) => l,
      (l) => ({ ...l, status: l.status === "retired" ? "available" : "retired" }),
      (l) => ({ ...l, announced_at: l.announced_at === null ? "2026-01-01" : null }),
      (l) => ({ ...l, announced_at: l.announced_at ?? undefined }) as LifecycleRecord["lifecycle"],
      (l) => ({
        ...l,
        deprecation: { ...l.deprecation, date: l.deprecation.date === null ? "2027-01-01" : null },
      }),
      (l) => ({
        ...l,
        end_of_life: { ...l.end_of_life, precision: l.end_of_life.precision === "day" ? "month" : "day" },
      }),
      (l) =>
        ({
          ...l,
          end_of_life: { ...l.end_of_life, date_type: undefined },
        }) as unknown as LifecycleRecord["lifecycle"],
      (l) => ({ ...l, replacement_ids: [...l.replacement_ids, "openai/gpt-5"] }),
      (l) => ({ ...l, replacement_ids: l.replacement_ids.slice(1) }),
    ];
    const previous = previousCoresOf(catalog.lifecycle);
    let kept = 0;
    let moved = 0;
    for (const record of catalog.lifecycle)
      for (const change of changes) {
        const core = change(record.lifecycle);
        const got = lastChangedAt(previous.get(record.resource_type)?.get(record.resource_id), core, later);
        const unknown =
          core.status === "unknown" &&
          core.announced_at === null &&
          core.deprecation.state === "unknown" &&
          core.end_of_life.state === "unknown" &&
          core.replacement_ids.length === 0;
        const same = coreText(record.lifecycle) === coreText(core);
        expect(got).toBe(unknown ? null : same ? (record.lifecycle.last_changed_at ?? later) : later);
        if (!unknown && same) kept++;
        if (!unknown && !same) moved++;
      }
    expect(kept).toBeGreaterThan(1000);
    expect(moved).toBeGreaterThan(1000);
  }, 60_000);
});
