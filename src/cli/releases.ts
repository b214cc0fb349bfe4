/** `catalog releases`: the published releases, newest first. */
import type { Command } from "commander";
import { CatalogError } from "../lib/errors.js";
import { snapshotsDir } from "./options.js";

export function registerReleases(program: Command): void {
  program
    .command("releases")
    .description("list the published releases, newest first (id, created_at, previous, counts)")
    .option("--snapshots <dir>", "releases directory (env CATALOG_SNAPSHOTS)")
    .option("--json", "print JSON")
    .action(async (flags: { snapshots?: string; json?: boolean }) => {
      // loaded when the command runs: `catalog <command>` starts without the other commands' code
      const { releaseHistory, shortReleaseId } = await import("../release/index.js");
      const dir = snapshotsDir(flags.snapshots);
      const releases = await releaseHistory(dir);
      if (releases.length === 0)
        throw new CatalogError("release_not_found", `no release published in ${dir}`);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ data: releases }, null, 2)}\n`);
        return;
      }
      for (const r of releases) {
        const counts = Object.entries(r.counts)
          .map(([name, n]) => `${name}=${n}`)
          .join(" ");
        const previous = r.previous_release_id ? shortReleaseId(r.previous_release_id) : "-";
        process.stdout.write(`${r.id}  ${r.created_at}  previous ${previous}  ${counts}\n`);
      }
    });
}
