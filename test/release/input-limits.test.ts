/**
 * A community context window that another community dataset states is the model's input limit
 * is not used (src/release/input-limits.ts), on the recorded captures: the committed release is
 * their offline build, so its facts, catalog and report show what the merge did.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { SourceFacts } from "../../src/release/facts.js";
import { withoutInputLimitContexts } from "../../src/release/input-limits.js";
import { isOfficial } from "../../src/release/merge-candidates.js";
import { unversionedName } from "../../src/release/model-facts.js";
import type { Deployment } from "../../src/schema/index.js";
import { type CommittedRelease, committedRelease } from "../helpers/committed-release.js";

let release: CommittedRelease;
let sources: SourceFacts[];
/** provider|provider_model_id -> the input limits community facts state below their context window */
let stated: Map<string, Set<number>>;

beforeAll(async () => {
  release = await committedRelease();
  sources = release.facts.sources;
  stated = new Map();
  for (const source of sources)
    if (!isOfficial(source))
      for (const d of source.output.deployments)
        if (
          d.max_input_tokens !== undefined &&
          d.context_tokens != null &&
          d.max_input_tokens < d.context_tokens
        ) {
          const key = `${d.provider_id}|${d.provider_model_id}`;
          stated.set(key, (stated.get(key) ?? new Set()).add(d.max_input_tokens));
        }
});

/** The input limits stated for a deployment's model or, for a dated snapshot, its alias. */
function inputLimitsOf(d: Deployment): Set<number> {
  const alias = /-\d{4}-\d{2}-\d{2}$/.test(d.provider_model_id)
    ? unversionedName(d.provider_model_id)
    : undefined;
  return new Set([
    ...(stated.get(`${d.provider_id}|${d.provider_model_id}`) ?? []),
    ...(alias ? (stated.get(`${d.provider_id}|${alias}`) ?? []) : []),
  ]);
}

describe("community input limits are not context windows", () => {
  it("the recorded community datasets state input limits (models.dev: the GPT-5 family)", () => {
    expect(stated.get("openai|gpt-5.1")).toEqual(new Set([272_000]));
    expect(stated.size).toBeGreaterThanOrEqual(10);
  });

  it("serves no community context window equal to an input limit another dataset states for the model", () => {
    const served = release.catalog.deployments.filter(
      (d) =>
        d.context_tokens !== null &&
        d.provenance.context_tokens?.verification_status.startsWith("community") === true &&
        inputLimitsOf(d).has(d.context_tokens),
    );
    expect(served.map((d) => `${d.id}: ${d.context_tokens}`)).toEqual([]);
  });

  it("drops LiteLLM's 272,000 for GPT-5.1 in every mode and for its dated snapshot, and reports each", () => {
    const byId = new Map(release.catalog.deployments.map((d) => [d.id, d]));
    const reported = new Map((release.report.input_limit_contexts ?? []).map((l) => [l.deployment_id, l]));
    for (const id of [
      "dep_openai_gpt-5.1_api-priority_global",
      "dep_openai_gpt-5.1-2025-11-13_api_global",
      "dep_openai_gpt-5.1-2025-11-13_api-priority_global",
    ]) {
      expect(byId.get(id)?.context_tokens, id).not.toBe(272_000);
      expect(reported.get(id), id).toMatchObject({ context_tokens: 272_000 });
    }
    // where models.dev and genai-prices agree on the window, it is served, corroborated
    const standard = byId.get("dep_openai_gpt-5.1_api_global");
    expect(standard?.context_tokens).toBe(400_000);
    expect(standard?.provenance.context_tokens?.verification_status).toBe("community_corroborated");
  });

  it("changes no official fact, no fact of the dataset that states the limit, and no other value", () => {
    const { sources: after, inputLimitContexts } = withoutInputLimitContexts(sources, isOfficial);
    expect(inputLimitContexts.length).toBeGreaterThan(0);
    const dropped = new Set(inputLimitContexts.map((l) => `${l.source_id}|${l.deployment_id}`));
    sources.forEach((source, i) => {
      const kept = after[i] as SourceFacts;
      if (isOfficial(source)) {
        expect(kept).toBe(source);
        return;
      }
      source.output.deployments.forEach((d, j) => {
        const k = kept.output.deployments[j];
        if (!dropped.has(`${source.source_id}|${d.id}`)) {
          expect(k).toBe(d);
          return;
        }
        const { context_tokens, ...rest } = d;
        expect(k).toEqual(rest);
        expect(
          inputLimitsOf({ ...d, context_tokens } as unknown as Deployment).has(context_tokens as number),
        ).toBe(true);
      });
    });
    for (const l of inputLimitContexts) expect(l.input_limit_source_id).not.toBe(l.source_id);
  });
});
