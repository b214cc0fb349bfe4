import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { calculate, compare, priceUsage } from "../../src/pricing/index.js";
import {
  CalculateResponse,
  CompareRequest,
  CompareResponse,
  Deployment,
  type Deployment as DeploymentT,
} from "../../src/schema/index.js";
import { card, deployment, rateCardArb, usage, usageArb } from "./fixtures.js";

const cheap = deployment("gpt-4o-mini", card(150_000, 75_000, 600_000), {
  tool_calling: { status: "supported", verification_status: "official_declared" },
  structured_output: { status: "conditional", verification_status: "official_declared" },
});
const dear = deployment("gpt-4o", card(2_500_000, 1_250_000, 10_000_000), {
  tool_calling: { status: "supported", verification_status: "official_declared" },
  structured_output: { status: "supported", verification_status: "official_declared" },
});
const unpriced = deployment("gpt-unpriced", null, {
  tool_calling: { status: "supported", verification_status: "official_declared" },
});
const noOutputPrice = deployment("gpt-no-output", card(100_000, null, null));
/** Same price as `cheap`, so ties are broken by id. */
const cheapTwin = deployment("gpt-4o-mini", card(150_000, 75_000, 600_000), {}, "eu");
const all = [cheap, dear, unpriced, noOutputPrice, cheapTwin];

function request(ids: string[], u = usage(1_000, 0, 500), requires?: CompareRequest["requires"]) {
  return CompareRequest.parse({ deployment_ids: ids, usage: u, ...(requires ? { requires } : {}) });
}

describe("compare", () => {
  it("uses fixtures that are valid deployments", () => {
    for (const d of all) expect(Deployment.parse(d)).toEqual(d);
  });

  it("ranks by exact total ascending with a trimmed deployment view and the pricing breakdown", () => {
    const { response } = compare(all, request([dear.id, cheap.id]));
    expect(CompareResponse.parse(response)).toEqual(response);
    expect(response.data.map((d) => d.deployment.id)).toEqual([cheap.id, dear.id]);
    // gpt-4o-mini: 1,000 x 150,000 + 500 x 600,000 = 150,000,000 + 300,000,000 pico = 450 micro.
    // gpt-4o: 1,000 x 2,500,000 + 500 x 10,000,000 = 2,500,000,000 + 5,000,000,000 = 7,500 micro.
    expect(response.data.map((d) => d.pricing.total_usd)).toEqual(["0.000450", "0.007500"]);
    expect(response.data[0]?.deployment).toEqual({
      id: cheap.id,
      model_id: "openai/gpt-4o-mini",
      provider_id: "openai",
      provider_model_id: "gpt-4o-mini",
      api_surface: "api",
      mode: "standard",
      region: "global",
      status: "available",
      capabilities: { structured_output: { status: "conditional" }, tool_calling: { status: "supported" } },
    });
  });

  it("a month of equal requests is ranked at base prices where no request reaches a long-context tier", () => {
    // Two deployments with the same base rates ($1.25 / $10); one adds a tier above 272,000
    // prompt tokens ($2.50 / $15), the way one provider's card lists a long-context tier the
    // other's does not.
    const tiered = deployment(
      "gpt-tiered",
      card(1_250_000, null, 10_000_000, [
        {
          above_input_tokens: 272_000,
          input_micro_usd: 2_500_000,
          cached_input_micro_usd: null,
          output_micro_usd: 15_000_000,
        },
      ]),
    );
    const flat = deployment("gpt-flat", card(1_250_000, null, 10_000_000));
    // 10,000,000 input + 1,000,000 output tokens over 1,000 requests of 10,000 prompt tokens:
    // both $12.50 + $10 = $22.50; ties by id.
    const month = compare(
      [tiered, flat],
      request([tiered.id, flat.id], usage(10_000_000, 0, 1_000_000, 1_000)),
    );
    expect(
      month.response.data.map((d) => [d.deployment.id, d.pricing.total_usd, d.pricing.requests]),
    ).toEqual([
      [flat.id, "22.500000", 1_000],
      [tiered.id, "22.500000", 1_000],
    ]);
    expect(month.response.data.map((d) => d.pricing.tier_above_input_tokens)).toEqual([null, null]);
    // As one request the tier applies to every token: $25 + $15 = $40.
    const one = compare([tiered, flat], request([tiered.id, flat.id], usage(10_000_000, 0, 1_000_000)));
    expect(one.response.data.map((d) => [d.deployment.id, d.pricing.total_usd])).toEqual([
      [flat.id, "22.500000"],
      [tiered.id, "40.000000"],
    ]);
    // calculate is the same function
    const calculated = calculate(tiered, usage(10_000_000, 0, 1_000_000, 1_000));
    expect(calculated.ok && calculated.response.pricing.total_usd).toBe("22.500000");
  });

  it("omits unknown ids and reports them separately instead of failing", () => {
    const result = compare(
      all,
      request(["dep_openai_nope_api_global", cheap.id, "dep_openai_nope_api_global"]),
    );
    expect(result.response.data.map((d) => d.deployment.id)).toEqual([cheap.id]);
    expect(result.unknownIds).toEqual(["dep_openai_nope_api_global"]);
  });

  it("omits deployments without a rate card and those lacking a price the usage needs", () => {
    const result = compare(all, request([unpriced.id, noOutputPrice.id, cheap.id]));
    expect(result.response.data.map((d) => d.deployment.id)).toEqual([cheap.id]);
    expect(result.omitted).toEqual([
      { id: unpriced.id, reason: "no_rate_card" },
      { id: noOutputPrice.id, reason: "missing_price", missing: ["output"] },
    ]);
    // Without output tokens the same deployment is priceable: a zero-token component costs 0.
    const inputOnly = compare(all, request([noOutputPrice.id], usage(1_000, 0, 0)));
    expect(inputOnly.response.data.map((d) => d.pricing.total_usd)).toEqual(["0.000100"]);
  });

  it("a `supported` requirement needs supported; a `conditional` one accepts conditional or supported", () => {
    const strict = compare(all, request([cheap.id, dear.id], undefined, { structured_output: "supported" }));
    expect(strict.response.data.map((d) => d.deployment.id)).toEqual([dear.id]);
    expect(strict.omitted).toEqual([
      { id: cheap.id, reason: "requirement_failed", failed_requirements: ["structured_output"] },
    ]);
    const lenient = compare(
      all,
      request([cheap.id, dear.id], undefined, { structured_output: "conditional" }),
    );
    expect(lenient.response.data.map((d) => d.deployment.id)).toEqual([cheap.id, dear.id]);
    // An absent capability is unknown and fails any requirement.
    const absent = compare(all, request([cheapTwin.id], undefined, { tool_calling: "conditional" }));
    expect(absent.response.data).toEqual([]);
  });

  it("answers an empty list, not an error, when no candidate qualifies", () => {
    const result = compare(all, request([unpriced.id, "dep_x_y_z_w"]));
    expect(result.response).toEqual({ data: [] });
  });

  it("breaks ties in total price by deployment id", () => {
    const { response } = compare(all, request([cheapTwin.id, cheap.id]));
    const ids = response.data.map((d) => d.deployment.id);
    expect(ids).toEqual([cheap.id, cheapTwin.id].sort());
    expect(response.data[0]?.pricing.total_usd).toBe(response.data[1]?.pricing.total_usd);
  });

  it("accepts a map by id as well as an array", () => {
    const byId = new Map(all.map((d) => [d.id, d]));
    expect(compare(byId, request([dear.id, cheap.id]))).toEqual(compare(all, request([dear.id, cheap.id])));
  });

  it("property: output is sorted by exact total then id, and independent of request order and duplicates", () => {
    const candidatesArb = fc.uniqueArray(
      fc.record({
        name: fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/),
        card: fc.option(rateCardArb, { nil: null }),
      }),
      { minLength: 1, maxLength: 12, selector: (c) => c.name },
    );
    fc.assert(
      fc.property(candidatesArb, usageArb, fc.infiniteStream(fc.nat()), (candidates, u, seeds) => {
        const deployments: DeploymentT[] = candidates.map((c) => deployment(c.name, c.card));
        const ids = deployments.map((d) => d.id);
        const shuffled = [...ids]
          .map((id) => ({ id, key: seeds.next().value as number }))
          .sort((a, b) => a.key - b.key)
          .map((x) => x.id);
        const withDuplicates = [...shuffled, ...shuffled.slice(0, 3)];
        const base = compare(deployments, { deployment_ids: ids, usage: u });
        const permuted = compare([...deployments].reverse(), { deployment_ids: withDuplicates, usage: u });
        expect(permuted.response).toEqual(base.response);

        const totals = base.response.data.map((item) => {
          const d = deployments.find((x) => x.id === item.deployment.id) as DeploymentT;
          const r = priceUsage(d.rate_card as NonNullable<DeploymentT["rate_card"]>, u);
          if (!r.ok) throw new Error("a listed candidate must be priceable");
          return { id: item.deployment.id, total: r.totalPicoUsd };
        });
        for (let i = 1; i < totals.length; i++) {
          const a = totals[i - 1] as { id: string; total: bigint };
          const b = totals[i] as { id: string; total: bigint };
          expect(a.total < b.total || (a.total === b.total && a.id < b.id)).toBe(true);
        }
        // Every candidate is either listed or accounted for as omitted, exactly once.
        const omittedIds = base.omitted.map((o) => o.id);
        expect([...totals.map((t) => t.id), ...omittedIds].sort()).toEqual([...ids].sort());
        expect(CompareResponse.safeParse(base.response).success).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe("calculate", () => {
  it("prices one deployment with the per-component breakdown", () => {
    const result = calculate(dear, usage(2_000, 1_000, 300));
    if (!result.ok) throw new Error("expected a price");
    // 2,000 x 2,500,000 = 5,000,000,000; 1,000 x 1,250,000 = 1,250,000,000;
    // 300 x 10,000,000 = 3,000,000,000; total 9,250,000,000 pico = 9,250 micro = $0.009250.
    expect(CalculateResponse.parse(result.response)).toEqual(result.response);
    expect(result.response.deployment_id).toBe(dear.id);
    expect(result.response.pricing.total_usd).toBe("0.009250");
    expect(result.response.pricing.components.map((c) => c.amount_usd)).toEqual([
      "0.005000",
      "0.001250",
      "0.003000",
    ]);
    expect(result.totalPicoUsd).toBe(9_250_000_000n);
  });

  it("refuses to price a deployment whose rate card is unknown", () => {
    expect(calculate(unpriced, usage(1, 0, 0))).toEqual({
      ok: false,
      reason: "no_rate_card",
      missing: ["input", "cached_input", "output"],
    });
  });

  it("names the missing prices instead of treating them as free", () => {
    expect(calculate(noOutputPrice, usage(1, 1, 1))).toEqual({
      ok: false,
      reason: "missing_price",
      missing: ["cached_input", "output"],
    });
  });
});
