/**
 * Schemas of the JSON files of a published release that have no schema elsewhere: facts.json
 * (each source's facts, for the next build's carry-forward), diff.json (the changes against the
 * previous release) and report.json (the build report). catalog.json is `CatalogContent` and
 * manifest.json `ReleaseManifest` (release.ts). `RELEASE_FILE_SCHEMAS` maps each file name to its
 * schema; the JSON Schemas under src/schema/json-schema/ are generated from it (`npm run json-schema`).
 */
import { z } from "zod";
import { IsoDateTime, ProviderId, ReleaseId, Sha256, Url } from "./common.js";
import { Correction } from "./corrections.js";
import { SourceEventType } from "./events.js";
import { SourceType } from "./evidence.js";
import { PRICE_COMPONENTS } from "./price-components.js";
import { ParseOutput } from "./records.js";
import { CatalogContent, ReleaseManifest } from "./release.js";

export const SourceFacts = z.strictObject({
  source_id: z.uuid(),
  provider_id: ProviderId,
  source_type: SourceType,
  source_url: Url,
  observed_at: IsoDateTime.nullable(),
  /** true when the source failed this build and these are its last good facts. */
  carried_forward: z.boolean(),
  output: ParseOutput,
});
export type SourceFacts = z.infer<typeof SourceFacts>;

export const FactsFile = z.strictObject({
  format: z.literal(1),
  sources: z.array(SourceFacts),
});
export type FactsFile = z.infer<typeof FactsFile>;

const Count = z.int().nonnegative();
const ResourceKind = z.enum(["provider", "model", "deployment"]);

const DeploymentRef = z.strictObject({
  id: z.string(),
  provider_id: z.string(),
  model_id: z.string(),
  status: z.string(),
});

export const ReleaseDiffFile = z
  .strictObject({
    from_release_id: ReleaseId.nullable(),
    /** null inside a release's own diff.json (the release that holds it). */
    to_release_id: ReleaseId.nullable(),
    counts: z.strictObject({
      deployments_added: Count,
      deployments_removed: Count,
      price_changes: Count,
      price_increases: Count,
      limit_changes: Count,
      capability_changes: Count,
      status_changes: Count,
      lifecycle_changes: Count,
      end_of_life_earlier: Count,
      source_events: Count,
    }),
    deployments_added: z.array(DeploymentRef),
    deployments_removed: z.array(DeploymentRef),
    price_changes: z.array(
      z.strictObject({
        deployment_id: z.string(),
        provider_id: z.string(),
        component: z.enum(PRICE_COMPONENTS),
        old: z.int().nullable(),
        new: z.int().nullable(),
        percent: z.number().nullable(),
      }),
    ),
    limit_changes: z.array(
      z.strictObject({
        deployment_id: z.string(),
        provider_id: z.string(),
        field: z.enum(["context_tokens", "max_output_tokens"]),
        old: z.int().nullable(),
        new: z.int().nullable(),
      }),
    ),
    capability_changes: z.array(
      z.strictObject({
        deployment_id: z.string(),
        provider_id: z.string(),
        capability: z.string(),
        old: z.string().nullable(),
        new: z.string().nullable(),
      }),
    ),
    status_changes: z.array(
      z.strictObject({
        deployment_id: z.string(),
        provider_id: z.string(),
        old: z.string(),
        new: z.string(),
      }),
    ),
    lifecycle_changes: z.array(
      z.strictObject({
        resource_type: ResourceKind,
        resource_id: z.string(),
        provider_id: z.string().nullable(),
        kind: z.enum([
          "end_of_life_earlier",
          "end_of_life_later",
          "end_of_life_scheduled",
          "end_of_life_unscheduled",
          "deprecation_earlier",
          "deprecation_later",
          "deprecation_scheduled",
          "deprecation_unscheduled",
          "replacement_added",
          "replacement_removed",
        ]),
        old: z.string().nullable(),
        new: z.string().nullable(),
        days: z.int().nullable(),
      }),
    ),
    source_events: z.array(
      z.strictObject({
        event_id: z.string(),
        event_type: SourceEventType,
        provider_id: z.string(),
        source_id: z.string(),
        source_url: z.string(),
        detected_at: IsoDateTime,
        previous_sha256: Sha256.nullable(),
        current_sha256: Sha256.nullable(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "ReleaseDiff", description: "diff.json: what changed since the previous release." });

const CoverageCounts = z.strictObject({ monitored: Count, partial: Count, unmonitored: Count });
const CheckRow = z.record(z.string(), z.unknown());
const ReportIssue = z.strictObject({
  check: z.string(),
  message: z.string(),
  count: Count,
  examples: z.array(CheckRow),
});
const ConflictSide = z.strictObject({ source_id: z.string(), value: z.union([z.string(), z.number()]) });

export const BuildReportFile = z
  .strictObject({
    now: IsoDateTime,
    previous_release_id: ReleaseId.nullable(),
    providers: z.array(
      z.strictObject({
        provider_id: z.string(),
        deployments: Count,
        priced: Count,
        scheduled_end_of_life: Count,
        coverage: CoverageCounts,
      }),
    ),
    totals: z.strictObject({
      deployments: Count,
      priced: Count,
      scheduled_end_of_life: Count,
      lifecycle_records: Count,
      events: Count,
      sources: Count,
      coverage: CoverageCounts,
    }),
    errors: z.array(ReportIssue),
    warnings: z.array(ReportIssue),
    conflicts: z.array(
      z.strictObject({
        resource_id: z.string(),
        provider_id: z.string(),
        field: z.string(),
        official: ConflictSide,
        community: ConflictSide,
      }),
    ),
    carried_forward: z.array(
      z.strictObject({
        source_id: z.string(),
        provider_id: z.string(),
        source_url: z.string(),
        observed_at: IsoDateTime.nullable(),
        deployments: Count,
        lifecycle_assertions: Count,
      }),
    ),
    failed_without_facts: z.array(
      z.strictObject({ source_id: z.string(), provider_id: z.string(), source_url: z.string() }),
    ),
    corrections: z.array(
      z.strictObject({
        ...Correction.shape,
        provider_id: z.string(),
        status: z.enum(["applied", "stale", "ambiguous"]),
        occurrences: Count,
      }),
    ),
  })
  .meta({ id: "BuildReport", description: "report.json: the build report of the release." });

/** Every JSON file of a release and its schema, by file name. */
export const RELEASE_FILE_SCHEMAS = {
  "catalog.json": CatalogContent,
  "facts.json": FactsFile,
  "diff.json": ReleaseDiffFile,
  "report.json": BuildReportFile,
  "manifest.json": ReleaseManifest,
} as const;

/** The JSON Schema (draft 2020-12) of each release file, as committed under src/schema/json-schema/. */
export function releaseJsonSchemas(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(RELEASE_FILE_SCHEMAS).map(([file, schema]) => [
      file.replace(/\.json$/, ".schema.json"),
      z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any" }),
    ]),
  );
}
