/** `catalog export --out DIR`: a release as catalog.json, CSV and typed Parquet files. */
import { resolve } from "node:path";
import type { Command } from "commander";
import { snapshotsDir } from "./options.js";

export function registerExport(program: Command): void {
  program
    .command("export")
    .description(
      "write a release (default: the latest) as catalog.json, deployments.csv, lifecycle.csv, deployments.parquet, lifecycle.parquet, prices.csv, prices.parquet",
    )
    .requiredOption("--out <dir>", "directory to write the files into (created when missing)")
    .option("--release <id>", "release id or unique prefix (default: the latest)")
    .option("--snapshots <dir>", "releases directory (env CATALOG_SNAPSHOTS)")
    .action(async (flags: { out: string; release?: string; snapshots?: string }) => {
      // loaded when the command runs: `catalog <command>` starts without the other commands' code
      const { exportRelease, resolveReleaseId } = await import("../release/index.js");
      const dir = snapshotsDir(flags.snapshots);
      const releaseId = flags.release ? await resolveReleaseId(dir, flags.release) : undefined;
      const result = await exportRelease(dir, releaseId, resolve(flags.out));
      for (const [name, bytes] of Object.entries(result.files))
        process.stderr.write(`${name.padEnd(20)} ${bytes} bytes\n`);
      process.stdout.write(`${result.releaseId}\n`);
    });
}
