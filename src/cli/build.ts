/** `catalog build`: progress on stderr, the release id (or a JSON summary) on stdout. */
import type { Command } from "commander";
import { EXIT_CODES } from "./exit-codes.js";
import { clockFrom, parseRatio, snapshotsDir, sourcesDir } from "./options.js";

interface BuildFlags {
  offline?: boolean;
  sources?: string;
  snapshots?: string;
  now?: string;
  json?: boolean;
  only?: string[];
  failureThreshold?: string;
  logLevel?: string;
}

export function registerBuild(program: Command): void {
  program
    .command("build")
    .description("collect, normalize, validate, diff and publish a release")
    .option("--offline", "replay the recorded captures under sources/ instead of fetching (no network)")
    .option("--sources <dir>", "source definitions and captures (env CATALOG_SOURCES)", undefined)
    .option("--snapshots <dir>", "where releases are published (env CATALOG_SNAPSHOTS)", undefined)
    .option("--now <iso8601>", "the build clock, e.g. 2026-11-22T00:00:00Z (reproducible builds)")
    .option("--json", "print a JSON summary on stdout instead of the release id")
    .option("--only <ids...>", "build only these provider ids or source ids")
    .option(
      "--failure-threshold <ratio>",
      "refuse to publish when more than this fraction of the sources that list deployments fail (model pages not counted)",
      "0.5",
    )
    .option("--log-level <level>", "pino log level for stderr", "warn")
    .action(async (flags: BuildFlags) => {
      // loaded when the command runs: `catalog <command>` starts without the other commands' code
      const [{ createLogger }, { runBuild }, { formatBuildReport }] = await Promise.all([
        import("../lib/logger.js"),
        import("../pipeline/build.js"),
        import("../release/index.js"),
      ]);
      const logger = createLogger({ level: flags.logLevel ?? "warn" });
      const snapshots = snapshotsDir(flags.snapshots);
      const summary = await runBuild({
        sourcesDir: sourcesDir(flags.sources),
        snapshotsDir: snapshots,
        offline: flags.offline ?? false,
        clock: clockFrom(flags.now),
        logger,
        failureThreshold: parseRatio(flags.failureThreshold ?? "0.5"),
        only: flags.only,
        progress: true,
      });
      process.stderr.write(`${formatBuildReport(summary.outcome.report)}\n`);
      for (const failed of summary.failed_sources)
        process.stderr.write(`source failed: ${failed.provider_id} ${failed.url}: ${failed.error}\n`);
      if (summary.status === "validation_failed") {
        process.stderr.write("validation failed: nothing was published\n");
        for (const check of summary.outcome.checks.filter(
          (c) => c.severity === "error" && c.rows.length > 0,
        )) {
          process.stderr.write(`  ${check.name}: ${check.message}\n`);
          for (const row of check.rows.slice(0, 20)) process.stderr.write(`    ${JSON.stringify(row)}\n`);
        }
      } else if (summary.status === "unchanged") {
        process.stderr.write(`no change since ${summary.previous_release_id}: nothing published\n`);
      } else {
        // where it went: a build in a checkout publishes next to the committed release
        process.stderr.write(
          `published ${summary.release_id} in ${snapshots} (LATEST names it; earlier releases stay: catalog releases)\n`,
        );
      }
      if (flags.json) {
        const { outcome, ...rest } = summary;
        process.stdout.write(
          `${JSON.stringify({ ...rest, report: outcome.report, checks: outcome.checks.filter((c) => c.rows.length > 0) }, null, 2)}\n`,
        );
      } else if (summary.release_id) {
        process.stdout.write(`${summary.release_id}\n`);
      }
      if (summary.status === "validation_failed") process.exitCode = EXIT_CODES.validation_failed;
    });
}
