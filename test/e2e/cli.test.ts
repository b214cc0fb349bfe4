/**
 * End to end through the real CLI in child processes (the built `dist/`, as `npx catalog` runs
 * it): build release A from the recorded captures; change captures as an upstream would (a
 * price up, an end of life moved earlier, one source broken); build B; `catalog diff A B`
 * shows exactly those changes; serve B over HTTP and see them, plus the broken source's
 * unchanged facts; restore the source, build C and see `source_recovered`.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyCommittedSnapshots } from "../helpers/committed-release.js";

const run = promisify(execFile);
const REPO = join(import.meta.dirname, "..", "..");
// The installed `catalog` command (package.json "bin"), which runs the compiled CLI in dist/.
const CLI = join(REPO, "src", "cli", "bin.mjs");

interface Capture {
  dir: string;
  meta: Record<string, unknown> & { file: string; sha256: string };
  text: string;
}

async function readCapture(sources: string, provider: string, name: string): Promise<Capture> {
  const dir = join(sources, provider, "captures", name);
  const meta = JSON.parse(await readFile(join(dir, "CURRENT.json"), "utf8")) as Capture["meta"];
  return { dir, meta, text: await readFile(join(dir, meta.file), "utf8") };
}

/** Record new monitored content for a source, as a live fetch that saw it would. */
async function recordCapture(capture: Capture, text: string, fetchedAt: string): Promise<void> {
  const sha = createHash("sha256").update(text).digest("hex");
  const ext = capture.meta.file.split(".").pop() as string;
  await writeFile(join(capture.dir, `${sha}.${ext}`), text);
  await writeFile(
    join(capture.dir, "CURRENT.json"),
    `${JSON.stringify({ ...capture.meta, file: `${sha}.${ext}`, sha256: sha, fetched_at: fetchedAt }, null, 2)}\n`,
  );
}

async function catalog(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [CLI, ...args], { cwd: REPO, maxBuffer: 1 << 26 });
}

async function build(sources: string, snapshots: string, now: string): Promise<string> {
  const { stdout } = await catalog([
    "build",
    "--offline",
    "--sources",
    sources,
    "--snapshots",
    snapshots,
    "--now",
    now,
  ]);
  const id = stdout.trim().split("\n").pop() as string;
  expect(id).toMatch(/^rel_[0-9a-f]{64}$/);
  return id;
}

function serve(snapshots: string): Promise<{ url: string; proc: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [CLI, "serve", "--snapshots", snapshots, "--port", "0", "--no-watch"],
      {
        cwd: REPO,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, CATALOG_QUOTA_FILE: join(snapshots, "..", "quota.json"), LOG_LEVEL: "info" },
      },
    );
    let out = "";
    proc.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === "listening" && entry.url) resolve({ url: entry.url, proc });
      }
    });
    proc.once("exit", (code) => reject(new Error(`catalog serve exited with ${code}`)));
  });
}

const OPUS_47 = "dep_anthropic_claude-opus-4-7_api_global";
const OPUS_48 = "dep_anthropic_claude-opus-4-8_api_global";

describe("the catalog CLI end to end", () => {
  let work: string;
  let sources: string;
  let snapshots: string;
  let releaseA: string;
  let releaseB: string;
  let mistralOriginal: Capture;
  let server: { url: string; proc: ChildProcess } | null = null;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "catalog-e2e-"));
    sources = join(work, "sources");
    snapshots = join(work, "snapshots");
    await cp(join(REPO, "sources"), sources, { recursive: true });
    // the first release is the committed one (build.test.ts holds it to be this build at 2026-11-23)
    releaseA = await copyCommittedSnapshots(snapshots);

    // A price up: Claude Opus 4.7 base input $5 -> $6 per MTok on Anthropic's pricing page.
    const pricing = await readCapture(sources, "anthropic", "pricing");
    const opusRow = /^\| Claude Opus 4\.7 +\| \$5 \/ MTok /m;
    expect(pricing.text).toMatch(opusRow);
    await recordCapture(
      pricing,
      pricing.text.replace(opusRow, (row) => row.replace("$5 / MTok", "$6 / MTok")),
      "2026-11-24T00:00:00Z",
    );
    // An end of life moved earlier: claude-opus-4-8 "Not sooner than May 28, 2027" -> March 1, 2027.
    const deprecations = await readCapture(sources, "anthropic", "deprecations");
    expect(deprecations.text).toContain(
      "| claude-opus-4-8            | Active        | N/A               | Not sooner than May 28, 2027       |",
    );
    await recordCapture(
      deprecations,
      deprecations.text.replace(
        "| claude-opus-4-8            | Active        | N/A               | Not sooner than May 28, 2027       |",
        "| claude-opus-4-8            | Active        | N/A               | Not sooner than March 1, 2027      |",
      ),
      "2026-11-24T00:00:00Z",
    );
    // One source broken: Mistral's model-card directory comes back empty.
    mistralOriginal = await readCapture(sources, "mistral", "model-cards");
    await recordCapture(mistralOriginal, '{"files":[]}', "2026-11-24T00:00:00Z");

    releaseB = await build(sources, snapshots, "2026-11-24T00:00:00Z");
  }, 120_000);

  afterAll(async () => {
    server?.proc.kill("SIGTERM");
    await rm(work, { recursive: true, force: true });
  });

  it("publishes a new release for the changed captures and refuses nothing", () => {
    expect(releaseB).not.toBe(releaseA);
  });

  it("`catalog diff A B` lists exactly the price increase, the earlier end of life and the source events", async () => {
    const { stdout } = await catalog([
      "diff",
      releaseA,
      releaseB,
      "--snapshots",
      snapshots,
      "--format",
      "json",
    ]);
    const diff = JSON.parse(stdout) as {
      deployments_added: unknown[];
      deployments_removed: unknown[];
      price_changes: Array<{
        deployment_id: string;
        component: string;
        old: number;
        new: number;
        percent: number;
      }>;
      lifecycle_changes: Array<{ resource_id: string; kind: string; old: string; new: string }>;
      source_events: Array<{ event_type: string; provider_id: string }>;
      limit_changes: unknown[];
      capability_changes: unknown[];
    };
    expect(diff.deployments_added).toEqual([]);
    expect(diff.deployments_removed).toEqual([]);
    expect(diff.limit_changes).toEqual([]);
    expect(diff.capability_changes).toEqual([]);
    expect(diff.price_changes).toEqual([
      expect.objectContaining({
        deployment_id: OPUS_47,
        component: "input",
        old: 5_000_000,
        new: 6_000_000,
        percent: 20,
      }),
    ]);
    expect(diff.lifecycle_changes.length).toBeGreaterThan(0);
    for (const change of diff.lifecycle_changes) {
      expect(change.resource_id).toContain("claude-opus-4-8");
      expect(change).toMatchObject({ kind: "end_of_life_earlier", old: "2027-05-28", new: "2027-03-01" });
    }
    expect(diff.lifecycle_changes.map((c) => c.resource_id)).toContain(OPUS_48);
    const events = diff.source_events.map((e) => `${e.event_type} ${e.provider_id}`).sort();
    expect(events).toEqual([
      "lifecycle.source_changed anthropic",
      "lifecycle.source_changed anthropic",
      "lifecycle.source_failed mistral",
    ]);

    const markdown = await catalog(["diff", releaseA, releaseB, "--snapshots", snapshots]);
    expect(markdown.stdout).toContain("End of life moved earlier");
    expect(markdown.stdout).toContain(OPUS_47);
  });

  it("serves release B: the new price, the moved date, the events and the broken source's unchanged facts", async () => {
    server = await serve(snapshots);
    const get = async (path: string) => {
      const res = await fetch(`${server?.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-svc-catalog-release")).toBe(releaseB);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const opus = (await get(`/v1/deployments/${OPUS_47}`)) as { rate_card: { input_micro_usd: number } };
    expect(opus.rate_card.input_micro_usd).toBe(6_000_000);

    const lifecycle = (await get(`/v1/lifecycle?resource_id=${OPUS_48}`)) as {
      data: Array<{ lifecycle: { end_of_life: { date: string; date_type: string } } }>;
    };
    expect(lifecycle.data[0]?.lifecycle.end_of_life).toMatchObject({
      date: "2027-03-01",
      date_type: "not_before",
    });

    const events = (await get("/v1/lifecycle/events?since=2026-11-24")) as {
      data: Array<{
        event_type: string;
        provider_id: string;
        previous_sha256: string | null;
        current_sha256: string | null;
      }>;
    };
    expect(events.data.map((e) => `${e.event_type} ${e.provider_id}`).sort()).toEqual([
      "lifecycle.source_changed anthropic",
      "lifecycle.source_changed anthropic",
      "lifecycle.source_failed mistral",
    ]);
    for (const e of events.data.filter((x) => x.event_type === "lifecycle.source_changed")) {
      expect(e.previous_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(e.current_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(e.previous_sha256).not.toBe(e.current_sha256);
    }

    // The broken source's facts are carried forward (the diff above shows no change to them).
    const mistral = (await get("/v1/deployments?provider=mistral&limit=500")) as {
      data: Array<{ id: string; context_tokens: number | null; lifecycle: { coverage: { status: string } } }>;
      meta: { total: number };
    };
    expect(mistral.meta.total).toBeGreaterThan(30);
    expect(mistral.data.some((d) => d.context_tokens !== null)).toBe(true);
    for (const d of mistral.data) expect(d.lifecycle.coverage.status).toBe("partial");
  });

  it("a restored source recovers in the next build", async () => {
    await writeFile(
      join(mistralOriginal.dir, "CURRENT.json"),
      `${JSON.stringify({ ...mistralOriginal.meta, fetched_at: "2026-11-25T00:00:00Z" }, null, 2)}\n`,
    );
    const releaseC = await build(sources, snapshots, "2026-11-25T00:00:00Z");
    const { stdout } = await catalog([
      "diff",
      releaseB,
      releaseC,
      "--snapshots",
      snapshots,
      "--format",
      "json",
    ]);
    const diff = JSON.parse(stdout) as { source_events: Array<{ event_type: string; provider_id: string }> };
    expect(diff.source_events.map((e) => `${e.event_type} ${e.provider_id}`)).toEqual([
      "lifecycle.source_recovered mistral",
    ]);
  }, 60_000);

  it("`catalog diff` verifies both releases first: a deleted catalog.json, or any file altered, exits 4", async () => {
    const copy = await mkdtemp(join(tmpdir(), "catalog-diff-damaged-"));
    const diff = () => catalog(["diff", releaseA, releaseB, "--snapshots", copy]).catch((e: unknown) => e);
    const filesOf = async (id: string) =>
      (
        JSON.parse(await readFile(join(copy, "releases", id, "manifest.json"), "utf8")) as {
          files: Record<string, { sha256: string }>;
        }
      ).files;
    try {
      await cp(snapshots, copy, { recursive: true });
      const catalogOfA = join(copy, "objects", (await filesOf(releaseA))["catalog.json"]?.sha256 as string);
      const original = await readFile(catalogOfA);
      await rm(catalogOfA);
      const deleted = await diff();
      expect((deleted as { code: number }).code).toBe(4);
      expect((deleted as { stderr: string }).stderr).toMatch(/catalog\.json/);
      await writeFile(catalogOfA, original);
      // each file of the newer release altered by one bit, then restored (the older one's files
      // go through the same check, as the deleted catalog.json shows)
      for (const id of [releaseB]) {
        for (const [name, file] of Object.entries(await filesOf(id))) {
          const object = join(copy, "objects", file.sha256);
          const bytes = await readFile(object);
          const altered = Buffer.from(bytes);
          altered[0] = (altered[0] as number) ^ 0x01;
          await writeFile(object, altered);
          expect(((await diff()) as { code: number }).code, `${name} of ${id}`).toBe(4);
          await writeFile(object, bytes);
        }
      }
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }, 120_000);

  it("a flipped byte makes `catalog verify` exit 4 and `catalog serve` refuse to start", async () => {
    const ok = await catalog(["verify", "--snapshots", snapshots]);
    expect(ok.stdout).toMatch(/ok\n$/);
    const manifest = JSON.parse(
      await readFile(join(snapshots, "releases", releaseB, "manifest.json"), "utf8"),
    ) as { files: Record<string, { sha256: string }> };
    const object = join(snapshots, "objects", (manifest.files["report.json"] as { sha256: string }).sha256);
    const bytes = await readFile(object);
    bytes[10] = (bytes[10] as number) ^ 0x01;
    await writeFile(object, bytes);
    const verify = await catalog(["verify", releaseB, "--snapshots", snapshots]).catch((e: unknown) => e);
    expect((verify as { code: number }).code).toBe(4);
    expect((verify as { stderr: string }).stderr).toContain("report.json");
    const served = await catalog([
      "serve",
      "--snapshots",
      snapshots,
      "--release",
      releaseB,
      "--port",
      "0",
    ]).catch((e: unknown) => e);
    expect((served as { code: number }).code).toBe(4);
    expect((served as { stderr: string }).stderr).toMatch(/damaged/);
  }, 60_000);
});
