/**
 * `catalog sources` through the real CLI (the built dist/): every recorded capture is listed with
 * the day its content was seen upstream and its age in days at --now.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { captureAgeDays } from "../../src/cli/sources.js";

const run = promisify(execFile);
const REPO = join(import.meta.dirname, "..", "..");
const CLI = join(REPO, "src", "cli", "bin.mjs");

describe("catalog sources", () => {
  it("counts a capture's age in whole UTC days from the day its content was seen", () => {
    expect(captureAgeDays("2025-09-18T12:19:07Z", "2026-11-23T00:00:00Z")).toBe(431);
    expect(captureAgeDays("2026-11-23T23:59:59Z", "2026-11-23T00:00:00Z")).toBe(0);
    expect(captureAgeDays("2026-11-22T00:00:00Z", "2026-11-23T00:00:00Z")).toBe(1);
  });

  it("lists every recorded capture with its content date and age at --now, never the project default", async () => {
    const { stdout } = await run(process.execPath, [
      CLI,
      "sources",
      "--json",
      "--now",
      "2026-11-23T00:00:00Z",
      "--sources",
      join(REPO, "sources"),
    ]);
    const out = JSON.parse(stdout) as {
      now: string;
      sources: Array<{
        provider_id: string;
        name: string;
        capture: { fetched_at: string; age_days: number } | null;
      }>;
    };
    expect(out.now).toBe("2026-11-23T00:00:00Z");
    const captured = out.sources.filter((s) => s.capture !== null);
    expect(captured.length).toBeGreaterThanOrEqual(16);
    for (const s of captured) {
      const capture = s.capture as { fetched_at: string; age_days: number };
      expect(capture.age_days).toBe(captureAgeDays(capture.fetched_at, out.now));
      // A content date is never the day it was recorded here (the build day of the snapshot).
      expect(capture.fetched_at.slice(0, 10)).not.toBe("2026-11-23");
    }
    const mistral = captured.find((s) => s.provider_id === "mistral" && s.name === "model-cards");
    expect(mistral?.capture).toMatchObject({ fetched_at: "2026-08-21T16:27:43Z", age_days: 94 });
    const text = await run(process.execPath, [
      CLI,
      "sources",
      "--now",
      "2026-11-23T00:00:00Z",
      "--sources",
      join(REPO, "sources"),
    ]);
    expect(text.stdout).toMatch(
      /^mistral +model-cards +official_lifecycle +mistral-model-cards +2026-08-21 +94 /m,
    );
  }, 60_000);
});
