import { execFile } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import {
  CATALOG_FILE,
  cleanTemporary,
  listReleases,
  loadRelease,
  PRICES_FILE,
  type PriceObservation,
  type PublishHook,
  readLatest,
  readManifest,
  readReleaseFile,
  runRelease,
  verifyRelease,
  withDatabase,
} from "../../src/release/index.js";
import type { PricesFile } from "../../src/schema/index.js";
import {
  depId,
  LATER,
  OBSERVED,
  rateCard,
  releaseInput,
  source,
  standardWorld,
  tempSnapshots,
} from "./fixtures.js";

const run = promisify(execFile);
const SUPPORT = fileURLToPath(new URL("./support/", import.meta.url));

/** The second build differs from the first (a price), so it would publish a new release. */
function changedInput(dir: string, hook?: PublishHook) {
  const world = standardWorld();
  const card = world.pricing[0]?.rate_card;
  if (card) card.output_micro_usd = 12_000_000;
  return { ...releaseInput(dir, { world, now: LATER }), hook };
}

async function releaseFiles(dir: string, releaseId: string): Promise<Record<string, Buffer>> {
  const manifest = await readManifest(dir, releaseId);
  const files: Record<string, Buffer> = {};
  for (const [name, file] of Object.entries(manifest.files))
    files[name] = await readFile(join(dir, "objects", file.sha256));
  return files;
}

describe("publishing", () => {
  for (const step of ["objects_written", "release_dir_written", "release_renamed"] as const) {
    test(`a crash at ${step} leaves the previous release loadable and LATEST on it`, async () => {
      const { dir, cleanup } = await tempSnapshots();
      try {
        const first = await runRelease(releaseInput(dir));
        const firstId = first.releaseId as string;
        const crash: PublishHook = (at) => {
          if (at === step) throw new Error(`crash at ${at}`);
        };
        await expect(runRelease(changedInput(dir, crash))).rejects.toThrow(`crash at ${step}`);

        expect(await readLatest(dir)).toBe(firstId);
        expect(await listReleases(dir)).toEqual([firstId]);
        expect((await loadRelease(dir)).manifest.release_id).toBe(firstId);
        expect(await verifyRelease(dir, firstId)).toEqual([]);
        // nothing half-written under a release name
        const names = (await readdir(join(dir, "releases"))).filter((n) => !n.startsWith(".tmp-"));
        for (const name of names) expect(await verifyRelease(dir, name)).toEqual([]);
        expect(names).toHaveLength(step === "release_renamed" ? 2 : 1);

        // the next build finishes the job: LATEST moves to the new release
        await cleanTemporary(dir);
        const retry = await runRelease(changedInput(dir));
        expect(retry.status).toBe("published");
        expect(await readLatest(dir)).toBe(retry.releaseId);
        expect(await listReleases(dir)).toEqual([firstId, retry.releaseId]);
      } finally {
        await cleanup();
      }
    });
  }

  test("a flipped byte in an object makes verifyRelease report the file", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      const outcome = await runRelease(releaseInput(dir));
      const releaseId = outcome.releaseId as string;
      const manifest = await readManifest(dir, releaseId);
      const object = join(dir, "objects", manifest.files["deployments.parquet"]?.sha256 as string);
      const bytes = await readFile(object);
      bytes[100] = (bytes[100] as number) ^ 0xff;
      await writeFile(object, bytes);
      const problems = await verifyRelease(dir, releaseId);
      expect(problems.map((p) => p.file)).toEqual(["deployments.parquet"]);
    } finally {
      await cleanup();
    }
  });

  test("unchanged content gives no new release, even when the sources were checked again later", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      const first = await runRelease(releaseInput(dir));
      const again = await runRelease(releaseInput(dir, { now: LATER }));
      expect(again.status).toBe("unchanged");
      expect(again.releaseId).toBe(first.releaseId);
      expect(again.previousReleaseId).toBe(first.releaseId);
      expect(await readdir(join(dir, "releases"))).toEqual([first.releaseId]);
      expect(await readLatest(dir)).toBe(first.releaseId);
    } finally {
      await cleanup();
    }
  });

  test("a release holds the catalog, its serving index, facts, Parquet tables, diff and report, and the Parquet files are valid and ordered", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      const outcome = await runRelease(releaseInput(dir));
      const manifest = await readManifest(dir, outcome.releaseId as string);
      expect(Object.keys(manifest.files)).toEqual([
        CATALOG_FILE,
        "deployments.parquet",
        "diff.json",
        "diff.md",
        "facts.json",
        "lifecycle.parquet",
        "prices.json",
        "report.json",
        "serve-index.json",
      ]);
      expect(manifest.counts).toMatchObject({ deployments: 4, lifecycle_records: 8, priced_deployments: 4 });
      const parquet = join(dir, "objects", manifest.files["deployments.parquet"]?.sha256 as string);
      const rows = await withDatabase((db) =>
        db.all<{ id: string; output_micro_usd: number | null }>(
          `SELECT id, output_micro_usd FROM read_parquet('${parquet}')`,
        ),
      );
      expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort());
      expect(rows.find((r) => r.id === "dep_openai_gpt-4o_api_global")?.output_micro_usd).toBe(10_000_000);
    } finally {
      await cleanup();
    }
  });

  test("two builds of the same input in different processes, time zones, locales and source orders give byte-identical releases", async () => {
    const a = await tempSnapshots();
    const b = await tempSnapshots();
    try {
      const child = (dir: string, env: Record<string, string>) =>
        run(process.execPath, ["--import", "./register.mjs", "build-child.ts", dir], {
          cwd: SUPPORT,
          env: { ...process.env, ...env },
        });
      const [first, second] = await Promise.all([
        child(a.dir, { TZ: "UTC", LANG: "en_US.UTF-8", LC_ALL: "en_US.UTF-8" }),
        child(b.dir, {
          TZ: "Pacific/Auckland",
          LANG: "de_DE.UTF-8",
          LC_ALL: "de_DE.UTF-8",
          REVERSE_INPUT: "1",
        }),
      ]);
      const idA = first.stdout.trim();
      const idB = second.stdout.trim();
      expect(idA).toMatch(/^rel_[0-9a-f]{64}$/);
      expect(idB).toBe(idA);
      const filesA = await releaseFiles(a.dir, idA);
      const filesB = await releaseFiles(b.dir, idB);
      expect(Object.keys(filesB)).toEqual(Object.keys(filesA));
      for (const [name, bytes] of Object.entries(filesA))
        expect(filesB[name]?.equals(bytes), name).toBe(true);
      // and the same build in this process agrees
      const c = await tempSnapshots();
      try {
        expect((await runRelease(releaseInput(c.dir))).releaseId).toBe(idA);
      } finally {
        await c.cleanup();
      }
    } finally {
      await a.cleanup();
      await b.cleanup();
    }
  });
});

describe("prices.json", () => {
  const pricing = source("pricing");
  const earlier = (input: number): PriceObservation => ({
    source_id: pricing.source_id,
    official: true,
    observed_at: "2026-01-10T00:00:00Z",
    prices: new Map([
      [
        depId("gpt-4o"),
        {
          rate_card: rateCard(pricing, input, 1.25, 10, "2026-01-10T00:00:00Z"),
          verification_status: "official_declared",
        },
      ],
    ]),
  });

  async function prices(dir: string, releaseId: string): Promise<PricesFile> {
    const manifest = await readManifest(dir, releaseId);
    return JSON.parse((await readReleaseFile(dir, manifest, PRICES_FILE)).toString("utf8")) as PricesFile;
  }

  test("holds each deployment's intervals from the current facts and the dated captures, and a new dated capture is a new release", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      const first = await runRelease(releaseInput(dir));
      const current = await prices(dir, first.releaseId as string);
      const gpt4o = current.deployments.find((d) => d.deployment_id === depId("gpt-4o"));
      expect(gpt4o?.intervals.map((i) => [i.valid_from, i.valid_to, i.rate_card.input_micro_usd])).toEqual([
        [OBSERVED.slice(0, 10), null, 2_500_000],
      ]);
      const withHistory = await runRelease({
        ...releaseInput(dir, { now: LATER }),
        datedPrices: [earlier(5)],
      });
      expect(withHistory.status).toBe("published");
      const history = await prices(dir, withHistory.releaseId as string);
      expect(
        history.deployments
          .find((d) => d.deployment_id === depId("gpt-4o"))
          ?.intervals.map((i) => [i.valid_from, i.valid_to, i.rate_card.input_micro_usd]),
      ).toEqual([
        [OBSERVED.slice(0, 10), null, 2_500_000],
        ["2026-01-10", OBSERVED.slice(0, 10), 5_000_000],
      ]);
      // the same dated captures again: nothing new to publish
      const again = await runRelease({ ...releaseInput(dir, { now: LATER }), datedPrices: [earlier(5)] });
      expect(again.status).toBe("unchanged");
    } finally {
      await cleanup();
    }
  });
});
