/**
 * The normalize stage: run a source's parser on its capture and validate what it emits.
 * A parser that throws, or emits records the schemas reject, is a parse failure of that
 * source (CatalogError "parse_failed"), never an empty success.
 */
import { CatalogError } from "../lib/errors.js";
import { compileCheck } from "../schema/compiled-check.js";
import { ParseOutput, type SourceDefinition } from "../schema/index.js";
import { parserRegistry } from "./registry.js";
import type { Parser, ParserInput } from "./types.js";

export { applyCorrections } from "./corrections.js";
export { modelFactParsers, parserRegistry } from "./registry.js";
export type { Parser, ParserInput } from "./types.js";

/**
 * A parser's output against ParseOutput: the value itself when it passes (no copy), zod's issues
 * when not (src/schema/compiled-check.ts).
 */
export const checkParseOutput = compileCheck(ParseOutput);

export function parserFor(
  source: SourceDefinition,
  registry: Record<string, Parser> = parserRegistry,
): Parser {
  const parser = registry[source.parser];
  if (!parser)
    throw new CatalogError(
      "invalid_source_definition",
      `${source.provider_id}/${source.name}: no parser named "${source.parser}"`,
    );
  return parser;
}

export function normalizeSource(
  input: ParserInput,
  registry: Record<string, Parser> = parserRegistry,
): ParseOutput {
  const parser = parserFor(input.source, registry);
  let raw: ParseOutput;
  try {
    raw = parser(input);
  } catch (error) {
    if (error instanceof CatalogError && error.code === "parse_failed") throw error;
    throw new CatalogError(
      "parse_failed",
      `${input.source.provider_id}/${input.source.name}: ${(error as Error).message}`,
      {},
      { cause: error },
    );
  }
  const parsed = checkParseOutput(raw);
  if (!parsed.success) {
    const first = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new CatalogError(
      "parse_failed",
      `${input.source.provider_id}/${input.source.name}: output fails the schema (${first.join("; ")})`,
    );
  }
  if (
    parsed.data.deployments.length === 0 &&
    parsed.data.lifecycle.length === 0 &&
    (parsed.data.model_facts?.length ?? 0) === 0
  )
    throw new CatalogError(
      "parse_failed",
      `${input.source.provider_id}/${input.source.name}: parser found no records`,
    );
  const foreign = parsed.data.deployments.find(
    (d) => input.source.provider_id !== "litellm" && d.provider_id !== input.source.provider_id,
  );
  if (foreign && input.source.source_type !== "community_catalog")
    throw new CatalogError(
      "parse_failed",
      `${input.source.name}: emitted deployment ${foreign.id} of another provider`,
    );
  // A page may speak about another provider's deployment of its model (the Claude overview's
  // Bedrock and Google Cloud ids), but only as an inference: official_inferred, never declared.
  const foreignModel = (parsed.data.model_facts ?? []).find(
    (f) =>
      input.source.provider_id !== "litellm" &&
      f.provider_id !== input.source.provider_id &&
      f.evidence.verification_status !== "official_inferred",
  );
  if (foreignModel && input.source.source_type !== "community_catalog")
    throw new CatalogError(
      "parse_failed",
      `${input.source.name}: emitted a model fact about ${foreignModel.provider_id}/${foreignModel.provider_model_id}, another provider's model, without marking it official_inferred`,
    );
  // An alias is the provider's own word about its own names: a source declares only its provider's.
  const foreignAlias = (parsed.data.aliases ?? []).find((a) => a.provider_id !== input.source.provider_id);
  if (foreignAlias)
    throw new CatalogError(
      "parse_failed",
      `${input.source.name}: declared ${foreignAlias.provider_id}/${foreignAlias.alias} an alias, a name of another provider`,
    );
  return parsed.data;
}
