/**
 * `catalog capture PROVIDER/SOURCE FILE`: record a saved copy of a source's page as its current
 * capture, the same way a live build records a fetch: the monitored content is extracted
 * (extractMonitored), stored under its SHA-256 and named by CURRENT.json (writeCapture).
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { CatalogError } from "../lib/errors.js";
import type { SourceFormat } from "../schema/index.js";
import { sourcesDir } from "./options.js";

const CONTENT_TYPE: Record<SourceFormat, string> = {
  html: "text/html; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  json: "application/json",
};

interface CaptureFlags {
  observedAt?: string;
  note?: string;
  sources?: string;
}

export function registerCapture(program: Command): void {
  program
    .command("capture")
    .description("record FILE (a saved copy of the source's page) as the source's current capture")
    .argument("<source>", "PROVIDER/SOURCE, e.g. anthropic/pricing (see `catalog sources`)")
    .argument("<file>", "the saved page (UTF-8)")
    .option(
      "--observed-at <iso8601>",
      "when this content was seen upstream (crawl or commit date of the copy; default: now)",
    )
    .option("--note <text>", "provenance: where the copy came from (kept in CURRENT.json)")
    .option("--sources <dir>", "source definitions and captures (env CATALOG_SOURCES)")
    .action(async (name: string, file: string, flags: CaptureFlags) => {
      // loaded when the command runs: `catalog <command>` starts without the other commands' code
      const { extractMonitored, loadSourceDefinitions, writeCapture } = await import("../collect/index.js");
      const observedAt = flags.observedAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(observedAt))
        throw new CatalogError(
          "invalid_argument",
          `--observed-at must be an ISO 8601 UTC instant such as 2026-09-23T00:00:00Z, got "${observedAt}"`,
        );
      const dir = sourcesDir(flags.sources);
      const { definitions } = await loadSourceDefinitions(dir);
      const source = definitions.find((d) => `${d.provider_id}/${d.name}` === name);
      if (!source)
        throw new CatalogError(
          "invalid_argument",
          `no source "${name}" in ${dir} (PROVIDER/SOURCE, one of: ${definitions.map((d) => `${d.provider_id}/${d.name}`).join(", ")})`,
        );
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(await readFile(file));
      } catch (error) {
        throw new CatalogError(
          "invalid_argument",
          `cannot read ${file} as UTF-8: ${(error as Error).message}`,
        );
      }
      const monitored = extractMonitored(source, text);
      const { written, meta } = await writeCapture(dir, source, {
        content: monitored.content,
        sha256: monitored.sha256,
        url: source.url,
        fetchedAt: observedAt,
        httpStatus: 200,
        contentType: CONTENT_TYPE[source.format],
        etag: null,
        lastModified: null,
        ...(flags.note === undefined ? {} : { note: flags.note }),
      });
      process.stderr.write(
        written
          ? `${name}: recorded ${meta.file} (${Buffer.byteLength(monitored.content)} bytes of monitored content)\n`
          : `${name}: unchanged (the current capture has the same content)\n`,
      );
      process.stdout.write(`${meta.sha256}\n`);
    });
}
