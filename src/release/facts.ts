/**
 * The facts of a build, per source: this build's parse output for sources that succeeded,
 * the previous release's facts for sources that failed (`carryForwardFailedSources`, marked
 * carried_forward), and the previous facts unchanged for sources that were skipped (not checked,
 * e.g. an offline build without a capture). Every release
 * stores them as `facts.json` so the next build can carry a failed source forward.
 */
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";
import type { DeploymentFact, LifecycleAssertion, ModelFact, ProviderAlias } from "../schema/index.js";
import { FactsFile, type ParseOutput, SourceFacts } from "../schema/index.js";
import type { SourceContribution } from "./contribution.js";

export const FACTS_FILE = "facts.json";

// The schemas of facts.json live with the other release files (src/schema/release-files.ts).
export { FactsFile, SourceFacts };

export interface GatheredFacts {
  facts: FactsFile;
  carriedForward: SourceFacts[];
  failedWithoutFacts: SourceContribution["source"][];
}

/** Sort by a cheap key; only items with equal keys are compared by their canonical JSON. */
function sortByKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  const canonical = new Map<T, string>();
  const canon = (item: T) => {
    let text = canonical.get(item);
    if (text === undefined) {
      text = canonicalJson(item);
      canonical.set(item, text);
    }
    return text;
  };
  return [...items].sort(
    (a, b) => compareCodePoints(key(a), key(b)) || compareCodePoints(canon(a), canon(b)),
  );
}

function assertionKey(a: LifecycleAssertion): string {
  const t = a.target;
  return [
    a.scope,
    a.provider_id,
    a.model_id ?? "",
    t?.provider_model_id ?? "",
    t?.region ?? "",
    t?.api_surface ?? "",
    t?.mode ?? "",
  ].join("\u0000");
}

/** Parser order is an accident of the page; sort so the file and the merge ties do not depend on it. */
function sortedOutput(output: ParseOutput): ParseOutput {
  const sorted: ParseOutput = {
    deployments: sortByKey<DeploymentFact>(output.deployments, (f) => f.id),
    lifecycle: sortByKey<LifecycleAssertion>(output.lifecycle, assertionKey),
    skipped: sortByKey(output.skipped, (s) => s.reason),
  };
  if (output.model_facts)
    sorted.model_facts = sortByKey<ModelFact>(
      output.model_facts,
      (f) => `${f.provider_id}\u0000${f.provider_model_id}`,
    );
  if (output.aliases)
    sorted.aliases = sortByKey<ProviderAlias>(output.aliases, (a) => `${a.provider_id}\u0000${a.alias}`);
  if (output.availability_list !== undefined) sorted.availability_list = output.availability_list;
  if (output.capability_lists)
    sorted.capability_lists = sortByKey(output.capability_lists, (l) => `${l.lab}\u0000${l.capability}`);
  if (output.availability_covers)
    sorted.availability_covers = sortByKey(
      output.availability_covers,
      (c) => `${c.api_surface}\u0000${c.mode}\u0000${c.region}`,
    );
  return sorted;
}

/** What a source's definition says about it that the merge honours (fill-only, dependence). */
function sourceTraits(
  source: SourceContribution["source"],
): Pick<SourceFacts, "archived" | "fills_only" | "not_independent_of"> {
  return {
    ...(source.archived ? { archived: true as const } : {}),
    ...(source.fills_only ? { fills_only: true as const } : {}),
    ...(source.not_independent_of ? { not_independent_of: [...source.not_independent_of] } : {}),
  };
}

/**
 * This build's facts per source. Parse outputs arrive validated by the normalize stage
 * (ParseOutput.parse at its boundary), so they are not parsed again here.
 */
export function gatherFacts(
  contributions: readonly SourceContribution[],
  previous: FactsFile | null,
): GatheredFacts {
  const previousBySource = new Map((previous?.sources ?? []).map((s) => [s.source_id, s]));
  const sources: SourceFacts[] = [];
  const carriedForward: SourceFacts[] = [];
  const failedWithoutFacts: SourceContribution["source"][] = [];
  const ordered = [...contributions].sort((a, b) =>
    compareCodePoints(a.source.source_id, b.source.source_id),
  );
  for (const contribution of ordered) {
    const { source } = contribution;
    if (contribution.failed) {
      const last = previousBySource.get(source.source_id);
      if (!last) {
        failedWithoutFacts.push(source);
        continue;
      }
      const carried: SourceFacts = {
        source_id: source.source_id,
        provider_id: source.provider_id,
        source_type: source.source_type,
        source_url: source.url,
        observed_at: last.observed_at,
        carried_forward: true,
        ...sourceTraits(source),
        output: sortedOutput(last.output),
      };
      sources.push(carried);
      carriedForward.push(carried);
      continue;
    }
    if (!contribution.output) {
      // Skipped this build (not checked, e.g. an offline build of a source whose capture is
      // not committed): its facts of the previous release stay exactly as they were, so an
      // offline rebuild of a release that a live build made reproduces it.
      const last = previousBySource.get(source.source_id);
      if (last) sources.push(last);
      continue;
    }
    sources.push({
      source_id: source.source_id,
      provider_id: source.provider_id,
      source_type: source.source_type,
      source_url: source.url,
      observed_at: contribution.observedAt,
      carried_forward: false,
      ...sourceTraits(source),
      output: sortedOutput(contribution.output),
    });
  }
  return { facts: { format: 1, sources }, carriedForward, failedWithoutFacts };
}
