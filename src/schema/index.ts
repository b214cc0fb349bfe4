/** The one source of truth for every shape in the project: types are inferred from these. */

export * from "./api.js";
export * from "./common.js";
export * from "./corrections.js";
export * from "./deployment.js";
export * from "./events.js";
export * from "./evidence.js";
export * from "./history.js";
export * from "./lifecycle.js";
export * from "./price-components.js";
export * from "./price-history.js";
export * from "./records.js";
export * from "./release.js";
export * from "./release-files.js";
export * from "./routes.js";
export * from "./source-definition.js";
export * from "./verification.js";
