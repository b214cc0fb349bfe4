/**
 * Shared by the parsers of machine-readable price feeds (AWS Price List, Azure Retail Prices),
 * which publish one price per row and part (input, output, cached input...) in tokens per unit:
 * the exact conversion of one row's price, and the assembly of one deployment's rate card from
 * its rows, where two different prices for the same part leave that part unknown.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import { isCatalogError } from "../lib/errors.js";
import type { DeploymentFact, RateCard, RateComponent } from "../schema/index.js";
import { evidenceFor, type SkipLog, usdToMicro } from "./helpers.js";
import type { ParserInput } from "./types.js";

/** A price part of a feed row: one of the rate card's components. */
export type PricePart = RateComponent;

/**
 * A price in USD per `unitTokens` tokens (decimal text, e.g. "0.0000720000" per 1K) as integer
 * micro-USD per million tokens, exactly; null when it is not an amount or is finer than one
 * micro-USD per million (never rounded).
 */
export function perUnitToMicroPerMillion(usd: string, unitTokens: 1000 | 1_000_000): number | null {
  try {
    return usdToMicro(usd, unitTokens === 1000 ? 1000 : 1);
  } catch (error) {
    if (!isCatalogError(error)) throw error;
    return null;
  }
}

/** The prices one deployment's rows give each part. */
export class PartPrices {
  private readonly parts = new Map<PricePart, Set<number>>();

  add(part: PricePart, micro: number): void {
    const set = this.parts.get(part) ?? new Set<number>();
    set.add(micro);
    this.parts.set(part, set);
  }

  /** The part's single price; null when absent, or when rows disagree (`onConflict` is told). */
  price(part: PricePart, onConflict: (part: PricePart) => void): number | null {
    const set = this.parts.get(part);
    if (!set) return null;
    if (set.size > 1) {
      onConflict(part);
      return null;
    }
    return [...set][0] as number;
  }

  /**
   * The rate card, or null when there is no single input price (a rate card needs one). Cache
   * write prices appear only when published.
   */
  rateCard(
    evidence: Pick<RateCard, "source_url" | "observed_at">,
    onConflict: (part: PricePart) => void,
  ): RateCard | null {
    const input = this.price("input", onConflict);
    const cached = this.price("cached_input", onConflict);
    const output = this.price("output", onConflict);
    const cacheWrite = this.price("cache_write", onConflict);
    const cacheWrite1h = this.price("cache_write_1h", onConflict);
    if (input === null) return null;
    return {
      currency: "USD",
      unit: "million_tokens",
      input_micro_usd: input,
      cached_input_micro_usd: cached,
      output_micro_usd: output,
      ...(cacheWrite !== null ? { cache_write_micro_usd: cacheWrite } : {}),
      ...(cacheWrite1h !== null ? { cache_write_1h_micro_usd: cacheWrite1h } : {}),
      source_url: evidence.source_url,
      observed_at: evidence.observed_at,
    };
  }
}

/** One deployment a price feed names, with the prices its rows give. */
export interface PricedEntry {
  fact: Omit<DeploymentFact, "rate_card" | "evidence">;
  prices: PartPrices;
}

/**
 * The deployment facts of a feed's entries in id order, each with its rate card; parts priced
 * differently by two rows are counted in `skipped`, and an entry with no single input price is
 * handed to `noInput` (to count its rows) instead of becoming a fact.
 */
export function pricedDeployments<E extends PricedEntry>(
  entries: Iterable<E>,
  input: ParserInput,
  skipped: SkipLog,
  noInput: (entry: E) => void,
): DeploymentFact[] {
  const evidence = evidenceFor(input.source, input.observedAt);
  const deployments: DeploymentFact[] = [];
  for (const entry of [...entries].sort((a, b) => compareCodePoints(a.fact.id, b.fact.id))) {
    const rateCard = entry.prices.rateCard(
      { source_url: input.source.url, observed_at: input.observedAt },
      (part) =>
        skipped.add(
          "different prices for one deployment and price part (left unknown)",
          `${entry.fact.id} ${part}`,
        ),
    );
    if (rateCard === null) noInput(entry);
    else deployments.push({ ...entry.fact, rate_card: rateCard, evidence });
  }
  return deployments;
}
