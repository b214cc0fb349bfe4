/** Defaults of the server that the CLI names in its help, kept apart so the help loads no server code. */

/**
 * How many records of each kind (parsed deployments, deployment JSON, lifecycle JSON) a served
 * release keeps by default. A crawl of a 100,000-deployment release would otherwise keep the
 * whole catalog in memory for good; a page of 100 or a compare of 20 stays well within it.
 */
export const DEFAULT_RECORD_CACHE = 10_000;
