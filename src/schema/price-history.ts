/**
 * Price history (docs/price-history.md): a deployment's rate-card intervals, derived from every
 * dated capture of its sources, and `prices.json`, the release file that holds them.
 */
import { z } from "zod";
import { LimitParam, OffsetParam, pageOf } from "./api.js";
import { DeploymentId, IsoDate, Url } from "./common.js";
import { RateCard } from "./deployment.js";
import { VerificationStatus } from "./evidence.js";

export const PriceInterval = z
  .strictObject({
    /** The day of the first dated copy showing this price. */
    valid_from: IsoDate,
    /** The day of the first dated copy showing another one (exclusive); null: still current. */
    valid_to: IsoDate.nullable(),
    rate_card: RateCard,
    verification_status: VerificationStatus,
    source_url: Url,
  })
  .meta({
    id: "PriceInterval",
    description:
      "A rate card and the days it was valid: from valid_from (the first dated copy of its source showing it) up to, " +
      "not including, valid_to (the first dated copy showing another price; null: still current). Where an official " +
      "and a community source both cover a day, the official price is the one shown. A deployment's intervals never overlap.",
  });
export type PriceInterval = z.infer<typeof PriceInterval>;

/** `prices.json` in a release: every deployment with a known price history, by id, each newest first. */
export const PricesFile = z.strictObject({
  format: z.literal(1),
  deployments: z.array(
    z.strictObject({
      deployment_id: DeploymentId,
      intervals: z.array(PriceInterval).min(1),
    }),
  ),
});
export type PricesFile = z.infer<typeof PricesFile>;

/** `GET /v1/deployments/{id}/prices`: a page of the deployment's intervals, newest first. */
export const PriceIntervalPage = pageOf(PriceInterval, "PriceIntervalPage");
export const ListPricesQuery = z.strictObject({ limit: LimitParam, offset: OffsetParam });
export type ListPricesQuery = z.infer<typeof ListPricesQuery>;
