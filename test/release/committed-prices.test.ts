/**
 * The committed release's price history (prices.json), the offline build of the recorded
 * captures and their dated copies (sources/<provider>/captures/<name>/dated/): intervals that
 * never overlap, official prices dated by the docs histories, and the Voxtral Small price change
 * of August 2026 found in Mistral's model cards.
 */
import { describe, expect, it } from "vitest";
import { loadRelease, PRICES_FILE, readReleaseFile } from "../../src/release/index.js";
import { type PriceInterval, PricesFile } from "../../src/schema/index.js";
import { committedReleaseId, REPO_SNAPSHOTS } from "../helpers/committed-release.js";

async function committedPrices(onlyPriced = false): Promise<Map<string, PriceInterval[]>> {
  const { manifest, catalog } = await loadRelease(REPO_SNAPSHOTS, await committedReleaseId());
  const file = PricesFile.parse(
    JSON.parse((await readReleaseFile(REPO_SNAPSHOTS, manifest, PRICES_FILE)).toString("utf8")),
  );
  const ids = new Set(catalog.deployments.map((d) => d.id));
  for (const d of file.deployments) expect(ids.has(d.deployment_id), d.deployment_id).toBe(true);
  const priced = new Set(catalog.deployments.filter((d) => d.rate_card).map((d) => d.id));
  return new Map(
    file.deployments
      .filter((d) => !onlyPriced || priced.has(d.deployment_id))
      .map((d) => [d.deployment_id, d.intervals]),
  );
}

describe("the committed release's price history", () => {
  it("has intervals that never overlap, newest first, each with its rate card, status and source", async () => {
    const prices = await committedPrices();
    for (const [id, intervals] of prices) {
      intervals.forEach((interval, i) => {
        expect(interval.valid_to === null || interval.valid_from < interval.valid_to, id).toBe(true);
        expect(interval.source_url, id).toBe(interval.rate_card.source_url);
        const older = intervals[i + 1];
        if (older) expect(older.valid_to !== null && older.valid_to <= interval.valid_from, id).toBe(true);
      });
    }
  });

  it("dates prices before July 2026 for most priced deployments, and two or more prices for many", async () => {
    const prices = [...(await committedPrices(true)).values()];
    const before = prices.filter((intervals) => intervals.some((i) => i.valid_from < "2026-07-01"));
    const changed = prices.filter((intervals) => intervals.length >= 2);
    // 729 of the 994 priced deployments, 2+ prices for 272 (870 and 305 of 1,088 before the
    // providers' catalogs and the Bedrock cards' profiles and Regions removed community-only
    // offerings)
    expect(before.length).toBeGreaterThanOrEqual(700);
    expect(changed.length).toBeGreaterThanOrEqual(200);
  });

  it("has official Anthropic and Mistral prices dated on or before 2026-03-01 from their docs histories", async () => {
    const prices = await committedPrices();
    for (const provider of ["anthropic", "mistral"]) {
      const early = [...prices].filter(
        ([id, intervals]) =>
          id.startsWith(`dep_${provider}_`) &&
          intervals.some(
            (i) => i.verification_status === "official_declared" && i.valid_from <= "2026-03-01",
          ),
      );
      expect(early.length, provider).toBeGreaterThan(0);
    }
  });

  it("shows Voxtral Small's output price going from $0.30 to $0.40 per million tokens on 2026-08-11", async () => {
    const intervals = (await committedPrices()).get("dep_mistral_voxtral-small-2507_api_global") ?? [];
    const official = intervals.filter((i) => i.verification_status === "official_declared");
    expect(
      official.map((i) => [
        i.valid_from,
        i.valid_to,
        i.rate_card.input_micro_usd,
        i.rate_card.output_micro_usd,
      ]),
    ).toEqual([
      ["2026-08-11", null, 100_000, 400_000],
      ["2025-10-20", "2026-08-11", 100_000, 300_000],
    ]);
  });
});
