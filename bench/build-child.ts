/**
 * One build measurement in its own process, so peak memory (maxRSS) belongs to it alone.
 * Prints one JSON line on stdout.
 *
 *   node dist/bench/build-child.js offline <snapshotsDir>
 *       the offline build of the published sources into an empty snapshots dir
 *   node dist/bench/build-child.js synthetic <inputFile> <snapshotsDir> [now]
 *       read a synthetic ParseOutput file, validate it as the normalize stage does, and run the
 *       release stage (merge, DuckDB load, checks, diff, parquet, publish)
 *   node dist/bench/build-child.js floor <inputFile>
 *       the floor: read the same bytes, JSON.parse them and SHA-256 them, nothing else
 *   node dist/bench/build-child.js diff <snapshotsDir> <fromId> <toId>
 *       the DuckDB diff of two published releases
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fixedClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { checkParseOutput } from "../src/normalize/index.js";
import { runBuild } from "../src/pipeline/build.js";
import { diffReleases, runRelease } from "../src/release/index.js";
import { litellmSource } from "./synthetic.js";

const [mode, a, b, c] = process.argv.slice(2);

/**
 * The input's bytes and their text, read the same way by the floor and the synthetic build, so
 * the ratio between them is the build's own work: `readFile(path, "utf8")` decodes the file a
 * read at a time (a string of 512 KiB pieces that JSON.parse must flatten first), which made the
 * build's read and parse of the 121 MiB input about 0.3 s slower than the floor's.
 */
async function readInput(path: string): Promise<{ bytes: Buffer; text: string }> {
  const bytes = await readFile(path);
  return { bytes, text: bytes.toString("utf8") };
}

/**
 * The input's text alone, read as readInput reads it, for the synthetic build, which never uses
 * the bytes: they are unreachable once this returns, before the parse. (Kept in a caller's frame
 * through the parse, the 122 MiB buffer outlived it and was still held at the build's peak: no
 * full collection comes after the parse, whose own one finds it reachable.)
 */
async function readText(path: string): Promise<string> {
  return (await readInput(path)).text;
}
const started = performance.now();
let extra: Record<string, unknown> = {};

if (mode === "offline") {
  const summary = await runBuild({
    sourcesDir: join(import.meta.dirname, "..", "..", "sources"),
    snapshotsDir: a as string,
    offline: true,
    clock: fixedClock("2026-11-23T00:00:00Z"),
    logger: silentLogger,
  });
  extra = { status: summary.status, deployments: summary.outcome.report.totals.deployments };
} else if (mode === "synthetic") {
  const checked = checkParseOutput(JSON.parse(await readText(a as string)));
  if (!checked.success)
    throw new Error(`synthetic input fails the schema: ${checked.error.issues[0]?.message}`);
  const output = checked.data;
  const source = await litellmSource();
  const now = c ?? "2026-11-23T00:00:00Z";
  const outcome = await runRelease({
    snapshotsDir: b as string,
    now,
    contributions: [{ source, output, failed: false, observedAt: "2026-11-23T00:00:00Z" }],
    states: [],
    newEvents: [],
  });
  extra = { status: outcome.status, release_id: outcome.releaseId, deployments: output.deployments.length };
} else if (mode === "floor") {
  const { bytes, text } = await readInput(a as string);
  const parsed = JSON.parse(text) as { deployments: unknown[] };
  const digest = createHash("sha256").update(bytes).digest("hex");
  extra = { deployments: parsed.deployments.length, sha256: digest.slice(0, 12) };
} else if (mode === "diff") {
  const { diff } = await diffReleases(a as string, b as string, c as string);
  extra = { price_changes: diff.price_changes.length };
} else {
  throw new Error(`unknown mode ${mode}`);
}

const ms = performance.now() - started;
const peakRssMb = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify({ mode, ms, peakRssMb, ...extra })}\n`);
