/** The collect stage's public entry: fetch policy, monitored content, captures, source states and events. */
export { type AddressClass, classifyAddress, isAddressAllowed } from "./address.js";
export * from "./backfill.js";
export {
  CAPTURE_EXTENSION,
  type NewCapture,
  readCapture,
  type StoredCapture,
  writeCapture,
} from "./captures.js";
export { type CollectOptions, type CollectResult, collectSources } from "./collect.js";
export * from "./dated-captures.js";
export {
  CaptureMeta,
  CORRECTIONS_FILE,
  captureDir,
  type DefinitionError,
  type LoadedDefinitions,
  loadCorrections,
  loadSourceDefinitions,
  readCaptureMeta,
} from "./definitions.js";
export {
  contentTypeMatches,
  DEFAULT_FETCHER_OPTIONS,
  type FetchedBody,
  Fetcher,
  type FetcherOptions,
  type FetchRequest,
  type FetchResponse,
  type NotModified,
  parseContentType,
  parseRetryAfter,
  type ResolvedAddress,
  type Resolver,
  USER_AGENT,
} from "./fetcher.js";
export {
  type ExtractOptions,
  extractMonitored,
  MONITOR_MARKER,
  type MonitoredContent,
  monitoredContentHash,
} from "./monitor.js";
export { CollectProgress, formatCollectSummary, type ProgressStream, summaryStatus } from "./progress.js";
export type { SecretEnv } from "./secrets.js";
export {
  countFailures,
  deriveSourceStates,
  type FailureCount,
  refusesToPublish,
  type SourceOutcome,
  sourceEventId,
} from "./states.js";
