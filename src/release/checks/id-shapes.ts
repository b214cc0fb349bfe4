/** Ids have their documented shapes: dep_<provider>_<model>_<api_surface>_<region>, <lab>/<model-name>, evt_<id>. */
import { DEPLOYMENT_ID, EVENT_ID, MODEL_ID } from "../../lib/ids.js";
import type { CheckDefinition } from "./types.js";

// The id patterns of lib/ids.ts as RE2 patterns for DuckDB (`\/` is a plain "/" there too).
const DEPLOYMENT = DEPLOYMENT_ID.source;
const MODEL = MODEL_ID.source;
const EVENT = EVENT_ID.source;

export const idShapes: CheckDefinition = {
  name: "id_shapes",
  severity: "error",
  message:
    "an id does not have its documented shape (dep_<provider>_<model>_<api_surface>_<region>, <lab>/<model-name>, evt_<id>)",
  sql: () => `
    SELECT * FROM (
      SELECT 'deployment' AS kind, id, 'deployments.id' AS field FROM deployments
        WHERE NOT regexp_full_match(id, '${DEPLOYMENT}')
      UNION ALL
      SELECT 'model', model_id, 'deployments.model_id' FROM deployments
        WHERE NOT regexp_full_match(model_id, '${MODEL}')
      UNION ALL
      SELECT 'deployment', resource_id, 'lifecycle.resource_id' FROM lifecycle
        WHERE resource_type = 'deployment' AND NOT regexp_full_match(resource_id, '${DEPLOYMENT}')
      UNION ALL
      SELECT 'model', resource_id, 'lifecycle.resource_id' FROM lifecycle
        WHERE resource_type = 'model' AND NOT regexp_full_match(resource_id, '${MODEL}')
      UNION ALL
      SELECT 'model', model_id, 'lifecycle.model_id' FROM lifecycle
        WHERE model_id IS NOT NULL AND NOT regexp_full_match(model_id, '${MODEL}')
      UNION ALL
      SELECT 'event', id, 'events.id' FROM events
        WHERE NOT regexp_full_match(id, '${EVENT}')
    )
    ORDER BY kind, id, field`,
};
