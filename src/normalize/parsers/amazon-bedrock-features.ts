/**
 * Amazon Bedrock user-guide feature pages in their Markdown form
 * (docs.aws.amazon.com/bedrock/latest/userguide/<page>.md) that list, per Bedrock model ID, the
 * models with a feature. Model facts only (provider `amazon-bedrock`); they create no
 * deployments. docs/bedrock-capabilities.md says what each page is read for and why.
 *
 * "Prompt caching for faster model inference" (prompt-caching.md), its "Supported models,
 * Regions, and explicit caching limits" table (in older versions "Supported models, Regions, and
 * limits"):
 * - each row's Model ID (`anthropic.claude-opus-4-6-v1`, `amazon.nova-pro-v1:0`), the
 *   bedrock-runtime model id the catalog's Bedrock deployments carry, gets prompt_caching
 *   `supported` (official_declared) for its on-demand deployments (modes `standard` and
 *   `global`): the page says "Prompt caching is only supported for on-demand inference
 *   endpoints". Its Release Type ("Generally Available", "Preview", "Gated") is the stage of the
 *   feature or of access to the model, not a restriction of caching itself: every row is
 *   `supported`. A fact applies to the model id's deployments in every Region and inference
 *   profile (us., eu., global. ...), which carry the same provider model id: "Prompt caching is
 *   available in all AWS Regions where the supported models are available".
 * - where the page says prompt caching "is not supported with the batch inference API", each
 *   listed model's batch deployments (mode `batch`) get prompt_caching `unsupported`.
 * - the table lists the models with Explicit Prompt Caching; the page says models can support
 *   Implicit Prompt Caching only (Amazon Nova "for all text prompts", OpenAI's models "through
 *   supported APIs"), so a model the table leaves out is not read as unsupported: no fact.
 * - a section without the table, a table without a Model ID column, a Model ID that is no
 *   Bedrock model id, or a model listed twice fails the source.
 */
import type { CapabilityStatus, ModelFact } from "../../schema/index.js";
import { declaredCapability, evidenceFor, parseFailure } from "../helpers.js";
import { BEDROCK } from "../identity/index.js";
import { markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser } from "../types.js";

const PROVIDER_ID = "amazon-bedrock";
/** A Bedrock model id without an inference-profile prefix: `<vendor>.<name>[-v<n>[:<m>]]`. */
const MODEL_ID = /^[a-z0-9-]+\.[a-z0-9.:-]+$/;
const CACHING_SECTION = /^Supported models, Regions, and (?:explicit caching )?limits$/i;
const BATCH_UNSUPPORTED = /prompt caching[^.]*\.\s*It is not supported with the batch inference API\./i;

/** The on-demand modes of a Bedrock model id: in-Region and global cross-Region pricing. */
const ON_DEMAND = [BEDROCK.modes.standard, BEDROCK.modes.global];

export const parseBedrockPromptCaching: Parser = (input) => {
  const table = markdownTables(input.content).find(
    (t) => CACHING_SECTION.test(t.heading) && t.headers.some((h) => /^model id$/i.test(plainCell(h))),
  );
  if (!table)
    throw parseFailure(
      input.source,
      'no table with a Model ID column under "Supported models, Regions, and explicit caching limits"',
    );
  const column = requireColumn(input.source, table.headers, /^model id$/i);
  const evidence = evidenceFor(input.source, input.observedAt);
  const batchUnsupported = BATCH_UNSUPPORTED.test(input.content);
  const fact = (id: string, modes: string[], status: CapabilityStatus): ModelFact => ({
    provider_id: PROVIDER_ID,
    provider_model_id: id,
    modes,
    capabilities: { prompt_caching: declaredCapability(status) },
    evidence,
  });

  const seen = new Set<string>();
  const facts: ModelFact[] = [];
  for (const row of table.rows) {
    const id = plainCell(row[column] ?? "");
    if (!MODEL_ID.test(id))
      throw parseFailure(
        input.source,
        `prompt caching table: Model ID "${row[column]}" is no Bedrock model id`,
      );
    if (seen.has(id)) throw parseFailure(input.source, `prompt caching table: ${id} is listed twice`);
    seen.add(id);
    facts.push(fact(id, ON_DEMAND, "supported"));
    if (batchUnsupported) facts.push(fact(id, [BEDROCK.modes.batch], "unsupported"));
  }
  return { deployments: [], lifecycle: [], model_facts: facts, skipped: [] };
};

export const parsers: Record<string, Parser> = {
  "amazon-bedrock-prompt-caching": parseBedrockPromptCaching,
};
