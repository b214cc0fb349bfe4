import { describe, expect, it } from "vitest";
import { cohereStatus, parsers } from "../../src/normalize/parsers/cohere.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const models = defined(parsers["cohere-models"], "parser cohere-models");
const input = await recordedInput("cohere", "models");

describe("cohere models overview", () => {
  it("lists every Chat model of the Command and Aya tables with its limits and status", () => {
    const out = ParseOutput.parse(models(input));
    expect(out.deployments).toHaveLength(22);
    expect(out.skipped).toEqual([]);
    const statuses = out.deployments.map((d) => d.status);
    expect(statuses.filter((s) => s === "available")).toHaveLength(14);
    expect(statuses.filter((s) => s === "deprecated")).toHaveLength(6);
    expect(statuses.filter((s) => s === "retired")).toHaveLength(2);
    const commandA = out.deployments.find((d) => d.id === "dep_cohere_command-a-03-2025_api_global");
    expect(commandA).toMatchObject({
      model_id: "cohere/command-a-03-2025",
      provider_model_id: "command-a-03-2025",
      context_tokens: 256_000,
      max_output_tokens: 8000,
      status: "available",
      capabilities: { vision: { status: "unsupported", verification_status: "official_inferred" } },
    });
    expect(commandA?.rate_card).toBeUndefined();
    const vision = out.deployments.find((d) => d.provider_model_id === "command-a-vision-07-2025");
    expect(vision?.capabilities?.vision).toEqual({
      status: "supported",
      verification_status: "official_declared",
    });
    expect(out.deployments.find((d) => d.provider_model_id === "command-a-plus-05-2026")).toMatchObject({
      context_tokens: 128_000,
      max_output_tokens: 64_000,
    });
  });

  it("dates deprecations and retirements as the Status column states them", () => {
    const out = models(input);
    expect(out.lifecycle).toHaveLength(8);
    const byId = new Map(out.lifecycle.map((a) => [a.target?.provider_model_id, a]));
    const commandR = byId.get("command-r");
    expect(commandR?.status).toBe("deprecated");
    expect(commandR?.deprecation).toMatchObject({ state: "scheduled", date: "2025-09-15", date_type: "on" });
    expect(commandR?.end_of_life).toBeUndefined();
    const aya8b = byId.get("c4ai-aya-expanse-8b");
    expect(aya8b?.status).toBe("retired");
    expect(aya8b?.end_of_life).toMatchObject({ date: "2026-04-04", precision: "day", date_type: "on" });
  });

  it("reads status cells", () => {
    expect(cohereStatus("Live")).toEqual({ status: "available", date: null });
    expect(cohereStatus("Deprecated Sept 15, 2025")).toEqual({ status: "deprecated", date: "Sept 15, 2025" });
    expect(cohereStatus("Retired Apr 4, 2026")).toEqual({ status: "retired", date: "Apr 4, 2026" });
    expect(cohereStatus("Coming soon")).toBeNull();
  });

  it("fails on a status it does not know", () => {
    expectParseFailure(
      () =>
        models(
          edit(input, (c) =>
            c.replace("| Live                     | Command A is", "| Sunset | Command A is"),
          ),
        ),
      'models: command-a-03-2025: unknown status "Sunset"',
    );
  });

  it("fails on an unreadable status date", () => {
    expectParseFailure(
      () => models(edit(input, (c) => c.replace("Retired Apr 4, 2026", "Retired soon"))),
      'models: c4ai-aya-expanse-8b status date: "soon" is not a lifecycle date',
    );
  });

  it("fails when the Chat model tables lose their output-token column", () => {
    expectParseFailure(
      () => models(edit(input, (c) => c.replaceAll("Maximum Output Tokens", "Max Output"))),
      "models: found no Chat model table (Model Name | Status | ... | Context Length | Maximum Output Tokens)",
    );
  });
});

const deprecations = defined(parsers["cohere-deprecations"], "parser cohere-deprecations");
const deprecationsInput = await recordedInput("cohere", "deprecations");

describe("cohere deprecations page", () => {
  const out = ParseOutput.parse(deprecations(deprecationsInput));
  const byId = (id: string) => out.lifecycle.find((a) => a.target?.provider_model_id === id);

  it("retires the April 2026 models on their effective day, embed and chat models each with their own alternatives", () => {
    expect(out.deployments).toEqual([]);
    expect(byId("c4ai-aya-expanse-8b")).toMatchObject({
      scope: "deployment",
      provider_id: "cohere",
      target: { provider_model_id: "c4ai-aya-expanse-8b", api_surface: "api" },
      end_of_life: { state: "scheduled", date: "2026-04-04", precision: "day", date_type: "on" },
      replacements: ["command-r7b-12-2024", "command-a-03-2025", "command-a-reasoning-08-2025"],
    });
    expect(byId("embed-english-v2.0")?.replacements).toEqual([
      "embed-english-v3.0",
      "embed-multilingual-v3.0",
      "embed-v4.0",
    ]);
  });

  it("deprecates the September 2025 command models and their aliases, replaced by the recommended command models", () => {
    for (const id of [
      "command-r-03-2024",
      "command-r",
      "command-r-plus-04-2024",
      "command-r-plus",
      "command-light",
      "command",
    ])
      expect(byId(id)).toMatchObject({
        deprecation: { date: "2025-09-15", date_type: "on" },
        replacements: ["command-r-08-2024", "command-r-plus-08-2024", "command-a-03-2025"],
      });
    expect(byId("summarize")?.replacements).toBeUndefined();
  });

  it("reads the Rerank v2.0 shutdown table, and counts the sections that list no models", () => {
    expect(byId("rerank-multilingual-v2.0")).toMatchObject({
      end_of_life: { date: "2025-04-30" },
      replacements: ["rerank-v3.5"],
    });
    expect(out.lifecycle).toHaveLength(14);
    expect(out.skipped).toEqual([
      {
        reason: "section with no model list (fine-tuned models, endpoints, features)",
        count: 2,
        examples: [
          "2025-03-08: Command-R-03-2024 Fine-tuned Models",
          "2025-01-31: Default Classify endpoint",
        ],
      },
    ]);
  });

  it("fails on a retirement without an effective date it can read", () => {
    expectParseFailure(
      () =>
        deprecations(
          edit(deprecationsInput, (c) => c.replace("Effective April 4th, 2026", "Effective soon")),
        ),
      'deprecations: embed-english-v2.0 retirement: "soon" is not a lifecycle date',
    );
  });
});
