import { describe, expect, it } from "vitest";
import { CatalogError } from "../../src/lib/errors.js";
import { mistralModelId, mistralTokens, parsers } from "../../src/normalize/parsers/mistral.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const models = parsers["mistral-models"]!;

describe("mistral models overview", () => {
  it("lists current models with their context size and legacy models with their dates", async () => {
    const out = ParseOutput.parse(models(await recordedInput("mistral", "models")));
    expect(out.deployments.length).toBeGreaterThanOrEqual(35);
    const codestral = out.deployments.find((d) => d.id === "dep_mistral_codestral-2508_api_global");
    expect(codestral?.context_tokens).toBe(256_000);
    expect(codestral?.model_id).toBe("mistral/codestral-2508");
    expect(
      out.deployments.find((d) => d.provider_model_id === "mistral-ocr-2505")?.context_tokens,
    ).toBeUndefined();

    expect(out.lifecycle).toHaveLength(11);
    const byId = new Map(out.lifecycle.map((a) => [a.target?.provider_model_id, a]));
    const saba = byId.get("mistral-saba-2502");
    expect(saba?.status).toBe("retired");
    expect(saba?.deprecation).toMatchObject({ date: "2025-06-10", precision: "day", date_type: "on" });
    expect(saba?.end_of_life).toMatchObject({ date: "2025-09-30", date_type: "on" });
    // "`mistral-small-latest`" resolves through the page's own alias list ("currently points to")
    expect(saba?.replacements).toEqual(["mistral-small-2506"]);
    expect(byId.get("open-mistral-7b")?.replacements).toEqual(["ministral-8b-2410"]);
  });

  it("does not believe the page's year-2525 dates and says so", async () => {
    const out = models(await recordedInput("mistral", "models"));
    const mamba = out.lifecycle.find((a) => a.target?.provider_model_id === "open-codestral-mamba");
    expect(mamba?.end_of_life?.state).toBe("unknown");
    expect(mamba?.status).toBe("legacy");
    expect(out.skipped.map((s) => s.reason)).toContain(
      "implausible lifecycle date on the page (year after 2100), dates ignored",
    );
  });

  it("fails on an unparseable retirement date", async () => {
    const input = await recordedInput("mistral", "models");
    expectParseFailure(() =>
      models(edit(input, (c) => c.replace("2025/06/10|2025/09/30|", "2025/06/10|later|"))),
    );
  });

  it("fails when the legacy table loses its Retirement date column", async () => {
    const input = await recordedInput("mistral", "models");
    expectParseFailure(() => models(edit(input, (c) => c.replace("|Retirement date|", "|End|"))));
  });

  it("fails when the model tables are gone", async () => {
    const input = await recordedInput("mistral", "models");
    expectParseFailure(() => models(edit(input, (c) => c.replaceAll("API Endpoints", "Endpoints"))));
  });

  it("reads token counts as printed and maps ids", async () => {
    const input = await recordedInput("mistral", "models");
    expect(mistralTokens(input, "128k")).toBe(128_000);
    expect(mistralTokens(input, " ")).toBeNull();
    expect(() => mistralTokens(input, "lots")).toThrow(CatalogError);
    expect(mistralModelId("open-mistral-nemo")).toBe("mistral/open-mistral-nemo");
  });
});
