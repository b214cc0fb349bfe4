import { describe, expect, it } from "vitest";
import {
  parsers,
  retirementMilestone,
  vertexClaudeModelId,
  vertexIdentity,
  vertexModelId,
  vertexReplacements,
} from "../../src/normalize/parsers/google-vertex.js";
import type { ParserInput } from "../../src/normalize/types.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { expectParseFailure } from "../helpers/parsers.js";

const modelVersions = defined(parsers["google-vertex-model-versions"], "parser google-vertex-model-versions");
const src = {
  name: "model-versions",
  url: "https://cloud.google.com/vertex-ai/generative-ai/docs/learn/model-versions",
};

describe("vertex model ids", () => {
  it("maps Vertex Claude ids to the Anthropic first-party id", () => {
    expect(vertexClaudeModelId("claude-3-5-sonnet-v2@20241022")).toBe("anthropic/claude-3-5-sonnet-20241022");
    expect(vertexClaudeModelId("claude-opus-4-1@20250805")).toBe("anthropic/claude-opus-4-1-20250805");
    expect(vertexClaudeModelId("claude-3-haiku@20240307")).toBe("anthropic/claude-3-haiku-20240307");
    expect(vertexClaudeModelId("claude-sonnet-4-5")).toBeNull();
    expect(vertexClaudeModelId("gemini-2.5-pro")).toBeNull();
  });
  it("maps Google models to google/ ids and builds Vertex deployment ids", () => {
    expect(vertexModelId("gemini-2.0-flash-001")).toBe("google/gemini-2.0-flash-001");
    expect(vertexModelId("multimodalembedding@001")).toBe("google/multimodalembedding-001");
    expect(vertexIdentity("claude-3-5-sonnet-v2@20241022", "batch", "us-east5")).toEqual({
      id: "dep_google-vertex_claude-3-5-sonnet-v2-20241022_vertex-ai-batch_us-east5",
      model_id: "anthropic/claude-3-5-sonnet-20241022",
      provider_id: "google-vertex",
      provider_model_id: "claude-3-5-sonnet-v2@20241022",
      api_surface: "vertex-ai",
      mode: "batch",
      region: "us-east5",
    });
  });
});

describe("retirement cells", () => {
  it("reads plain dates as earliest (the page: never moved earlier), fixed in the retired table", () => {
    expect(retirementMilestone(src, "October 20, 2026", [])).toMatchObject({
      date: "2026-10-20",
      date_type: "not_before",
    });
    expect(retirementMilestone(src, "October 20, 2026", [], false)).toMatchObject({
      date: "2026-10-20",
      date_type: "on",
    });
    expect(retirementMilestone(src, "July 21, 2027 or later", [], false).date_type).toBe("not_before");
    expect(retirementMilestone(src, "July 21, 2027 or later", [])).toMatchObject({
      date: "2027-07-21",
      date_type: "not_before",
    });
    expect(retirementMilestone(src, "No sooner than May 20, 2028", [])).toMatchObject({
      date: "2028-05-20",
      date_type: "not_before",
    });
    expect(retirementMilestone(src, "No retirement date announced", []).state).toBe("not_announced");
    expect(retirementMilestone(src, "", []).state).toBe("unknown");
    expectParseFailure(
      () => retirementMilestone(src, "When we feel like it", []),
      'model-versions: "When we feel like it" is not a retirement date',
    );
  });
  it("keeps only id-shaped replacements", () => {
    expect(vertexReplacements("gemini-3.1-flash-lite or Gemma 4")).toEqual(["gemini-3.1-flash-lite"]);
    expect(vertexReplacements("gemini-3.5-flash-lite or gemini-3.1-flash-lite")).toEqual([
      "gemini-3.5-flash-lite",
      "gemini-3.1-flash-lite",
    ]);
  });
});

describe("google-vertex-model-versions (recorded capture)", () => {
  it("emits every model version with its declared status and retirement", async () => {
    const out = ParseOutput.parse(modelVersions(await recordedInput("google-vertex", "model-versions")));
    expect(out.lifecycle.length).toBeGreaterThanOrEqual(40);
    expect(out.deployments.length).toBe(out.lifecycle.length);
    const find = (id: string) => out.lifecycle.find((l) => l.target?.provider_model_id === id);
    expect(find("gemini-2.5-pro")).toMatchObject({
      provider_id: "google-vertex",
      target: { provider_model_id: "gemini-2.5-pro", api_surface: "vertex-ai" },
      status: "available",
      end_of_life: { state: "scheduled", date: "2026-10-20", date_type: "not_before", precision: "day" },
      replacements: ["gemini-3.5-flash"],
    });
    expect(find("gemini-3.5-flash")).toMatchObject({
      status: "available",
      end_of_life: { date: "2027-05-19", date_type: "not_before" },
    });
    expect(find("gemini-2.5-flash-image")).toMatchObject({
      status: "available",
      end_of_life: { date: "2027-03-15", date_type: "not_before" },
      replacements: ["gemini-3.1-flash-lite-image"],
    });
    expect(find("gemini-1.5-pro-002")).toMatchObject({
      status: "retired",
      end_of_life: { date: "2025-09-24", date_type: "on" },
      replacements: ["gemini-2.5-flash"],
    });
    expect(find("textembedding-gecko@003")?.status).toBe("retired");
    expect(find("gemini-3.8-flash")).toMatchObject({
      status: "available",
      end_of_life: { state: "not_announced" },
    });
    expect(find("gemini-embedding-2")?.end_of_life?.state).toBe("unknown");
    const dep = out.deployments.find((d) => d.provider_model_id === "gemini-1.0-pro-vision-001");
    expect(dep).toMatchObject({
      id: "dep_google-vertex_gemini-1.0-pro-vision-001_vertex-ai_global",
      model_id: "google/gemini-1.0-pro-vision-001",
      evidence: { source_type: "official_lifecycle", observed_at: "2026-09-16T00:00:00Z" },
    });
  });

  it("throws parse_failed on a broken page", async () => {
    const input = await recordedInput("google-vertex", "model-versions");
    const broken = (content: string): ParserInput => ({ ...input, content });
    expectParseFailure(
      () => modelVersions(broken('<div class="devsite-article-body"><p>Moved.</p></div>')),
      "model-versions: no table with Model ID and Retirement date columns",
    );
    expectParseFailure(
      () => modelVersions(broken(input.content.replaceAll("<th>Retirement date</th>", "<th>Sunset</th>"))),
      "model-versions: lifecycle table lacks Model ID / Retirement date (Model ID | Release date | Sunset",
    );
    expectParseFailure(
      () => modelVersions(broken(input.content.replace("<td>October 20, 2026</td>", "<td>Autumn</td>"))),
      'model-versions: "Autumn" is not a retirement date',
    );
    const empty = input.content.replace(/<tbody>[\s\S]*?<\/tbody>/g, "<tbody></tbody>");
    expectParseFailure(() => modelVersions(broken(empty)), "model-versions: found no model version rows");
  });
});
