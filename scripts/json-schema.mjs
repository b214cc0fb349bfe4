// Writes the JSON Schema of every release file to src/schema/json-schema/ (run by `npm run json-schema`
// after a build). test/schema/json-schema.test.ts fails when the committed files differ from these.
import { mkdir, writeFile } from "node:fs/promises";
import { releaseJsonSchemas } from "../dist/src/schema/index.js";

const dir = new URL("../src/schema/json-schema/", import.meta.url);
await mkdir(dir, { recursive: true });
for (const [name, schema] of Object.entries(releaseJsonSchemas()))
  await writeFile(new URL(name, dir), `${JSON.stringify(schema, null, 2)}\n`);
