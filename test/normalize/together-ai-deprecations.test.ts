import { describe, expect, it } from "vitest";
import { parsers } from "../../src/normalize/parsers/together-ai-deprecations.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const page = defined(parsers["together-ai-deprecations"], "parser together-ai-deprecations");

describe("Together AI Deprecations", () => {
  it("one api deployment assertion per model removed from serverless inference, the removal date as end of life", async () => {
    const input = await recordedInput("together-ai", "deprecations");
    const out = ParseOutput.parse(page(input));
    expect(out.deployments).toEqual([]);
    expect(out.model_facts ?? []).toEqual([]);
    // 211 rows, three models listed twice
    expect(out.lifecycle).toHaveLength(208);
    const byModel = new Map(out.lifecycle.map((a) => [a.target?.provider_model_id, a]));
    for (const [model, date] of [
      ["Qwen/Qwen3.5-397B-A17B", "2026-06-29"],
      ["moonshotai/Kimi-K2.5", "2026-05-21"],
      ["mistralai/Mixtral-8x7B-Instruct-v0.1", "2026-04-16"],
      ["zai-org/GLM-4.7", "2026-04-02"],
      // listed on 2026-03-06 and again on 2026-04-16: the latest
      ["Qwen/Qwen3-235B-A22B-Thinking-2507", "2026-04-16"],
    ] as const) {
      const a = defined(byModel.get(model), model);
      expect(a.scope).toBe("deployment");
      expect(a.target?.api_surface).toBe("api");
      expect(a.model_id).toBeUndefined();
      expect(a.status).toBeUndefined();
      expect(a.end_of_life).toMatchObject({ state: "scheduled", date, precision: "day", date_type: "on" });
    }
    // removed from fine-tuning only (a table this capture omits): not asserted
    expect(byModel.has("zai-org/GLM-4.6")).toBe(false);
    expect(byModel.has("")).toBe(false);
  });

  it("a scheduled removal gives its recommended replacement; the fine-tuning table is not read", async () => {
    const input = await recordedInput("together-ai", "deprecations");
    const scheduled = [
      "## Scheduled deprecations",
      "",
      "| Removal date | Model | Recommended replacement | Supported by on-demand dedicated endpoints |",
      "| :- | :- | :- | :- |",
      "| 2026-09-14 | `openai/gpt-oss-20b` | `Qwen/Qwen3.5-9B` | Yes |",
      "",
      "### Fine-tuning",
      "",
      "| Removal date | Model | Suggested replacement |",
      "| :- | :- | :- |",
      "| 2026-07-29 | `zai-org/GLM-4.6` | `zai-org/GLM-5.1` |",
      "",
      "## Deprecation history",
    ].join("\n");
    const out = ParseOutput.parse(page(edit(input, (c) => c.replace("## Deprecation history", scheduled))));
    const gptOss = defined(
      out.lifecycle.find((a) => a.target?.provider_model_id === "openai/gpt-oss-20b"),
      "openai/gpt-oss-20b",
    );
    expect(gptOss.replacements).toEqual(["Qwen/Qwen3.5-9B"]);
    expect(gptOss.end_of_life?.date).toBe("2026-09-14");
    expect(out.lifecycle.some((a) => a.target?.provider_model_id === "zai-org/GLM-4.6")).toBe(false);
  });

  it("no inference table, a malformed removal date or a Removal date table under another heading fails to parse", async () => {
    const input = await recordedInput("together-ai", "deprecations");
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("### Inference", "### Serving"))),
      'deprecations: a Removal date table under "Serving", not Inference or Scheduled deprecations',
    );
    expectParseFailure(
      () =>
        page(
          edit(input, (c) => c.replace("| 2026-05-21                  |", "| May 21, 2026                |")),
        ),
      'deprecations: moonshotai/Kimi-K2.5: removal date "May 21, 2026" is not YYYY-MM-DD',
    );
  });
});
