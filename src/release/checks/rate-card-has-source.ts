/** A rate card names the page its prices come from. */
import type { CheckDefinition } from "./types.js";

export const rateCardHasSource: CheckDefinition = {
  name: "rate_card_has_source",
  severity: "error",
  message: "a rate card has no source_url",
  sql: () => `
    SELECT id AS deployment_id, rate_card_source_url
    FROM deployments
    WHERE has_rate_card AND (rate_card_source_url IS NULL OR trim(rate_card_source_url) = '')
    ORDER BY id`,
};
