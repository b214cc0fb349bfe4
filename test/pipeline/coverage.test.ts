/**
 * Coverage of token limits and capabilities from OFFICIAL sources in the offline build of the
 * recorded captures (the committed snapshot, which build.test.ts holds to be that build), among the deployments the release publishes as not retired. "From
 * official sources" = what mergeSpecs gives each published deployment from the official facts
 * of the release's facts.json alone (its deployment facts and its provider model's facts), so
 * a value LiteLLM alone supplies does not count.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  type DeploymentCandidate,
  indexModelFacts,
  mergeSpecs,
  modelFactKey,
} from "../../src/release/model-facts.js";
import type { BuildReport } from "../../src/release/types.js";
import { committedRelease } from "../helpers/committed-release.js";

interface Coverage {
  total: number;
  context: number;
  maxOutput: number;
  capability: number;
}

const byProvider = new Map<string, Coverage>();
const all: Coverage = { total: 0, context: 0, maxOutput: 0, capability: 0 };
let report: BuildReport;

beforeAll(async () => {
  const { catalog, facts, report: committedReport } = await committedRelease();
  report = committedReport;
  const officialSources = facts.sources.filter((s) => s.source_type !== "community_catalog");
  const modelFacts = indexModelFacts(officialSources, () => true);
  const deploymentFacts = new Map<string, DeploymentCandidate[]>();
  for (const source of officialSources)
    source.output.deployments.forEach((fact, index) => {
      const list = deploymentFacts.get(fact.id) ?? [];
      list.push({ fact, source, official: true, observedMs: Date.parse(fact.evidence.observed_at), index });
      deploymentFacts.set(fact.id, list);
    });
  for (const d of catalog.deployments) {
    if (d.status === "retired") continue;
    const o = mergeSpecs(
      d.mode,
      deploymentFacts.get(d.id) ?? [],
      modelFacts.get(modelFactKey(d.provider_id, d.provider_model_id)),
    );
    const counts = byProvider.get(d.provider_id) ?? { total: 0, context: 0, maxOutput: 0, capability: 0 };
    const add = (key: keyof Coverage, yes: boolean) => {
      if (!yes) return;
      counts[key]++;
      all[key]++;
    };
    add("total", true);
    add("context", o.context_tokens !== null);
    add("maxOutput", o.max_output_tokens !== null);
    // the published entry itself carries its verification status
    add(
      "capability",
      Object.values(d.capabilities).some((c) => c.verification_status?.startsWith("official_") === true),
    );
    byProvider.set(d.provider_id, counts);
  }
}, 120_000);

describe("official limits and capabilities of non-retired deployments", () => {
  it("official values reach the providers whose models pages are recorded", () => {
    // Floors at the deployments an official source lists (LiteLLM-only deployments excluded
    // from the floor where they can be, so removing them does not break it): Claude overview +
    // model pages, Azure OpenAI models sold directly by Azure, Gemini API models page and
    // per-model pages, Mistral model cards.
    // Claude: the overview, 9 model pages (Fable 5.1, Opus 5.5 and Mythos 5.1 among them) and the
    // Opus 4.7 and Fable 5 / Mythos 5 launch pages: 28 / 28 of 29 (24 / 24 before the Opus 5.5,
    // Opus 4.7 and Mythos 5.1 pages; 18 / 18 before Fable 5.1 and the launch pages).
    expect(byProvider.get("anthropic")?.context).toBeGreaterThanOrEqual(28);
    expect(byProvider.get("anthropic")?.maxOutput).toBeGreaterThanOrEqual(28);
    expect(byProvider.get("anthropic")?.capability).toBeGreaterThanOrEqual(14);
    // Azure, after the docs moved to articles/foundry/ (2026): the June 2026 models page, the
    // September 2026 Learn page copy (gpt-5.6, GPT-6, GPT-6.1), the January 2026 and October 2025
    // versions archived, the reasoning models page (February 2026, archived January 2026, August
    // 2025 for o1-mini, June 2025 for o1-preview) and the October 2026 region tables and
    // retirement schedule (dates moved later: more deployments not yet retired): 275 / 218 / 240
    // of 324 (302 / 245 / 266 of 375 before the listing gate and the region rule, docs/provenance.md:
    // LiteLLM's unqualified azure/<model> keys no longer become global-standard deployments and
    // community records the region tables exclude create none; 276 / 221 / 243 before the September copy; 129 / 75 / 97 of 224 before the move and the June page;
    // 128 / 74 / 79 before the reasoning page; 103 / 81 / 49 of 277 before the embeddings,
    // audio, image and video tables and the October 2025 page's GPT-3.5 table).
    // 260 / 203 / 225 of 298 since the tables are read as Azure's catalog (community records of
    // models they do not place, o1-mini and o1-preview among them, are unlisted offerings);
    // 253 / 196 / 218 of 291 since they speak for every region the page names (7 community
    // Regional deployments in northeurope, which the Regional tables leave out, are gone)
    expect(byProvider.get("azure")?.context).toBeGreaterThanOrEqual(253);
    expect(byProvider.get("azure")?.maxOutput).toBeGreaterThanOrEqual(196);
    expect(byProvider.get("azure")?.capability).toBeGreaterThanOrEqual(218);
    // Gemini API models page (February 2026), the per-model pages (3.1 and 3.5 Flash-Lite,
    // 3.1 Flash-Lite Preview, 3.1 Pro Preview, 3.1 Flash Image and its preview; 3.5 / 3.6 / 3.7
    // Flash, 3.1 Flash Live Preview and 3.1 Flash TTS Preview in their text rendering), the
    // Embeddings page and the Gemini API's model list (first page of June 2026: the -latest
    // aliases, Imagen and Veo input limits, thinking / caching / batch): 83 / 70 / 72 of 123
    // (64 / 61 / 65 before the model list; 55 / 52 / 55 before the five text renderings;
    // embedding, Imagen and Veo models have no max output).
    expect(byProvider.get("google")?.context).toBeGreaterThanOrEqual(83);
    expect(byProvider.get("google")?.maxOutput).toBeGreaterThanOrEqual(70);
    expect(byProvider.get("google")?.capability).toBeGreaterThanOrEqual(72);
    // Mistral's model cards: most of their models are retired by 2026-11-23: 12 of 24 (of 35
    // before LiteLLM's entries named by the cards' declared aliases folded into their models;
    // mistral-small-latest stays apart, its values being an older model's).
    expect(byProvider.get("mistral")?.context).toBeGreaterThanOrEqual(12);
    // DeepSeek's September 2026 pricing page (deepseek-flash, deepseek-v4-pro), Together AI's
    // 2026 models page and its function-calling, JSON-mode and vision guides, Groq's Supported
    // Models page, xAI's 2026 models page (the Grok 4.20 0309 models), Cohere's models page:
    // DeepSeek 5 / 5 / 5 of 10, Together 65 / 0 / 52 of 73 (no Together page states a max
    // output), Groq 7 / 7 / 6 of 7 (the capabilities from 13 of its per-model pages: none was
    // found for Llama Prompt Guard 2 86M; 0 before them), xAI 3 / 0 / 3 of 3 (of 29 before xAI's
    // models page became its catalog, docs/provenance.md: LiteLLM's grok-2, grok-beta and others
    // it does not name are gone), Cohere 20 of 21. Together 30 / 0 / 25 of 32 since its
    // deprecations page (2026) retired 41 deployments and its serverless page became its catalog
    // (65 / 0 / 52 of 73 before).
    expect(byProvider.get("deepseek")?.context).toBeGreaterThanOrEqual(5);
    expect(byProvider.get("deepseek")?.capability).toBeGreaterThanOrEqual(5);
    expect(byProvider.get("together-ai")?.context).toBeGreaterThanOrEqual(30);
    expect(byProvider.get("together-ai")?.capability).toBeGreaterThanOrEqual(25);
    expect(byProvider.get("groq")?.context).toBeGreaterThanOrEqual(7);
    expect(byProvider.get("groq")?.maxOutput).toBeGreaterThanOrEqual(7);
    expect(byProvider.get("groq")?.capability).toBeGreaterThanOrEqual(6);
    expect(byProvider.get("xai")?.context).toBeGreaterThanOrEqual(3);
    expect(byProvider.get("cohere")?.context).toBeGreaterThanOrEqual(20);
    // OpenAI model pages (35 recorded, the four audio models' among them: each gives its model
    // id and default snapshot; 7 of them renderings of the HTML page): 110 / 110 / 118 of 144
    // non-retired OpenAI deployments (88 / 88 / 116 before GPT-5, GPT-5.4 mini, GPT-5.6 Luna,
    // o3, o1, GPT-4.1 nano and GPT-4o mini Search Preview; 69 of 146
    // before the GPT-5.5, GPT-5.4 nano and GPT-4o mini pages; 71 of 148 before the
    // listing gate dropped LiteLLM's batch deployments of two models whose pages say batch is
    // not supported, docs/provenance.md; 53 of 152 before the
    // GPT-5 Pro, GPT-5.5 Pro, GPT-5.6 Sol and o3-pro pages; GPT-5.6 Sol's declared `gpt-5.6`
    // alias folded LiteLLM's four gpt-5.6 deployments into its own).
    expect(byProvider.get("openai")?.context).toBeGreaterThanOrEqual(110);
    expect(byProvider.get("openai")?.maxOutput).toBeGreaterThanOrEqual(110);
    expect(byProvider.get("openai")?.capability).toBeGreaterThanOrEqual(118);
  });

  it("Bedrock and Vertex AI deployments get official limits from their model cards and pages and from the Claude overview's platform ids", () => {
    // Amazon Bedrock: 77 model cards (every card the user guide's endpoint availability page
    // links), the Claude overview's AWS Bedrock ids and the Claude model pages' Model IDs tables
    // (official_inferred): 607 / 579 / 624 of 636 non-retired deployments since Claude 3 Sonnet's
    // and Claude 3.5 Sonnet v2's community profiles end with their model (4 retired; 610 / 582 /
    // 610 of 640 before, capabilities counted without them) and since a lifecycle
    // page's Regions no longer place In-Region deployments a card excludes, and its dates reach
    // the profiles (649 / 621 / 649 of 679 before: 34 of the 39 gone were Claude Sonnet 4.5 and
    // Opus 4.1 in Regions without an In-Region endpoint); since the cards' Regional Availability
    // tables placed the models in their AWS Regions (230 of 260 before, most placed by LiteLLM)
    // (109 of 262 with 8 cards: Claude Haiku 4.5, Sonnet 4.6, Opus 4.7, Fable 5, Nova 2 Lite,
    // Llama 3.3 70B, Qwen3 235B, Jamba 1.5 Large; 122 of 332 before LiteLLM's unqualified keys
    // stopped being placed in us-east-1 by convention, docs/provenance.md; 116 before the 2024 Claude overview gave
    // Claude 3 Opus and Sonnet their limits, 6 deployments; 101 before the Opus 4.5 / 4.6 / 4.8 pages gave
    // their Bedrock ids, 15 deployments; 106 of 337 before Anthropic's partner-platform table
    // retired 5: Claude Sonnet 3.7 and Opus 4 under LiteLLM's us / eu profile keys).
    expect(byProvider.get("amazon-bedrock")?.context).toBeGreaterThanOrEqual(607);
    expect(byProvider.get("amazon-bedrock")?.maxOutput).toBeGreaterThanOrEqual(579);
    expect(byProvider.get("amazon-bedrock")?.capability).toBeGreaterThanOrEqual(610);
    // Vertex AI: 16 Gemini model pages (7 of them renderings of the HTML page), the 3.7 Flash
    // developer's guide (limits of 3.7 and 3.6 Flash), 12 MaaS pages of partner and open models,
    // the Claude overview's and the Claude model pages' Google Cloud ids: 46 / 44 / 47 of 97 since
    // the pages' caution notes retired the two 09-2025 previews (48 / 46 / 49 of 99 before)
    // (40 / 38 / 35 with 9 model pages) since the open and partner model
    // deprecations pages retired 17 more (44 / 43 / 39 of 116 before; 42 / 41 / 37 before the 2024 Claude
    // overview's Claude 3 Opus and Sonnet; 37 / 36 / 32 of 123 before the MaaS
    // pages, which also retired 7 of those deployments; 32 / 31 / 27 before the model pages'
    // ids; 27 / 26 / 27 before the guide; Gemini Embedding 2 has no maximum output).
    expect(byProvider.get("google-vertex")?.context).toBeGreaterThanOrEqual(46);
    expect(byProvider.get("google-vertex")?.maxOutput).toBeGreaterThanOrEqual(44);
    expect(byProvider.get("google-vertex")?.capability).toBeGreaterThanOrEqual(47);
  });

  it("at least 58% of non-retired deployments have an official context window and 46% an official max output", () => {
    // Measured 2026-11-26 on the offline build of the recorded captures: 59.2% / 47.6% / 58.0%
    // of 1,287 (762 / 612 / 747) with the 2024 Claude overview; 58.6% / 46.9% / 57.0%
    // of 1,287 (754 / 604 / 733) with the September 2026 Azure Learn page copy; 56.6% / 45.1% /
    // 55.2% (728 / 580 / 710) without it, after the Azure docs move (its October 2026 retirement schedule
    // moved many dates later, so 151 more deployments are not yet retired), the Gemini API's model
    // list, the Azure reasoning page and the Mistral cards' batching feature; 49.4% / 37.3% /
    // 47.2% of 1,136 (561 / 424 / 536) before; 46.9% / 35.0% / 45.7% of 1,147 (538 / 401 / 524)
    // before four OpenAI model pages and twelve Vertex AI MaaS pages were recorded; 44.8% / 32.9%
    // / 43.9% (514 / 377 / 504) before the Claude model pages were recorded with their Model IDs
    // and Capabilities tables; 44.4% / 32.6% / 37.3% of 1,158 before LiteLLM's Mistral entries
    // named by an alias the model cards declare were folded into the models they stand for,
    // src/release/declared-aliases.ts, and before an official price of cached input gave
    // prompt_caching and an official batch price batch (withPricedCaching, withBatchPrice,
    // src/release/merge.ts); 44.2% / 32.5% / 37.2% of 1,175 before Anthropic's partner-platform
    // tables and the Claude and Mistral spelling aliases; 43.0% / 31.7% / 36.2% of 1,206 before
    // LiteLLM's bare Azure names were resolved to their one official version,
    // src/release/unversioned-names.ts; 39.9% / 29.8% / 31.1% of 1,181 before the DeepSeek,
    // Together AI, Groq, xAI and Claude launch pages, the Gemini API text renderings and the
    // Vertex 3.7 Flash guide; 35.4% / 28.4% / 27.1% of 1,203 before the Azure embeddings, audio,
    // image and video tables, the October 2025 Azure page's GPT-3.5 table, the Gemini Embeddings
    // page and the three Gemini 3.1 preview pages; 24.8% / 17.6% / 16.1% before the Bedrock model
    // cards, the Vertex model pages, the Gemini per-model pages and the Claude overview's
    // platform ids).
    expect(all.context / all.total).toBeGreaterThanOrEqual(0.58);
    expect(all.maxOutput / all.total).toBeGreaterThanOrEqual(0.46);
  });

  it("the issue's capability target: at least 50% of non-retired deployments have an official capability", () => {
    // 57.0% (733 of 1,287) measured 2026-11-26; 47.2% (536 of 1,136) before.
    expect(all.capability / all.total).toBeGreaterThanOrEqual(0.5);
  });

  // The limits target. Not reached offline: only 24 OpenAI model pages, 8 Bedrock model
  // cards, 9 Vertex Gemini and 12 Vertex MaaS pages were found stored (97 more official model
  // pages are live-only, fetched by the nightly); see docs/sources.md, "Capabilities".
  it.todo(">= 80% of non-retired deployments have an official context window and max output");

  it("the build's report counts the same official specs, per provider and in total, as computed here", () => {
    const counted = (c: Coverage) => ({
      non_retired: c.total,
      context_tokens: c.context,
      max_output_tokens: c.maxOutput,
      capability: c.capability,
    });
    expect(report.totals.official_specs).toEqual(counted(all));
    for (const p of report.providers) {
      const mine = byProvider.get(p.provider_id) ?? { total: 0, context: 0, maxOutput: 0, capability: 0 };
      expect(p.official_specs, p.provider_id).toEqual(counted(mine));
    }
    expect(report.providers.map((p) => p.provider_id)).toEqual(
      expect.arrayContaining([...byProvider.keys()]),
    );
  });
});
