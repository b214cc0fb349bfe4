/** The GET routes of the catalog itself: deployments, one deployment, lifecycle records, source events. */
import { ListDeploymentsQuery, ListEventsQuery, ListLifecycleQuery } from "../../schema/index.js";
import { decodePathParam, ProblemError, parseNoQuery, parseQuery } from "../http.js";
import { pageBody } from "../page.js";
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
