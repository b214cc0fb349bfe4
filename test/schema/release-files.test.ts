/**
 * The published files of a release have schemas: the committed JSON Schemas under
 * src/schema/json-schema/ are what the zod schemas generate today (a changed schema without
 * `npm run json-schema` fails here), and every JSON file of the committed release passes both its zod schema and its committed JSON Schema (validated with Ajv, as a
 * consumer would validate a download).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { RELEASE_FILE_SCHEMAS, ReleaseManifest, releaseJsonSchemas } from "../../src/schema/index.js";
import { committedReleaseId, REPO_SNAPSHOTS } from "../helpers/committed-release.js";

const ROOT = resolve(import.meta.dirname, "../..");
const SCHEMA_DIR = join(ROOT, "src/schema/json-schema");
const SNAPSHOTS = REPO_SNAPSHOTS;
let releaseId: string;
beforeAll(async () => {
  releaseId = await committedReleaseId();
});

function committedSchema(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(SCHEMA_DIR, name), "utf8"));
}

/** The committed release's JSON files by name, manifest.json included. */
function latestReleaseFiles(): Map<string, unknown> {
  const manifestText = readFileSync(join(SNAPSHOTS, "releases", releaseId, "manifest.json"), "utf8");
  const manifest = ReleaseManifest.parse(JSON.parse(manifestText));
  const files = new Map<string, unknown>([["manifest.json", JSON.parse(manifestText)]]);
  for (const [name, entry] of Object.entries(manifest.files))
    if (name.endsWith(".json"))
      files.set(name, JSON.parse(readFileSync(join(SNAPSHOTS, "objects", entry.sha256), "utf8")));
  return files;
}

describe("the schemas of a release's files", () => {
  it("the committed JSON Schemas are exactly what the zod schemas generate", () => {
    const generated = releaseJsonSchemas();
    expect(readdirSync(SCHEMA_DIR).sort()).toEqual(Object.keys(generated).sort());
    for (const [name, schema] of Object.entries(generated))
      expect(committedSchema(name), `${name}: run npm run json-schema`).toEqual(schema);
  });

  it("every JSON file of the committed snapshot has a schema and passes it, zod and JSON Schema alike", () => {
    const files = latestReleaseFiles();
    expect([...files.keys()].sort()).toEqual(Object.keys(RELEASE_FILE_SCHEMAS).sort());
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
    for (const [name, content] of files) {
      const zodSchema = RELEASE_FILE_SCHEMAS[name as keyof typeof RELEASE_FILE_SCHEMAS];
      const parsed = zodSchema.safeParse(content);
      expect(parsed.success ? [] : parsed.error.issues.slice(0, 5), name).toEqual([]);
      const validate = ajv.compile(committedSchema(name.replace(/\.json$/, ".schema.json")));
      expect(validate(content) ? [] : (validate.errors ?? []).slice(0, 5), name).toEqual([]);
    }
  });

  it("a file that breaks its schema is refused by both", () => {
    const files = latestReleaseFiles();
    const report = structuredClone(files.get("report.json")) as { totals: { deployments: unknown } };
    report.totals.deployments = -1;
    expect(RELEASE_FILE_SCHEMAS["report.json"].safeParse(report).success).toBe(false);
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(
      committedSchema("report.schema.json"),
    );
    expect(validate(report)).toBe(false);
  });
});
