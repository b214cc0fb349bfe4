/**
 * Merge step 0b, the listing step for fill-only sources: a community dataset marked
 * `fills_only` (models.dev, genai-prices: docs/corroboration.md) gives values to deployments
 * other sources place and never places one itself. Its facts about a deployment that no other
 * source's facts name are dropped here, before the merge gathers its candidates, so they
 * create nothing; the number dropped is kept per source. Pure.
 */
import type { SourceFacts } from "./facts.js";

export interface FilledSources {
  sources: SourceFacts[];
  /** By fill-only source id: how many of its deployment facts named no placed deployment. */
  unplaced: Map<string, number>;
}

export function withoutUnplacedFills(sources: readonly SourceFacts[]): FilledSources {
  const placed = new Set<string>();
  for (const source of sources)
    if (!source.fills_only) for (const fact of source.output.deployments) placed.add(fact.id);
  const unplaced = new Map<string, number>();
  const kept = sources.map((source) => {
    if (!source.fills_only) return source;
    const deployments = source.output.deployments.filter((fact) => placed.has(fact.id));
    unplaced.set(source.source_id, source.output.deployments.length - deployments.length);
    return { ...source, output: { ...source.output, deployments } };
  });
  return { sources: kept, unplaced };
}
