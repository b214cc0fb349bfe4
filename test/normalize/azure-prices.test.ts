import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { deploymentId } from "../../src/lib/ids.js";
import { METER_MODELS, parsers, readMeter } from "../../src/normalize/parsers/azure-prices.js";
import { parserRegistry } from "../../src/normalize/registry.js";
import type { ParserInput } from "../../src/normalize/types.js";
import { gatherFacts } from "../../src/release/facts.js";
import { mergeCatalog } from "../../src/release/merge.js";
import { type DeploymentFact, ParseOutput } from "../../src/schema/index.js";
import { loadDefinition, recordedInput } from "../helpers/captures.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";
import { state } from "../release/fixtures.js";

const parseOfficial = parsers["azure-retail-prices"] as NonNullable<(typeof parsers)["azure-retail-prices"]>;
const parseCommunity = parsers["azure-genai-prices-snapshot"] as NonNullable<
  (typeof parsers)["azure-genai-prices-snapshot"]
>;

function byId(output: ParseOutput, id: string): DeploymentFact {
  const d = output.deployments.find((x) => x.id === id);
  if (!d) throw new Error(`no deployment ${id}`);
  return d;
}

function skips(output: ParseOutput): Record<string, number> {
  return Object.fromEntries(output.skipped.map((s) => [s.reason, s.count]));
}

describe("reading Azure meter names with the reviewed vocabulary", () => {
  it.each([
    ["gpt 4o 0806 cached Inp glbl Tokens", "gpt-4o", "2024-08-06", "cached_input", "global", false],
    ["gpt-4o-0806-Outp-glbl Tokens", "gpt-4o", "2024-08-06", "output", "global", false],
    ["gpt 4o 0513 Input Data Zone Tokens", "gpt-4o", "2024-05-13", "input", "data-zone", false],
    [
      "gpt 4o mini 0718 cached Inp regnl Tokens",
      "gpt-4o-mini",
      "2024-07-18",
      "cached_input",
      "regional",
      false,
    ],
    ["gpt 4.1 nano Batch Inp DZone Tokens", "gpt-4.1-nano", "2025-04-14", "input", "data-zone", true],
    ["o4-mini 0416 Outp regnl Tokens", "o4-mini", "2025-04-16", "output", "regional", false],
    [
      "GPT 5 Mini Batch Inpt cchd Dzone 1M Tokens",
      "gpt-5-mini",
      "2025-08-07",
      "cached_input",
      "data-zone",
      true,
    ],
    ["GPT 5.1 chat opt Gl 1M Tokens", "gpt-5.1-chat", "2025-11-13", "output", "global", false],
    ["gpt 5 pro batch out glbl Tokens", "gpt-5-pro", "2025-10-06", "output", "global", true],
  ])("reads %s", (meter, model, version, part, type, batch) => {
    expect(readMeter(meter)).toEqual({ ok: true, model, version, part, type, batch });
  });

  it.each([
    ["gpt-4o-rt-txt-1217 Outp glbl Tokens", "meter qualifier outside the reviewed vocabulary"],
    ["gpt 4o dev ft opt glbl Tokens", "meter qualifier outside the reviewed vocabulary"],
    ["5.4 longco inp Gl 1M Tokens", "model not in the reviewed meter table"],
    ["GPT 5 Chat Inpt Glbl 1M Tokens", "model version ambiguous"],
    ["5.2 chat 0210 inp Gl 1M Tokens", "model version of the meter not in the reviewed table"],
    ["Code-Interpreter-global Session", "not a token meter"],
  ])("refuses %s (%s)", (meter, reason) => {
    const reading = readMeter(meter);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.reason.startsWith(reason)).toBe(true);
  });

  it("has one Azure model and at least one version per reviewed prefix", () => {
    for (const [prefix, entry] of Object.entries(METER_MODELS)) {
      expect(entry.model, prefix).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
      expect(entry.versions.length, prefix).toBeGreaterThan(0);
      for (const v of entry.versions) expect(v, prefix).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe("official Retail Prices API response (documented-shape test fixture)", () => {
  let input: ParserInput;
  let output: ParseOutput;
  beforeAll(async () => {
    const source = await loadDefinition("azure", "retail-prices");
    const content = await readFile(
      join(import.meta.dirname, "fixtures", "azure-retail-prices-documented-shape.json"),
      "utf8",
    );
    input = { source, content, observedAt: "2026-11-23T00:00:00Z" };
    output = ParseOutput.parse(parseOfficial(input));
  });

  it("collapses a Global meter's per-region items into the one global deployment, officially", () => {
    const d = byId(output, "dep_azure_gpt-4o-2024-08-06_azure-openai-global-standard_global");
    expect(d).toMatchObject({
      model_id: "openai/gpt-4o-2024-08-06",
      mode: "global-standard",
      region: "global",
    });
    expect(d.rate_card).toMatchObject({
      input_micro_usd: 2_500_000,
      cached_input_micro_usd: 1_250_000,
      output_micro_usd: 10_000_000,
    });
    expect(d.evidence).toMatchObject({
      source_type: "official_pricing",
      verification_status: "official_declared",
    });
  });

  it("prices regional Standard deployments per Azure region and Data Zone per zone", () => {
    expect(byId(output, "dep_azure_gpt-4o-2024-11-20_azure-openai_eastus").rate_card).toMatchObject({
      input_micro_usd: 2_750_000,
      cached_input_micro_usd: 1_375_000,
      output_micro_usd: 11_000_000,
    });
    expect(byId(output, "dep_azure_gpt-4o-2024-11-20_azure-openai_swedencentral").rate_card).toMatchObject({
      input_micro_usd: 3_025_000,
      cached_input_micro_usd: null,
      output_micro_usd: 12_100_000,
    });
    expect(
      byId(output, "dep_azure_gpt-5-2025-08-07_azure-openai-data-zone-standard_eu").rate_card,
    ).toMatchObject({ input_micro_usd: 1_375_000, output_micro_usd: 11_000_000 });
    expect(output.deployments).toHaveLength(4);
    expect(skips(output)).toEqual({
      "not a token meter": 1,
      "meter qualifier outside the reviewed vocabulary (realtime, audio, fine-tuning, long context...)": 1,
    });
  });

  it("uses the Azure parser's deployment ids (azure-openai surface, deployment type as mode)", () => {
    for (const d of output.deployments)
      expect(d.id).toBe(
        deploymentId({
          provider_id: "azure",
          provider_model_id: d.provider_model_id,
          api_surface: "azure-openai",
          mode: d.mode,
          region: d.region,
        }),
      );
    expect(parserRegistry["azure-retail-prices"]).toBe(parseOfficial);
  });

  it("counts non-Consumption prices and leaves a part with two prices in one deployment unknown", () => {
    const out = parseOfficial(
      edit(input, (c) =>
        c
          .replace('"type": "Consumption"', '"type": "DevTestConsumption"')
          .replace('"retailPrice": 0.01,', '"retailPrice": 0.02,'),
      ),
    );
    expect(skips(out)['price type "DevTestConsumption" (only Consumption is a pay-as-you-go price)']).toBe(1);
    // The first item (eastus input) is gone; swedencentral still prices the global input.
    const global = byId(out, "dep_azure_gpt-4o-2024-08-06_azure-openai-global-standard_global");
    expect(global.rate_card?.input_micro_usd).toBe(2_500_000);
    expect(global.rate_card?.output_micro_usd).toBe(20_000_000);
    const twoPrices = parseOfficial(
      edit(input, (c) =>
        c.replace(
          '"retailPrice": 0.0025,\n      "unitPrice": 0.0025,\n      "armRegionName": "swedencentral"',
          '"retailPrice": 0.003,\n      "unitPrice": 0.003,\n      "armRegionName": "swedencentral"',
        ),
      ),
    );
    expect(twoPrices.deployments.map((d) => d.id)).not.toContain(
      "dep_azure_gpt-4o-2024-08-06_azure-openai-global-standard_global",
    );
    expect(skips(twoPrices)["different prices for one deployment and price part (left unknown)"]).toBe(1);
  });

  it("fails on a response without Items, and on one without a single priced meter", () => {
    expectParseFailure(
      () => parseOfficial(edit(input, (c) => c.replace('"Items"', '"Things"'))),
      'retail-prices: no "Items" array',
    );
    expectParseFailure(
      () => parseOfficial(edit(input, (c) => c.replace(/ Tokens"/g, ' Units"'))),
      "retail-prices: found no priced token meters (0 of 13 rows mapped)",
    );
  });
});

describe("community snapshot (nikklavzar/azure-genai-prices, 2026-07-31)", () => {
  let output: ParseOutput;
  beforeAll(async () => {
    output = ParseOutput.parse(parseCommunity(await recordedInput("azure", "genai-prices-snapshot")));
  });

  it("is community_reported, never official", () => {
    for (const d of output.deployments) {
      expect(d.evidence.verification_status).toBe("community_reported");
      expect(d.evidence.source_type).toBe("community_catalog");
    }
  });

  it("prices gpt-4o 2024-08-06 Global Standard and gpt-5 Data Zone Standard exactly", () => {
    expect(
      byId(output, "dep_azure_gpt-4o-2024-08-06_azure-openai-global-standard_global").rate_card,
    ).toMatchObject({
      input_micro_usd: 2_500_000,
      cached_input_micro_usd: 1_250_000,
      output_micro_usd: 10_000_000,
    });
    for (const zone of ["us", "eu"])
      expect(
        byId(output, `dep_azure_gpt-5-2025-08-07_azure-openai-data-zone-standard_${zone}`).rate_card,
      ).toMatchObject({
        input_micro_usd: 1_375_000,
        cached_input_micro_usd: 137_500,
        output_micro_usd: 11_000_000,
      });
    expect(
      byId(output, "dep_azure_gpt-4.1-2025-04-14_azure-openai-global-batch_global").rate_card,
    ).toMatchObject({
      input_micro_usd: 1_000_000,
      output_micro_usd: 4_000_000,
    });
    // Regional prices differ by region: Sweden Central is 10% above East US.
    expect(byId(output, "dep_azure_gpt-4o-2024-11-20_azure-openai_eastus").rate_card?.input_micro_usd).toBe(
      2_750_000,
    );
    expect(
      byId(output, "dep_azure_gpt-4o-2024-11-20_azure-openai_swedencentral").rate_card?.input_micro_usd,
    ).toBe(3_025_000);
  });

  it("yields 250 deployments by deployment type and counts every other meter row by reason", () => {
    const byType: Record<string, number> = {};
    for (const d of output.deployments) byType[d.mode] = (byType[d.mode] ?? 0) + 1;
    expect(byType).toEqual({
      "data-zone-batch": 36,
      "data-zone-standard": 40,
      "global-batch": 19,
      "global-standard": 21,
      standard: 134,
    });
    expect(skips(output)).toEqual({
      "model not in the reviewed meter table (METER_MODELS)": 1182,
      "meter qualifier outside the reviewed vocabulary (realtime, audio, fine-tuning, long context...)": 622,
      "not a token meter": 228,
      "region in no known data zone": 173,
      "model version of the meter not in the reviewed table": 6,
      "model version ambiguous (no version in the meter, several in the catalog)": 15,
    });
  });
});

describe("official and community Azure prices in the merge", () => {
  it("keeps the official price where the two disagree and reports the conflict", async () => {
    const official = await loadDefinition("azure", "retail-prices");
    const communityInput = await recordedInput("azure", "genai-prices-snapshot");
    const fixture = await readFile(
      join(import.meta.dirname, "fixtures", "azure-retail-prices-documented-shape.json"),
      "utf8",
    );
    // The official response says $0.003 / 1K for gpt-4o 2024-08-06 Global input (both regions);
    // the community snapshot says $0.0025.
    const changed = fixture.replace(
      /"retailPrice": 0\.0025,\n {6}"unitPrice": 0\.0025,/g,
      '"retailPrice": 0.003,',
    );
    expect(changed).not.toBe(fixture);
    const now = "2026-11-23T00:00:00Z";
    const { facts } = gatherFacts(
      [
        {
          source: official,
          output: parseOfficial({ source: official, content: changed, observedAt: now }),
          failed: false,
          observedAt: now,
        },
        {
          source: communityInput.source,
          output: parseCommunity(communityInput),
          failed: false,
          observedAt: communityInput.observedAt,
        },
      ],
      null,
    );
    const merged = mergeCatalog({
      now,
      facts,
      states: [state(official, now), state(communityInput.source, now)],
      previousCores: new Map(),
    });
    const id = "dep_azure_gpt-4o-2024-08-06_azure-openai-global-standard_global";
    const deployment = merged.deployments.find((d) => d.id === id);
    expect(deployment?.rate_card).toMatchObject({ input_micro_usd: 3_000_000, source_url: official.url });
    expect(merged.conflicts.filter((c) => c.resource_id === id)).toEqual([
      {
        resource_id: id,
        provider_id: "azure",
        field: "rate_card.input_micro_usd",
        official: { source_id: official.source_id, value: 3_000_000 },
        community: { source_id: communityInput.source.source_id, value: 2_500_000 },
      },
    ]);
    // Where they agree (the other prices of the fixture) nothing is reported.
    expect(merged.conflicts.map((c) => c.resource_id)).toEqual([id]);
  });
});
