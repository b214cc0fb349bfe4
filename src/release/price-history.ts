/**
 * Price history (docs/price-history.md): each deployment's rate-card intervals from every dated
 * observation of its sources: the current facts of each source and its dated captures. Pure.
 *
 * Per source, a price is valid from the day of the first observation showing it up to the day of
 * the first observation showing another price or no longer listing the deployment (exclusive);
 * the source's last observation leaves it open (null). Two observations of one source on the same
 * day: the later speaks for that day. Across sources, each day goes to an official source over a
 * community one, then to the price first shown most recently, then to the smaller source id; days
 * in a row with the same price and verification status are one interval. So a deployment's
 * intervals never overlap.
 */
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import type {
  DeploymentFact,
  PriceInterval,
  PricesFile,
  RateCard,
  SourceFacts,
  VerificationStatus,
} from "../schema/index.js";

/** One dated observation of one source: the rate cards it shows, by deployment id. */
export interface PriceObservation {
  source_id: string;
  official: boolean;
  observed_at: string;
  prices: ReadonlyMap<string, ShownPrice>;
}

export interface ShownPrice {
  rate_card: RateCard;
  verification_status: VerificationStatus;
}

/** What is compared to tell prices apart: the rate card without where and when it was seen. */
export function priceKey(card: RateCard): string {
  const { observed_at: _observed, source_url: _url, ...price } = card;
  return canonicalJson(price);
}

/** The rate cards a parse output shows, by deployment id (facts without a rate card show none). */
export function shownPrices(deployments: readonly DeploymentFact[]): Map<string, ShownPrice> {
  const prices = new Map<string, ShownPrice>();
  for (const fact of deployments)
    if (fact.rate_card)
      prices.set(fact.id, {
        rate_card: fact.rate_card,
        verification_status: fact.evidence.verification_status,
      });
  return prices;
}

/** The canonical text of a parse output's prices: what a backfill compares between versions. */
export function pricesKey(deployments: readonly DeploymentFact[]): string {
  return canonicalJson(
    [...shownPrices(deployments)]
      .map(([id, shown]) => [id, priceKey(shown.rate_card), shown.verification_status])
      .sort((a, b) => compareCodePoints(String(a[0]), String(b[0]))),
  );
}

/** The current facts of the build's sources as observations (a source without an observation time has none). */
export function currentObservations(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): PriceObservation[] {
  return sources.flatMap((source) =>
    source.observed_at === null
      ? []
      : [
          {
            source_id: source.source_id,
            official: isOfficial(source),
            observed_at: source.observed_at,
            prices: shownPrices(source.output.deployments),
          },
        ],
  );
}

interface Segment {
  deployment_id: string;
  source_id: string;
  official: boolean;
  from: string;
  to: string | null;
  shown: ShownPrice;
  /** priceKey of the rate card, made when first compared (keyOf): most segments never are. */
  key: string | null;
}

function keyOf(segment: Segment): string {
  segment.key ??= priceKey(segment.shown.rate_card);
  return segment.key;
}

const day = (instant: string) => instant.slice(0, 10);

/** Each source's observations by time, one per day (the day's last). */
function bySource(observations: readonly PriceObservation[]): PriceObservation[][] {
  const grouped = new Map<string, PriceObservation[]>();
  for (const observation of observations) {
    const list = grouped.get(observation.source_id) ?? [];
    list.push(observation);
    grouped.set(observation.source_id, list);
  }
  return [...grouped.values()].map((list) => {
    const sorted = [...list].sort((a, b) => compareCodePoints(a.observed_at, b.observed_at));
    return sorted.filter((o, i) => day(sorted[i + 1]?.observed_at ?? "") !== day(o.observed_at));
  });
}

/** One source's price segments of every deployment it shows. */
function sourceSegments(timeline: readonly PriceObservation[], keep: (id: string) => boolean): Segment[] {
  const segments: Segment[] = [];
  const open = new Map<string, Segment>();
  for (const observation of timeline) {
    const today = day(observation.observed_at);
    for (const [id, segment] of open) {
      const shown = observation.prices.get(id);
      const same =
        shown !== undefined &&
        (shown.rate_card === segment.shown.rate_card || priceKey(shown.rate_card) === keyOf(segment));
      if (!same) {
        segment.to = today;
        open.delete(id);
      }
    }
    for (const [id, shown] of observation.prices) {
      if (open.has(id) || !keep(id)) continue;
      const segment: Segment = {
        deployment_id: id,
        source_id: observation.source_id,
        official: observation.official,
        from: today,
        to: null,
        shown,
        key: null,
      };
      open.set(id, segment);
      segments.push(segment);
    }
  }
  return segments;
}

/** Which of two segments covering a day speaks for it: official first, then the newer price, then the source id. */
function better(a: Segment, b: Segment): Segment {
  if (a.official !== b.official) return a.official ? a : b;
  if (a.from !== b.from) return a.from > b.from ? a : b;
  return compareCodePoints(a.source_id, b.source_id) <= 0 ? a : b;
}

/** One deployment's intervals from its segments, oldest first. */
function intervalsOf(segments: readonly Segment[]): PriceInterval[] {
  // one segment (a deployment one observation priced, the usual case): one interval, as below
  if (segments.length === 1) {
    const { from, to, shown } = segments[0] as Segment;
    return [
      {
        valid_from: from,
        valid_to: to,
        rate_card: shown.rate_card,
        verification_status: shown.verification_status,
        source_url: shown.rate_card.source_url,
      },
    ];
  }
  const bounds = [...new Set(segments.flatMap((s) => (s.to === null ? [s.from] : [s.from, s.to])))].sort();
  const intervals: PriceInterval[] = [];
  let lastKey: string | null = null;
  bounds.forEach((from, i) => {
    const to = bounds[i + 1] ?? null;
    let winner: Segment | null = null;
    for (const s of segments)
      if (s.from <= from && (s.to === null || s.to > from)) winner = winner ? better(winner, s) : s;
    const previous = intervals.at(-1);
    if (!winner) {
      lastKey = null;
      return;
    }
    const key = `${keyOf(winner)}|${winner.shown.verification_status}`;
    if (previous && lastKey === key && previous.valid_to === from) {
      previous.valid_to = to;
      return;
    }
    lastKey = key;
    intervals.push({
      valid_from: from,
      valid_to: to,
      rate_card: winner.shown.rate_card,
      verification_status: winner.shown.verification_status,
      source_url: winner.shown.rate_card.source_url,
    });
  });
  return intervals;
}

/**
 * Every deployment's intervals (newest first), for the deployments `ids` names, sorted by id.
 * A deployment no observation prices has none (it is not listed).
 */
export function priceHistory(
  observations: readonly PriceObservation[],
  ids: ReadonlySet<string>,
): PricesFile {
  const byDeployment = new Map<string, Segment[]>();
  for (const timeline of bySource(observations))
    for (const segment of sourceSegments(timeline, (id) => ids.has(id))) {
      const list = byDeployment.get(segment.deployment_id) ?? [];
      list.push(segment);
      byDeployment.set(segment.deployment_id, list);
    }
  const deployments = [...byDeployment.keys()].sort(compareCodePoints).flatMap((id) => {
    const intervals = intervalsOf(byDeployment.get(id) ?? []).reverse();
    return intervals.length > 0 ? [{ deployment_id: id, intervals }] : [];
  });
  return { format: 1, deployments };
}
