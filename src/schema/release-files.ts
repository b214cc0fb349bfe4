/**
 * Schemas of the JSON files of a published release that have no schema elsewhere: facts.json
 * (each source's facts, for the next build's carry-forward) and report.json (the build report).
 * catalog.json is `CatalogContent` and manifest.json `ReleaseManifest` (release.ts), diff.json
 * `ReleaseDiff` (history.ts, also served by the API). `RELEASE_FILE_SCHEMAS` maps each file name to its
 * schema; the JSON Schemas under src/schema/json-schema/ are generated from it (`npm run json-schema`).
 */
import { z } from "zod";
import { IsoDateTime, ProviderId, ReleaseId, Url } from "./common.js";
import { Correction } from "./corrections.js";
import { SourceType } from "./evidence.js";
import { ReleaseDiff } from "./history.js";
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
    content_fingerprint: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .meta({
        description:
          "SHA-256 of what 'unchanged' compares (the catalog's records without their check times, and the facts): the next build compares its own with it instead of recomputing it from this release. Absent in releases published before it was stored.",
      }),
  })
  .meta({ id: "BuildReport", description: "report.json: the build report of the release." });

/** Every JSON file of a release and its schema, by file name. */
export const RELEASE_FILE_SCHEMAS = {
  "catalog.json": CatalogContent,
  "facts.json": FactsFile,
  "diff.json": ReleaseDiff,
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
