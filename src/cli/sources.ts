/** `catalog sources`: list and validate the monitored source definitions. */
import type { Command } from "commander";
import { loadSourceDefinitions, readCaptureMeta } from "../collect/index.js";
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
        const capture = await readCaptureMeta(dir, d);
        rows.push({
          source_id: d.source_id,
          provider_id: d.provider_id,
          name: d.name,
          source_type: d.source_type,
          format: d.format,
          parser: d.parser,
          url: d.url,
          capture: capture ? { file: capture.file, fetched_at: capture.fetched_at } : null,
        });
      }
      if (flags.json) process.stdout.write(`${JSON.stringify({ sources: rows, errors }, null, 2)}\n`);
      else {
        for (const r of rows)
          process.stdout.write(
            `${r.provider_id.padEnd(15)} ${r.name.padEnd(24)} ${r.source_type.padEnd(20)} ${r.parser.padEnd(26)} ${r.capture ? `captured ${r.capture.fetched_at}` : "no capture"}  ${r.url}\n`,
          );
        for (const e of errors) process.stderr.write(`invalid: ${e.file}: ${e.message}\n`);
        process.stderr.write(`${rows.length} sources, ${errors.length} invalid\n`);
      }
      if (errors.length > 0)
        throw new CatalogError("invalid_source_definition", `${errors.length} invalid source definition(s)`);
    });
}
