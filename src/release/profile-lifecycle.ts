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
 * A profile no card describes (a community key's `us.` / `eu.` / `apac.` … model id) has no
 * source Regions of its own: it can send requests only to Regions of its geography where the
 * model runs (geographyIncludes). Where one official source ends the model on one date in
 * every Region it names, and those Regions hold every place an official source gives the model
 * in the profile's geography (at least one of them), the model has nowhere left to run there
 * and the end of life (with the Legacy date, when every Region has the same) is stated for the
 * profile, `official_inferred`: AWS's lifecycle page says that after the EOL date "the model is
 * no longer available for use in all AWS Regions". Claude 3 Sonnet's community `us`, `eu` and
 * `apac` profiles end with its EOL in us-east-1 and us-west-2, eu-west-1 and eu-west-3, and the
 * three Asia Pacific Regions. Where the Regions leave out an official place in the geography,
 * or name none in it, nothing is stated: the model may run on there.
 *
 * It runs before the listing gate, which drops a lifecycle page's Region where the model's card
 * offers no In-Region endpoint (listing-gate.ts): the statement reaches the profile first.
 */
import { BEDROCK_GEOGRAPHIES, bedrockIdentity, geographyIncludes } from "../normalize/identity/index.js";
import type { DeploymentFact, LifecycleAssertion, LifecycleMilestone } from "../schema/index.js";
import type { SourceFacts } from "./facts.js";
import { inferred, inferredMilestone, inferredStatement, push, targets } from "./merge-candidates.js";

export function withProfileStatements(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): SourceFacts[] {
  const profiles = new Map<string, DeploymentFact[]>();
  for (const source of sources)
    if (isOfficial(source))
      for (const d of source.output.deployments)
        if (d.source_regions) push(profiles, `${d.provider_id}|${d.provider_model_id}`, d);
  const places = geographyPlaces(sources, isOfficial, profiles);
  if (profiles.size === 0 && places.undescribed.size === 0) return [...sources];
  return sources.map((source) => {
    if (!isOfficial(source) || source.output.availability_list) return source;
    const added = profileStatements(source.output.lifecycle, profiles);
    const stated = new Set(added.map((a) => `${a.target?.provider_model_id}|${a.target?.region}`));
    for (const a of geographyStatements(source.output.lifecycle, places))
      if (!stated.has(`${a.target?.provider_model_id}|${a.target?.region}`)) added.push(a);
    return added.length === 0
      ? source
      : { ...source, output: { ...source.output, lifecycle: [...source.output.lifecycle, ...added] } };
  });
}

/** Where official sources place each model, and the geography profiles no card describes. */
interface GeographyPlaces {
  /** provider|provider_model_id|api_surface -> the Regions official sources place the model in. */
  official: Map<string, Set<string>>;
  /** provider|provider_model_id -> profile facts (any source) whose geography no official fact describes. */
  undescribed: Map<string, DeploymentFact[]>;
}

function geographyPlaces(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
  described: ReadonlyMap<string, DeploymentFact[]>,
): GeographyPlaces {
  const official = new Map<string, Set<string>>();
  const undescribed = new Map<string, DeploymentFact[]>();
  const describedIds = new Set([...described.values()].flat().map((d) => d.id));
  const seen = new Set<string>();
  for (const source of sources)
    for (const d of source.output.deployments) {
      const geography =
        d.provider_id === bedrockIdentity.providerId && BEDROCK_GEOGRAPHIES.includes(d.region);
      if (isOfficial(source)) {
        const key = `${d.provider_id}|${d.provider_model_id}|${d.api_surface}`;
        const regions = official.get(key) ?? new Set<string>();
        if (!geography) regions.add(d.region);
        for (const r of d.source_regions ?? []) regions.add(r);
        official.set(key, regions);
      }
      if (!geography || d.source_regions || describedIds.has(d.id) || seen.has(d.id)) continue;
      seen.add(d.id);
      push(undescribed, `${d.provider_id}|${d.provider_model_id}`, d);
    }
  return { official, undescribed };
}

/** A milestone's statement without its evidence, to compare two Regions' rows. */
function said(milestone: LifecycleMilestone | undefined): string {
  if (milestone === undefined) return "";
  const { evidence: _, ...rest } = milestone;
  return JSON.stringify(rest);
}

/**
 * One source's end of life for the undescribed profiles of a model it ends in every Region it
 * names, where those Regions hold every official place of the model in the profile's geography.
 */
function geographyStatements(
  lifecycle: readonly LifecycleAssertion[],
  places: GeographyPlaces,
): LifecycleAssertion[] {
  const byModel = new Map<string, LifecycleAssertion[]>();
  for (const a of lifecycle) {
    if (a.scope !== "deployment" || a.target?.region === undefined) continue;
    if (!places.undescribed.has(`${a.provider_id}|${a.target.provider_model_id}`)) continue;
    push(
      byModel,
      `${a.provider_id}|${a.target.provider_model_id}|${a.target.api_surface ?? ""}|${a.target.mode ?? ""}`,
      a,
    );
  }
  const added: LifecycleAssertion[] = [];
  for (const rows of byModel.values()) {
    const [first] = rows;
    const target = first?.target;
    const eol = first?.end_of_life;
    if (!first || !target || !eol || eol.date === null || target.api_surface === undefined) continue;
    // one end of life in every Region the source names for the model
    if (rows.some((a) => said(a.end_of_life) !== said(eol))) continue;
    const regions = new Set(rows.flatMap((a) => (a.target?.region === undefined ? [] : [a.target.region])));
    const official = places.official.get(
      `${first.provider_id}|${target.provider_model_id}|${target.api_surface}`,
    );
    const sameDeprecation = rows.every(
      (a) =>
        said(a.deprecation) === said(first.deprecation) && a.deprecation_status === first.deprecation_status,
    );
    for (const profile of places.undescribed.get(`${first.provider_id}|${target.provider_model_id}`) ?? []) {
      if (!targets({ ...target, region: profile.region }, profile)) continue;
      const inGeography = (r: string) => geographyIncludes(profile.region, r) === true;
      if (![...regions].some(inGeography)) continue;
      if ([...(official ?? [])].some((r) => inGeography(r) && !regions.has(r))) continue;
      added.push({
        scope: "deployment",
        provider_id: first.provider_id,
        ...(first.model_id ? { model_id: first.model_id } : {}),
        target: { ...target, region: profile.region },
        end_of_life: inferredMilestone(eol),
        ...(sameDeprecation && first.deprecation
          ? {
              deprecation: inferredMilestone(first.deprecation),
              ...(first.deprecation_status ? { deprecation_status: first.deprecation_status } : {}),
            }
          : {}),
        evidence: inferred(first.evidence),
      });
    }
  }
  return added;
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
      added.push(inferredStatement(assertion, { ...target, region: profile.region }));
    }
  }
  return added;
}
