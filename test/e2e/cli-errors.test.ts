/**
 * User errors of the real CLI (child processes): one line on stderr, no stack trace, and the
 * documented exit code: 2 for every usage error, one code per other failure class.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_CODES } from "../../src/cli/exit-codes.js";
import { DEPLOYMENTS, fixtureCatalog, publishFixture } from "../serve/support/fixture.js";
import { CLI, isOneLine, REPO, runCli } from "./support/cli.js";

let work: string;
let snapshots: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "catalog-cli-errors-"));
  snapshots = join(work, "snapshots");
  const first = await publishFixture(snapshots, fixtureCatalog({ deployments: DEPLOYMENTS.slice(2) }));
  await publishFixture(snapshots, fixtureCatalog(), first);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function expectUserError(args: string[], code: number, message: RegExp) {
  const result = await runCli(args, { cwd: work });
  expect(result.code, result.stderr).toBe(code);
  expect(isOneLine(result.stderr), result.stderr).toBe(true);
  expect(result.stderr).toMatch(message);
  return result;
}

describe("usage errors exit 2 in one line", () => {
  it("an unknown command", () => expectUserError(["bogus"], 2, /unknown command 'bogus'/));
  it("an unknown option", () => expectUserError(["build", "--bogus"], 2, /unknown option '--bogus'/));
  it("a missing required option", () =>
    expectUserError(["keys", "create", "--plan", "free"], 2, /--workspace/));
  it("a bad value", () => expectUserError(["serve", "--port", "http"], 2, /--port must be 0-65535/));
  it("a bad --now", () => expectUserError(["build", "--now", "yesterday"], 2, /--now must be/));
});

describe("other failure classes have their own codes, without stack traces", () => {
  it("a missing --sources directory is an I/O failure (8)", () =>
    expectUserError(
      ["build", "--offline", "--sources", join(work, "nope"), "--snapshots", join(work, "s2")],
      EXIT_CODES.io_failed,
      /sources directory .*nope does not exist/,
    ));

  it("a port in use is an I/O failure (8)", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expectUserError(
        [
          "serve",
          "--snapshots",
          snapshots,
          "--port",
          String(port),
          "--no-watch",
          "--keys",
          join(work, "k.json"),
        ],
        EXIT_CODES.io_failed,
        new RegExp(`127\\.0\\.0\\.1:${port}: the port is in use`),
      );
    } finally {
      blocker.close();
    }
  });

  it("an unreachable Redis is an I/O failure (8)", async () => {
    const result = await expectUserError(
      [
        "serve",
        "--snapshots",
        snapshots,
        "--port",
        "0",
        "--redis",
        "redis://127.0.0.1:1",
        "--keys",
        join(work, "k.json"),
      ],
      EXIT_CODES.io_failed,
      /cannot reach Redis/,
    );
    expect(result.stdout).not.toMatch(/\n\s+at /);
  });

  it("an unknown release is 5", () =>
    expectUserError(["verify", `rel_${"0".repeat(64)}`, "--snapshots", snapshots], 5, /not found/));

  it("a reader that closes the pipe (catalog diff | head -1) ends the command quietly", async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const proc = spawn(process.execPath, [CLI, "diff", "--format", "json", "--snapshots", snapshots], {
        cwd: REPO,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      proc.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      proc.stdout.destroy(); // the reader is gone before the first write
      proc.on("close", (code) => resolve({ code, stderr }));
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });
});

describe("the exit-code table", () => {
  it("gives usage errors 2, validation its own code, and every other class a distinct code", () => {
    expect(EXIT_CODES.invalid_argument).toBe(2);
    expect(EXIT_CODES.validation_failed).not.toBe(2);
    const codes = Object.values(EXIT_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toBeGreaterThan(1);
  });

  it("is listed in catalog --help", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Exit codes:/);
    for (const code of [0, 1, ...Object.values(EXIT_CODES)])
      expect(result.stdout).toMatch(new RegExp(`^ +${code}  \\S`, "m"));
  });
});
