#!/usr/bin/env node
/**
 * The `catalog` command. Argument parsing and printing only; the stages do the work. Errors
 * are caught here (and only here, for the CLI) and mapped to exit codes.
 */
import { Command, CommanderError } from "commander";
import { isCatalogError } from "../lib/errors.js";
import { registerBuild } from "./build.js";
import { registerCapture } from "./capture.js";
import { registerDiff } from "./diff.js";
import { registerExport } from "./export.js";
import { registerKeys } from "./keys.js";
import { registerOpenapi } from "./openapi.js";
import { registerReleases } from "./releases.js";
import { registerServe } from "./serve.js";
import { registerSources } from "./sources.js";
import { registerVerify } from "./verify.js";

const EXIT_CODES: Record<string, number> = {
  validation_failed: 2,
  too_many_sources_failed: 3,
  release_damaged: 4,
  release_not_found: 5,
  invalid_source_definition: 6,
  invalid_argument: 64,
};

const program = new Command()
  .name("catalog")
  .description("Build, inspect and serve the LLM deployment catalog")
  .version("0.1.0")
  .showHelpAfterError()
  .exitOverride();

registerBuild(program);
registerDiff(program);
registerVerify(program);
registerServe(program);
registerKeys(program);
registerSources(program);
registerOpenapi(program);
registerCapture(program);
registerReleases(program);
registerExport(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode;
  } else if (isCatalogError(error)) {
    process.stderr.write(`catalog: ${error.message}\n`);
    process.exitCode = EXIT_CODES[error.code] ?? 1;
  } else {
    process.stderr.write(`catalog: unexpected error: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  }
}
