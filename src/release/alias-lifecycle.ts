/**
 * Merge step 0a'': a model name that points to its only snapshot ends with that snapshot. Pure.
 *
 * OpenAI's model pages say which dated snapshot a name points to ("Default snapshot:
 * `o3-pro-2025-06-10`") and list the snapshots there are (a model fact's `only_snapshot` where
 * the list names no other). OpenAI's deprecations page shuts down snapshots by their dated ids
 * ("`o3-pro-2025-06-10` ... Dec 11, 2026") and often says nothing of the name. The name then
 * points to a snapshot that is going away and has no other to point to: kept apart, `o3-pro`
 * would stay `available` past its only snapshot's shutdown. So, where no official source dates
 * the name itself, each official deployment-scope statement about the snapshot is stated for the
 * name too, by the same source, `official_inferred` (the page names only the snapshot): its
 * deprecation, end of life and replacements. A name whose page lists two or more snapshots
 * (GPT-4o) is left alone: it may be moved to another one. A name no source places is left alone
 * too: no deployment is made for it.
 *
 * facts.json keeps what each source said; only the merge sees the added statements.
 */
import type { LifecycleAssertion } from "../schema/index.js";
import type { SourceFacts } from "./facts.js";
import { inferredStatement, push } from "./merge-candidates.js";
import { modelFactKey } from "./model-facts.js";

/** Whether an assertion dates its target or says its status. */
const dates = (a: LifecycleAssertion) =>
  a.status !== undefined || a.end_of_life !== undefined || a.deprecation !== undefined;

export function withAliasStatements(
  sources: readonly SourceFacts[],
  isOfficial: (source: SourceFacts) => boolean,
): SourceFacts[] {
  // provider|snapshot -> the names that point to it as their only snapshot (official model facts)
  const namesOf = new Map<string, string[]>();
  for (const source of sources)
    if (isOfficial(source))
      for (const f of source.output.model_facts ?? [])
        if (f.only_snapshot !== undefined) {
          const snapshot = modelFactKey(f.provider_id, f.only_snapshot);
          if (!namesOf.get(snapshot)?.includes(f.provider_model_id))
            push(namesOf, snapshot, f.provider_model_id);
        }
  if (namesOf.size === 0) return [...sources];
  // names some source places, and names an official source already dates
  const placed = new Set<string>();
  const dated = new Set<string>();
  for (const source of sources) {
    for (const d of source.output.deployments) placed.add(modelFactKey(d.provider_id, d.provider_model_id));
    if (isOfficial(source))
      for (const a of source.output.lifecycle)
        if (a.scope === "deployment" && a.target && dates(a))
          dated.add(modelFactKey(a.provider_id, a.target.provider_model_id));
  }
  return sources.map((source) => {
    if (!isOfficial(source)) return source;
    const added: LifecycleAssertion[] = [];
    for (const a of source.output.lifecycle) {
      if (a.scope !== "deployment" || !a.target || !dates(a)) continue;
      for (const name of namesOf.get(modelFactKey(a.provider_id, a.target.provider_model_id)) ?? []) {
        const k = modelFactKey(a.provider_id, name);
        if (!placed.has(k) || dated.has(k)) continue;
        const { model_id: _snapshotModel, ...rest } = a;
        added.push(inferredStatement(rest, { ...a.target, provider_model_id: name }));
      }
    }
    return added.length === 0
      ? source
      : { ...source, output: { ...source.output, lifecycle: [...source.output.lifecycle, ...added] } };
  });
}
