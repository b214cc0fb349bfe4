/**
 * The build report: counts per provider, totals, warnings and errors from the checks,
 * unresolved replacements, conflicts between sources and carried-forward sources; and its
 * plain-text table for the build log.
 */
import { compareCodePoints } from "../lib/canonical-json.js";
import type {
  CapabilityName,
  CatalogContent,
  CorrectionOutcome,
  Deployment,
  ModelIdentityReport,
} from "../schema/index.js";
import type { SourceFacts } from "./facts.js";
import type {
  BuildReport,
  CheckResult,
  CommunityDisagreement,
  CommunityZeroPrice,
  CoverageCounts,
  InputLimitContext,
  LevelCounts,
  OfficialDisagreement,
  OfficialSpecCounts,
  ProviderReport,
  ReportIssue,
  SourceConflict,
  StaleAliasPrice,
  UnlistedOffering,
  UnresolvedReplacement,
  VerificationCounts,
} from "./types.js";

const EXAMPLES = 5;

export interface ReportInput {
  now: string;
  previousReleaseId: string | null;
  catalog: CatalogContent;
  checks: readonly CheckResult[];
  conflicts: readonly SourceConflict[];
  /** Official model facts that contradict each other; absent = none were compared. */
  officialDisagreements?: readonly OfficialDisagreement[];
  /** Community datasets that disagree where no official source speaks; absent = none were compared. */
  communityDisagreements?: readonly CommunityDisagreement[];
  /** By provider: non-retired deployments and their official specs (merge.ts); absent = not counted. */
  officialSpecs?: ReadonlyMap<string, OfficialSpecCounts>;
  /** Community facts the listing gate dropped; absent = the gate did not run. */
  unlistedOfferings?: readonly UnlistedOffering[];
  /** Community zero prices read as unknown; absent = not checked. */
  communityZeroPrices?: readonly CommunityZeroPrice[];
  inputLimitContexts?: readonly InputLimitContext[];
  /** Community prices of unresolved moving aliases, dropped; absent = not checked. */
  staleAliasPrices?: readonly StaleAliasPrice[];
  unresolvedReplacements: readonly UnresolvedReplacement[];
  /** Names official sources use differently for one model (model-identity-fold.ts); absent = not compared. */
  modelIdentity?: ModelIdentityReport;
  carriedForward: readonly SourceFacts[];
  failedWithoutFacts: ReadonlyArray<{ source_id: string; provider_id: string; url: string }>;
  /** What became of each reviewed upstream correction (sources/<provider>/corrections.yaml). */
  corrections?: readonly CorrectionOutcome[];
}

function issue(check: CheckResult): ReportIssue {
  return {
    check: check.name,
    message: check.message,
    count: check.violations,
    examples: check.rows.slice(0, EXAMPLES),
  };
}

export function buildReport(input: ReportInput): BuildReport {
  return withCheckResults(reportWithoutChecks(input), input.checks);
}

/**
 * The report with the checks' errors and warnings added (check warnings first, then the
 * report's own: unresolved replacements, stale corrections).
 */
export function withCheckResults(report: BuildReport, checks: readonly CheckResult[]): BuildReport {
  return {
    ...report,
    errors: [
      ...checks.filter((c) => c.severity === "error" && c.violations > 0).map(issue),
      ...report.errors,
    ],
    warnings: [
      ...checks.filter((c) => c.severity === "warning" && c.violations > 0).map(issue),
      ...report.warnings,
    ],
  };
}

/**
 * Everything of the report but the checks' results: a build computes it while it still holds
 * the catalog, and adds the checks once DuckDB has run them (withCheckResults).
 */
export function reportWithoutChecks(input: Omit<ReportInput, "checks">): BuildReport {
  const providers = new Map<string, ProviderReport>();
  const emptyCoverage = (): CoverageCounts => ({ monitored: 0, partial: 0, unmonitored: 0 });
  const totals: BuildReport["totals"] = {
    deployments: 0,
    priced: 0,
    scheduled_end_of_life: 0,
    lifecycle_records: input.catalog.lifecycle.length,
    events: input.catalog.events.length,
    sources: input.catalog.sources.length,
    coverage: emptyCoverage(),
  };
  for (const d of input.catalog.deployments) {
    let entry = providers.get(d.provider_id);
    if (!entry) {
      entry = {
        provider_id: d.provider_id,
        deployments: 0,
        priced: 0,
        scheduled_end_of_life: 0,
        coverage: emptyCoverage(),
      };
      providers.set(d.provider_id, entry);
    }
    const priced = d.rate_card !== null ? 1 : 0;
    const scheduled = d.lifecycle.end_of_life.state === "scheduled" ? 1 : 0;
    entry.deployments++;
    entry.priced += priced;
    entry.scheduled_end_of_life += scheduled;
    entry.coverage[d.lifecycle.coverage.status]++;
    totals.deployments++;
    totals.priced += priced;
    totals.scheduled_end_of_life += scheduled;
    totals.coverage[d.lifecycle.coverage.status]++;
  }
  countVerification(input.catalog.deployments, providers, totals);
  const officialSpecs = input.officialSpecs;
  if (officialSpecs) {
    const none = (): OfficialSpecCounts => ({
      non_retired: 0,
      context_tokens: 0,
      max_output_tokens: 0,
      capability: 0,
    });
    const sum = none();
    for (const entry of providers.values()) {
      const counts = officialSpecs.get(entry.provider_id) ?? none();
      entry.official_specs = { ...counts };
      sum.non_retired += counts.non_retired;
      sum.context_tokens += counts.context_tokens;
      sum.max_output_tokens += counts.max_output_tokens;
      sum.capability += counts.capability;
    }
    totals.official_specs = sum;
  }
  const warnings: ReportIssue[] = [];
  if (input.unresolvedReplacements.length > 0)
    warnings.push({
      check: "replacement_unresolved",
      message:
        "a provider-named replacement was dropped, not guessed: it matches no model of the catalog (no_match), names the resource's own model (self), or names several current versions (ambiguous)",
      count: input.unresolvedReplacements.length,
      examples: input.unresolvedReplacements.slice(0, EXAMPLES).map((u) => ({ ...u })),
    });
  const corrections = [...(input.corrections ?? [])];
  const notApplied = corrections.filter((c) => c.status !== "applied");
  if (notApplied.length > 0)
    warnings.push({
      check: "correction_stale",
      message:
        "a reviewed correction was not applied: the capture no longer says what it corrects (stale: review the entry) or says it more than once (ambiguous)",
      count: notApplied.length,
      examples: notApplied.slice(0, EXAMPLES).map((c) => ({
        provider_id: c.provider_id,
        source: c.source,
        status: c.status,
        page_says: c.page_says,
      })),
    });
  return {
    now: input.now,
    previous_release_id: input.previousReleaseId,
    providers: [...providers.values()].sort((a, b) => compareCodePoints(a.provider_id, b.provider_id)),
    totals,
    errors: [],
    warnings,
    conflicts: [...input.conflicts],
    official_disagreements: [...(input.officialDisagreements ?? [])],
    ...(input.unlistedOfferings ? { unlisted_offerings: [...input.unlistedOfferings] } : {}),
    ...(input.communityZeroPrices ? { community_zero_prices: [...input.communityZeroPrices] } : {}),
    ...(input.inputLimitContexts ? { input_limit_contexts: [...input.inputLimitContexts] } : {}),
    ...(input.staleAliasPrices ? { stale_alias_prices: [...input.staleAliasPrices] } : {}),
    ...(input.modelIdentity ? { model_identity: input.modelIdentity } : {}),
    community_disagreements: [...(input.communityDisagreements ?? [])],
    carried_forward: input.carriedForward.map((s) => ({
      source_id: s.source_id,
      provider_id: s.provider_id,
      source_url: s.source_url,
      observed_at: s.observed_at,
      deployments: s.output.deployments.length,
      lifecycle_assertions: s.output.lifecycle.length,
    })),
    failed_without_facts: input.failedWithoutFacts.map((s) => ({
      source_id: s.source_id,
      provider_id: s.provider_id,
      source_url: s.url,
    })),
    corrections,
  };
}

function noLevels(): LevelCounts {
  return { official_declared: 0, official_inferred: 0, community_corroborated: 0, community_reported: 0 };
}

function noVerification(): VerificationCounts {
  return { listings: noLevels(), prices: noLevels(), limits: noLevels(), capabilities: noLevels() };
}

/** Adds one deployment's facts to verification counts, by level. */
function addVerification(counts: VerificationCounts, d: Deployment): void {
  const p = d.provenance;
  counts.listings[p.listing.verification_status]++;
  if (p.rate_card) counts.prices[p.rate_card.verification_status]++;
  if (p.context_tokens) counts.limits[p.context_tokens.verification_status]++;
  if (p.max_output_tokens) counts.limits[p.max_output_tokens.verification_status]++;
  for (const name in d.capabilities) {
    const level = d.capabilities[name as CapabilityName]?.verification_status;
    if (level) counts.capabilities[level]++;
  }
}

/** Listings, prices, limits and capabilities by verification level, per provider and in total. */
function countVerification(
  deployments: readonly Deployment[],
  providers: ReadonlyMap<string, ProviderReport>,
  totals: BuildReport["totals"],
): void {
  const total = noVerification();
  for (const d of deployments) {
    const entry = providers.get(d.provider_id);
    if (entry) {
      entry.verification ??= noVerification();
      addVerification(entry.verification, d);
    }
    addVerification(total, d);
  }
  totals.verification = total;
}

/** Counts by level as `declared/inferred/corroborated/reported`. */
export function formatLevels(c: LevelCounts): string {
  return `${c.official_declared}/${c.official_inferred}/${c.community_corroborated}/${c.community_reported}`;
}

/** The verification table of the build log: per provider and in total, each kind of fact by level. */
function verificationLines(report: BuildReport): string[] {
  const rows: string[][] = [];
  for (const p of [...report.providers, { ...report.totals, provider_id: "total" }]) {
    const v = p.verification;
    if (!v) continue;
    rows.push([
      p.provider_id,
      formatLevels(v.listings),
      formatLevels(v.prices),
      formatLevels(v.limits),
      formatLevels(v.capabilities),
    ]);
  }
  if (rows.length === 0) return [];
  return [
    "verification (official_declared/official_inferred/community_corroborated/community_reported):",
    ...pad([["provider", "listings", "prices", "limits", "capabilities"], ...rows]),
  ];
}

function pad(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) =>
    r
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

/** The report as a plain-text table for stderr. */
export function formatBuildReport(report: BuildReport): string {
  const header = [
    "provider",
    "deployments",
    "priced",
    "eol scheduled",
    "monitored",
    "partial",
    "unmonitored",
    "not retired",
    "official ctx",
    "official max out",
    "official capability",
  ];
  const row = (name: string, r: Omit<ProviderReport, "provider_id">) => {
    const specs = r.official_specs;
    return [
      name,
      String(r.deployments),
      String(r.priced),
      String(r.scheduled_end_of_life),
      String(r.coverage.monitored),
      String(r.coverage.partial),
      String(r.coverage.unmonitored),
      ...(specs
        ? [specs.non_retired, specs.context_tokens, specs.max_output_tokens, specs.capability].map(String)
        : ["-", "-", "-", "-"]),
    ];
  };
  const lines = pad([
    header,
    ...report.providers.map((p) => row(p.provider_id, p)),
    row("total", report.totals),
  ]);
  lines.push(
    `lifecycle records: ${report.totals.lifecycle_records}, events: ${report.totals.events}, sources: ${report.totals.sources}`,
  );
  const specs = report.totals.official_specs;
  if (specs) {
    const share = (n: number) =>
      `${n} (${specs.non_retired === 0 ? 0 : Math.round((n / specs.non_retired) * 1000) / 10}%)`;
    lines.push(
      `official specs of the ${specs.non_retired} deployments not retired: context ${share(specs.context_tokens)}, max output ${share(specs.max_output_tokens)}, a capability ${share(specs.capability)}`,
    );
  }
  lines.push(...verificationLines(report));
  const issues = (label: string, list: ReportIssue[]) => {
    if (list.length === 0) return;
    lines.push(`${label}: ${list.length}`);
    for (const i of list) {
      lines.push(`  ${i.check} (${i.count}): ${i.message}`);
      for (const example of i.examples) lines.push(`    ${JSON.stringify(example)}`);
    }
  };
  issues("errors", report.errors);
  issues("warnings", report.warnings);
  if (report.conflicts.length > 0) {
    lines.push(`conflicts (official wins): ${report.conflicts.length}`);
    for (const c of report.conflicts)
      lines.push(
        `  ${c.resource_id} ${c.field}: official ${c.official.value} (${c.official.source_id}) vs community ${c.community.value} (${c.community.source_id})`,
      );
  }
  if (report.official_disagreements.length > 0) {
    lines.push(
      `official sources disagree (deployment facts over model facts, declared over inferred, then newest wins): ${report.official_disagreements.length}`,
    );
    for (const d of report.official_disagreements) {
      const about = d.deployment_id
        ? `${d.deployment_id} (${d.field === "capabilities.batch" && d.other.value === "supported" ? "an official batch price vs its model's" : "its own fact vs its model's"})`
        : `${d.provider_id}/${d.provider_model_id}${d.modes ? ` (${d.modes.join(", ")})` : ""}`;
      lines.push(
        `  ${about} ${d.field}: kept ${d.kept.value} (${d.kept.source_id}, ${d.kept.observed_at}) vs ${d.other.value} (${d.other.source_id}, ${d.other.observed_at})`,
      );
    }
  }
  const unlisted = report.unlisted_offerings ?? [];
  if (unlisted.length > 0) {
    lines.push(
      `unlisted offerings (community records an official list excludes; nothing created): ${unlisted.length}`,
    );
    for (const u of unlisted)
      lines.push(`  ${u.deployment_id} (${u.source_id}): ${u.reason}: ${u.excluded_by}`);
  }
  const zeros = report.community_zero_prices ?? [];
  if (zeros.length > 0) {
    lines.push(`community zero prices read as unknown: ${zeros.length}`);
    for (const z of zeros) lines.push(`  ${z.deployment_id} (${z.source_id}): ${z.fields.join(", ")}`);
  }
  const inputLimits = report.input_limit_contexts ?? [];
  if (inputLimits.length > 0) {
    lines.push(
      `community context windows another dataset states are input limits, not used: ${inputLimits.length}`,
    );
    for (const l of inputLimits)
      lines.push(
        `  ${l.deployment_id} (${l.source_id}): ${l.context_tokens} is the input limit (${l.input_limit_source_id})`,
      );
  }
  const stale = report.stale_alias_prices ?? [];
  if (stale.length > 0) {
    lines.push(`community prices of aliases no official source resolves, dropped as stale: ${stale.length}`);
    for (const a of stale) lines.push(`  ${a.deployment_id} (${a.source_id})`);
  }
  lines.push(...modelIdentityLines(report.model_identity));
  const community = report.community_disagreements ?? [];
  if (community.length > 0) {
    lines.push(
      `community datasets disagree (no official source; a value two datasets agree on is kept): ${community.length}`,
    );
    for (const d of community)
      lines.push(
        `  ${d.resource_id} ${d.field}: kept ${d.kept.value} (${d.kept.source_id}, ${d.kept.observed_at}) vs ${d.other.value} (${d.other.source_id}, ${d.other.observed_at})`,
      );
  }
  const applied = report.corrections.filter((c) => c.status === "applied");
  if (applied.length > 0) {
    lines.push(`upstream corrections applied: ${applied.length}`);
    for (const c of applied)
      lines.push(`  ${c.provider_id}/${c.source}: "${c.page_says}" -> "${c.means}" (${c.evidence_url})`);
  }
  if (report.carried_forward.length > 0) {
    lines.push(`carried forward (source failed, last good facts kept): ${report.carried_forward.length}`);
    for (const s of report.carried_forward)
      lines.push(
        `  ${s.provider_id} ${s.source_url} observed ${s.observed_at ?? "unknown"} (${s.deployments} deployments, ${s.lifecycle_assertions} lifecycle assertions)`,
      );
  }
  if (report.failed_without_facts.length > 0) {
    lines.push(`failed with no earlier facts: ${report.failed_without_facts.length}`);
    for (const s of report.failed_without_facts) lines.push(`  ${s.provider_id} ${s.source_url}`);
  }
  return lines.join("\n");
}

/** The build log's lines of the model identity section: every fold, and the count kept apart by reason. */
export function modelIdentityLines(identity: BuildReport["model_identity"]): string[] {
  if (!identity) return [];
  const reasons = new Map<string, number>();
  for (const k of identity.kept_apart) reasons.set(k.reason, (reasons.get(k.reason) ?? 0) + 1);
  const apart = [...reasons]
    .sort(([a], [b]) => compareCodePoints(a, b))
    .map(([reason, n]) => `${reason} ${n}`)
    .join(", ");
  return [
    `model names folded into one identity: ${identity.folds.length}; near names kept apart: ${identity.kept_apart.length}${apart ? ` (${apart})` : ""}`,
    ...identity.folds.map(
      (f) =>
        `  ${f.provider_id}: ${f.folded.provider_model_id} -> ${f.kept.provider_model_id} (${f.relation})`,
    ),
  ];
}
