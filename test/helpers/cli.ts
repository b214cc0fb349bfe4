/** Test helper: run the installed `catalog` command (src/cli/bin.mjs -> dist/) in a child process. */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const REPO = join(import.meta.dirname, "..", "..");
export const CATALOG_BIN = join(REPO, "src", "cli", "bin.mjs");

export interface CatalogRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `catalog ARGS` from the repository root; a non-zero exit is returned, not thrown. */
export async function runCatalog(args: string[]): Promise<CatalogRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CATALOG_BIN, ...args], {
      cwd: REPO,
      maxBuffer: 1 << 26,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
