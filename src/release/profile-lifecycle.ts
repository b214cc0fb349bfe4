/**
 * Merge step 0a': a cross-Region inference profile dated by the Region-scoped lifecycle
 * statements that cover every Region sending requests into it. Pure.
 *
 * Bedrock's lifecycle pages give a model's Legacy and EOL dates per Region ("the Regions column
 * lists only the Regions covered by a model's announced EOL date"), and a model card's Geo and
 * Global columns say which Regions send requests into the model's profiles (a profile fact's
 * `source_regions`). Where one official source that is no availability list gives the same
 * milestones for every one of a profile's source Regions, the statement speaks for the profile
 * too: Claude Sonnet 4's `us`, `eu`, `apac` and `global` profiles end with its EOL in all of
 * their Regions. The source then also states it for the profile, `official_inferred` (the page
 * does not name the profile). A statement that leaves out one source Region dates nothing: the
 * model may stay Active there. A card's own In-Region Legacy cell is about that endpoint, not a
 * profile, so availability lists' statements never count.
 *
 * It runs before the listing gate, which drops a lifecycle page's Region where the model's card
 * offers no In-Region endpoint (listing-gate.ts): the statement reaches the profile first.
 */
import type { DeploymentFact, LifecycleAssertion } from "../schema/index.js";
import type { SourceFacts } from "./facts.js";
import { inferred, inferredMilestone, push, targets } from "./merge-candidates.js";

export function withProfileStatements(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): SourceFacts[] {
  const profiles = new Map<string, DeploymentFact[]>();
  for (const source of sources)
    if (isOfficial(source))
      for (const d of source.output.deployments)
        if (d.source_regions) push(profiles, `${d.provider_id}|${d.provider_model_id}`, d);
  if (profiles.size === 0) return [...sources];
  return sources.map((source) => {
    if (!isOfficial(source) || source.output.availability_list) return source;
    const added = profileStatements(source.output.lifecycle, profiles);
    return added.length === 0
      ? source
      : { ...source, output: { ...source.output, lifecycle: [...source.output.lifecycle, ...added] } };
  });
}

/** One source's statements about the profiles whose every source Region they cover. */
function profileStatements(
  lifecycle: readonly LifecycleAssertion[],
  profiles: ReadonlyMap<string, DeploymentFact[]>,
): LifecycleAssertion[] {
  // Region-scoped statements grouped by model and by what they say: the Regions each covers
  const statements = new Map<string, { assertion: LifecycleAssertion; regions: Set<string> }>();
  for (const assertion of lifecycle) {
    const region = assertion.target?.region;
    if (assertion.scope !== "deployment" || !assertion.target || region === undefined) continue;
    if (!profiles.has(`${assertion.provider_id}|${assertion.target.provider_model_id}`)) continue;
    const { target, evidence: _, ...said } = assertion;
    const key = JSON.stringify([target.provider_model_id, target.api_surface, target.mode, said]);
    const statement = statements.get(key) ?? { assertion, regions: new Set<string>() };
    statement.regions.add(region);
    statements.set(key, statement);
  }
  const added: LifecycleAssertion[] = [];
  for (const { assertion, regions } of statements.values()) {
    const target = assertion.target;
    if (!target) continue;
    const seen = new Set<string>();
    for (const profile of profiles.get(`${assertion.provider_id}|${target.provider_model_id}`) ?? []) {
      if (seen.has(profile.id)) continue;
      seen.add(profile.id);
      if (!(profile.source_regions ?? []).every((r) => regions.has(r))) continue;
      if (!targets({ ...target, region: profile.region }, profile)) continue;
      added.push({
        ...assertion,
        target: { ...target, region: profile.region },
        evidence: inferred(assertion.evidence),
        ...(assertion.deprecation ? { deprecation: inferredMilestone(assertion.deprecation) } : {}),
        ...(assertion.end_of_life ? { end_of_life: inferredMilestone(assertion.end_of_life) } : {}),
        ...(assertion.extended_access
          ? { extended_access: inferredMilestone(assertion.extended_access) }
          : {}),
      });
    }
  }
  return added;
}
