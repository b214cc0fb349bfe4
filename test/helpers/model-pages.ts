/**
 * Test helper for sources that record one official model page each (Bedrock model cards, Vertex
 * model pages): the recorded sources of a name pattern, and the model facts they yield, each held
 * to be a fact of the source's provider with the source's official evidence, never a deployment.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { normalizeSource } from "../../src/normalize/index.js";
import type { ModelFact } from "../../src/schema/index.js";
import { loadDefinition, recordedInput, SOURCES_DIR } from "./captures.js";

/**
 * The model facts of every recorded source of `provider` whose name matches `pattern`, by source
 * name. Live-only sources (`offline_capture: false`) have no capture and are left out.
 */
export async function recordedModelPageFacts(
  provider: string,
  pattern: RegExp,
): Promise<Map<string, ModelFact[]>> {
  const names = (await readdir(join(SOURCES_DIR, provider)))
    .filter((n) => n.endsWith(".yaml"))
    .map((n) => n.replace(/\.yaml$/, ""))
    .filter((n) => pattern.test(n))
    .sort();
  const out = new Map<string, ModelFact[]>();
  for (const name of names) {
    if (!(await loadDefinition(provider, name)).offline_capture) continue;
    const input = await recordedInput(provider, name);
    const parsed = normalizeSource(input);
    expect(parsed.deployments).toEqual([]);
    expect(parsed.lifecycle).toEqual([]);
    const facts = parsed.model_facts ?? [];
    expect(facts.length).toBeGreaterThan(0);
    for (const fact of facts) {
      expect(fact.provider_id).toBe(provider);
      expect(fact.context_tokens).toBeGreaterThan(0);
      expect(fact.evidence).toEqual({
        source_url: input.source.url,
        source_type: "official_docs",
        observed_at: input.observedAt,
        verification_status: "official_declared",
      });
    }
    out.set(name, facts);
  }
  return out;
}
