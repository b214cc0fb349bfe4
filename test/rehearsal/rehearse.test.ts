/**
 * The rehearsal (src/rehearsal) on a slice of the real sources: Anthropic (a pricing page, a
 * deprecations page, model pages), Google (the Gemini API's model list: token pages behind an
 * API key from the environment; model pages) and Mistral (a bundle of 65 files). `npm run
 * rehearse` runs every provider in CI; here the host pacing is 25 ms instead of 250 ms.
 */
import { access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { captureDir, loadSourceDefinitions } from "../../src/collect/index.js";
import { DEFAULT_NIGHT_THREE, rehearse, verdictLine } from "../../src/rehearsal/rehearse.js";
import { SOURCES_DIR } from "../helpers/captures.js";

const PROVIDERS = ["anthropic", "google", "mistral"];

/** Independently of the rehearsal: the slice's live definitions with and without a capture. */
async function sliceCounts() {
  const { definitions } = await loadSourceDefinitions(SOURCES_DIR);
  const live = definitions.filter((d) => PROVIDERS.includes(d.provider_id) && !d.archived);
  const recorded = [];
  for (const d of live) {
    const has = await access(join(captureDir(SOURCES_DIR, d), "CURRENT.json")).then(
      () => true,
      () => false,
    );
    if (has) recorded.push(d);
  }
  return { live: live.length, recorded };
}

describe("the rehearsal of the nightly", () => {
  it("fetches every recorded source of the slice, equals the offline build, then 304s, then a failure and a change", async () => {
    const { live, recorded } = await sliceCounts();
    // the slice covers token pagination with an API key, a bundle and model pages
    expect(recorded.some((d) => d.page_token && d.secrets)).toBe(true);
    expect(recorded.some((d) => d.bundle)).toBe(true);
    expect(recorded.some((d) => d.name.startsWith("model-"))).toBe(true);

    const lines: string[] = [];
    const report = await rehearse({
      sourcesDir: SOURCES_DIR,
      providers: PROVIDERS,
      nightThree: { ...DEFAULT_NIGHT_THREE, failing: { provider: "anthropic", name: "deprecations" } },
      perHostIntervalMs: 25,
      log: (line) => lines.push(line),
    });
    expect(report.problems).toEqual([]);
    expect(report.replayed).toBe(recorded.length);
    expect(report.liveOnly).toBe(live - recorded.length);
    expect(report.fetched).toBe(recorded.length);
    expect(report.equal).toBe(true);
    expect(report.nights[0]?.releaseId).toBe(report.offlineReleaseId);
    expect(verdictLine(report)).toBe(
      `rehearsal: fetched ${recorded.length} of ${recorded.length} live sources; release equal to the offline build: yes`,
    );

    const [, second, third] = report.nights;
    expect(second).toMatchObject({ status: "unchanged", statuses: { not_modified: recorded.length } });
    expect(second?.answers).toEqual({ 304: recorded.length });
    expect(third?.status).toBe("published");
    expect(third?.statuses).toEqual({ changed: 1, failed: 1, not_modified: recorded.length - 2 });
    // the failing source was retried (the Fetcher's 3 retries) before it failed
    expect(third?.answers[500]).toBe(4);
    expect(lines).toContain(
      "night 3 diff: dep_anthropic_claude-opus-4-7_api_global price input 5000000 -> 6000000",
    );
  }, 60_000);
});
