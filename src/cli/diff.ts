/**
 * `catalog diff [FROM] [TO]`: defaults are the release before the latest, and the latest. Both
 * releases are verified (every file against its hash) first: a damaged one exits 4.
 */
import type { Command } from "commander";
import { CatalogError } from "../lib/errors.js";
import { snapshotsDir } from "./options.js";

export function registerDiff(program: Command): void {
  program
    .command("diff")
    .description("show what changed between two releases")
    .argument("[from]", "release id or unique prefix (default: the release before the latest)")
    .argument("[to]", "release id or unique prefix (default: the latest release)")
    .option("--snapshots <dir>", "releases directory (env CATALOG_SNAPSHOTS)")
    .option("--format <format>", "markdown or json", "markdown")
    .action(
      async (
        from: string | undefined,
        to: string | undefined,
        flags: { snapshots?: string; format: string },
      ) => {
        // loaded when the command runs: `catalog <command>` starts without the other commands' code
        const { diffReleases, listReleases, resolveReleaseId } = await import("../release/index.js");
        if (flags.format !== "markdown" && flags.format !== "json")
          throw new CatalogError(
            "invalid_argument",
            `--format must be markdown or json, got "${flags.format}"`,
          );
        const dir = snapshotsDir(flags.snapshots);
        if (from !== undefined) from = await resolveReleaseId(dir, from);
        if (to !== undefined) to = await resolveReleaseId(dir, to);
        const chain = await listReleases(dir);
        const toId = to ?? chain.at(-1);
        const fromId = from ?? (to ? chain[chain.indexOf(to) - 1] : chain.at(-2));
        if (!toId) throw new CatalogError("release_not_found", `no release published in ${dir}`);
        if (!fromId)
          throw new CatalogError(
            "release_not_found",
            `${toId} has no earlier release to diff against; name one`,
          );
        // every file of both releases is hashed before the diff reads any of them: exit 4 on damage
        const { requireIntactRelease } = await import("../snapshot/index.js");
        for (const id of [fromId, toId]) await requireIntactRelease(dir, id);
        const { diff, markdown } = await diffReleases(dir, fromId, toId);
        process.stdout.write(
          flags.format === "json" ? `${JSON.stringify(diff, null, 2)}\n` : `${markdown.trimEnd()}\n`,
        );
      },
    );
}
