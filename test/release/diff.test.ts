import { describe, expect, test } from "vitest";
import {
  diffReleases,
  formatBuildReport,
  formatMicroUsd,
  MAX_MARKDOWN_ROWS,
  percentChange,
  renderDiffMarkdown,
  runRelease,
} from "../../src/release/index.js";
import type { ReleaseDiff } from "../../src/release/types.js";
import {
  assertion,
  COMMUNITY_ID,
  depId,
  LATER,
  releaseInput,
  scheduled,
  source,
  sourceEvent,
  standardWorld,
  tempSnapshots,
  type World,
} from "./fixtures.js";

const TURBO = depId("gpt-4-turbo");
const GPT4O = depId("gpt-4o");
const GPT4O_BATCH = depId("gpt-4o", "batch");

/** Second build: gpt-4o output 10 -> 12, gpt-4-turbo end of life 2027-01-15 -> 2026-12-10, gpt-4o batch gone, the community source failed. */
function changedWorld(): World {
  const world = standardWorld();
  const card = world.pricing[0]?.rate_card;
  if (!card) throw new Error("fixture gpt-4o has a rate card");
  card.output_micro_usd = 12_000_000;
  world.pricing = world.pricing.filter((f) => f.id !== GPT4O_BATCH);
  world.lifecycle[0] = {
    ...world.lifecycle[0],
    end_of_life: scheduled("2026-12-10"),
  } as World["lifecycle"][number];
  return world;
}

describe("release diff", () => {
  test("the diff of two releases lists exactly the changes made, and the Markdown shows them most important first", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      const first = await runRelease(releaseInput(dir));
      const failedEvent = sourceEvent(source("community"), "lifecycle.source_failed", LATER, "evt_0001");
      const second = await runRelease(
        releaseInput(dir, {
          world: changedWorld(),
          now: LATER,
          failed: ["community"],
          newEvents: [failedEvent],
        }),
      );
      expect(second.status).toBe("published");
      const { diff, markdown } = await diffReleases(
        dir,
        first.releaseId as string,
        second.releaseId as string,
      );

      expect(diff.from_release_id).toBe(first.releaseId);
      expect(diff.to_release_id).toBe(second.releaseId);
      expect(diff.deployments_added).toEqual([]);
      expect(diff.deployments_removed).toEqual([
        { id: GPT4O_BATCH, provider_id: "openai", model_id: "openai/gpt-4o", status: "available" },
      ]);
      expect(diff.price_changes).toEqual([
        {
          deployment_id: GPT4O,
          provider_id: "openai",
          component: "output",
          old: 10_000_000,
          new: 12_000_000,
          percent: 20,
        },
      ]);
      expect(diff.lifecycle_changes).toEqual([
        {
          resource_type: "deployment",
          resource_id: TURBO,
          provider_id: "openai",
          kind: "end_of_life_earlier",
          old: "2027-01-15",
          new: "2026-12-10",
          days: -36,
        },
      ]);
      expect(diff.source_events).toEqual([
        {
          event_id: "evt_0001",
          event_type: "lifecycle.source_failed",
          provider_id: "openai",
          source_id: COMMUNITY_ID,
          source_url: source("community").url,
          detected_at: LATER,
          previous_sha256: "b".repeat(64),
          current_sha256: null,
          error: "HTTP 503",
        },
      ]);
      expect(diff.limit_changes).toEqual([]);
      expect(diff.model_changes).toEqual([]);
      // with its official batch price gone, gpt-4o no longer has the batch capability it implied
      expect(diff.capability_changes).toEqual([
        { deployment_id: GPT4O, provider_id: "openai", capability: "batch", old: "supported", new: null },
      ]);
      expect(diff.status_changes).toEqual([]);
      expect(diff.counts).toEqual({
        deployments_added: 0,
        deployments_removed: 1,
        price_changes: 1,
        price_increases: 1,
        limit_changes: 0,
        capability_changes: 1,
        model_changes: 0,
        status_changes: 0,
        lifecycle_changes: 1,
        end_of_life_earlier: 1,
        source_events: 1,
      });
      // the diff stored in the release and the outcome's diff agree with diffReleases
      expect({ ...second.diff, to_release_id: null }).toEqual({ ...diff, to_release_id: null });

      expect(markdown).toContain("| End of life moved earlier | 1 |");
      expect(markdown).toContain(`| \`${TURBO}\` | 2027-01-15 | 2026-12-10 | -36 days |`);
      expect(markdown).toContain(`| \`${GPT4O}\` | output | $10.00 | $12.00 | +20.00% |`);
      expect(markdown).toContain(`| \`${GPT4O_BATCH}\` | \`openai/gpt-4o\` | available |`);
      expect(markdown).toContain(`| ${source("community").url} | ${LATER} | HTTP 503 | \`evt_0001\` |`);
      const order = [
        "### End of life moved earlier",
        "### Price increases",
        "### Removed deployments",
        "### Sources failed",
      ].map((heading) => markdown.indexOf(heading));
      expect(order.every((at) => at > 0)).toBe(true);
      expect([...order].sort((x, y) => x - y)).toEqual(order);
    } finally {
      await cleanup();
    }
  });

  test("new schedules, capability, limit and status changes and replacements are listed", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      const first = await runRelease(releaseInput(dir));
      const world = standardWorld();
      const lifecycle = source("lifecycle");
      world.lifecycle[1] = assertion(lifecycle, "gpt-4o", {
        status: "deprecated",
        end_of_life: scheduled("2027-06-30", "not_before"),
        replacements: ["gpt-4.1"],
      });
      const gpt4oCommunity = world.community[0];
      if (gpt4oCommunity) {
        gpt4oCommunity.capabilities = {
          tool_calling: { status: "supported" },
          vision: { status: "supported" },
        };
        gpt4oCommunity.max_output_tokens = 32_768;
      }
      // an identity fix: gpt-4-turbo's deployment is now attributed to another canonical model
      for (const f of [...world.pricing, ...world.community])
        if (f.id === TURBO) f.model_id = "openai/gpt-4-turbo-2024-04-09";
      const second = await runRelease(releaseInput(dir, { world, now: LATER }));
      const { diff, markdown } = await diffReleases(
        dir,
        first.releaseId as string,
        second.releaseId as string,
      );
      expect(diff.lifecycle_changes.map((c) => [c.resource_id, c.kind, c.old, c.new])).toEqual([
        [GPT4O_BATCH, "end_of_life_scheduled", null, "2027-06-30"],
        // replacements are canonical model ids on every resource type
        [GPT4O_BATCH, "replacement_added", null, "openai/gpt-4.1"],
        [GPT4O, "end_of_life_scheduled", null, "2027-06-30"],
        [GPT4O, "replacement_added", null, "openai/gpt-4.1"],
      ]);
      expect(diff.status_changes.map((c) => [c.deployment_id, c.old, c.new])).toEqual([
        [GPT4O_BATCH, "available", "deprecated"],
        [GPT4O, "available", "deprecated"],
      ]);
      expect(diff.capability_changes).toEqual([
        { deployment_id: GPT4O, provider_id: "openai", capability: "vision", old: null, new: "supported" },
      ]);
      expect(diff.limit_changes).toEqual([
        { deployment_id: GPT4O, provider_id: "openai", field: "max_output_tokens", old: 16_384, new: 32_768 },
      ]);
      expect(diff.model_changes).toEqual([
        {
          deployment_id: TURBO,
          provider_id: "openai",
          old: "openai/gpt-4-turbo",
          new: "openai/gpt-4-turbo-2024-04-09",
        },
      ]);
      expect(diff.counts.model_changes).toBe(1);
      expect(markdown).toContain("| Model changes | 1 |");
      expect(markdown).toContain(
        `| \`${TURBO}\` | \`openai/gpt-4-turbo\` | \`openai/gpt-4-turbo-2024-04-09\` |`,
      );
      expect(markdown.indexOf("### New end-of-life schedules")).toBeLessThan(
        markdown.indexOf("### Status changes"),
      );
    } finally {
      await cleanup();
    }
  });

  test("the Markdown lists at most MAX_MARKDOWN_ROWS rows per table and counts the rest; diff.json keeps them all", () => {
    const refs = (provider: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: `dep_${provider}_m${String(i).padStart(4, "0")}_api_global`,
        provider_id: provider,
        model_id: `${provider}/m${i}`,
        status: "available",
      }));
    const added = [...refs("big", MAX_MARKDOWN_ROWS + 1234), ...refs("small", MAX_MARKDOWN_ROWS)];
    const diff: ReleaseDiff = {
      from_release_id: null,
      to_release_id: null,
      counts: {
        deployments_added: added.length,
        deployments_removed: 0,
        price_changes: 0,
        price_increases: 0,
        limit_changes: 0,
        capability_changes: 0,
        model_changes: 0,
        status_changes: 0,
        lifecycle_changes: 0,
        end_of_life_earlier: 0,
        source_events: 0,
      },
      deployments_added: added,
      deployments_removed: [],
      price_changes: [],
      limit_changes: [],
      capability_changes: [],
      model_changes: [],
      status_changes: [],
      lifecycle_changes: [],
      source_events: [],
    };
    const markdown = renderDiffMarkdown(diff);
    const rows = (provider: string) =>
      markdown.split("\n").filter((l) => l.startsWith(`| \`dep_${provider}_`));
    expect(rows("big")).toHaveLength(MAX_MARKDOWN_ROWS);
    expect(rows("big").at(-1)).toContain(`m${String(MAX_MARKDOWN_ROWS - 1).padStart(4, "0")}`);
    expect(markdown).toContain("_…and 1,234 more rows: `diff.json` lists every change._");
    // a table of exactly the limit is whole, without a note
    expect(rows("small")).toHaveLength(MAX_MARKDOWN_ROWS);
    expect(markdown.match(/more rows?:/g)).toHaveLength(1);
    expect(markdown).toContain(`| Deployments added | ${added.length} |`);
  });

  test("money and percentages are formatted exactly", () => {
    expect(formatMicroUsd(2_500_000)).toBe("$2.50");
    expect(formatMicroUsd(75_000)).toBe("$0.075");
    expect(formatMicroUsd(1_234_567)).toBe("$1.234567");
    expect(formatMicroUsd(null)).toBe("—");
    expect(percentChange(10_000_000, 12_000_000)).toBe(20);
    expect(percentChange(3_000_000, 2_000_000)).toBe(-33.33);
    expect(percentChange(0, 5)).toBeNull();
    expect(percentChange(null, 5)).toBeNull();
  });

  test("the build report's text table lists providers, totals, conflicts and carried-forward sources", async () => {
    const { dir, cleanup } = await tempSnapshots();
    try {
      await runRelease(releaseInput(dir));
      const world = standardWorld();
      const community = world.community[0]?.rate_card;
      if (community) community.input_micro_usd = 3_000_000;
      const outcome = await runRelease(releaseInput(dir, { world, now: LATER, failed: ["lifecycle"] }));
      const text = formatBuildReport(outcome.report);
      const lines = text.split("\n");
      expect(lines[0]).toMatch(
        /^provider\s+deployments\s+priced\s+eol scheduled\s+monitored\s+partial\s+unmonitored\s+not retired\s+official ctx\s+official max out\s+official capability$/,
      );
      // 4 not retired; gpt-4.1's context is the official pricing fact's, max outputs are
      // LiteLLM's only, and 3 have a capability an official rate card implies (prompt caching,
      // batch)
      expect(lines[1]).toMatch(/^openai\s+4\s+4\s+1\s+0\s+4\s+0\s+4\s+1\s+0\s+3$/);
      expect(lines[2]).toMatch(/^total\s+4\s+4\s+1\s+0\s+4\s+0\s+4\s+1\s+0\s+3$/);
      expect(text).toContain(
        "official specs of the 4 deployments not retired: context 1 (25%), max output 0 (0%), a capability 3 (75%)",
      );
      expect(text).toContain(`conflicts (official wins): 1`);
      expect(text).toContain(`${GPT4O} rate_card.input_micro_usd: official 2500000`);
      expect(text).toContain(`carried forward (source failed, last good facts kept): 1`);
      // facts by verification level: every deployment an official pricing fact lists, every
      // rate card official (the community card lost to it)
      const v = outcome.report.totals.verification;
      expect(v?.listings).toEqual({
        official_declared: 4,
        official_inferred: 0,
        community_corroborated: 0,
        community_reported: 0,
      });
      expect(v?.prices.official_declared).toBe(4);
      expect(text).toContain(
        "verification (official_declared/official_inferred/community_corroborated/community_reported):",
      );
      expect(lines.some((l) => /^total\s+4\/0\/0\/0\s+4\/0\/0\/0\s/.test(l))).toBe(true);
    } finally {
      await cleanup();
    }
  });
});
