/** `catalog verify [RELEASE]`: re-hash a release's files; non-zero exit when damaged. */
import type { Command } from "commander";
import { CatalogError } from "../lib/errors.js";
import { snapshotsDir } from "./options.js";

export function registerVerify(program: Command): void {
  program
    .command("verify")
    .description("re-hash every file of a release (default: the latest) and report damage")
    .argument("[release]", "release id or unique prefix (at least 8 hex digits)")
    .option("--snapshots <dir>", "releases directory (env CATALOG_SNAPSHOTS)")
    .action(async (release: string | undefined, flags: { snapshots?: string }) => {
      // loaded when the command runs: `catalog <command>` starts without the other commands' code
      const { readLatest, resolveReleaseId, verifyRelease } = await import("../release/index.js");
      const dir = snapshotsDir(flags.snapshots);
      const id = release ? await resolveReleaseId(dir, release) : await readLatest(dir);
      if (!id) throw new CatalogError("release_not_found", `no release published in ${dir}`);
      const problems = await verifyRelease(dir, id);
      if (problems.length === 0) {
        process.stdout.write(`${id} ok\n`);
        return;
      }
      for (const p of problems) process.stderr.write(`${id}: ${p.file}: ${p.problem}\n`);
      throw new CatalogError("release_damaged", `${id} is damaged (${problems.length} file(s))`);
    });
}
