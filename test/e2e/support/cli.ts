/** Runs the installed `catalog` command (the compiled CLI in dist/) in a child process. */
import { spawn } from "node:child_process";
import { join } from "node:path";

export const REPO = join(import.meta.dirname, "..", "..", "..");
export const CLI = join(REPO, "src", "cli", "bin.mjs");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `catalog ...args`; resolves with the exit code and both streams (never rejects on a failure exit). */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? REPO,
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    proc.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => proc.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    proc.on("error", reject);
    proc.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A user error: exactly one line on stderr, no stack trace. */
export function isOneLine(stderr: string): boolean {
  return (
    stderr.trimEnd().split("\n").length === 1 &&
    !/\n\s+at /.test(stderr) &&
    !/\bat .*\.(ts|js):\d+/.test(stderr)
  );
}
