/** Temporary source folders for collect tests, built from object literals. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { SourceDefinition } from "../../src/schema/index.js";

export interface TempSources {
  dir: string;
  cleanup(): Promise<void>;
}

export async function tempSourcesDir(): Promise<TempSources> {
  const dir = await mkdtemp(join(tmpdir(), "catalog-collect-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

let counter = 0;

/** A valid definition with a fresh UUID; `overrides` replace any field. */
export function definition(overrides: Partial<SourceDefinition> & { name: string }): SourceDefinition {
  counter += 1;
  return SourceDefinition.parse({
    source_id: `00000000-0000-4000-8000-${String(counter).padStart(12, "0")}`,
    provider_id: "acme",
    url: `https://acme.example/${overrides.name}`,
    source_type: "official_pricing",
    format: "html",
    parser: "acme-pricing",
    ...overrides,
  });
}

/** Writes `sources/<provider>/<name>.yaml`. */
export async function writeDefinition(dir: string, def: SourceDefinition): Promise<void> {
  await mkdir(join(dir, def.provider_id), { recursive: true });
  await writeFile(join(dir, def.provider_id, `${def.name}.yaml`), stringify(def));
}
