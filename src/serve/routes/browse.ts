/**
 * The browsing routes (docs/decisions.md, "Release history, browsing and exports"): /v1/providers,
 * /v1/models and /v1/models/{id}, each with its lifecycle record and summary.
 */
import { ListModelsQuery, ListProvidersQuery } from "../../schema/index.js";
import { browseIndex, listModels, listProviders } from "../browse.js";
import { decodePathParam, ProblemError, parseNoQuery, parseQuery } from "../http.js";
import { pageBody } from "../page.js";
import { lazyAnswer, type RouteHandler, readyAnswer } from "./handler.js";

export const providers: RouteHandler = {
  kind: "resource",
  prepare: (input) => {
    const query = parseQuery(ListProvidersQuery, input.rawQuery);
    const index = browseIndex(input.release);
    return lazyAnswer(input, query, () => pageBody(index.providerJson, listProviders(index, query)));
  },
};

export const models: RouteHandler = {
  kind: "resource",
  prepare: (input) => {
    const query = parseQuery(ListModelsQuery, input.rawQuery);
    const index = browseIndex(input.release);
    return lazyAnswer(input, query, () => pageBody(index.modelJson, listModels(index, query)));
  },
};

export const model: RouteHandler = {
  kind: "resource",
  prepare: (input) => {
    parseNoQuery(input.rawQuery);
    const id = decodePathParam(input.param);
    const index = browseIndex(input.release);
    const position = index.modelById.get(id);
    const body = position === undefined ? undefined : index.modelJson[position];
    if (body === undefined) throw new ProblemError("not_found", `no model with id "${id}" in this release`);
    return readyAnswer(input, { id }, body);
  },
};
