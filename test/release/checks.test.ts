import { describe, expect, test } from "vitest";
import { readLatest } from "../../src/release/artifact.js";
import { checkCatalog, runRelease } from "../../src/release/index.js";
import type { CheckResult } from "../../src/release/types.js";
import type { CatalogContent, Deployment, LifecycleRecord } from "../../src/schema/index.js";
import {
  assertion,
  depId,
  mergedCatalog,
  NOW,
  releaseInput,
  scheduled,
  source,
  sourceEvent,
  standardWorld,
  tempSnapshots,
} from "./fixtures.js";

const TURBO = depId("gpt-4-turbo");
const GPT4O = depId("gpt-4o");

function clone(catalog: CatalogContent): CatalogContent {
  // JSON round trip, as a release is read back: no shared objects between deployments and records
  return JSON.parse(JSON.stringify(catalog)) as CatalogContent;
}

function deployment(catalog: CatalogContent, id: string): Deployment {
  const found = catalog.deployments.find((d) => d.id === id);
  if (!found) throw new Error(`fixture has no ${id}`);
  return found;
}

function record(catalog: CatalogContent, id: string): LifecycleRecord {
  const found = catalog.lifecycle.find((r) => r.resource_id === id);
  if (!found) throw new Error(`fixture has no lifecycle record ${id}`);
  return found;
}

function check(results: CheckResult[], name: string): CheckResult {
  const found = results.find((c) => c.name === name);
  if (!found) throw new Error(`no check named ${name}`);
  return found;
}

async function violations(
  catalog: CatalogContent,
  name: string,
  previous?: CatalogContent,
): Promise<CheckResult> {
  return check(await checkCatalog({ catalog, now: NOW, previous: previous ?? null }), name);
}

describe("validation checks", () => {
  const base = mergedCatalog();

  test("the merged fixture catalog passes every check, errors and warnings alike", async () => {
    const results = await checkCatalog({ catalog: base, now: NOW, previous: base });
    expect(results.filter((c) => c.violations > 0)).toEqual([]);
    expect(results.map((c) => c.name)).toContain("schema_valid");
  });

  test("a duplicated deployment id fails unique_deployment_ids", async () => {
    const catalog = clone(base);
    catalog.deployments.push(structuredClone(deployment(catalog, GPT4O)));
    const result = await violations(catalog, "unique_deployment_ids");
    expect(result.severity).toBe("error");
    expect(result.rows).toEqual([{ id: GPT4O, occurrences: 2 }]);
  });

  test("two deployments of one model on one surface, mode and region fail one_deployment_per_model_scope", async () => {
    const catalog = clone(base);
    const twin = structuredClone(deployment(catalog, GPT4O));
    twin.id = depId("gpt-4o-2024-08-06");
    twin.provider_model_id = "gpt-4o-2024-08-06"; // another spelling, same canonical model
    catalog.deployments.push(twin);
    const result = await violations(catalog, "one_deployment_per_model_scope");
    expect(result.severity).toBe("error");
    expect(result.rows).toEqual([
      {
        provider_id: "openai",
        model_id: "openai/gpt-4o",
        api_surface: "api",
        mode: "standard",
        region: "global",
        deployment_ids: `${depId("gpt-4o-2024-08-06")} ${GPT4O}`,
      },
    ]);
    // the batch deployment of the same model is another scope: no violation
    expect((await violations(base, "one_deployment_per_model_scope")).violations).toBe(0);
  });

  test("a malformed deployment id, model id or event id fails id_shapes", async () => {
    const catalog = clone(base);
    deployment(catalog, GPT4O).id = "gpt-4o";
    deployment(catalog, TURBO).model_id = "GPT-4-Turbo";
    catalog.events.push(sourceEvent(source("lifecycle"), "lifecycle.source_changed", NOW, "evt_Not-Valid"));
    const result = await violations(catalog, "id_shapes");
    expect(result.rows).toEqual([
      { kind: "deployment", id: "gpt-4o", field: "deployments.id" },
      { kind: "event", id: "evt_Not-Valid", field: "events.id" },
      { kind: "model", id: "GPT-4-Turbo", field: "deployments.model_id" },
    ]);
  });

  test("a dangling replacement, coverage source or event source fails references_resolve", async () => {
    const catalog = clone(base);
    record(catalog, TURBO).lifecycle.replacement_ids = ["dep_openai_gpt-9_api_global"];
    const orphan = "9e107d9d-3724-4b9a-8c5e-0f1e2d3c4b5a";
    deployment(catalog, GPT4O).lifecycle.coverage.source_ids = [orphan];
    catalog.events.push({
      ...sourceEvent(source("lifecycle"), "lifecycle.source_changed", NOW, "evt_1"),
      source_id: orphan,
    });
    const result = await violations(catalog, "references_resolve");
    expect(result.rows.map((r) => [r.reference, r.resource_id, r.ref])).toEqual([
      ["coverage_source_id", GPT4O, orphan],
      ["event_source_id", "evt_1", orphan],
      ["replacement_id", TURBO, "dep_openai_gpt-9_api_global"],
    ]);
  });

  test("a coverage source known only from this build's facts resolves (a failed source without a state)", async () => {
    const catalog = clone(base);
    const only = "9e107d9d-3724-4b9a-8c5e-0f1e2d3c4b5a";
    deployment(catalog, GPT4O).lifecycle.coverage.source_ids = [only];
    const fromFacts = {
      source_id: only,
      provider_id: "openai",
      source_type: "official_docs" as const,
      source_url: "https://platform.openai.com/docs/models",
      observed_at: null,
      carried_forward: true,
      output: { deployments: [], lifecycle: [], skipped: [] },
    };
    const checked = async (sources: (typeof fromFacts)[]) =>
      check(await checkCatalog({ catalog, now: NOW, facts: { format: 1, sources } }), "references_resolve");
    expect((await checked([fromFacts])).violations).toBe(0);
    expect((await checked([])).rows.map((r) => [r.reference, r.ref])).toEqual([["coverage_source_id", only]]);
  });

  test("a scheduled end of life without a date fails milestone_rules", async () => {
    const catalog = clone(base);
    record(catalog, TURBO).lifecycle.end_of_life.date = null;
    const result = await violations(catalog, "milestone_rules");
    expect(result.rows).toEqual([
      {
        collection: "lifecycle",
        resource_type: "deployment",
        resource_id: TURBO,
        milestone: "end_of_life",
        state: "scheduled",
        date: null,
        precision: "day",
        date_type: "on",
      },
    ]);
  });

  test("an unknown milestone with a precision fails milestone_rules", async () => {
    const catalog = clone(base);
    deployment(catalog, GPT4O).lifecycle.deprecation = {
      state: "unknown",
      date: null,
      precision: "day",
      date_type: "unknown",
      evidence: [],
    };
    const result = await violations(catalog, "milestone_rules");
    expect(result.rows.map((r) => [r.collection, r.resource_id, r.milestone])).toEqual([
      ["deployments", GPT4O, "deprecation"],
    ]);
  });

  test("a deprecation scheduled after end of life fails deprecation_before_end_of_life", async () => {
    const catalog = clone(base);
    record(catalog, TURBO).lifecycle.deprecation.date = "2027-02-01";
    const result = await violations(catalog, "deprecation_before_end_of_life");
    expect(result.rows).toEqual([
      {
        collection: "lifecycle",
        resource_type: "deployment",
        resource_id: TURBO,
        deprecation_date: "2027-02-01",
        end_of_life_date: "2027-01-15",
      },
    ]);
  });

  test("a retired record whose end of life is still ahead fails retired_after_end_of_life", async () => {
    const catalog = clone(base);
    const d = deployment(catalog, TURBO);
    d.status = "retired";
    d.lifecycle.status = "retired";
    const result = await violations(catalog, "retired_after_end_of_life");
    expect(result.rows).toEqual([
      {
        collection: "deployments",
        resource_type: "deployment",
        resource_id: TURBO,
        lifecycle_status: "retired",
        end_of_life_date: "2027-01-15",
        problem: "retired_before_end_of_life",
      },
    ]);
    // once the date has passed, retired is right: on the end-of-life day itself
    const onTheDay = check(
      await checkCatalog({ catalog, now: "2027-01-15T00:00:00Z" }),
      "retired_after_end_of_life",
    );
    expect(onTheDay.rows.filter((r) => r.collection === "deployments")).toEqual([]);
  });

  test("a record not retired once its fixed end-of-life day has come fails retired_after_end_of_life", async () => {
    const catalog = clone(base);
    const d = deployment(catalog, TURBO);
    expect(d.lifecycle.end_of_life).toMatchObject({ date: "2027-01-15", date_type: "on" });
    const onDay = (now: string) => checkCatalog({ catalog, now });
    // the day before the end-of-life day: deprecated is right
    expect(check(await onDay("2027-01-14T23:59:59Z"), "retired_after_end_of_life").violations).toBe(0);
    const result = check(await onDay("2027-01-15T00:00:00Z"), "retired_after_end_of_life");
    expect(result.rows).toContainEqual({
      collection: "deployments",
      resource_type: "deployment",
      resource_id: TURBO,
      lifecycle_status: d.status,
      end_of_life_date: "2027-01-15",
      problem: "not_retired_after_end_of_life",
    });
    // an earliest possible (not_before) day that has passed does not require retired
    for (const l of [d.lifecycle, record(catalog, TURBO).lifecycle]) l.end_of_life.date_type = "not_before";
    expect(check(await onDay("2027-06-01T00:00:00Z"), "retired_after_end_of_life").violations).toBe(0);
    // a month-precision fixed date counts from the month's last day
    for (const l of [d.lifecycle, record(catalog, TURBO).lifecycle]) {
      l.end_of_life.date_type = "on";
      l.end_of_life.precision = "month";
      l.end_of_life.date = "2027-01-01";
    }
    expect(check(await onDay("2027-01-30T00:00:00Z"), "retired_after_end_of_life").violations).toBe(0);
    expect(check(await onDay("2027-01-31T00:00:00Z"), "retired_after_end_of_life").violations).toBe(2);
  });

  test("a negative price fails non_negative_prices", async () => {
    const catalog = clone(base);
    const card = deployment(catalog, GPT4O).rate_card;
    if (!card) throw new Error("fixture gpt-4o has a rate card");
    card.output_micro_usd = -1;
    const result = await violations(catalog, "non_negative_prices");
    expect(result.rows).toEqual([
      { deployment_id: GPT4O, component: "output_micro_usd", tier_index: null, value: -1 },
    ]);
  });

  test("a cached input price above the input price is a cached_input_above_input warning", async () => {
    const catalog = clone(base);
    const card = deployment(catalog, GPT4O).rate_card;
    if (!card) throw new Error("fixture gpt-4o has a rate card");
    card.cached_input_micro_usd = 5_000_000;
    const result = await violations(catalog, "cached_input_above_input");
    expect(result.severity).toBe("warning");
    expect(result.rows).toEqual([
      { deployment_id: GPT4O, input_micro_usd: 2_500_000, cached_input_micro_usd: 5_000_000 },
    ]);
  });

  test("a price that moved by more than the threshold since the previous release is a price_moved warning", async () => {
    const catalog = clone(base);
    const card = deployment(catalog, GPT4O).rate_card;
    if (!card) throw new Error("fixture gpt-4o has a rate card");
    card.output_micro_usd = 25_000_000; // 10 -> 25: +150%
    card.input_micro_usd = 3_000_000; // 2.5 -> 3: +20%, under the threshold
    const result = await violations(catalog, "price_moved", base);
    expect(result.severity).toBe("warning");
    expect(result.rows).toEqual([
      { deployment_id: GPT4O, component: "output_micro_usd", old_value: 10_000_000, new_value: 25_000_000 },
    ]);
    const strict = check(
      await checkCatalog({ catalog, now: NOW, previous: base, thresholds: { priceChangeRatio: 0.1 } }),
      "price_moved",
    );
    expect(strict.violations).toBe(2);
  });

  test("an end-of-life date that moved by more than the threshold is a lifecycle_date_moved warning", async () => {
    const catalog = clone(base);
    record(catalog, TURBO).lifecycle.end_of_life.date = "2026-11-30";
    const result = await violations(catalog, "lifecycle_date_moved", base);
    expect(result.severity).toBe("warning");
    expect(result.rows).toEqual([
      {
        resource_type: "deployment",
        resource_id: TURBO,
        milestone: "end_of_life",
        old_date: "2027-01-15",
        new_date: "2026-11-30",
        days: -46,
      },
    ]);
  });

  test("a scheduled milestone without evidence fails milestone_has_evidence", async () => {
    const catalog = clone(base);
    deployment(catalog, TURBO).lifecycle.end_of_life.evidence = [];
    const result = await violations(catalog, "milestone_has_evidence");
    expect(result.rows).toEqual([
      {
        collection: "deployments",
        resource_type: "deployment",
        resource_id: TURBO,
        milestone: "end_of_life",
        state: "scheduled",
      },
    ]);
  });

  test("a rate card without a source_url fails rate_card_has_source", async () => {
    const catalog = clone(base);
    const card = deployment(catalog, GPT4O).rate_card;
    if (!card) throw new Error("fixture gpt-4o has a rate card");
    card.source_url = "";
    const result = await violations(catalog, "rate_card_has_source");
    expect(result.rows).toEqual([{ deployment_id: GPT4O, rate_card_source_url: "" }]);
  });

  test("a deployment without evidence_urls fails deployment_has_evidence", async () => {
    const catalog = clone(base);
    deployment(catalog, GPT4O).evidence_urls = [];
    const result = await violations(catalog, "deployment_has_evidence");
    expect(result.rows).toEqual([{ deployment_id: GPT4O }]);
  });

  test("a record that breaks its zod schema fails schema_valid", async () => {
    const catalog = clone(base);
    deployment(catalog, GPT4O).context_tokens = 0;
    const result = await violations(catalog, "schema_valid");
    expect(result.rows).toEqual([
      { collection: "deployments", id: GPT4O, path: "context_tokens", problem: expect.any(String) },
    ]);
  });

  test("schema_valid over a merged catalog, whose deployment records share their deployments' lifecycles: a broken lifecycle is found once, under its deployment; a record that adds a member is found too", async () => {
    // the merge's own catalog: each deployment record holds its deployment's lifecycle object
    const merged = mergedCatalog();
    const shared = deployment(merged, GPT4O);
    expect(record(merged, GPT4O).lifecycle).toBe(shared.lifecycle);
    (shared.lifecycle as { status: string }).status = "gone";
    expect((await violations(merged, "schema_valid")).rows).toEqual([
      { collection: "deployments", id: GPT4O, path: "lifecycle.status", problem: expect.any(String) },
    ]);
    const summarized = mergedCatalog();
    const wrapped = record(summarized, GPT4O) as LifecycleRecord & { summary?: unknown };
    wrapped.summary = { deployment_count: 1 } as unknown as LifecycleRecord["summary"];
    expect((await violations(summarized, "schema_valid")).rows).toEqual([
      expect.objectContaining({ collection: "lifecycle", id: `deployment:${GPT4O}` }),
    ]);
  });

  test("a build whose merged catalog fails an error check publishes nothing and names the rows", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      const world = standardWorld();
      world.lifecycle.push(
        assertion(source("lifecycle"), "gpt-4.1", {
          status: "deprecated",
          deprecation: scheduled("2027-05-01"),
          end_of_life: scheduled("2027-03-01"),
        }),
      );
      const outcome = await runRelease(releaseInput(dir, { world }));
      expect(outcome.status).toBe("validation_failed");
      expect(outcome.releaseId).toBeNull();
      expect(await readLatest(dir)).toBeNull();
      const failed = check(outcome.checks, "deprecation_before_end_of_life");
      expect(failed.rows.map((r) => r.resource_id)).toEqual([depId("gpt-4.1"), depId("gpt-4.1")]);
      expect(outcome.report.errors.map((e) => e.check)).toEqual(["deprecation_before_end_of_life"]);
    } finally {
      await cleanup();
    }
  });
});
