import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatMicroUsd,
  formatPicoUsd,
  type PriceComponentName,
  priceUsage,
  roundPicoToMicro,
} from "../../src/pricing/index.js";
import { Pricing, type RateCard, type Usage } from "../../src/schema/index.js";
import { card, monotoneRateCardArb, rateCardArb, usage, usageArb } from "./fixtures.js";

/**
 * Reference implementation, written independently of src/pricing: pick the tier with a
 * filter, multiply with BigInt, and format by string surgery on the decimal digits. One
 * request's prompt p / r is above an integer threshold t exactly when floor((p - 1) / r) >= t.
 */
function referencePrices(rc: RateCard, u: Usage): Record<PriceComponentName, number | null> {
  const prompt = BigInt(u.input_tokens) + BigInt(u.cached_input_tokens);
  const perRequestAbove = (t: number) => prompt > 0n && (prompt - 1n) / BigInt(u.requests) >= BigInt(t);
  const exceeded = (rc.tiers ?? []).filter((t) => perRequestAbove(t.above_input_tokens));
  const tier = exceeded.length ? exceeded[exceeded.length - 1] : undefined;
  const src = tier ?? rc;
  return {
    input: src.input_micro_usd,
    cached_input: src.cached_input_micro_usd,
    output: src.output_micro_usd,
  };
}

function referenceTotal(rc: RateCard, u: Usage): bigint | "missing" {
  const p = referencePrices(rc, u);
  const pairs: Array<[number, number | null]> = [
    [u.input_tokens, p.input],
    [u.cached_input_tokens, p.cached_input],
    [u.output_tokens, p.output],
  ];
  let total = 0n;
  for (const [tokens, price] of pairs) {
    if (tokens === 0) continue;
    if (price === null) return "missing";
    total += BigInt(tokens) * BigInt(price);
  }
  return total;
}

/** Half-up to micro-USD by looking at the 6 dropped digits as text, then insert the point. */
function referenceFormat(pico: bigint): string {
  const digits = pico.toString().padStart(13, "0");
  const dropped = digits.slice(-6);
  let micro = BigInt(digits.slice(0, -6));
  if (dropped[0] !== undefined && dropped[0] >= "5") micro += 1n;
  const m = micro.toString().padStart(7, "0");
  return `${m.slice(0, -6)}.${m.slice(-6)}`;
}

function priced(rc: RateCard, u: Usage) {
  const result = priceUsage(rc, u);
  if (!result.ok) throw new Error(`expected a price, got missing ${result.missing.join(",")}`);
  return result;
}

describe("formatting money", () => {
  it("shows whole micro-USD with exactly six fraction digits", () => {
    expect(formatMicroUsd(1250)).toBe("0.001250");
    expect(formatMicroUsd(0)).toBe("0.000000");
    expect(formatMicroUsd(12_345_678_901n)).toBe("12345.678901");
  });

  it("rounds half-up from pico-USD: .5 micro goes up, .4999... goes down", () => {
    expect(roundPicoToMicro(500_000n)).toBe(1n);
    expect(roundPicoToMicro(499_999n)).toBe(0n);
    expect(formatPicoUsd(3_086_417_500_000n)).toBe("3.086418");
    expect(formatPicoUsd(3_086_417_499_999n)).toBe("3.086417");
  });

  it("rejects negative amounts instead of printing them", () => {
    expect(() => formatMicroUsd(-1)).toThrow(RangeError);
    expect(() => roundPicoToMicro(-1n)).toThrow(RangeError);
  });

  it("agrees with a string-based half-up reference for any amount", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 110n }), (pico) => {
        expect(formatPicoUsd(pico)).toBe(referenceFormat(pico));
        expect(formatPicoUsd(pico)).toMatch(/^[0-9]+\.[0-9]{6}$/);
      }),
    );
  });
});

describe("priceUsage: worked examples computed by hand", () => {
  it("1,234,567 input tokens at $2.50/M cost 3.0864175 USD, shown half-up as 3.086418", () => {
    // 1,234,567 x 2,500,000 micro-USD/M = 3,086,417,500,000 pico-USD = 3,086,417.5 micro-USD
    // -> half-up 3,086,418 micro-USD = $3.086418.
    const r = priced(card(2_500_000, null, null), usage(1_234_567, 0, 0));
    expect(r.totalPicoUsd).toBe(3_086_417_500_000n);
    expect(r.pricing.total_usd).toBe("3.086418");
    expect(r.pricing.components).toEqual([
      { component: "input", tokens: 1_234_567, unit_price_micro_usd: 2_500_000, amount_usd: "3.086418" },
    ]);
  });

  it("1,000 input tokens at $1.25/M cost exactly 0.001250 USD", () => {
    // 1,000 x 1,250,000 = 1,250,000,000 pico-USD = 1,250 micro-USD = $0.001250.
    const r = priced(card(1_250_000, 125_000, 10_000_000), usage(1_000, 0, 0));
    expect(r.pricing.total_usd).toBe("0.001250");
  });

  it("a typical chat request: input, cached input and output added exactly", () => {
    // gpt-4o-like card: $2.50 input, $1.25 cached, $10.00 output per million.
    // input  12,345 x  2,500,000 =  30,862,500,000 pico = 30,862.5 micro -> "0.030863"
    // cached  4,096 x  1,250,000 =   5,120,000,000 pico =  5,120   micro -> "0.005120"
    // output    789 x 10,000,000 =   7,890,000,000 pico =  7,890   micro -> "0.007890"
    // total                         43,872,500,000 pico = 43,872.5 micro -> "0.043873"
    const r = priced(card(2_500_000, 1_250_000, 10_000_000), usage(12_345, 4_096, 789));
    expect(r.totalPicoUsd).toBe(43_872_500_000n);
    expect(r.pricing).toEqual({
      currency: "USD",
      total_usd: "0.043873",
      requests: 1,
      tier_above_input_tokens: null,
      components: [
        { component: "input", tokens: 12_345, unit_price_micro_usd: 2_500_000, amount_usd: "0.030863" },
        { component: "cached_input", tokens: 4_096, unit_price_micro_usd: 1_250_000, amount_usd: "0.005120" },
        { component: "output", tokens: 789, unit_price_micro_usd: 10_000_000, amount_usd: "0.007890" },
      ],
    });
    expect(Pricing.parse(r.pricing)).toEqual(r.pricing);
  });

  it("the total is the rounded exact total, not the sum of rounded components", () => {
    // 1 input token at $0.50/M = 500,000 pico = 0.5 micro -> shown "0.000001";
    // 1 output token at $0.50/M likewise "0.000001"; but the exact total is 1,000,000 pico =
    // 1 micro -> "0.000001", not "0.000002".
    const r = priced(card(500_000, null, 500_000), usage(1, 0, 1));
    expect(r.pricing.components.map((c) => c.amount_usd)).toEqual(["0.000001", "0.000001"]);
    expect(r.pricing.total_usd).toBe("0.000001");
  });

  it("an amount below half a micro-dollar is shown as zero but kept exactly", () => {
    // 3 tokens at $0.15/M = 450,000 pico = 0.45 micro -> half-up 0 -> "0.000000".
    const r = priced(card(150_000, null, null), usage(3, 0, 0));
    expect(r.totalPicoUsd).toBe(450_000n);
    expect(r.pricing.total_usd).toBe("0.000000");
  });

  it("prices a long-context request wholly at the tier once the prompt exceeds the threshold", () => {
    // Base $1.25 / $0.125 cached / $10; above 200,000 prompt tokens $2.50 / $0.25 / $15.
    const rc = card(1_250_000, 125_000, 10_000_000, [
      {
        above_input_tokens: 200_000,
        input_micro_usd: 2_500_000,
        cached_input_micro_usd: 250_000,
        output_micro_usd: 15_000_000,
      },
    ]);
    // Prompt 150,000 + 60,000 = 210,000 > 200,000 -> tier prices for every token:
    // 150,000 x 2,500,000 = 375,000,000,000; 60,000 x 250,000 = 15,000,000,000;
    // 10,000 x 15,000,000 = 150,000,000,000; total 540,000,000,000 pico = $0.540000.
    const above = priced(rc, usage(150_000, 60_000, 10_000));
    expect(above.pricing.total_usd).toBe("0.540000");
    expect(above.pricing.tier_above_input_tokens).toBe(200_000);
    expect(above.pricing.components.map((c) => c.unit_price_micro_usd)).toEqual([
      2_500_000, 250_000, 15_000_000,
    ]);
    // Prompt 140,000 + 60,000 = 200,000 is not above 200,000 -> base prices:
    // 140,000 x 1,250,000 = 175,000,000,000; 60,000 x 125,000 = 7,500,000,000;
    // 10,000 x 10,000,000 = 100,000,000,000; total 282,500,000,000 pico = $0.282500.
    const at = priced(rc, usage(140_000, 60_000, 10_000));
    expect(at.pricing.total_usd).toBe("0.282500");
    expect(at.pricing.tier_above_input_tokens).toBeNull();
  });

  it("applies a tier by one request's prompt: 10M input tokens as 100 requests stay at the base prices", () => {
    // The case: base $1.25 / $10, above 200,000 prompt tokens $2.50 / $15, above
    // 272,000 $3 / $20. 10,000,000 input + 500,000 output tokens as one request exceed both.
    const rc = card(1_250_000, 125_000, 10_000_000, [
      {
        above_input_tokens: 200_000,
        input_micro_usd: 2_500_000,
        cached_input_micro_usd: 250_000,
        output_micro_usd: 15_000_000,
      },
      {
        above_input_tokens: 272_000,
        input_micro_usd: 3_000_000,
        cached_input_micro_usd: 300_000,
        output_micro_usd: 20_000_000,
      },
    ]);
    // One request: 10,000,000 x 3,000,000 + 500,000 x 20,000,000 = 40,000,000,000,000 pico = $40.
    const one = priced(rc, usage(10_000_000, 0, 500_000));
    expect(one.pricing.tier_above_input_tokens).toBe(272_000);
    expect(one.pricing.total_usd).toBe("40.000000");
    expect(one.pricing.requests).toBe(1);
    // 100 requests of 100,000 prompt tokens: base prices for the whole usage,
    // 10,000,000 x 1,250,000 + 500,000 x 10,000,000 = 17,500,000,000,000 pico = $17.50.
    const many = priced(rc, usage(10_000_000, 0, 500_000, 100));
    expect(many.pricing.tier_above_input_tokens).toBeNull();
    expect(many.pricing.total_usd).toBe("17.500000");
    expect(many.pricing.requests).toBe(100);
    // 40 requests of 250,000 (input + cached): above 200,000, not above 272,000.
    const forty = priced(rc, usage(9_000_000, 1_000_000, 500_000, 40));
    expect(forty.pricing.tier_above_input_tokens).toBe(200_000);
  });

  it("compares one request's prompt with the threshold exactly: at it is base, one token over is the tier", () => {
    const rc = card(1_000_000, null, null, [
      {
        above_input_tokens: 200_000,
        input_micro_usd: 2_000_000,
        cached_input_micro_usd: null,
        output_micro_usd: null,
      },
    ]);
    // 3 requests of exactly 200,000 tokens: 600,000 / 3 = 200,000 is not above 200,000.
    expect(priced(rc, usage(600_000, 0, 0, 3)).pricing.tier_above_input_tokens).toBeNull();
    // 600,001 / 3 = 200,000.33... is above.
    expect(priced(rc, usage(600_001, 0, 0, 3)).pricing.tier_above_input_tokens).toBe(200_000);
    // exact beyond a float's range: (2^53 - 1) tokens over 2^52 requests is 1.99..., above 1.
    const huge = card(1, null, null, [
      { above_input_tokens: 1, input_micro_usd: 2, cached_input_micro_usd: null, output_micro_usd: null },
    ]);
    expect(priced(huge, usage(Number.MAX_SAFE_INTEGER, 0, 0, 2 ** 52)).pricing.tier_above_input_tokens).toBe(
      1,
    );
    expect(priced(huge, usage(2 ** 52, 0, 0, 2 ** 52)).pricing.tier_above_input_tokens).toBeNull();
  });

  it("applies the highest tier exceeded when there are several", () => {
    const rc = card(1_000_000, null, 2_000_000, [
      {
        above_input_tokens: 128_000,
        input_micro_usd: 2_000_000,
        cached_input_micro_usd: null,
        output_micro_usd: 4_000_000,
      },
      {
        above_input_tokens: 272_000,
        input_micro_usd: 3_000_000,
        cached_input_micro_usd: null,
        output_micro_usd: 6_000_000,
      },
    ]);
    // 300,000 x 3,000,000 + 1,000 x 6,000,000 = 900,000,000,000 + 6,000,000,000 pico = $0.906000.
    const r = priced(rc, usage(300_000, 0, 1_000));
    expect(r.pricing.tier_above_input_tokens).toBe(272_000);
    expect(r.pricing.total_usd).toBe("0.906000");
  });

  it("stays exact for 2^53 - 1 tokens at $75/M, far beyond a float's exact range", () => {
    // 9,007,199,254,740,991 x 75,000,000 = 675,539,944,105,574,325,000,000 pico-USD
    // = 675,539,944,105,574,325 micro-USD = $675,539,944,105.574325.
    const r = priced(card(75_000_000, null, null), usage(Number.MAX_SAFE_INTEGER, 0, 0));
    expect(r.totalPicoUsd).toBe(675_539_944_105_574_325_000_000n);
    expect(r.pricing.total_usd).toBe("675539944105.574325");
    // The float product is not even an integer-exact value any more.
    expect(BigInt(Number.MAX_SAFE_INTEGER * 75_000_000)).not.toBe(r.totalPicoUsd);
  });
});

describe("priceUsage: unknown prices are never zero", () => {
  it("a component with tokens and a null price makes the usage unpriceable", () => {
    expect(priceUsage(card(1_000_000, null, 2_000_000), usage(10, 5, 10))).toEqual({
      ok: false,
      missing: ["cached_input"],
    });
    expect(priceUsage(card(1_000_000, null, null), usage(10, 5, 1))).toEqual({
      ok: false,
      missing: ["cached_input", "output"],
    });
  });

  it("a component with 0 tokens costs nothing even if its price is unknown, and is left out", () => {
    const r = priced(card(1_000_000, null, null), usage(10, 0, 0));
    expect(r.totalPicoUsd).toBe(10_000_000n);
    expect(r.pricing.components.map((c) => c.component)).toEqual(["input"]);
  });

  it("a null price inside the applicable tier is unknown too, not the base price", () => {
    const rc = card(1_000_000, 100_000, 2_000_000, [
      {
        above_input_tokens: 1_000,
        input_micro_usd: 2_000_000,
        cached_input_micro_usd: null,
        output_micro_usd: null,
      },
    ]);
    expect(priceUsage(rc, usage(900, 200, 1))).toEqual({ ok: false, missing: ["cached_input", "output"] });
    expect(priced(rc, usage(900, 100, 1)).pricing.tier_above_input_tokens).toBeNull();
  });

  it("an empty usage costs exactly zero on any card", () => {
    const r = priced(card(5, null, null), usage(0, 0, 0));
    expect(r.totalPicoUsd).toBe(0n);
    expect(r.pricing.total_usd).toBe("0.000000");
  });
});

describe("priceUsage: properties", () => {
  it("equals an independent BigInt reference, or is missing exactly when the reference is", () => {
    fc.assert(
      fc.property(rateCardArb, usageArb, (rc, u) => {
        const result = priceUsage(rc, u);
        const reference = referenceTotal(rc, u);
        if (reference === "missing") {
          expect(result.ok).toBe(false);
          return;
        }
        if (!result.ok) throw new Error(`unexpectedly missing ${result.missing.join(",")}`);
        expect(result.totalPicoUsd).toBe(reference);
        expect(result.pricing.total_usd).toBe(referenceFormat(reference));
        for (const c of result.pricing.components)
          expect(c.amount_usd).toBe(referenceFormat(BigInt(c.tokens) * BigInt(c.unit_price_micro_usd)));
        expect(Pricing.safeParse(result.pricing).success).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("reports as missing exactly the components with tokens and an unknown applied price", () => {
    fc.assert(
      fc.property(rateCardArb, usageArb, (rc, u) => {
        const prices = referencePrices(rc, u);
        const tokens = {
          input: u.input_tokens,
          cached_input: u.cached_input_tokens,
          output: u.output_tokens,
        };
        const expected = (["input", "cached_input", "output"] as const).filter(
          (c) => tokens[c] > 0 && prices[c] === null,
        );
        const result = priceUsage(rc, u);
        expect(result.ok ? [] : result.missing).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("is linear without tiers: k times the usage costs exactly k times as much", () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(100_000_000), fc.nat(100_000_000), fc.nat(100_000_000)),
        fc.tuple(fc.nat(10_000_000), fc.nat(10_000_000), fc.nat(10_000_000)),
        fc.integer({ min: 0, max: 1_000_000 }),
        ([i, c, o], [ti, tc, to], k) => {
          const rc = card(i, c, o);
          const one = priced(rc, usage(ti, tc, to)).totalPicoUsd;
          const many = priced(rc, usage(ti * k, tc * k, to * k)).totalPicoUsd;
          expect(many).toBe(one * BigInt(k));
        },
      ),
    );
  });

  it("with tiers, k equal requests priced together cost exactly k times one of them", () => {
    fc.assert(
      fc.property(
        rateCardArb,
        fc.tuple(fc.nat(3_000_000), fc.nat(3_000_000), fc.nat(3_000_000)),
        fc.integer({ min: 1, max: 10_000 }),
        (rc, [ti, tc, to], k) => {
          const one = priceUsage(rc, usage(ti, tc, to));
          const many = priceUsage(rc, usage(ti * k, tc * k, to * k, k));
          expect(many.ok).toBe(one.ok);
          if (!one.ok || !many.ok) return;
          expect(many.totalPicoUsd).toBe(one.totalPicoUsd * BigInt(k));
          expect(many.pricing.tier_above_input_tokens).toBe(one.pricing.tier_above_input_tokens);
          expect(many.pricing.requests).toBe(k);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is additive without tiers: pricing two usages together equals the sum of pricing them apart", () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(100_000_000), fc.nat(100_000_000), fc.nat(100_000_000)),
        usageArb,
        usageArb,
        ([i, c, o], a, b) => {
          fc.pre(
            a.input_tokens + b.input_tokens <= Number.MAX_SAFE_INTEGER &&
              a.cached_input_tokens + b.cached_input_tokens <= Number.MAX_SAFE_INTEGER &&
              a.output_tokens + b.output_tokens <= Number.MAX_SAFE_INTEGER,
          );
          const rc = card(i, c, o);
          const sum = usage(
            a.input_tokens + b.input_tokens,
            a.cached_input_tokens + b.cached_input_tokens,
            a.output_tokens + b.output_tokens,
          );
          expect(priced(rc, sum).totalPicoUsd).toBe(priced(rc, a).totalPicoUsd + priced(rc, b).totalPicoUsd);
        },
      ),
    );
  });

  it("is monotone: more tokens of any kind never cost less, across tier thresholds too", () => {
    fc.assert(
      fc.property(
        monotoneRateCardArb,
        usageArb,
        fc.constantFrom("input_tokens", "cached_input_tokens", "output_tokens"),
        fc.integer({ min: 1, max: 5_000_000 }),
        (rc, u, field, extra) => {
          fc.pre(u[field] + extra <= Number.MAX_SAFE_INTEGER);
          const more = { ...u, [field]: u[field] + extra };
          const before = priced(rc, u).totalPicoUsd;
          const after = priced(rc, more).totalPicoUsd;
          expect(after >= before).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("has no float drift: products beyond 2^53 are exact to the last pico-dollar", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2 ** 30, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 2 ** 24, max: Number.MAX_SAFE_INTEGER }),
        (tokens, price) => {
          const r = priced(card(price, null, null), usage(tokens, 0, 0));
          const exact = BigInt(tokens) * BigInt(price);
          expect(exact > 2n ** 53n).toBe(true);
          expect(r.totalPicoUsd).toBe(exact);
          expect(r.pricing.total_usd).toBe(referenceFormat(exact));
        },
      ),
    );
  });
});
