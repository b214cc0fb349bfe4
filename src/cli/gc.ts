/** `catalog gc [--snapshots DIR] [--dry-run]`: remove the releases and objects LATEST's chain does not reach. */
import type { Command } from "commander";
import { snapshotsDir } from "./options.js";

export function registerGc(program: Command): void {
  program
    .command("gc")
    .description(
      "remove releases and objects that no release chain from LATEST reaches (holds the build lock: exits 12 while a build runs)",
    )
    .option("--snapshots <dir>", "releases directory (env CATALOG_SNAPSHOTS)")
    .option("--dry-run", "list what would be removed, remove nothing")
    .action(async (flags: { snapshots?: string; dryRun?: boolean }) => {
      // loaded when the command runs: `catalog <command>` starts without the other commands' code
      const { collectGarbage } = await import("../release/gc.js");
      const dryRun = flags.dryRun === true;
      const result = await collectGarbage(snapshotsDir(flags.snapshots), { dryRun });
      const verb = dryRun ? "would remove" : "removed";
      for (const id of result.releases) process.stdout.write(`${verb} release ${id}\n`);
      for (const name of result.objects) process.stdout.write(`${verb} object ${name}\n`);
      process.stdout.write(
        `gc: kept ${result.kept.length} release(s) of the chain from LATEST; ${verb} ${result.releases.length} release(s) and ${result.objects.length} object(s) (${result.bytes} bytes)${result.temporary > 0 ? ` and ${result.temporary} leftover(s) of interrupted builds` : ""}\n`,
      );
    });
}
