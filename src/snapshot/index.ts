/**
 * The on-disk release format, shared by the release stage (which writes it) and the server
 * (which reads it). Nothing here loads DuckDB.
 *
 *   snapshots/objects/<sha256>                       immutable content-addressed files
 *   snapshots/releases/<release_id>/manifest.json    the files of a release, their hashes, counts
 *   snapshots/LATEST                                 the published release id
 */

export {
  type CatalogLayout,
  CatalogLayoutRecorder,
  type SpannedList,
  type Spans,
  serializeCatalog,
} from "./catalog-file.js";
export {
  byTypeAndId,
  deploymentLifecycleRecord,
  deploymentLifecyclesEmbedded,
  storedLifecycle,
  withDeploymentLifecycles,
} from "./deployment-lifecycles.js";
export { LATEST_FILE, listReleases, readLatest, writeLatest } from "./latest.js";
export {
  CATALOG_FILE,
  DEPLOYMENTS_PARQUET,
  DIFF_JSON,
  DIFF_MARKDOWN,
  LIFECYCLE_PARQUET,
  MANIFEST_FILE,
  PRICES_FILE,
  RELEASES_DIR,
  REPORT_FILE,
  readManifest,
  releaseDir,
  releaseIdFor,
} from "./manifest.js";
export {
  byteLength,
  discardStaged,
  exists,
  type FileBytes,
  OBJECTS_DIR,
  ObjectWriter,
  objectPath,
  readReleaseFile,
  readReleaseFileFrom,
  type StagedObject,
  storeStaged,
  tempName,
  writeAtomically,
  writeObject,
} from "./objects.js";
export {
  type IndexedRelease,
  type LoadedRelease,
  loadRelease,
  loadTrustedRelease,
  OpenCatalog,
  openIndexedRelease,
  readReleaseEvents,
  readServeIndex,
  sha256OfFile,
} from "./read.js";
export {
  byDeploymentId,
  catalogReleaseFiles,
  decodeColumn,
  SERVE_INDEX_FILE,
  serveIndexFor,
} from "./serve-index.js";
export { requireIntactRelease, type VerifyProblem, verifyRelease } from "./verify.js";
