/** `catalog sources`: list and validate the monitored source definitions and their captures. */
import type { Command } from "commander";
import { toIsoSeconds } from "../lib/clock.js";
import { CatalogError } from "../lib/errors.js";
import { clockFrom, sourcesDir } from "./options.js";

const DAY_MS = 86_400_000;

/** Whole calendar days (UTC) from the day a capture's content was seen upstream to `now`'s day. */
export function captureAgeDays(fetchedAt: string, now: string): number {
  const day = (iso: string) => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);
  return Math.round((day(now) - day(fetchedAt)) / DAY_MS);
}

type CaptureRow =
  | { file: string; fetched_at: string; age_days: number; note: string | null }
  | { damaged: string }
  | null;

export function registerSources(program: Command): void {
  program
    .command("sources")
    .description("list and validate the monitored source definitions and their recorded captures")
    .option("--sources <dir>", "source definitions directory (env CATALOG_SOURCES)")
    .option("--json", "print JSON")
    .option("--now <iso8601>", "the instant capture ages are counted to (default: the system clock)")
    .action(async (flags: { sources?: string; json?: boolean; now?: string }) => {
      // loaded when the command runs: `catalog <command>` starts without the other commands' code
      const { loadSourceDefinitions, readCapture } = await import("../collect/index.js");
      const dir = sourcesDir(flags.sources);
      const now = toIsoSeconds(clockFrom(flags.now).now());
      const { definitions, errors } = await loadSourceDefinitions(dir);
      const rows = [];
      for (const d of definitions) {
        // readCapture checks what an offline build checks (a valid CURRENT.json, the file there,
        // its SHA-256, UTF-8): a damaged capture fails its source at build time, so it is shown.
        let capture: CaptureRow;
        try {
          const stored = await readCapture(dir, d);
          capture = stored
            ? {
                file: stored.meta.file,
                fetched_at: stored.meta.fetched_at,
                age_days: captureAgeDays(stored.meta.fetched_at, now),
                note: stored.meta.note ?? null,
              }
            : null;
        } catch (error) {
          capture = { damaged: (error as Error).message };
        }
        rows.push({
          source_id: d.source_id,
          provider_id: d.provider_id,
          name: d.name,
          source_type: d.source_type,
          format: d.format,
          parser: d.parser,
          url: d.url,
          capture,
        });
      }
      const damaged = rows.filter((r) => r.capture !== null && "damaged" in r.capture);
      if (flags.json) process.stdout.write(`${JSON.stringify({ now, sources: rows, errors }, null, 2)}\n`);
      else {
        process.stdout.write(
          `${"provider".padEnd(15)} ${"source".padEnd(26)} ${"type".padEnd(20)} ${"parser".padEnd(30)} ${"content seen".padEnd(12)} ${"age (days)".padStart(10)}  url\n`,
        );
        for (const r of rows)
          process.stdout.write(
            `${r.provider_id.padEnd(15)} ${r.name.padEnd(26)} ${r.source_type.padEnd(20)} ${r.parser.padEnd(30)} ${describeCapture(r.capture)}  ${r.url}\n`,
          );
        process.stderr.write(`capture ages counted to ${now}\n`);
        for (const e of errors) process.stderr.write(`invalid: ${e.file}: ${e.message}\n`);
        process.stderr.write(
          `${rows.length} sources, ${errors.length} invalid, ${damaged.length} damaged capture(s)\n`,
        );
      }
      if (errors.length > 0 || damaged.length > 0)
        throw new CatalogError(
          "invalid_source_definition",
          `${errors.length} invalid source definition(s), ${damaged.length} damaged capture(s)`,
        );
    });
}

function describeCapture(capture: CaptureRow): string {
  if (capture === null) return `${"no capture".padEnd(12)} ${"-".padStart(10)}`;
  if ("damaged" in capture) return `DAMAGED CAPTURE: ${capture.damaged}`;
  return `${capture.fetched_at.slice(0, 10).padEnd(12)} ${String(capture.age_days).padStart(10)}`;
}
