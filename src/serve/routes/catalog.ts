/** The GET routes of the catalog itself: deployments, one deployment, lifecycle records, source events. */
import {
  ListDeploymentsQuery,
  ListEventsQuery,
  ListLifecycleQuery,
  ListPricesQuery,
} from "../../schema/index.js";
import { decodePathParam, ProblemError, parseNoQuery, parseQuery } from "../http.js";
import { allPositions, pageBody, paginate } from "../page.js";
import { listDeployments, listEvents, listLifecycle } from "../query.js";
import { lazyAnswer, type RouteHandler, readyAnswer } from "./handler.js";

export const deployments: RouteHandler = {
  kind: "resource",
  prepare: (input) => {
    const { rawQuery, release } = input;
    const query = parseQuery(ListDeploymentsQuery, rawQuery, ["status", "capability"]);
    return lazyAnswer(input, query, () => pageBody(release.deploymentJson, listDeployments(release, query)));
  },
};

export const deployment: RouteHandler = {
  kind: "resource",
  prepare: (input) => {
    const { param, rawQuery, release } = input;
    parseNoQuery(rawQuery);
    const id = decodePathParam(param);
    const position = release.deploymentById.get(id);
    const body = position === undefined ? undefined : release.deploymentJson.at(position);
    if (body === undefined)
      throw new ProblemError("not_found", `no deployment with id "${id}" in this release`);
    return readyAnswer(input, { id }, body);
  },
};

export const lifecycle: RouteHandler = {
  kind: "resource",
  prepare: (input) => {
    const { rawQuery, release } = input;
    const query = parseQuery(ListLifecycleQuery, rawQuery);
    return lazyAnswer(input, query, () => pageBody(release.lifecycleJson, listLifecycle(release, query)));
  },
};

export const events: RouteHandler = {
  kind: "resource",
  prepare: (input) => {
    const { rawQuery, release } = input;
    const query = parseQuery(ListEventsQuery, rawQuery);
    return lazyAnswer(input, query, () => pageBody(release.eventJson, listEvents(release, query)));
  },
};

/** A deployment's price intervals (prices.json), newest first; 404 for an id the release does not hold. */
export const deploymentPrices: RouteHandler = {
  kind: "resource",
  prepare: (input) => {
    const { param, rawQuery, release } = input;
    const query = parseQuery(ListPricesQuery, rawQuery);
    const id = decodePathParam(param);
    if (!release.deploymentById.has(id))
      throw new ProblemError("not_found", `no deployment with id "${id}" in this release`);
    const intervals = release.prices.get(id) ?? [];
    return lazyAnswer(input, { id, ...query }, () =>
      pageBody(
        { at: (i) => (intervals[i] ? Buffer.from(JSON.stringify(intervals[i])) : undefined) },
        paginate(allPositions(intervals.length), query.limit, query.offset),
      ),
    );
  },
};
