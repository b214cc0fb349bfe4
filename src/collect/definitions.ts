/**
 * Source definitions: `sources/<provider>/<name>.yaml`, validated by the SourceDefinition
 * schema. Captures of a source live in `sources/<provider>/captures/<name>/`:
 *   CURRENT.json           the recorded capture's metadata (CaptureMeta)
 *   <sha256>.<ext>         the monitored content, named by the SHA-256 of its bytes
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { compareCodePoints } from "../lib/canonical-json.js";
import { CatalogError } from "../lib/errors.js";
import { type Correction, CorrectionsFile, SourceDefinition } from "../schema/index.js";

export const CaptureMeta = z.strictObject({
  file: z.string().regex(/^[0-9a-f]{64}\.(html|md|json)$/),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  url: z.url(),
  fetched_at: z.iso.datetime({ offset: false }),
  http_status: z.int(),
  content_type: z.string(),
  etag: z.string().nullable(),
  last_modified: z.string().nullable(),
  /** How the capture was made (e.g. reconstructed from a stored copy of the page). */
  note: z.string().optional(),
});
export type CaptureMeta = z.infer<typeof CaptureMeta>;

export interface DefinitionError {
  file: string;
  message: string;
}

export interface LoadedDefinitions {
  definitions: SourceDefinition[];
  errors: DefinitionError[];
}

export function captureDir(
  sourcesDir: string,
  source: Pick<SourceDefinition, "provider_id" | "name">,
): string {
  return join(sourcesDir, source.provider_id, "captures", source.name);
}

/** Every `sources/<provider>/*.yaml`, sorted by provider then name; invalid files are reported, not thrown. */
export async function loadSourceDefinitions(sourcesDir: string): Promise<LoadedDefinitions> {
  const definitions: SourceDefinition[] = [];
  const errors: DefinitionError[] = [];
  const entries = await readdir(sourcesDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    throw new CatalogError(
      "io_failed",
      error.code === "ENOENT"
        ? `sources directory ${sourcesDir} does not exist`
        : `cannot read sources directory ${sourcesDir}: ${error.message}`,
      {},
      { cause: error },
    );
  });
  const providers = entries.filter((d) => d.isDirectory()).map((d) => d.name);
  for (const provider of providers.sort(compareCodePoints)) {
    const files = (await readdir(join(sourcesDir, provider)))
      .filter((f) => f.endsWith(".yaml") && f !== CORRECTIONS_FILE)
      .sort(compareCodePoints);
    for (const file of files) {
      const path = join(provider, file);
      try {
        const parsed = SourceDefinition.safeParse(parseYaml(await readFile(join(sourcesDir, path), "utf8")));
        if (!parsed.success) {
          errors.push({
            file: path,
            message: parsed.error.issues
              .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
              .join("; "),
          });
          continue;
        }
        const def = parsed.data;
        if (def.provider_id !== provider)
          errors.push({
            file: path,
            message: `provider_id "${def.provider_id}" does not match folder "${provider}"`,
          });
        else if (`${def.name}.yaml` !== file)
          errors.push({ file: path, message: `name "${def.name}" does not match file name` });
        else definitions.push(def);
      } catch (error) {
        errors.push({ file: path, message: `not valid YAML: ${(error as Error).message}` });
      }
    }
  }
  const seen = new Map<string, string>();
  for (const def of definitions) {
    const other = seen.get(def.source_id);
    if (other)
      errors.push({
        file: `${def.provider_id}/${def.name}.yaml`,
        message: `source_id ${def.source_id} is also used by ${other}`,
      });
    seen.set(def.source_id, `${def.provider_id}/${def.name}.yaml`);
  }
  return { definitions, errors };
}

/** `sources/<provider>/corrections.yaml`: a provider's reviewed corrections, not a source. */
export const CORRECTIONS_FILE = "corrections.yaml";

/**
 * Every provider's reviewed corrections (provider id -> entries). A file that is not valid
 * YAML, fails the CorrectionsFile schema or names a source the provider does not define is
 * reported as an error, like an invalid source definition.
 */
export async function loadCorrections(
  sourcesDir: string,
  definitions: readonly SourceDefinition[],
): Promise<{ corrections: Map<string, Correction[]>; errors: DefinitionError[] }> {
  const corrections = new Map<string, Correction[]>();
  const errors: DefinitionError[] = [];
  const providers = [...new Set(definitions.map((d) => d.provider_id))].sort(compareCodePoints);
  for (const provider of providers) {
    const file = join(provider, CORRECTIONS_FILE);
    let text: string;
    try {
      text = await readFile(join(sourcesDir, file), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    let parsed: ReturnType<typeof CorrectionsFile.safeParse>;
    try {
      parsed = CorrectionsFile.safeParse(parseYaml(text));
    } catch (error) {
      errors.push({ file, message: `not valid YAML: ${(error as Error).message}` });
      continue;
    }
    if (!parsed.success) {
      errors.push({
        file,
        message: parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "),
      });
      continue;
    }
    const names = new Set(definitions.filter((d) => d.provider_id === provider).map((d) => d.name));
    const unknown = parsed.data.corrections.filter((c) => !names.has(c.source));
    if (unknown.length > 0) {
      errors.push({
        file,
        message: `names no source of ${provider}: ${unknown.map((c) => c.source).join(", ")}`,
      });
      continue;
    }
    corrections.set(provider, parsed.data.corrections);
  }
  return { corrections, errors };
}

export async function readCaptureMeta(
  sourcesDir: string,
  source: SourceDefinition,
): Promise<CaptureMeta | null> {
  try {
    return CaptureMeta.parse(
      JSON.parse(await readFile(join(captureDir(sourcesDir, source), "CURRENT.json"), "utf8")),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
