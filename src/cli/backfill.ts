/**
 * `catalog backfill PROVIDER/SOURCE --git DIR --path PATH [--since DATE]`: record each distinct
 * version of PATH in the git repository DIR as a dated capture of the source (observed_at = the
 * commit date; docs/price-history.md). Versions whose prices equal the version before are not
 * kept; versions the parser cannot read are printed with the reason and skipped.
 */
import type { Command } from "commander";
import { CatalogError } from "../lib/errors.js";
import { sourcesDir } from "./options.js";

interface BackfillFlags {
  git: string;
  path: string;
  since?: string;
  every?: string;
  repository: string;
  licence?: string;
  sources?: string;
}

export function registerBackfill(program: Command): void {
  program
    .command("backfill")
    .description("record each distinct version of a file in a git history as a dated capture of the source")
    .argument("<source>", "PROVIDER/SOURCE, e.g. anthropic/pricing (see `catalog sources`)")
    .requiredOption("--git <dir>", "the repository's git directory (read-only)")
    .requiredOption("--path <path>", "the file in the repository (a bundled source: its directory)")
    .requiredOption("--repository <owner/name>", "the repository's public name, kept as provenance")
    .option("--since <date>", "only commits on or after this day (YYYY-MM-DD)")
    .option("--every <days>", "read at most one version per this many days (a file that changes daily)")
    .option("--licence <text>", "the repository's licence, where it states one (kept as provenance)")
    .option("--sources <dir>", "source definitions and captures (env CATALOG_SOURCES)")
    .action(async (name: string, flags: BackfillFlags) => {
      if (flags.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(flags.since))
        throw new CatalogError("invalid_argument", `--since must be a day YYYY-MM-DD, got "${flags.since}"`);
      const collect = await import("../collect/index.js");
      const { applyCorrections, normalizeSource } = await import("../normalize/index.js");
      const { pricesKey } = await import("../release/price-history.js");
      const dir = sourcesDir(flags.sources);
      const { definitions } = await collect.loadSourceDefinitions(dir);
      const source = definitions.find((d) => `${d.provider_id}/${d.name}` === name);
      if (!source)
        throw new CatalogError(
          "invalid_argument",
          `no source "${name}" in ${dir} (PROVIDER/SOURCE, one of: ${definitions.map((d) => `${d.provider_id}/${d.name}`).join(", ")})`,
        );
      const { corrections } = await collect.loadCorrections(dir, definitions);
      const result = await collect.backfill({
        sourcesDir: dir,
        source,
        gitDir: flags.git,
        path: flags.path,
        repository: flags.repository,
        ...(flags.licence === undefined ? {} : { licence: flags.licence }),
        ...(flags.since === undefined ? {} : { since: flags.since }),
        ...(flags.every === undefined ? {} : { everyDays: parseEvery(flags.every) }),
        factsOf: (content, observedAt) => {
          const corrected = applyCorrections(source, content, corrections.get(source.provider_id) ?? []);
          try {
            const output = normalizeSource({ source, content: corrected.content, observedAt });
            return { key: pricesKey(output.deployments) };
          } catch (error) {
            return { error: (error as Error).message };
          }
        },
      });
      for (const skip of result.skipped)
        process.stderr.write(
          `${name}: skipped ${skip.commit.slice(0, 12)} (${skip.committed_at}): ${skip.reason}\n`,
        );
      process.stderr.write(
        `${name}: ${result.versions} versions, ${result.kept.length} dated captures kept, ${result.unchanged} with the same prices as the one before, ${result.skipped.length} skipped; ${result.written ? "written" : "unchanged"}\n`,
      );
      for (const kept of result.kept)
        process.stdout.write(
          `${kept.observed_at} ${"commit" in kept.provenance ? kept.provenance.commit : "superseded-capture"} ${kept.sha256}\n`,
        );
    });
}

function parseEvery(value: string): number {
  const days = Number(value);
  if (!/^\d+$/.test(value) || days < 1)
    throw new CatalogError(
      "invalid_argument",
      `--every must be a whole number of days (1 or more), got "${value}"`,
    );
  return days;
}
