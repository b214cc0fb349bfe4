#!/usr/bin/env node
// The installed `catalog` command. It exists before `npm run build` (so `npm ci` can link it)
// and runs the compiled CLI, or says how to build it.
try {
  await import("../../dist/src/cli/main.js");
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/src/cli/main.js")) {
    process.stderr.write("catalog: the CLI is not compiled yet; run `npm run build` first\n");
    process.exit(1);
  }
  throw error;
}
