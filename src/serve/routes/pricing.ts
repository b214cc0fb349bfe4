/** The POST routes: compare candidates by total price (spec 4.3) and price one deployment. */
import { calculate, compare, type PriceComponentName } from "../../pricing/index.js";
import { CalculateRequest, CompareRequest } from "../../schema/index.js";
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
    const result = compare(deploymentsWithIds(release, request.deployment_ids), request);
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
    const deployment = deploymentWithId(release, request.deployment_id);
    if (!deployment)
      throw new ProblemError(
        "not_found",
        `no deployment with id "${request.deployment_id}" in this release`,
        [{ parameter: "deployment_id", message: "no such deployment in this release" }],
      );
    const result = calculate(deployment, request.usage);
    if (!result.ok) {
      if (result.reason === "no_rate_card")
        throw new ProblemError(
          "not_priceable",
          `deployment "${deployment.id}" has no rate card: its price is unknown (never zero)`,
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
