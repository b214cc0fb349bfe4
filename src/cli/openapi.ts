/** `catalog openapi [--out FILE]`: the OpenAPI 3.1 document generated from the zod schemas. */

import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Command } from "commander";
import { CatalogError } from "../lib/errors.js";

export function registerOpenapi(program: Command): void {
  program
    .command("openapi")
    .description("print the OpenAPI 3.1 document of the /v1 API (generated from the schemas)")
    .option("--out <file>", "write it to this file instead of stdout (e.g. src/schema/openapi.json)")
    .action(async (flags: { out?: string }) => {
      // loaded when the command runs: `catalog <command>` starts without the other commands' code
      const { buildOpenApiDocument, serializeOpenApiDocument } = await import("../schema/openapi.js");
      const text = serializeOpenApiDocument(buildOpenApiDocument());
      if (!flags.out) {
        process.stdout.write(text);
        return;
      }
      const target = resolve(flags.out);
      try {
        await writeFile(target, text, "utf8");
      } catch (error) {
        throw new CatalogError(
          "io_failed",
          `cannot write ${target}: ${(error as Error).message}`,
          undefined,
          {
            cause: error,
          },
        );
      }
      process.stderr.write(`wrote ${target}\n`);
    });
}
