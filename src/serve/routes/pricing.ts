/** The POST routes: compare candidates by total price (spec 4.3) and price one deployment. */
import { calculate, compare, deploymentOn, type PriceComponentName } from "../../pricing/index.js";
import { CalculateRequest, CompareRequest, type Deployment } from "../../schema/index.js";
import type { ServedRelease } from "../catalog-index.js";
import { deploymentsWithIds, deploymentWithId } from "../catalog-index.js";
import { ProblemError } from "../http.js";
import type { RouteHandler } from "./handler.js";

const USAGE_FIELD: Record<PriceComponentName, string> = {
  input: "usage.input_tokens",
  cached_input: "usage.cached_input_tokens",
  output: "usage.output_tokens",
};

export const compareRoute: RouteHandler = {
  kind: "action",
  run: ({ release, json }) => {
    const request = json(CompareRequest);
    const found = deploymentsWithIds(release, request.deployment_ids);
    const at = request.at;
    const candidates =
      at === undefined
        ? found
        : new Map([...found].map(([id, d]) => [id, deploymentOn(d, release.prices.get(id) ?? [], at)]));
    const result = compare(candidates, request);
    const omitted = result.unknownIds.length > 0 || result.omitted.length > 0;
    return {
      request,
      response: result.response,
      ...(omitted
        ? {
            note: {
              message: "compare omitted candidates",
              fields: { unknown_ids: result.unknownIds, omitted: result.omitted },
            },
          }
        : {}),
    };
  },
};

export const calculateRoute: RouteHandler = {
  kind: "action",
  run: ({ release, json }) => {
    const request = json(CalculateRequest);
    const current = deploymentWithId(release, request.deployment_id);
    if (!current)
      throw new ProblemError(
        "not_found",
        `no deployment with id "${request.deployment_id}" in this release`,
        [{ parameter: "deployment_id", message: "no such deployment in this release" }],
      );
    const deployment = on(release, current, request.at);
    const result = calculate(deployment, request.usage);
    if (!result.ok) {
      if (result.reason === "no_rate_card")
        throw new ProblemError(
          "not_priceable",
          request.at === undefined
            ? `deployment "${deployment.id}" has no rate card: its price is unknown (never zero)`
            : `deployment "${deployment.id}" has no known price on ${request.at} (never zero)`,
          request.at === undefined
            ? undefined
            : [{ parameter: "at", message: "no price interval of the deployment covers this day" }],
        );
      throw new ProblemError(
        "not_priceable",
        `deployment "${deployment.id}" has no known price for ${result.missing.join(", ")}, which the usage needs`,
        result.missing.map((component) => ({
          parameter: USAGE_FIELD[component],
          message: `the deployment's rate card has no ${component.replace("_", " ")} price`,
        })),
      );
    }
    return { request, response: result.response };
  },
};

/** The deployment as priced on `at` (its interval that day), or as it is now. */
function on(release: ServedRelease, deployment: Deployment, at: string | undefined): Deployment {
  return at === undefined
    ? deployment
    : deploymentOn(deployment, release.prices.get(deployment.id) ?? [], at);
}
