/**
 * What can be checked of the container without docker: the Dockerfile's shape (two stages on
 * node 22 slim, a non-root user, tini as PID 1 and node as the command, never npx or npm, a
 * health check on /healthz, only paths that exist are copied), and the behaviour its command
 * relies on: `node dist/src/cli/main.js serve` exits 0 on SIGTERM, keeps its quota state out of
 * the snapshots directory, and with --no-quota counts nothing and sends no rate-limit headers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyCommittedSnapshots } from "../helpers/committed-release.js";

const REPO = join(import.meta.dirname, "..", "..");
const MAIN = join(REPO, "dist", "src", "cli", "main.js");

interface Instruction {
  keyword: string;
  args: string;
}

function instructions(dockerfile: string): Instruction[] {
  return dockerfile
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: (keyword as string).toUpperCase(), args: rest.join(" ") };
    });
}

describe("the Dockerfile", () => {
  let steps: Instruction[];
  beforeAll(async () => {
    steps = instructions(await readFile(join(REPO, "Dockerfile"), "utf8"));
  });

  it("builds in a first node 22 slim stage and runs production dependencies, dist and snapshots in a second, as a non-root user", () => {
    const froms = steps.filter((s) => s.keyword === "FROM").map((s) => s.args);
    expect(froms).toEqual(["node:22-slim AS build", "node:22-slim"]);
    const finalStage = steps.slice(steps.findLastIndex((s) => s.keyword === "FROM"));
    const run = finalStage.filter((s) => s.keyword === "RUN").map((s) => s.args);
    expect(run.some((r) => r.includes("npm ci --omit=dev"))).toBe(true);
    const copies = finalStage.filter((s) => s.keyword === "COPY").map((s) => s.args);
    expect(copies).toContain("--from=build /app/dist dist");
    expect(copies).toContain("snapshots snapshots");
    const user = finalStage.filter((s) => s.keyword === "USER").map((s) => s.args);
    expect(user).toEqual(["node"]);
  });

  it("runs node itself under tini, never through npx or npm, with a health check on /healthz", () => {
    const entrypoint = JSON.parse(steps.find((s) => s.keyword === "ENTRYPOINT")?.args ?? "null") as string[];
    const cmd = JSON.parse(steps.find((s) => s.keyword === "CMD")?.args ?? "null") as string[];
    expect(entrypoint).toEqual(["/usr/bin/tini", "--"]);
    expect(cmd.slice(0, 3)).toEqual(["node", "dist/src/cli/main.js", "serve"]);
    for (const word of [...entrypoint, ...cmd]) expect(word).not.toMatch(/\bnpx\b|\bnpm\b/);
    const health = steps.find((s) => s.keyword === "HEALTHCHECK")?.args ?? "";
    expect(health).toContain("/healthz");
    expect(health).not.toMatch(/curl|wget/); // node:22-slim has neither
  });

  it("copies only paths that exist in the repository, and the build context leaves out node_modules and state", async () => {
    for (const step of steps.filter((s) => s.keyword === "COPY" && !s.args.startsWith("--from"))) {
      const sources = step.args.split(/\s+/).slice(0, -1);
      for (const source of sources) expect(existsSync(join(REPO, source)), source).toBe(true);
    }
    const ignored = (await readFile(join(REPO, ".dockerignore"), "utf8")).split("\n");
    for (const name of ["node_modules", "dist", "keys.json", "quota.json", ".git"])
      expect(ignored).toContain(name);
  });
});

function serve(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<{ proc: ChildProcess; url: string; exited: Promise<number | null>; stdout: () => string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...options.env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    const proc = spawn(process.execPath, [MAIN, "serve", "--port", "0", "--no-watch", ...args], {
      cwd: options.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((done) => proc.once("exit", (code) => done(code)));
    let out = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === "listening" && entry.url)
          resolve({ proc, url: entry.url, exited, stdout: () => out });
      }
    });
    proc.once("exit", (code) => reject(new Error(`catalog serve exited with ${code}`)));
  });
}

describe("the container's command: node dist/src/cli/main.js serve", () => {
  let work: string;
  let snapshots: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "catalog-container-"));
    snapshots = join(work, "snapshots");
    await copyCommittedSnapshots(snapshots);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it("exits 0 on SIGTERM, and its quota state is ./quota.json of the working directory, never inside the snapshots directory", async () => {
    const { proc, url, exited } = await serve(["--snapshots", snapshots], {
      cwd: work,
      env: { CATALOG_QUOTA_FILE: undefined, XDG_STATE_HOME: undefined, LOG_LEVEL: "info" },
    });
    const answer = await fetch(`${url}/v1/providers`);
    expect(answer.status).toBe(200);
    // the shipped default plans (no plans file given)
    expect(answer.headers.get("x-ratelimit-limit")).toBe("10000");
    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    const state = JSON.parse(await readFile(join(work, "quota.json"), "utf8")) as {
      counters: Record<string, number>;
    };
    expect(Object.values(state.counters)).toEqual([1]);
    expect(await readdir(snapshots)).not.toContain("quota.json");
  }, 60_000);

  it("writes its access log asynchronously, and every request's line is out by the time it exits on SIGTERM", async () => {
    const { proc, url, exited, stdout } = await serve(["--snapshots", snapshots, "--no-quota"], {
      cwd: work,
      env: { LOG_LEVEL: "info" },
    });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => fetch(`${url}/v1/deployments?limit=${(i % 5) + 1}`)),
    );
    await Promise.all(answers.map((a) => a.arrayBuffer()));
    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    // the exit event can come before the last of stdout has been read
    if (!proc.stdout?.readableEnded) await new Promise((done) => proc.stdout?.once("end", done));
    const lines = stdout()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { msg?: string; status?: number });
    expect(lines.filter((l) => l.msg === "request" && l.status === 200)).toHaveLength(60);
    expect(lines.at(-1)?.msg).toBe("server closed");
  }, 60_000);

  it("with XDG_STATE_HOME the quota state is $XDG_STATE_HOME/catalog/quota.json", async () => {
    const stateHome = join(work, "state");
    const { proc, url, exited } = await serve(["--snapshots", snapshots], {
      cwd: work,
      env: { CATALOG_QUOTA_FILE: undefined, XDG_STATE_HOME: stateHome, LOG_LEVEL: "info" },
    });
    await (await fetch(`${url}/v1/releases`)).arrayBuffer();
    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(existsSync(join(stateHome, "catalog", "quota.json"))).toBe(true);
  }, 60_000);

  it("--no-quota counts nothing and sends no rate-limit headers; keys are still required where the spec says", async () => {
    const { proc, url, exited } = await serve(["--snapshots", snapshots, "--no-quota"], {
      cwd: work,
      env: { CATALOG_QUOTA_FILE: join(work, "unused", "quota.json"), LOG_LEVEL: "info" },
    });
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${url}/v1/deployments?limit=1`);
      expect(answer.status).toBe(200);
      expect([...answer.headers.keys()].filter((h) => h.startsWith("x-ratelimit"))).toEqual([]);
    }
    const compare = await fetch(`${url}/v1/deployments/compare`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ deployment_ids: ["x"], usage: { input_tokens: 1 } }),
    });
    expect(compare.status).toBe(401);
    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(existsSync(join(work, "unused"))).toBe(false);
  }, 60_000);
});
