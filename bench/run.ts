/**
 * `npm run bench`: every number measured in this one run, each next to its floor or baseline
 * measured the same way on the same machine, and written to bench/RESULTS.md.
 *
 *  - build: the offline build of the published sources; synthetic catalogs of 1k / 10k / 100k
 *    deployments (the real LiteLLM map replicated across regions) next to the floor of reading,
 *    parsing and hashing the same bytes; the DuckDB diff of two 100k releases.
 *  - serve: throughput of a 100-record list page as a ratio to a bare node:http server sending
 *    the same bytes; the 304 path; compare; start-up time and memory for the published release.
 *
 * Set BENCH_QUICK=1 to skip the 100k size, BENCH_SERVE_ONLY=1 to run the server part alone
 * (both for a fast look; neither writes RESULTS.md).
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import * as os from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Pool } from "undici";
import { readLatest } from "../src/release/index.js";
import { createKey } from "../src/serve/index.js";
import { realLiteLlmOutput, replicate } from "./synthetic.js";

const run = promisify(execFile);
const DIST_BENCH = import.meta.dirname;
const REPO = join(DIST_BENCH, "..", "..");
const SNAPSHOTS = join(REPO, "snapshots");
const SERVE_ONLY = process.env.BENCH_SERVE_ONLY === "1";
const QUICK = process.env.BENCH_QUICK === "1" || SERVE_ONLY;

interface ChildResult {
  mode: string;
  ms: number;
  peakRssMb: number;
  [key: string]: unknown;
}

async function child(script: string, args: string[]): Promise<ChildResult> {
  const { stdout } = await run(process.execPath, ["--expose-gc", join(DIST_BENCH, script), ...args], {
    maxBuffer: 1 << 24,
  });
  const line = stdout.trim().split("\n").pop() as string;
  return JSON.parse(line) as ChildResult;
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function buildBenchmarks(work: string): Promise<string[]> {
  const lines: string[] = [];
  const offline = await child("build-child.js", ["offline", join(work, "offline-snapshots")]);
  lines.push("### Offline build of the published sources (empty snapshots dir, full publish)");
  lines.push("");
  lines.push(`| deployments | time | peak RSS | target |`);
  lines.push(`|---|---|---|---|`);
  lines.push(
    `| ${offline.deployments} | ${fmt(offline.ms)} ms | ${fmt(offline.peakRssMb)} MiB | < 10,000 ms: ${offline.ms < 10_000 ? "met" : "MISSED"} |`,
  );
  lines.push("");

  const base = await realLiteLlmOutput();
  const sizes = QUICK ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  lines.push(
    `### Synthetic catalogs (${base.deployments.length} real LiteLLM deployments replicated across regions)`,
  );
  lines.push("");
  lines.push(
    "| deployments | input | floor (read+parse+hash) | build | build / floor | build µs per deployment | peak RSS | floor RSS |",
  );
  lines.push("|---|---|---|---|---|---|---|---|");
  const perDeployment: number[] = [];
  for (const size of sizes) {
    const input = join(work, `synthetic-${size}.json`);
    const text = JSON.stringify(replicate(base, size));
    await writeFile(input, text);
    const floor = await child("build-child.js", ["floor", input]);
    const dir = join(work, `snap-${size}`);
    const build = await child("build-child.js", ["synthetic", input, dir]);
    perDeployment.push((build.ms * 1000) / size);
    lines.push(
      `| ${fmt(size)} | ${fmt(text.length / 2 ** 20, 1)} MiB | ${fmt(floor.ms)} ms | ${fmt(build.ms)} ms | ${fmt(build.ms / floor.ms, 1)}x | ${fmt((build.ms * 1000) / size)} | ${fmt(build.peakRssMb)} MiB | ${fmt(floor.peakRssMb)} MiB |`,
    );
    if (size === 100_000) {
      const ok = build.ms < 60_000 && build.peakRssMb < 2048;
      lines.push("");
      lines.push(`Target for 100,000: under 60 s and under 2 GiB: ${ok ? "met" : "MISSED"}.`);
      const first = (await readLatest(dir)) as string;
      const second = join(work, "synthetic-100000-b.json");
      await writeFile(second, JSON.stringify(replicate(base, size, 100)));
      const rebuild = await child("build-child.js", ["synthetic", second, dir, "2026-11-24T00:00:00Z"]);
      lines.push("");
      lines.push(
        `A second 100,000-deployment build on top of the first (1% of input prices up 10%; it reads, merges against and diffs with the previous release): ${fmt(rebuild.ms)} ms, peak RSS ${fmt(rebuild.peakRssMb)} MiB.`,
      );
      const next = (await readLatest(dir)) as string;
      const diff = await child("build-child.js", ["diff", dir, first, next]);
      const server = await spawnServer([
        "catalog",
        dir,
        join(work, "keys.json"),
        join(work, "plans.json"),
        join(work, "quota-100k.json"),
      ]);
      await server.stop();
      lines.push("");
      lines.push(
        `Server start-up on the 100,000-deployment release (load + verify + index): ${fmt(server.info.startupMs as number)} ms; RSS after start-up ${fmt(server.info.rssMb as number, 1)} MiB (heap ${fmt(server.info.heapMb as number, 1)} MiB).`,
      );
      lines.push("");
      lines.push(
        `DuckDB diff of two 100,000-deployment releases (1% of input prices up 10%): ${fmt(diff.ms)} ms, ${diff.price_changes} price changes found, peak RSS ${fmt(diff.peakRssMb)} MiB.`,
      );
    }
    await rm(dir, { recursive: true, force: true });
  }
  lines.push("");
  const growth = perDeployment.map((v, i) => `${fmt(sizes[i] as number)}: ${fmt(v)} µs`).join(", ");
  lines.push(`Cost per deployment by size (flat = linear growth): ${growth}.`);
  return lines;
}

interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  statuses: Record<number, number>;
}

async function load(
  port: number,
  request: { path: string; method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
  seconds: number,
  connections = 16,
): Promise<LoadResult> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1 });
  const statuses: Record<number, number> = {};
  let requests = 0;
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        const res = await pool.request({
          path: request.path,
          method: request.method ?? "GET",
          headers: request.headers,
          body: request.body,
        });
        await res.body.arrayBuffer();
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        requests++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { requests, errors, seconds: elapsed, rps: requests / elapsed, statuses };
}

function spawnServer(args: string[]): Promise<{ info: Record<string, number>; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--expose-gc", join(DIST_BENCH, "serve-child.js"), ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0)
        resolve({
          info: JSON.parse(out.slice(0, nl)) as Record<string, number>,
          stop: () =>
            new Promise((done) => {
              proc.once("exit", () => done());
              proc.kill("SIGTERM");
            }),
        });
    });
    proc.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function serveBenchmarks(work: string): Promise<string[]> {
  const keysFile = join(work, "keys.json");
  const plansFile = join(work, "plans.json");
  await writeFile(
    plansFile,
    JSON.stringify({
      plans: { bench: { monthly_quota: 1_000_000_000 }, anonymous: { monthly_quota: 1_000_000_000 } },
    }),
  );
  const { key } = await createKey(keysFile, "bench", "bench");
  const auth = { authorization: `Bearer ${key}` };
  const catalog = await spawnServer(["catalog", SNAPSHOTS, keysFile, plansFile, join(work, "quota.json")]);
  const port = catalog.info.port as number;
  const pagePath = "/v1/deployments?limit=100";
  const pool = new Pool(`http://127.0.0.1:${port}`);
  const first = await pool.request({ path: pagePath, method: "GET", headers: auth });
  const body = Buffer.from(await first.body.arrayBuffer());
  const etag = String(first.headers.etag);
  const priced = await pool.request({
    path: "/v1/deployments?has_pricing=true&limit=20",
    method: "GET",
    headers: auth,
  });
  const ids = (
    JSON.parse(Buffer.from(await priced.body.arrayBuffer()).toString()) as { data: Array<{ id: string }> }
  ).data.map((d) => d.id);
  if (ids.length < 2) throw new Error("not enough priced deployments to compare");
  await pool.close();
  const bodyFile = join(work, "page.json");
  await writeFile(bodyFile, body);
  const bare = await spawnServer(["bare", bodyFile, etag]);

  const seconds = 4;
  await load(port, { path: pagePath, headers: auth }, 1); // warm-up
  await load(bare.info.port as number, { path: pagePath }, 1);
  // The list and its baseline alternate in rounds, so a burst of other load on this 2-core
  // machine hits both alike; each is the median round.
  const bareRounds: LoadResult[] = [];
  const listRounds: LoadResult[] = [];
  for (let round = 0; round < 7; round++) {
    bareRounds.push(await load(bare.info.port as number, { path: pagePath }, 2));
    listRounds.push(await load(port, { path: pagePath, headers: auth }, 2));
  }
  const median = (rounds: LoadResult[]) =>
    [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)] as LoadResult;
  const bareList = median(bareRounds);
  const list = median(listRounds);
  // Each round's list rate over the bare rate measured just before it (paired, so drift in
  // the machine's load cancels); the reported ratio is the median of these.
  const roundRatios = listRounds.map((r, i) => r.rps / (bareRounds[i] as LoadResult).rps);
  const pairedRatio = [...roundRatios].sort((a, b) => a - b)[Math.floor(roundRatios.length / 2)] as number;
  const notModified = await load(
    port,
    { path: pagePath, headers: { ...auth, "if-none-match": etag } },
    seconds,
  );
  const compare = await load(
    port,
    {
      path: "/v1/deployments/compare",
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        deployment_ids: ids,
        usage: { input_tokens: 1_200_000, cached_input_tokens: 300_000, output_tokens: 250_000 },
      }),
    },
    seconds,
  );
  await catalog.stop();
  await bare.stop();

  const ratio = pairedRatio;
  const lines: string[] = [];
  lines.push(
    `### Server (published release, ${fmt(body.length / 1024, 1)} KiB page of 100 deployments, 16 connections; 304 and compare ${seconds} s each)`,
  );
  lines.push("");
  lines.push("| workload | requests/s | vs bare node:http | statuses | errors |");
  lines.push("|---|---|---|---|---|");
  const row = (name: string, r: LoadResult) =>
    `| ${name} | ${fmt(r.rps)} | ${fmt(r.rps / bareList.rps, 2)}x | ${Object.entries(r.statuses)
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ")} | ${r.errors} |`;
  lines.push(row("bare node:http, same bytes (baseline, median round)", bareList));
  lines.push(row("GET /v1/deployments?limit=100 (with key, median round)", list));
  lines.push(row("same, If-None-Match -> 304", notModified));
  lines.push(row(`POST /v1/deployments/compare (${ids.length} priced ids)`, compare));
  lines.push("");
  lines.push(
    `List throughput ratio: ${fmt(ratio, 2)}x bare node:http: the median of 7 paired rounds of 2 s each, bare then list (ratio per round: ${roundRatios.map((r) => fmt(r, 2)).join(", ")}; target >= 0.8x: ${ratio >= 0.8 ? "met" : "MISSED"}).`,
  );
  lines.push("");
  lines.push(
    `Start-up of the published release (load + verify hashes + index): ${fmt(catalog.info.startupMs as number)} ms; RSS after start-up ${fmt(catalog.info.rssMb as number, 1)} MiB (heap ${fmt(catalog.info.heapMb as number, 1)} MiB; ${fmt(catalog.info.rssBeforeMb as number, 1)} MiB before loading).`,
  );
  return lines;
}

const work = await mkdtemp(join(os.tmpdir(), "catalog-bench-"));
try {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const header = [
    "# Benchmark results",
    "",
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${os.cpus().length} x ${cpu}, ${fmt(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}. Every ratio compares numbers measured in this same run.`,
    "",
    "## Serve",
    "",
  ];
  const serve = await serveBenchmarks(work);
  const build = SERVE_ONLY ? ["(skipped: BENCH_SERVE_ONLY=1)"] : await buildBenchmarks(work);
  const text = [...header, ...serve, "", "## Build", "", ...build, ""].join("\n");
  process.stdout.write(`${text}\n`);
  if (!QUICK) await writeFile(join(REPO, "bench", "RESULTS.md"), text);
} finally {
  await rm(work, { recursive: true, force: true });
}
