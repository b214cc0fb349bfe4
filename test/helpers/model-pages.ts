/**
 * Test helper for sources that record one official model page each (Bedrock model cards, Vertex
 * model pages): the recorded sources of a name pattern, and the model facts they yield, each held
 * to be a fact of the source's provider with the source's official evidence; a deployment only
 * where the page lists one (a Bedrock card's inference profiles), of the page's own model.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { normalizeSource } from "../../src/normalize/index.js";
import { type ModelFact, ParseOutput } from "../../src/schema/index.js";
import { loadDefinition, recordedInput, SOURCES_DIR } from "./captures.js";

/**
 * The parse output of every recorded source of `provider` whose name matches `pattern`, by
 * source name, each held to no deployments, at least one model fact, every fact of `provider`
 * with a context window and the source's official evidence; and to no lifecycle assertion unless
 * `lifecycle: "allowed"` (the Vertex AI MaaS pages assert their endpoint's retirement, the
 * Gemini model pages a preview's discontinuation).
 * Live-only sources (`offline_capture: false`) have no capture and are left out.
 */
export async function recordedModelPages(
  provider: string,
  pattern: RegExp,
  options: { lifecycle?: "allowed"; deployments?: "of-its-model" } = {},
): Promise<Map<string, ParseOutput>> {
  const names = (await readdir(join(SOURCES_DIR, provider)))
    .filter((n) => n.endsWith(".yaml"))
    .map((n) => n.replace(/\.yaml$/, ""))
    .filter((n) => pattern.test(n))
    .sort();
  const out = new Map<string, ParseOutput>();
  for (const name of names) {
    if (!(await loadDefinition(provider, name)).offline_capture) continue;
    const input = await recordedInput(provider, name);
    const parsed = ParseOutput.parse(normalizeSource(input));
    const factIds = new Set((parsed.model_facts ?? []).map((f) => f.provider_model_id));
    if (options.deployments !== "of-its-model") expect(parsed.deployments).toEqual([]);
    for (const d of parsed.deployments) {
      expect(factIds.has(d.provider_model_id), d.id).toBe(true);
      expect(d.evidence.source_url).toBe(input.source.url);
    }
    if (options.lifecycle !== "allowed") expect(parsed.lifecycle).toEqual([]);
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
    out.set(name, parsed);
  }
  return out;
}

/** The model facts of recordedModelPages (lifecycle assertions only where allowed), by source name. */
export async function recordedModelPageFacts(
  provider: string,
  pattern: RegExp,
  options: { deployments?: "of-its-model"; lifecycle?: "allowed" } = {},
): Promise<Map<string, ModelFact[]>> {
  const pages = await recordedModelPages(provider, pattern, options);
  return new Map([...pages].map(([name, parsed]) => [name, parsed.model_facts ?? []]));
}
