/**
 * Every `catalog` command, registered on a program: main.ts runs it, and the docs test checks
 * the commands the README and docs/ show against it (registering runs nothing).
 */
import type { Command } from "commander";
import { registerBackfill } from "./backfill.js";
import { registerBuild } from "./build.js";
import { registerCapture } from "./capture.js";
import { registerDiff } from "./diff.js";
import { registerExport } from "./export.js";
import { registerGc } from "./gc.js";
import { registerKeys } from "./keys.js";
import { registerOpenapi } from "./openapi.js";
import { registerReleases } from "./releases.js";
import { registerServe } from "./serve.js";
import { registerSources } from "./sources.js";
import { registerVerify } from "./verify.js";

export function registerCommands(program: Command): Command {
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
  registerGc(program);
  return program;
}
