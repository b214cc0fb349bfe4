/** `catalog sources`: list and validate the monitored source definitions. */
import type { Command } from "commander";
import { loadSourceDefinitions, readCaptureMeta } from "../collect/index.js";
import { toIsoSeconds } from "../lib/clock.js";
import { CatalogError } from "../lib/errors.js";
import { clockFrom, sourcesDir } from "./options.js";

const DAY_MS = 86_400_000;

/** Whole calendar days (UTC) from the day a capture's content was seen upstream to `now`'s day. */
export function captureAgeDays(fetchedAt: string, now: string): number {
  const day = (iso: string) => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);
  return Math.round((day(now) - day(fetchedAt)) / DAY_MS);
}

export function registerSources(program: Command): void {
  program
    .command("sources")
    .description("list and validate the monitored source definitions and their recorded captures")
    .option("--sources <dir>", "source definitions directory (env CATALOG_SOURCES)")
    .option("--json", "print JSON")
    .option("--now <iso8601>", "the instant capture ages are counted to (default: the system clock)")
    .action(async (flags: { sources?: string; json?: boolean; now?: string }) => {
      const dir = sourcesDir(flags.sources);
      const now = toIsoSeconds(clockFrom(flags.now).now());
      const { definitions, errors } = await loadSourceDefinitions(dir);
      const rows = [];
      for (const d of definitions) {
        const capture = await readCaptureMeta(dir, d);
        rows.push({
          source_id: d.source_id,
          provider_id: d.provider_id,
          name: d.name,
          source_type: d.source_type,
          format: d.format,
          parser: d.parser,
          url: d.url,
          capture: capture
            ? {
                file: capture.file,
                fetched_at: capture.fetched_at,
                age_days: captureAgeDays(capture.fetched_at, now),
                note: capture.note ?? null,
              }
            : null,
        });
      }
      if (flags.json) process.stdout.write(`${JSON.stringify({ now, sources: rows, errors }, null, 2)}\n`);
      else {
        process.stdout.write(
          `${"provider".padEnd(15)} ${"source".padEnd(26)} ${"type".padEnd(20)} ${"parser".padEnd(30)} ${"content seen".padEnd(12)} ${"age (days)".padStart(10)}  url\n`,
        );
        for (const r of rows)
          process.stdout.write(
            `${r.provider_id.padEnd(15)} ${r.name.padEnd(26)} ${r.source_type.padEnd(20)} ${r.parser.padEnd(30)} ${(r.capture ? r.capture.fetched_at.slice(0, 10) : "no capture").padEnd(12)} ${(r.capture ? String(r.capture.age_days) : "-").padStart(10)}  ${r.url}\n`,
          );
        process.stderr.write(`capture ages counted to ${now}\n`);
        for (const e of errors) process.stderr.write(`invalid: ${e.file}: ${e.message}\n`);
        process.stderr.write(`${rows.length} sources, ${errors.length} invalid\n`);
      }
      if (errors.length > 0)
        throw new CatalogError("invalid_source_definition", `${errors.length} invalid source definition(s)`);
    });
}
