/**
 * Every reference resolves: replacement ids name a deployment or model of the catalog,
 * coverage source ids and event source ids name a known source (this build's source states,
 * the facts of this build, or the previous release's sources for old events).
 */
import type { CheckDefinition } from "./types.js";

const KNOWN_SOURCES = `
  SELECT source_id FROM sources
  UNION SELECT source_id FROM facts
  UNION SELECT source_id FROM prev_sources`;

export const referencesResolve: CheckDefinition = {
  name: "references_resolve",
  severity: "error",
  message: "a reference does not resolve (replacement id, coverage source id or event source id)",
  sql: () => `
    WITH catalog_ids AS (
      SELECT id AS ref FROM deployments
      UNION SELECT model_id FROM deployments
      UNION SELECT resource_id FROM lifecycle
    ),
    known_sources AS (${KNOWN_SOURCES}),
    replacements AS (
      SELECT collection, resource_type, resource_id, unnest(replacement_ids) AS ref FROM lifecycle_all
    ),
    coverage AS (
      SELECT collection, resource_type, resource_id, unnest(coverage_source_ids) AS ref FROM lifecycle_all
    )
    SELECT * FROM (
      SELECT 'replacement_id' AS reference, collection, resource_type, resource_id, ref FROM replacements
        WHERE ref NOT IN (SELECT ref FROM catalog_ids)
      UNION ALL
      SELECT 'coverage_source_id', collection, resource_type, resource_id, ref FROM coverage
        WHERE ref NOT IN (SELECT source_id FROM known_sources)
      UNION ALL
      SELECT 'event_source_id', 'events', 'event', id, source_id FROM events
        WHERE source_id NOT IN (SELECT source_id FROM known_sources)
    )
    ORDER BY reference, collection, resource_type, resource_id, ref`,
};
