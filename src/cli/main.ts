#!/usr/bin/env node
/**
 * The `catalog` command. Argument parsing and printing only; the stages do the work. Errors
 * are caught here (and only here, for the CLI) and mapped to exit codes.
 */
import { Command, CommanderError } from "commander";
import { CatalogError, isCatalogError } from "../lib/errors.js";
import { registerBackfill } from "./backfill.js";
import { registerBuild } from "./build.js";
import { registerCapture } from "./capture.js";
import { registerDiff } from "./diff.js";
import { EXIT_CODES, EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, exitCodeHelp } from "./exit-codes.js";
import { registerExport } from "./export.js";
import { registerKeys } from "./keys.js";
import { registerOpenapi } from "./openapi.js";
import { registerReleases } from "./releases.js";
import { registerServe } from "./serve.js";
import { registerSources } from "./sources.js";
import { registerVerify } from "./verify.js";

/** One line on stderr, whatever the message holds. */
function say(text: string): void {
  process.stderr.write(`catalog: ${text.replace(/\s*\n\s*/g, " ").trim()}\n`);
}

/** A Node system error (ENOENT, EACCES, EADDRINUSE, ECONNREFUSED...) is an I/O failure, not a bug. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  if (!(error instanceof Error) || !("code" in error)) return false;
  return typeof error.code === "string" && /^E[A-Z0-9]+$/.test(error.code);
}

function fail(error: unknown): void {
  if (error instanceof CommanderError) {
    // commander has printed its one-line message (configureOutput below); help and version are not errors
    process.exitCode =
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.code === "commander.help"
        ? EXIT_OK
        : EXIT_USAGE;
  } else if (isCatalogError(error)) {
    say(error.message);
    process.exitCode = EXIT_CODES[error.code];
  } else if (isSystemError(error)) {
    say(error.message);
    process.exitCode = EXIT_CODES.io_failed;
  } else {
    say(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.CATALOG_DEBUG) process.stderr.write(`${(error as Error)?.stack ?? ""}\n`);
    process.exitCode = EXIT_UNEXPECTED;
  }
}

// A reader that goes away (`catalog diff | head -1`) ends the command quietly: the output was
// wanted only up to there.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? EXIT_OK);
  fail(new CatalogError("io_failed", `cannot write to stdout: ${error.message}`));
  process.exit();
});
process.on("uncaughtException", (error) => {
  fail(error);
  process.exit();
});

const program = new Command()
  .name("catalog")
  .description("Build, inspect and serve the LLM deployment catalog")
  .version("0.1.0")
  .exitOverride()
  .configureOutput({
    // one line per usage error, pointing at --help instead of printing it
    outputError: (text, write) => write(`catalog: ${text.replace(/^error: /, "").trim()} (see --help)\n`),
  })
  .addHelpText("after", exitCodeHelp());

registerBuild(program);
registerDiff(program);
registerVerify(program);
registerServe(program);
registerKeys(program);
registerSources(program);
registerOpenapi(program);
registerBackfill(program);
registerCapture(program);
registerReleases(program);
registerExport(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  fail(error);
}
