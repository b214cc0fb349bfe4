import { describe, expect, it } from "vitest";
import {
  CompareRequest,
  Deployment,
  type Evidence,
  Lifecycle,
  LifecycleMilestone,
  LifecycleRecord,
  ListDeploymentsQuery,
  ListLifecycleQuery,
  RateCard,
  SourceDefinition,
  SourceEvent,
} from "../../src/schema/index.js";

const evidence: Evidence = {
  source_url: "https://docs.anthropic.com/en/docs/about-claude/model-deprecations",
  source_type: "official_lifecycle",
  observed_at: "2026-11-22T00:00:00Z",
  verification_status: "official_declared",
};

const scheduled = {
  state: "scheduled",
  date: "2026-10-15",
  precision: "day",
  date_type: "not_before",
  evidence: [evidence],
};
const unknown = { state: "unknown", date: null, precision: "unknown", date_type: "unknown", evidence: [] };

const lifecycle = {
  status: "deprecated",
  announced_at: "2026-01-05T00:00:00Z",
  deprecation: { ...scheduled, date: "2026-01-05", date_type: "on" },
  end_of_life: scheduled,
  replacement_ids: ["anthropic/claude-sonnet-4-5-20250929"],
  coverage: {
    status: "monitored",
    last_checked_at: "2026-11-22T00:00:00Z",
    source_count: 1,
    source_ids: ["6f1c2a4e-3b1d-4c8e-9a7f-2d5e8b9c0a11"],
  },
  last_changed_at: "2026-11-22T00:00:00Z",
};

const rateCard = {
  currency: "USD",
  unit: "million_tokens",
  input_micro_usd: 3_000_000,
  cached_input_micro_usd: 300_000,
  output_micro_usd: 15_000_000,
  source_url: "https://docs.anthropic.com/en/docs/about-claude/pricing",
  observed_at: "2026-11-22T00:00:00Z",
};

const deployment = {
  id: "dep_anthropic_claude-3-7-sonnet-20250219_api_global",
  model_id: "anthropic/claude-3-7-sonnet-20250219",
  provider_id: "anthropic",
  provider_model_id: "claude-3-7-sonnet-20250219",
  api_surface: "api",
  mode: "standard",
  region: "global",
  status: "deprecated",
  lifecycle,
  context_tokens: 200_000,
  max_output_tokens: null,
  capabilities: { tool_calling: { status: "supported", verification_status: "official_declared" } },
  rate_card: rateCard,
  evidence_urls: ["https://docs.anthropic.com/en/docs/about-claude/pricing"],
  provenance: {
    listing: {
      verification_status: "official_declared",
      source_urls: ["https://docs.anthropic.com/en/docs/about-claude/pricing"],
      observed_at: "2026-11-22T00:00:00Z",
    },
    rate_card: {
      verification_status: "official_declared",
      source_urls: ["https://docs.anthropic.com/en/docs/about-claude/pricing"],
      observed_at: "2026-11-22T00:00:00Z",
    },
    context_tokens: {
      verification_status: "official_inferred",
      source_urls: ["https://docs.anthropic.com/en/docs/about-claude/models"],
      observed_at: "2026-11-20T00:00:00Z",
    },
    max_output_tokens: null,
  },
};

describe("milestones (spec section 3)", () => {
  it("accepts a scheduled milestone with date, precision and date_type", () => {
    expect(LifecycleMilestone.parse(scheduled)).toEqual(scheduled);
  });
  it("rejects a scheduled end of life without a date", () => {
    expect(LifecycleMilestone.safeParse({ ...scheduled, date: null }).success).toBe(false);
  });
  it("rejects a scheduled milestone whose date_type is unknown", () => {
    expect(LifecycleMilestone.safeParse({ ...scheduled, date_type: "unknown" }).success).toBe(false);
  });
  it("rejects an unknown milestone that carries a date", () => {
    expect(LifecycleMilestone.safeParse({ ...unknown, date: "2026-01-01" }).success).toBe(false);
  });
  it("rejects an unknown milestone with a known precision", () => {
    expect(LifecycleMilestone.safeParse({ ...unknown, precision: "day" }).success).toBe(false);
  });
  it("rejects a milestone state outside the set", () => {
    expect(LifecycleMilestone.safeParse({ ...unknown, state: "soon" }).success).toBe(false);
  });
  it("rejects a calendar date that does not exist", () => {
    expect(LifecycleMilestone.safeParse({ ...scheduled, date: "2026-02-30" }).success).toBe(false);
  });
});

describe("deployment", () => {
  it("accepts the spec's shape", () => {
    expect(Deployment.parse(deployment)).toEqual(deployment);
  });
  it("rejects a bad id shape", () => {
    expect(Deployment.safeParse({ ...deployment, id: "dep_Anthropic_x_api_global" }).success).toBe(false);
    expect(Deployment.safeParse({ ...deployment, id: "anthropic_x_api_global" }).success).toBe(false);
    expect(Deployment.safeParse({ ...deployment, id: "dep_anthropic_x_api" }).success).toBe(false);
  });
  it("rejects a model id without a lab", () => {
    expect(Deployment.safeParse({ ...deployment, model_id: "claude-3-7-sonnet" }).success).toBe(false);
  });
  it("rejects an unknown status value", () => {
    expect(
      Deployment.safeParse({ ...deployment, status: "sunset", lifecycle: { ...lifecycle, status: "sunset" } })
        .success,
    ).toBe(false);
  });
  it("rejects a status that differs from lifecycle.status", () => {
    expect(Deployment.safeParse({ ...deployment, status: "available" }).success).toBe(false);
  });
  it("keeps unknown limits and prices null", () => {
    const provenance = { ...deployment.provenance, rate_card: null, context_tokens: null };
    const parsed = Deployment.parse({ ...deployment, context_tokens: null, rate_card: null, provenance });
    expect(parsed.context_tokens).toBeNull();
    expect(parsed.rate_card).toBeNull();
  });
  it("requires a provenance exactly where a rate card or a limit is known", () => {
    const { provenance } = deployment;
    expect(Deployment.safeParse({ ...deployment, rate_card: null }).success).toBe(false);
    expect(
      Deployment.safeParse({ ...deployment, provenance: { ...provenance, rate_card: null } }).success,
    ).toBe(false);
    expect(
      Deployment.safeParse({
        ...deployment,
        provenance: { ...provenance, max_output_tokens: provenance.listing },
      }).success,
    ).toBe(false);
    expect(
      Deployment.safeParse({
        ...deployment,
        provenance: { ...provenance, listing: { ...provenance.listing, verification_status: "guessed" } },
      }).success,
    ).toBe(false);
  });
  it("rejects a zero context window (unknown is null, not zero)", () => {
    expect(Deployment.safeParse({ ...deployment, context_tokens: 0 }).success).toBe(false);
  });
  it("rejects unknown fields", () => {
    expect(Deployment.safeParse({ ...deployment, price: 1 }).success).toBe(false);
  });
  it("rejects an unknown capability status", () => {
    expect(
      Deployment.safeParse({ ...deployment, capabilities: { tool_calling: { status: "maybe" } } }).success,
    ).toBe(false);
  });
});

describe("rate card", () => {
  it("rejects negative prices", () => {
    expect(RateCard.safeParse({ ...rateCard, input_micro_usd: -1 }).success).toBe(false);
    expect(RateCard.safeParse({ ...rateCard, output_micro_usd: -5 }).success).toBe(false);
  });
  it("rejects fractional micro-USD", () => {
    expect(RateCard.safeParse({ ...rateCard, input_micro_usd: 1.5 }).success).toBe(false);
  });
  it("accepts a null cached price (not published) but not a missing one", () => {
    expect(RateCard.safeParse({ ...rateCard, cached_input_micro_usd: null }).success).toBe(true);
    const { cached_input_micro_usd: _, ...withoutCached } = rateCard;
    expect(RateCard.safeParse(withoutCached).success).toBe(false);
  });
  it("accepts long-context tiers in increasing order only", () => {
    const tier = {
      above_input_tokens: 200_000,
      input_micro_usd: 6_000_000,
      cached_input_micro_usd: 600_000,
      output_micro_usd: 22_500_000,
    };
    expect(RateCard.safeParse({ ...rateCard, tiers: [tier] }).success).toBe(true);
    expect(
      RateCard.safeParse({ ...rateCard, tiers: [tier, { ...tier, above_input_tokens: 100_000 }] }).success,
    ).toBe(false);
  });
});

describe("lifecycle records", () => {
  it("accepts a deployment record without summary and a provider record with one", () => {
    expect(
      LifecycleRecord.safeParse({
        resource_type: "deployment",
        resource_id: deployment.id,
        provider_id: "anthropic",
        model_id: deployment.model_id,
        lifecycle,
      }).success,
    ).toBe(true);
    expect(
      LifecycleRecord.safeParse({
        resource_type: "provider",
        resource_id: "anthropic",
        provider_id: "anthropic",
        lifecycle: {
          ...lifecycle,
          status: "unknown",
          deprecation: unknown,
          end_of_life: unknown,
          replacement_ids: [],
        },
        summary: {
          deployment_count: 1,
          status_counts: { deprecated: 1 },
          known_milestone_count: 2,
          unknown_milestone_count: 0,
          next_end_of_life: {
            date: "2026-10-15",
            date_type: "not_before",
            precision: "day",
            deployment_id: deployment.id,
          },
        },
      }).success,
    ).toBe(true);
  });
  it("rejects a provider record without a summary", () => {
    expect(
      LifecycleRecord.safeParse({ resource_type: "provider", resource_id: "anthropic", lifecycle }).success,
    ).toBe(false);
  });
  it("rejects coverage whose count disagrees with its ids", () => {
    expect(
      Lifecycle.safeParse({ ...lifecycle, coverage: { ...lifecycle.coverage, source_count: 2 } }).success,
    ).toBe(false);
  });
});

describe("source events and definitions", () => {
  const event = {
    id: "evt_0123456789abcdef01234567",
    event_type: "lifecycle.source_changed",
    provider_id: "anthropic",
    source_id: "6f1c2a4e-3b1d-4c8e-9a7f-2d5e8b9c0a11",
    source_url: "https://docs.anthropic.com/en/docs/about-claude/model-deprecations",
    detected_at: "2026-11-22T00:00:00Z",
    previous_sha256: "a".repeat(64),
    current_sha256: "b".repeat(64),
  };
  it("accepts a changed event and rejects an unknown event type", () => {
    expect(SourceEvent.safeParse(event).success).toBe(true);
    expect(SourceEvent.safeParse({ ...event, event_type: "lifecycle.source_moved" }).success).toBe(false);
  });
  it("rejects an event id of the wrong shape", () => {
    expect(SourceEvent.safeParse({ ...event, id: "event-1" }).success).toBe(false);
  });
  it("rejects a source definition with an unknown source type", () => {
    const def = {
      source_id: "6f1c2a4e-3b1d-4c8e-9a7f-2d5e8b9c0a11",
      provider_id: "anthropic",
      name: "model-deprecations",
      url: "https://docs.anthropic.com/en/docs/about-claude/model-deprecations",
      source_type: "official_lifecycle",
      format: "html",
      parser: "anthropic-deprecations",
    };
    expect(SourceDefinition.safeParse(def).success).toBe(true);
    expect(SourceDefinition.safeParse({ ...def, source_type: "blog" }).success).toBe(false);
    expect(SourceDefinition.safeParse({ ...def, url: "ftp://example.com/x" }).success).toBe(false);
  });
});

describe("query parameters", () => {
  it("applies defaults and parses strict integers and booleans", () => {
    expect(ListDeploymentsQuery.parse({})).toMatchObject({ limit: 100, offset: 0 });
    expect(ListDeploymentsQuery.parse({ limit: "500", offset: "3", has_pricing: "true" })).toMatchObject({
      limit: 500,
      offset: 3,
      has_pricing: true,
    });
  });
  it.each(["0", "501", "abc", "1e2", "", " 5", "-1", "1.5"])("rejects limit=%j", (limit) => {
    expect(ListDeploymentsQuery.safeParse({ limit }).success).toBe(false);
  });
  it("rejects unknown parameters, bad enums and malformed dates", () => {
    expect(ListDeploymentsQuery.safeParse({ provder: "openai" }).success).toBe(false);
    expect(ListDeploymentsQuery.safeParse({ capability: "telepathy" }).success).toBe(false);
    expect(ListLifecycleQuery.safeParse({ sort: "name" }).success).toBe(false);
    expect(ListLifecycleQuery.safeParse({ end_of_life_before: "2026-13-01" }).success).toBe(false);
    expect(ListLifecycleQuery.safeParse({ include_unknown: "yes" }).success).toBe(false);
    expect(ListLifecycleQuery.parse({ end_of_life_before: "2026-06-30" }).include_unknown).toBe(true);
  });
  it("rejects compare bodies that are empty, too large or carry unknown fields", () => {
    const usage = { input_tokens: 1000, output_tokens: 10 };
    expect(CompareRequest.safeParse({ deployment_ids: [], usage }).success).toBe(false);
    expect(
      CompareRequest.safeParse({ deployment_ids: Array.from({ length: 101 }, (_, i) => `d${i}`), usage })
        .success,
    ).toBe(false);
    expect(CompareRequest.safeParse({ deployment_ids: ["x"], usage, extra: 1 }).success).toBe(false);
    expect(CompareRequest.safeParse({ deployment_ids: ["x"], usage: { input_tokens: -1 } }).success).toBe(
      false,
    );
    expect(CompareRequest.safeParse({ deployment_ids: ["x"], usage: { input_tokens: 1.5 } }).success).toBe(
      false,
    );
    expect(
      CompareRequest.safeParse({ deployment_ids: ["x"], usage, requires: { tool_calling: "maybe" } }).success,
    ).toBe(false);
    expect(CompareRequest.parse({ deployment_ids: ["x"], usage: {} }).usage).toEqual({
      input_tokens: 0,
      cached_input_tokens: 0,
      output_tokens: 0,
      requests: 1,
    });
    for (const requests of [0, -3, 2.5, "4"])
      expect(
        CompareRequest.safeParse({ deployment_ids: ["x"], usage: { requests } }).success,
        String(requests),
      ).toBe(false);
  });
});
