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
import { SourceDefinition } from "../schema/index.js";

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
      .filter((f) => f.endsWith(".yaml"))
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
