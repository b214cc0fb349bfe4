/**
 * Synthetic catalogs for the build benchmark, derived from the real LiteLLM price map in
 * the committed capture of the community source (sources/litellm/captures/): the LiteLLM parser's real
 * deployments, replicated across synthetic regions until the requested size.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { deploymentId } from "../src/lib/ids.js";
import { parsers } from "../src/normalize/parsers/litellm.js";
import {
  type DeploymentFact,
  type LifecycleAssertion,
  type ParseOutput,
  SourceDefinition,
} from "../src/schema/index.js";

export const LITELLM_FILE = join(
  import.meta.dirname,
  "..",
  "..",
  "sources",
  "litellm",
  "captures",
  "model-prices",
  "b724208e467135dd72d6e95e2cb93ae7bc2478b355eba82f88be442b0c56713c.json",
);

/** The LiteLLM community source, as `sources/litellm/model-prices.yaml` defines it. */
export async function litellmSource(): Promise<SourceDefinition> {
  const file = join(import.meta.dirname, "..", "..", "sources", "litellm", "model-prices.yaml");
  return SourceDefinition.parse(parseYaml(await readFile(file, "utf8")));
}

/** The LiteLLM parser's output for the real price map. */
export async function realLiteLlmOutput(): Promise<ParseOutput> {
  const parse = parsers["litellm"];
  if (!parse) throw new Error("no litellm parser");
  return parse({
    source: await litellmSource(),
    content: await readFile(LITELLM_FILE, "utf8"),
    observedAt: "2026-11-23T00:00:00Z",
  });
}

/**
 * Exactly `size` deployments: copy k of every real deployment gets region `<region>-r<k>`
 * (copy 0 keeps the real region). `bumpEvery` > 0 raises the input price of every n-th
 * deployment by 10%, to make a second release that differs in prices.
 */
export function replicate(base: ParseOutput, size: number, bumpEvery = 0): ParseOutput {
  const deployments: DeploymentFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  for (let copy = 0; deployments.length < size; copy++) {
    for (const fact of base.deployments) {
      if (deployments.length >= size) break;
      const region = copy === 0 ? fact.region : `${fact.region}-r${copy}`;
      const id = deploymentId({ ...fact, region });
      let rateCard = fact.rate_card;
      if (bumpEvery > 0 && rateCard && deployments.length % bumpEvery === 0)
        rateCard = { ...rateCard, input_micro_usd: Math.round((rateCard.input_micro_usd * 11) / 10) };
      deployments.push({ ...fact, id, region, ...(rateCard !== undefined ? { rate_card: rateCard } : {}) });
    }
    for (const assertion of base.lifecycle) {
      if (assertion.scope !== "deployment" || !assertion.target) continue;
      const region = assertion.target.region;
      if (copy > 0 && region === undefined) continue;
      lifecycle.push(
        copy === 0
          ? assertion
          : { ...assertion, target: { ...assertion.target, region: `${region}-r${copy}` } },
      );
    }
    if (base.deployments.length === 0) throw new Error("no deployments to replicate");
  }
  return { deployments, lifecycle, skipped: [] };
}
