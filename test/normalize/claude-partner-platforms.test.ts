/**
 * Anthropic's tables of Claude model ids on Google Cloud (Vertex AI) and Amazon Bedrock: golden
 * outputs of the recorded pages, parse failures on a changed table, and what the release merge
 * makes of them beside LiteLLM and Bedrock's own per-Region lifecycle pages.
 */
import { describe, expect, it } from "vitest";
import { parserFor } from "../../src/normalize/index.js";
import { markedModelName, parsers } from "../../src/normalize/parsers/claude-partner-platforms.js";
import { gatherFacts } from "../../src/release/facts.js";
import { mergeCatalog } from "../../src/release/merge.js";
import type { SourceContribution } from "../../src/release/types.js";
import { type Deployment, type LifecycleAssertion, ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";
import { state } from "../release/fixtures.js";

const vertex = defined(parsers["google-vertex-claude-model-ids"], "parser google-vertex-claude-model-ids");
const bedrock = defined(parsers["amazon-bedrock-claude-model-ids"], "parser amazon-bedrock-claude-model-ids");

const VERTEX_URL = "https://platform.claude.com/docs/en/build-with-claude/claude-on-vertex-ai.md";
const BEDROCK_URL =
  "https://platform.claude.com/docs/en/build-with-claude/claude-on-amazon-bedrock-legacy.md";

const vertexInput = () => recordedInput("google-vertex", "claude-on-vertex-ai");
const bedrockInput = () => recordedInput("amazon-bedrock", "claude-on-amazon-bedrock-legacy");

const statuses = (lifecycle: LifecycleAssertion[]) =>
  Object.fromEntries(lifecycle.map((a) => [a.target?.provider_model_id, a.status]));

/** Each assertion is a declared status for an id on the provider's surface (every region and mode), without dates. */
function expectDeclarationsOnly(
  lifecycle: LifecycleAssertion[],
  provider: string,
  surface: string,
  url: string,
) {
  for (const a of lifecycle) {
    expect(a).toMatchObject({ scope: "deployment", provider_id: provider, evidence: { source_url: url } });
    expect(a.target).toEqual({ provider_model_id: a.target?.provider_model_id, api_surface: surface });
    expect(a.deprecation).toBeUndefined();
    expect(a.end_of_life).toBeUndefined();
    expect(a.announced_at).toBeUndefined();
  }
}

describe("Claude on Google Cloud (Vertex AI model ids)", () => {
  it("lists every Agent Platform model id as a vertex-ai deployment in global, standard mode", async () => {
    const out = ParseOutput.parse(vertex(await vertexInput()));
    expect(out.deployments.map((d) => [d.provider_model_id, d.model_id, d.display_name])).toEqual([
      ["claude-fable-5", "anthropic/claude-fable-5", "Claude Fable 5"],
      ["claude-opus-5", "anthropic/claude-opus-5", "Claude Opus 5"],
      ["claude-opus-4-8", "anthropic/claude-opus-4-8", "Claude Opus 4.8"],
      ["claude-opus-4-7", "anthropic/claude-opus-4-7", "Claude Opus 4.7"],
      ["claude-opus-4-6", "anthropic/claude-opus-4-6", "Claude Opus 4.6"],
      ["claude-sonnet-5", "anthropic/claude-sonnet-5", "Claude Sonnet 5"],
      ["claude-sonnet-4-6", "anthropic/claude-sonnet-4-6", "Claude Sonnet 4.6"],
      ["claude-sonnet-4-5@20250929", "anthropic/claude-sonnet-4-5-20250929", "Claude Sonnet 4.5"],
      ["claude-sonnet-4@20250514", "anthropic/claude-sonnet-4-20250514", "Claude Sonnet 4"],
      ["claude-3-7-sonnet@20250219", "anthropic/claude-3-7-sonnet-20250219", "Claude Sonnet 3.7"],
      ["claude-opus-4-5@20251101", "anthropic/claude-opus-4-5-20251101", "Claude Opus 4.5"],
      ["claude-opus-4-1@20250805", "anthropic/claude-opus-4-1-20250805", "Claude Opus 4.1"],
      ["claude-opus-4@20250514", "anthropic/claude-opus-4-20250514", "Claude Opus 4"],
      ["claude-haiku-4-5@20251001", "anthropic/claude-haiku-4-5-20251001", "Claude Haiku 4.5"],
      ["claude-3-5-haiku@20241022", "anthropic/claude-3-5-haiku-20241022", "Claude Haiku 3.5"],
    ]);
    for (const d of out.deployments) {
      expect(d).toMatchObject({
        provider_id: "google-vertex",
        api_surface: "vertex-ai",
        mode: "standard",
        region: "global",
      });
      expect(d.status).toBeUndefined();
      expect(d.evidence).toMatchObject({ source_url: VERTEX_URL, observed_at: "2026-08-22T12:36:51Z" });
    }
    expect(out.deployments.find((d) => d.provider_model_id === "claude-sonnet-4@20250514")?.id).toBe(
      "dep_google-vertex_claude-sonnet-4-20250514_vertex-ai_global",
    );
  });

  it("declares Deprecated and Retired rows' status on vertex-ai and the unmarked rows available, with no dates", async () => {
    const out = ParseOutput.parse(vertex(await vertexInput()));
    expect(statuses(out.lifecycle)).toEqual({
      "claude-fable-5": "available",
      "claude-opus-5": "available",
      "claude-opus-4-8": "available",
      "claude-opus-4-7": "available",
      "claude-opus-4-6": "available",
      "claude-sonnet-5": "available",
      "claude-sonnet-4-6": "available",
      "claude-sonnet-4-5@20250929": "available",
      "claude-sonnet-4@20250514": "deprecated",
      "claude-3-7-sonnet@20250219": "retired",
      "claude-opus-4-5@20251101": "available",
      "claude-opus-4-1@20250805": "deprecated",
      "claude-opus-4@20250514": "deprecated",
      "claude-haiku-4-5@20251001": "available",
      "claude-3-5-haiku@20241022": "deprecated",
    });
    expectDeclarationsOnly(out.lifecycle, "google-vertex", "vertex-ai", VERTEX_URL);
    expect(out.lifecycle.find((a) => a.status === "retired")?.model_id).toBe(
      "anthropic/claude-3-7-sonnet-20250219",
    );
  });

  it("fails when the model id table is gone or its id column renamed", async () => {
    const input = await vertexInput();
    expectParseFailure(
      () => vertex(edit(input, (c) => c.replace("| Agent Platform API model ID |", "| Endpoint |"))),
      "claude-on-vertex-ai: expected one Model | Agent Platform API model ID table, found 0",
    );
    expectParseFailure(
      () =>
        vertex(
          edit(input, (c) => c.replace(/\| Model \| Agent Platform API model ID \|\n\| --- \| --- \|\n/, "")),
        ),
      "claude-on-vertex-ai: expected one Model | Agent Platform API model ID table, found 0",
    );
  });

  it("fails on a marker it does not know, an id of another shape, or a name and id that are different models", async () => {
    const input = await vertexInput();
    expectParseFailure(
      () => vertex(edit(input, (c) => c.replace("Claude Sonnet 4  Deprecated.", "Claude Sonnet 4  Sunset."))),
      'claude-on-vertex-ai: "Claude Sonnet 4  Sunset.": unknown lifecycle marker "Sunset."',
    );
    expectParseFailure(
      () => vertex(edit(input, (c) => c.replace("| claude-opus-4-7 |", "| see Model Garden |"))),
      'claude-on-vertex-ai: Claude Opus 4.7: "see Model Garden" is not a model id of this platform',
    );
    expectParseFailure(
      () =>
        vertex(
          edit(input, (c) =>
            c.replace(
              "| Claude Opus 4.5 | claude-opus-4-5@20251101 |",
              "| Claude Opus 4.5 | claude-opus-4-1@20250805 |",
            ),
          ),
        ),
      "claude-on-vertex-ai: Claude Opus 4.5 is claude-opus-4-5-20251101 on the Claude API, but its id",
    );
  });
});

describe("Claude on Amazon Bedrock (Opus 4.6 and earlier)", () => {
  it("lists each Yes cell as the base id's deployment through that inference profile, an availability list", async () => {
    const out = ParseOutput.parse(bedrock(await bedrockInput()));
    expect(out.availability_list).toBe("per_model");
    const places = (id: string) =>
      out.deployments
        .filter((d) => d.provider_model_id === id)
        .map((d) => d.region)
        .sort();
    // the table's rows, as printed: global | us | eu | jp | apac
    expect(places("anthropic.claude-opus-4-6-v1")).toEqual(["apac", "eu", "global", "jp", "us"]);
    expect(places("anthropic.claude-sonnet-4-6")).toEqual(["eu", "global", "jp", "us"]);
    expect(places("anthropic.claude-sonnet-4-20250514-v1:0")).toEqual(["apac", "eu", "global", "us"]);
    expect(places("anthropic.claude-opus-4-1-20250805-v1:0")).toEqual(["us"]);
    expect(places("anthropic.claude-3-7-sonnet-20250219-v1:0")).toEqual([]);
    expect(out.deployments).toHaveLength(25);
    for (const d of out.deployments) {
      expect(d).toMatchObject({
        provider_id: "amazon-bedrock",
        api_surface: "bedrock-runtime",
        mode: "standard",
      });
      expect(d.id).toBe(
        `dep_amazon-bedrock_${d.provider_model_id.replace(":", "-")}_bedrock-runtime_${d.region}`,
      );
      expect(d.evidence).toMatchObject({ source_url: BEDROCK_URL, verification_status: "official_declared" });
    }
  });

  it("declares Deprecated and Retired rows' status for the base model id on bedrock-runtime", async () => {
    const out = ParseOutput.parse(bedrock(await bedrockInput()));
    expect(statuses(out.lifecycle)).toEqual({
      "anthropic.claude-sonnet-4-20250514-v1:0": "deprecated",
      "anthropic.claude-3-7-sonnet-20250219-v1:0": "retired",
      "anthropic.claude-opus-4-1-20250805-v1:0": "deprecated",
      "anthropic.claude-opus-4-20250514-v1:0": "retired",
      "anthropic.claude-3-5-haiku-20241022-v1:0": "deprecated",
    });
    expectDeclarationsOnly(out.lifecycle, "amazon-bedrock", "bedrock-runtime", BEDROCK_URL);
    expect(out.lifecycle.map((a) => a.model_id)).toContain("anthropic/claude-opus-4-20250514");
  });

  it("fails when the table is gone, a column is not an inference profile prefix, or a cell is neither Yes nor No", async () => {
    const input = await bedrockInput();
    expectParseFailure(
      () => bedrock(edit(input, (c) => c.replace("| Base Bedrock model ID |", "| Model ARN |"))),
      "claude-on-amazon-bedrock-legacy: expected one Model | Base Bedrock model ID table, found 0",
    );
    expectParseFailure(
      () => bedrock(edit(input, (c) => c.replace("| `jp` |", "| Notes |"))),
      'claude-on-amazon-bedrock-legacy: column "Notes" is not an inference profile prefix',
    );
    expectParseFailure(
      () =>
        bedrock(
          edit(input, (c) =>
            c.replace("| anthropic.claude-opus-4-6-v1 | Yes |", "| anthropic.claude-opus-4-6-v1 | Soon |"),
          ),
        ),
      'claude-on-amazon-bedrock-legacy: global column: "Soon" is neither Yes nor No',
    );
    expectParseFailure(
      () =>
        bedrock(
          edit(input, (c) =>
            c.replace("| anthropic.claude-haiku-4-5-20251001-v1:0 |", "| claude-haiku-4-5 |"),
          ),
        ),
      'claude-on-amazon-bedrock-legacy: Claude Haiku 4.5: "claude-haiku-4-5" is not a model id of this platform',
    );
  });

  it("reads the marker after the model name, and only Anthropic's lifecycle terms", () => {
    const src = { name: "t", url: BEDROCK_URL };
    expect(markedModelName(src, "Claude Opus 4  Retired.")).toEqual({
      name: "Claude Opus 4",
      status: "retired",
    });
    expect(markedModelName(src, "Claude Opus 4.6")).toEqual({ name: "Claude Opus 4.6", status: undefined });
    expectParseFailure(
      () => markedModelName(src, "Claude Opus 4  Paused."),
      't: "Claude Opus 4  Paused.": unknown lifecycle marker "Paused."',
    );
    expectParseFailure(
      () => markedModelName(src, "Opus 4.6 (see note)"),
      't: "Opus 4.6 (see note)" is not a Claude model name',
    );
  });
});

/**
 * The recorded pages merged with the sources that already speak about these deployments: the
 * LiteLLM community map (which places the Vertex Claude deployments and Bedrock's `us.` / `eu.`
 * profile keys) and Bedrock's per-Region lifecycle pages, at the day of the offline build.
 */
describe("the merged catalog", () => {
  const NOW = "2026-11-23T00:00:00Z";
  const SOURCES: Array<[string, string]> = [
    ["litellm", "model-prices"],
    ["amazon-bedrock", "model-lifecycle"],
    ["amazon-bedrock", "model-lifecycle-legacy"],
  ];
  const NEW: Array<[string, string]> = [
    ["google-vertex", "claude-on-vertex-ai"],
    ["amazon-bedrock", "claude-on-amazon-bedrock-legacy"],
  ];

  async function merged(sources: Array<[string, string]>): Promise<Map<string, Deployment>> {
    const contributions: SourceContribution[] = [];
    for (const [provider, name] of sources) {
      const input = await recordedInput(provider, name);
      contributions.push({
        source: input.source,
        output: parserFor(input.source)(input),
        failed: false,
        observedAt: input.observedAt,
      });
    }
    const { facts } = gatherFacts(contributions, null);
    const states = contributions.map((c) => state(c.source, NOW));
    const result = mergeCatalog({ now: NOW, facts, states, previousCores: new Map() });
    return new Map(result.deployments.map((d) => [d.id, d]));
  }

  const before = merged(SOURCES);
  const after = merged([...SOURCES, ...NEW]);
  const status = (catalog: Map<string, Deployment>, id: string) => {
    const d = catalog.get(id);
    if (!d) throw new Error(`no deployment ${id}`);
    return d.status;
  };
  const vertexId = (slug: string) => `dep_google-vertex_${slug}_vertex-ai_global`;
  const bedrockId = (slug: string, region: string) =>
    `dep_amazon-bedrock_anthropic.${slug}_bedrock-runtime_${region}`;

  it("gives the Vertex Claude deployments the page's declared statuses, officially evidenced", async () => {
    const [b, a] = [await before, await after];
    expect(status(b, vertexId("claude-sonnet-4-20250514"))).toBe("unknown");
    expect(status(a, vertexId("claude-sonnet-4-20250514"))).toBe("deprecated");
    expect(status(a, vertexId("claude-opus-4-20250514"))).toBe("deprecated");
    expect(status(a, vertexId("claude-3-5-haiku-20241022"))).toBe("deprecated");
    expect(status(a, vertexId("claude-opus-4-1-20250805"))).toBe("deprecated");
    // The declaration covers every mode of the id on vertex-ai: LiteLLM's batch deployment too.
    expect(status(a, "dep_google-vertex_claude-opus-4-1-20250805_vertex-ai-batch_global")).toBe("deprecated");
    expect(status(a, vertexId("claude-3-7-sonnet-20250219"))).toBe("retired");
    // Unmarked rows: the page's list of current ids.
    expect(status(b, vertexId("claude-opus-4-6"))).toBe("unknown");
    expect(status(a, vertexId("claude-opus-4-6"))).toBe("available");
    expect(a.get(vertexId("claude-opus-4-6"))?.evidence_urls).toContain(VERTEX_URL);
    expect(a.get(vertexId("claude-sonnet-4-20250514"))?.lifecycle.end_of_life.state).toBe("unknown");
  });

  it("lets Bedrock's per-Region dates decide where they speak, and Anthropic's word where only LiteLLM placed the deployment", async () => {
    const [b, a] = [await before, await after];
    // Bedrock's own EOL (October 14, 2026) has passed in us-east-1: retired either way.
    expect(status(b, bedrockId("claude-sonnet-4-20250514-v1-0", "us-east-1"))).toBe("retired");
    expect(status(a, bedrockId("claude-sonnet-4-20250514-v1-0", "us-east-1"))).toBe("retired");
    expect(a.get(bedrockId("claude-sonnet-4-20250514-v1-0", "us-east-1"))?.lifecycle.end_of_life.date).toBe(
      "2026-10-14",
    );
    // Opus 4.1: Bedrock's public extended access has started, EOL January 8, 2027 ahead.
    expect(status(a, bedrockId("claude-opus-4-1-20250805-v1-0", "us-east-1"))).toBe("deprecated");
    expect(a.get(bedrockId("claude-opus-4-1-20250805-v1-0", "us-east-1"))?.lifecycle.end_of_life.date).toBe(
      "2027-01-08",
    );
    // LiteLLM's `us.` profile key: no Bedrock lifecycle row names the profile, but the legacy
    // page ends the model on October 14, 2026 in every Region it names, which hold every US
    // place an official source gives it: the profile ends with it either way
    // (src/release/profile-lifecycle.ts, geographyStatements).
    expect(status(b, bedrockId("claude-sonnet-4-20250514-v1-0", "us"))).toBe("retired");
    expect(status(a, bedrockId("claude-sonnet-4-20250514-v1-0", "us"))).toBe("retired");
    expect(a.get(bedrockId("claude-sonnet-4-20250514-v1-0", "us"))?.lifecycle.end_of_life.date).toBe(
      "2026-10-14",
    );
    // (LiteLLM's unqualified key, which named no region, no longer places it in us-east-1; its
    // `us.` profile key does: docs/provenance.md)
    expect(status(a, bedrockId("claude-3-7-sonnet-20250219-v1-0", "us"))).toBe("retired");
    expect(status(a, bedrockId("claude-opus-4-20250514-v1-0", "eu"))).toBe("retired");
    // An unmarked row's Yes cell lists the profile: available by the listing, officially placed.
    expect(status(b, bedrockId("claude-opus-4-6-v1", "us"))).toBe("unknown");
    expect(status(a, bedrockId("claude-opus-4-6-v1", "us"))).toBe("available");
    expect(a.get(bedrockId("claude-opus-4-6-v1", "us"))?.provenance.listing.verification_status).toBe(
      "official_declared",
    );
    // Models the page does not list are untouched.
    expect(status(a, bedrockId("claude-3-haiku-20240307-v1-0", "us"))).toBe(
      status(b, bedrockId("claude-3-haiku-20240307-v1-0", "us")),
    );
  });

  it("drops a community profile deployment that a No cell excludes, and keeps a prefix the table has no column for", async () => {
    const [b, a] = [await before, await after];
    // every profile deployment LiteLLM places for a model the table lists with a No in that column
    const table = ParseOutput.parse(bedrock(await bedrockInput()));
    const listed = new Set(table.deployments.map((d) => d.id));
    const models = new Set(table.deployments.map((d) => d.provider_model_id));
    const columns = new Set(table.deployments.map((d) => d.region));
    const excluded = [...b.values()].filter(
      (d) =>
        d.provider_id === "amazon-bedrock" &&
        models.has(d.provider_model_id) &&
        d.mode === "standard" &&
        columns.has(d.region) &&
        !listed.has(d.id),
    );
    expect(excluded.length).toBeGreaterThan(0);
    for (const d of excluded) expect(a.has(d.id), d.id).toBe(false);
    // `au` (Opus 4.6 through the Australian profile) has no column: not the table's to exclude
    const au = [...b.values()].filter((d) => models.has(d.provider_model_id) && d.region === "au");
    for (const d of au) expect(a.has(d.id), d.id).toBe(true);
  });
});
