/** Test helper: read a source's definition and its recorded capture, as parsers receive them. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { captureDir, readCaptureMeta } from "../../src/collect/definitions.js";
import type { ParserInput } from "../../src/normalize/types.js";
import { type ParseOutput, SourceDefinition, type SourceFacts } from "../../src/schema/index.js";

export const SOURCES_DIR = join(import.meta.dirname, "..", "..", "sources");
/** The committed capture of LiteLLM's real price map (sources/litellm/captures/model-prices/). */
export const LITELLM_FILE = join(
  SOURCES_DIR,
  "litellm",
  "captures",
  "model-prices",
  "b724208e467135dd72d6e95e2cb93ae7bc2478b355eba82f88be442b0c56713c.json",
);

export async function loadDefinition(provider: string, name: string): Promise<SourceDefinition> {
  return SourceDefinition.parse(
    parseYaml(await readFile(join(SOURCES_DIR, provider, `${name}.yaml`), "utf8")),
  );
}

/** The parser input for a source's recorded capture. */
export async function recordedInput(provider: string, name: string): Promise<ParserInput> {
  const source = await loadDefinition(provider, name);
  const meta = await readCaptureMeta(SOURCES_DIR, source);
  if (!meta) throw new Error(`no recorded capture for ${provider}/${name}`);
  const content = await readFile(join(captureDir(SOURCES_DIR, source), meta.file), "utf8");
  return { source, content, observedAt: meta.fetched_at };
}

/** A recorded source's facts as a build records them (not carried forward), with `output` its parse output. */
export function recordedSourceFacts(input: ParserInput, output: ParseOutput): SourceFacts {
  return {
    source_id: input.source.source_id,
    provider_id: input.source.provider_id,
    source_type: input.source.source_type,
    source_url: input.source.url,
    observed_at: input.observedAt,
    carried_forward: false,
    output,
  };
}

/** The parser input for a source's dated capture observed at `observedAt` (sources/.../dated/). */
export async function datedInput(provider: string, name: string, observedAt: string): Promise<ParserInput> {
  const { readDatedCaptures } = await import("../../src/collect/dated-captures.js");
  const source = await loadDefinition(provider, name);
  const dated = (await readDatedCaptures(SOURCES_DIR, source)).find((c) => c.meta.observed_at === observedAt);
  if (!dated) throw new Error(`no dated capture of ${provider}/${name} observed at ${observedAt}`);
  return { source, content: dated.content, observedAt };
}
