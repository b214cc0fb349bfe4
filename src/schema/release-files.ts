/**
 * Schemas of the JSON files of a published release that have no schema elsewhere: facts.json
 * (each source's facts, for the next build's carry-forward) and report.json (the build report).
 * catalog.json is `CatalogContent` and manifest.json `ReleaseManifest` (release.ts), diff.json
 * `ReleaseDiff` (history.ts, also served by the API). `RELEASE_FILE_SCHEMAS` maps each file name to its
 * schema; the JSON Schemas under src/schema/json-schema/ are generated from it (`npm run json-schema`).
 */
import { z } from "zod";
import { DeploymentId, IsoDateTime, MicroUsd, ProviderId, ReleaseId, Url } from "./common.js";
import { Correction } from "./corrections.js";
import { CapabilityName } from "./deployment.js";
import { SourceType } from "./evidence.js";
import { ReleaseDiff } from "./history.js";
import { PricesFile } from "./price-history.js";
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
  /** true: a dated copy of a page that has since changed (its definition's `archived`): not a current listing. */
  archived: z.literal(true).optional(),
  /** The source only fills deployments other sources place (SourceDefinition.fills_only). */
  fills_only: z.literal(true).optional(),
  /** Community datasets it is not independent of (SourceDefinition.not_independent_of). */
  not_independent_of: z.array(z.uuid()).optional(),
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
const OfficialSpecs = z
  .strictObject({
    non_retired: Count,
    context_tokens: Count,
    max_output_tokens: Count,
    capability: Count,
  })
  .optional()
  .meta({
    description:
      "Of the deployments not retired (non_retired): how many have a context window and a max output that an official fact states (not null), and at least one capability whose verification status is official_*; what a community source alone gives does not count. Absent in releases published before it was stored.",
  });
const LevelCounts = z.strictObject({
  official_declared: Count,
  official_inferred: Count,
  community_corroborated: Count,
  community_reported: Count,
});
const VerificationCounts = z
  .strictObject({
    listings: LevelCounts,
    prices: LevelCounts,
    limits: LevelCounts,
    capabilities: LevelCounts,
  })
  .optional()
  .meta({
    description:
      "Facts by verification level: listings (one per deployment), prices (one per rate card), limits (each known context window and max output) and capabilities (each stated entry). Absent in releases published before it was stored.",
  });
const DisagreementSide = z.strictObject({
  source_id: z.string(),
  value: z.union([z.string(), z.number()]).nullable(),
  observed_at: IsoDateTime,
});

const IdentityName = z.strictObject({
  provider_model_id: z.string(),
  sources: z.array(
    z.strictObject({ source_id: z.string(), source_type: SourceType, source_url: z.string() }),
  ),
});

/**
 * The names of one model of one provider that official sources use differently, as the merge
 * found them (src/release/model-identity-fold.ts, docs/model-identity.md): every fold, and every
 * near pair it kept apart, with why.
 */
export const ModelIdentityReport = z
  .strictObject({
    folds: z.array(
      z.strictObject({
        provider_id: z.string(),
        relation: z.enum(["spelling", "abbreviation", "brand_word"]),
        kept: IdentityName,
        folded: IdentityName,
        evidence: z.array(z.string()),
      }),
    ),
    kept_apart: z.array(
      z.strictObject({
        provider_id: z.string(),
        relation: z.enum(["spelling", "abbreviation", "brand_word", "alias_or_snapshot"]),
        names: z.tuple([IdentityName, IdentityName]),
        reason: z.enum([
          "named_together",
          "ambiguous",
          "words_name_another_model",
          "prices_differ",
          "limits_differ",
          "dates_differ",
          "moving_name",
        ]),
        detail: z.string(),
      }),
    ),
  })
  .meta({
    description:
      "Names of one model of one provider that two official sources spell differently: each fold (the kept and the folded name, the official sources that use each, and the evidence that made it a fold), and each near pair the build kept apart, with the reason. Absent in releases published before it was stored.",
  });
export type ModelIdentityReport = z.infer<typeof ModelIdentityReport>;

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
        official_specs: OfficialSpecs,
        verification: VerificationCounts,
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
      official_specs: OfficialSpecs,
      verification: VerificationCounts,
    }),
    errors: z.array(ReportIssue),
    warnings: z.array(ReportIssue),
    unlisted_offerings: z
      .array(
        z.strictObject({
          source_id: z.string(),
          provider_id: z.string(),
          deployment_id: z.string(),
          excluded_by: Url,
          reason: z.string(),
        }),
      )
      .optional()
      .meta({
        description:
          "Community deployment records that an official availability list (or a model page's batch support) excludes: the build created nothing for them. Absent in releases published before it was stored.",
      }),
    community_zero_prices: z
      .array(
        z.strictObject({
          source_id: z.string(),
          provider_id: z.string(),
          deployment_id: z.string(),
          fields: z.array(z.string()).min(1),
        }),
      )
      .optional()
      .meta({
        description:
          "Community rate cards with a price of 0, read as unknown (null; an input price of 0 drops the card). Absent in releases published before it was stored.",
      }),
    input_limit_contexts: z
      .array(
        z.strictObject({
          source_id: z.string(),
          provider_id: z.string(),
          deployment_id: z.string(),
          context_tokens: z.int().positive(),
          input_limit_source_id: z.string(),
        }),
      )
      .optional()
      .meta({
        description:
          "Community context windows that another community dataset states are the model's input limit (models.dev's limit.input below its limit.context): not used as context windows. Absent in releases published before it was stored.",
      }),
    stale_alias_prices: z
      .array(z.strictObject({ source_id: z.string(), provider_id: z.string(), deployment_id: z.string() }))
      .optional()
      .meta({
        description:
          "Community prices of a moving alias (…-latest) that no official source resolves to the model it points to now: dropped as stale. Absent in releases published before it was stored.",
      }),
    conflicts: z.array(
      z.strictObject({
        resource_id: z.string(),
        provider_id: z.string(),
        field: z.string(),
        official: ConflictSide,
        community: ConflictSide,
      }),
    ),
    official_disagreements: z
      .array(
        z.strictObject({
          provider_id: z.string(),
          provider_model_id: z.string(),
          deployment_id: z.string().optional(),
          modes: z.array(z.string()).optional(),
          field: z.string(),
          kept: DisagreementSide,
          other: DisagreementSide,
        }),
      )
      .optional()
      .meta({
        description:
          "Official facts that contradict each other on a limit (context_tokens, max_output_tokens) or a capability (capabilities.<name>, its status): two facts about the same provider model (and modes), or, with deployment_id, an official fact about that deployment (which is kept) and an official fact about its provider model, or (field capabilities.batch, other value supported) an official batch price of the deployment's model at its surface and region against an official fact that the model does not support batch (which is kept: both stay served, the batch deployment and the capability). Each names the value the merge kept (deployment facts before model facts, declared before inferred, then the newest observation) and another official source's. Absent in releases published before it was stored.",
      }),
    community_disagreements: z
      .array(
        z.strictObject({
          resource_id: z.string(),
          provider_id: z.string(),
          field: z.string(),
          kept: DisagreementSide,
          other: DisagreementSide,
        }),
      )
      .optional()
      .meta({
        description:
          "Community datasets that disagree about a deployment's field where no official source gives it: a rate card price (rate_card.<component>), a limit (context_tokens, max_output_tokens) or a capability (capabilities.<name>, its status). Each names the value the merge kept (the value two datasets agree on, community_corroborated, else the first in precedence, community_reported) and another dataset's. Absent in releases published before it was stored.",
      }),
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
    model_identity: ModelIdentityReport.optional(),
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

/** A string column with few distinct values: each value once, and per record the index of its value. */
const CodedColumn = z.strictObject({
  values: z.array(z.string().nullable()),
  codes: z.array(Count),
});
export type CodedColumn = z.infer<typeof CodedColumn>;
const Positions = z.array(Count).meta({ description: "Record positions in the index's order, ascending." });
const Nullable = <T extends z.ZodType>(item: T) => z.array(item.nullable());

/**
 * serve-index.json: what the server filters, sorts and searches on, computed by the build from
 * the catalog it validated, plus every record's byte span in catalog.json, so a server reads,
 * hash-checks and parses this file and reads a record from catalog.json only when a request
 * needs it. Records are listed in the order the API serves them (deployments by id, lifecycle
 * records by resource_type, resource_id); a position is an index into every column of its list.
 *
 * Format 2 (src/snapshot/deployment-lifecycles.ts): catalog.json does not store the deployments'
 * own lifecycle records, so `lifecycle` lists the stored records (providers and models) and
 * `deployment_lifecycle` holds the deployments' own lifecycles, by deployment position; those
 * records come first in the served order. Format 1: `lifecycle` lists every record.
 */
export const ServeIndexFile = z
  .strictObject({
    format: z.union([z.literal(1), z.literal(2)]),
    /** The size of catalog.json: every span lies inside it. */
    catalog_bytes: Count,
    /** The byte span [offset, length] of each top-level member of catalog.json. */
    members: z.record(z.string(), z.tuple([Count, Count])),
    deployments: z.strictObject({
      offset: z.array(Count),
      length: z.array(Count),
      id: z.array(DeploymentId),
      provider_model_id: z.array(z.string()),
      provider_id: CodedColumn,
      model_id: CodedColumn,
      region: CodedColumn,
      mode: CodedColumn,
      status: CodedColumn,
      /** Deployments with a rate card. */
      priced: Positions,
      input_micro_usd: Nullable(MicroUsd),
      output_micro_usd: Nullable(MicroUsd),
      context_tokens: Nullable(z.int().positive()),
      /** Absent in releases published before it was stored (the server reads the records). */
      max_output_tokens: Nullable(z.int().positive()).optional(),
      /** Per capability, the deployments whose status for it is `supported`. */
      supported: z.partialRecord(CapabilityName, Positions),
      /** The weaker verification level of the listing and (when priced) the rate card. */
      verification: CodedColumn,
    }),
    lifecycle: z.strictObject({
      offset: z.array(Count),
      length: z.array(Count),
      resource_id: z.array(z.string()),
      resource_type: CodedColumn,
      provider_id: CodedColumn,
      model_id: CodedColumn,
      status: CodedColumn,
      deprecation_state: CodedColumn,
      deprecation_date: CodedColumn,
      end_of_life_state: CodedColumn,
      end_of_life_date: CodedColumn,
      coverage_status: CodedColumn,
      last_changed_at: CodedColumn,
      /** Records with a summary (providers and models). */
      summary: Positions,
    }),
    /** Format 2: each deployment's own lifecycle, at the deployment's position (its status is the deployment's). */
    deployment_lifecycle: z
      .strictObject({
        announced_at: CodedColumn,
        deprecation_state: CodedColumn,
        deprecation_date: CodedColumn,
        deprecation_precision: CodedColumn,
        deprecation_date_type: CodedColumn,
        end_of_life_state: CodedColumn,
        end_of_life_date: CodedColumn,
        end_of_life_precision: CodedColumn,
        end_of_life_date_type: CodedColumn,
        /** The replacement ids as a JSON array's text. */
        replacement_ids: CodedColumn,
        coverage_status: CodedColumn,
        last_changed_at: CodedColumn,
      })
      .optional(),
  })
  .meta({
    id: "ServeIndex",
    description: "serve-index.json: the server's columns and catalog.json byte spans.",
  });
export type ServeIndexFile = z.infer<typeof ServeIndexFile>;

/** Every JSON file of a release and its schema, by file name. */
export const RELEASE_FILE_SCHEMAS = {
  "catalog.json": CatalogContent,
  "facts.json": FactsFile,
  "diff.json": ReleaseDiff,
  "report.json": BuildReportFile,
  "manifest.json": ReleaseManifest,
  "serve-index.json": ServeIndexFile,
  "prices.json": PricesFile,
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
