/** `catalog sources`: list and validate the monitored source definitions. */
import type { Command } from "commander";
import { loadSourceDefinitions, readCapture } from "../collect/index.js";
import { CatalogError } from "../lib/errors.js";
import { sourcesDir } from "./options.js";

export function registerSources(program: Command): void {
  program
    .command("sources")
    .description("list and validate the monitored source definitions and their recorded captures")
    .option("--sources <dir>", "source definitions directory (env CATALOG_SOURCES)")
    .option("--json", "print JSON")
    .action(async (flags: { sources?: string; json?: boolean }) => {
      const dir = sourcesDir(flags.sources);
      const { definitions, errors } = await loadSourceDefinitions(dir);
      const rows = [];
      for (const d of definitions) {
        // readCapture checks what an offline build checks (a valid CURRENT.json, the file there,
        // its SHA-256, UTF-8): a damaged capture fails its source at build time, so it is shown.
        let capture: { file: string; fetched_at: string } | { damaged: string } | null;
        try {
          const stored = await readCapture(dir, d);
          capture = stored ? { file: stored.meta.file, fetched_at: stored.meta.fetched_at } : null;
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
      if (flags.json) process.stdout.write(`${JSON.stringify({ sources: rows, errors }, null, 2)}\n`);
      else {
        for (const r of rows)
          process.stdout.write(
            `${r.provider_id.padEnd(15)} ${r.name.padEnd(24)} ${r.source_type.padEnd(20)} ${r.parser.padEnd(26)} ${describeCapture(r.capture)}  ${r.url}\n`,
          );
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

function describeCapture(capture: { file: string; fetched_at: string } | { damaged: string } | null): string {
  if (capture === null) return "no capture";
  if ("damaged" in capture) return `DAMAGED CAPTURE: ${capture.damaged}`;
  return `captured ${capture.fetched_at}`;
}
