/**
 * The server reads releases through src/snapshot/ and never loads DuckDB: importing the serve
 * entry (and starting a server on a release) maps no DuckDB native library and caches no
 * @duckdb module. Checked in a child process, so nothing else this test run imported counts.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";

const run = promisify(execFile);
const SUPPORT = join(import.meta.dirname, "..", "release", "support");
const SRC = join(import.meta.dirname, "..", "..", "src");

/** Imports `entry` in a fresh node process; resolves to the DuckDB files it loaded. */
async function duckdbLoadedBy(entry: string, use = ""): Promise<string[]> {
  const script = `
    import { createRequire } from "node:module";
    const entry = await import(${JSON.stringify(entry)});
    ${use}
    const require = createRequire(import.meta.url);
    const cached = Object.keys(require.cache);
    const mapped = process.report.getReport().sharedObjects;
    const loaded = [...cached, ...mapped].filter((f) => /duckdb/i.test(f));
    process.stdout.write(JSON.stringify(loaded));
  `;
  const { stdout } = await run(
    process.execPath,
    ["--import", "./register.mjs", "--input-type=module", "-e", script],
    {
      cwd: SUPPORT,
    },
  );
  return JSON.parse(stdout) as string[];
}

describe("the server and DuckDB", () => {
  test("importing the serve entry loads no DuckDB module and maps no DuckDB native library", async () => {
    expect(await duckdbLoadedBy(join(SRC, "serve", "index.ts"))).toEqual([]);
  }, 60_000);

  test("the release stage loads DuckDB when it opens a database, so the check above can see it", async () => {
    const opened = "await entry.withDatabase(async () => {});";
    expect((await duckdbLoadedBy(join(SRC, "release", "index.ts"), opened)).length).toBeGreaterThan(0);
  }, 60_000);
});
