/**
 * SIGHUP to a real `catalog serve`: a new LATEST whose release is damaged is refused (every
 * file is hashed before the switch), logged, and the previous release keeps serving; once the
 * damage is repaired the next SIGHUP switches.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readManifest } from "../../src/snapshot/index.js";
import { DEPLOYMENTS, fixtureCatalog, publishFixture } from "../serve/support/fixture.js";
import { call } from "../serve/support/harness.js";
import { CLI, REPO } from "./support/cli.js";

let proc: ChildProcess | null = null;
let work = "";
afterAll(async () => {
  if (proc && proc.exitCode === null) {
    const exited = new Promise((resolve) => proc?.once("exit", resolve));
    proc.kill("SIGTERM");
    await exited;
  }
  if (work) await rm(work, { recursive: true, force: true });
});

describe("catalog serve on SIGHUP", () => {
  it("refuses a damaged new release, logs it and keeps serving the previous one", async () => {
    work = await mkdtemp(join(tmpdir(), "catalog-sighup-"));
    const snapshots = join(work, "snapshots");
    const first = await publishFixture(snapshots);
    const lines: Array<Record<string, unknown>> = [];
    const child = spawn(
      process.execPath,
      [CLI, "serve", "--snapshots", snapshots, "--port", "0", "--no-watch"],
      {
        cwd: REPO,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, CATALOG_QUOTA_FILE: join(work, "quota.json"), LOG_LEVEL: "info" },
      },
    );
    proc = child;
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const complete = out.split("\n");
      out = complete.pop() ?? "";
      for (const line of complete) if (line.startsWith("{")) lines.push(JSON.parse(line));
    });
    const until = async (test: () => boolean, what: string) => {
      const deadline = Date.now() + 10_000;
      while (!test()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await until(() => lines.some((l) => l.msg === "listening"), "listening");
    const url = lines.find((l) => l.msg === "listening")?.url as string;

    const second = await publishFixture(
      snapshots,
      fixtureCatalog({ deployments: DEPLOYMENTS.filter((_, i) => i > 0) }),
      first,
    );
    const object = join(
      snapshots,
      "objects",
      (await readManifest(snapshots, second)).files["catalog.json"]?.sha256 as string,
    );
    const original = await readFile(object);
    const damaged = Buffer.from(original);
    damaged[damaged.length - 3] = (damaged[damaged.length - 3] as number) ^ 0x01;
    await writeFile(object, damaged);

    child.kill("SIGHUP");
    await until(
      () => lines.some((l) => l.msg === "reload failed; still serving the previous release"),
      "the refusal",
    );
    const refusal = lines.find((l) => l.msg === "reload failed; still serving the previous release");
    expect(String(refusal?.err)).toMatch(/damaged|does not match|sha256/);
    const answer = await call(url, "GET", "/v1/deployments?limit=1");
    expect(answer.status).toBe(200);
    expect(answer.headers["x-svc-catalog-release"]).toBe(first);

    await writeFile(object, original);
    child.kill("SIGHUP");
    await until(() => lines.some((l) => l.msg === "release reloaded" && l.release === second), "the switch");
    expect((await call(url, "GET", "/v1/deployments?limit=1")).headers["x-svc-catalog-release"]).toBe(second);
  }, 60_000);
});
