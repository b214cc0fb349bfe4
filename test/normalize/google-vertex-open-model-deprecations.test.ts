import { describe, expect, it } from "vitest";
import { parsers } from "../../src/normalize/parsers/google-vertex-open-model-deprecations.js";
import { ParseOutput } from "../../src/schema/index.js";
import { recordedInput } from "../helpers/captures.js";
import { defined } from "../helpers/defined.js";
import { edit, expectParseFailure } from "../helpers/parsers.js";

const page = defined(
  parsers["google-vertex-open-model-deprecations"],
  "parser google-vertex-open-model-deprecations",
);
const partnerPage = defined(
  parsers["google-vertex-partner-model-deprecations"],
  "parser google-vertex-partner-model-deprecations",
);
const day = (date: string) => ({ state: "scheduled", date, precision: "day", date_type: "on" });

describe("Vertex AI Open model deprecations", () => {
  it("one vertex-ai deployment assertion per row, for <publisher>/<Model ID>, the dates as printed, no status or model_id", async () => {
    const input = await recordedInput("google-vertex", "open-model-deprecations");
    const out = ParseOutput.parse(page(input));
    expect(out.deployments).toEqual([]);
    expect(out.model_facts ?? []).toEqual([]);
    expect(out.lifecycle.map((a) => a.target?.provider_model_id)).toEqual([
      "deepseek-ai/deepseek-ocr-maas",
      "deepseek-ai/deepseek-r1-0528-maas",
      "deepseek-ai/deepseek-v3.2-maas",
      "deepseek-ai/deepseek-v3.1-maas",
      "zai-org/glm-5-maas",
      "zai-org/glm-4.7-maas",
      "openai/gpt-oss-20b-maas",
      "moonshotai/kimi-k2-thinking-maas",
      "meta/llama-3.3-70b-instruct-maas",
      "minimaxai/minimax-m2-maas",
      "intfloat/multilingual-e5-large-instruct-maas",
      "intfloat/multilingual-e5-small-maas",
      "qwen/qwen3-235b-a22b-instruct-2507-maas",
      "qwen/qwen3-coder-480b-a35b-instruct-maas",
      "qwen/qwen3-next-80b-a3b-instruct-maas",
      "qwen/qwen3-next-80b-a3b-thinking-maas",
    ]);
    for (const a of out.lifecycle) {
      expect(a.scope).toBe("deployment");
      expect(a.provider_id).toBe("google-vertex");
      expect(a.target?.api_surface).toBe("vertex-ai");
      expect(a.model_id).toBeUndefined();
      expect(a.status).toBeUndefined();
      expect(a.deprecation).toMatchObject(day("2026-07-21"));
      expect(a.end_of_life).toMatchObject(day("2026-10-21"));
      expect(a.evidence.verification_status).toBe("official_declared");
      expect(a.evidence.source_type).toBe("official_lifecycle");
    }
  });

  it("a Model ID of an unknown family, a missing date or no table fails to parse", async () => {
    const input = await recordedInput("google-vertex", "open-model-deprecations");
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("`minimax-m2-maas`     ", "`mystery-m2-maas`     "))),
      "open-model-deprecations: mystery-m2-maas: no known Model Garden publisher for this model family",
    );
    expectParseFailure(
      () =>
        page(
          edit(input, (c) =>
            c.replace(
              "| `glm-5-maas`                          | July 21, 2026    |",
              "| `glm-5-maas`                          |                  |",
            ),
          ),
        ),
      "open-model-deprecations: zai-org/glm-5-maas: no deprecation or retirement date",
    );
    expectParseFailure(
      () => page(edit(input, (c) => c.replace("| Retirement date  |", "| Shutdown  |"))),
      "open-model-deprecations: no table with Model ID and Retirement date columns",
    );
  });

  it("Partner model deprecations: one vertex-ai assertion per section, for its Model ID as printed, the notice's dates", async () => {
    const input = await recordedInput("google-vertex", "partner-model-deprecations");
    const out = ParseOutput.parse(partnerPage(input));
    expect(out.deployments).toEqual([]);
    expect(
      out.lifecycle.map((a) => [a.target?.provider_model_id, a.deprecation?.date, a.end_of_life?.date]),
    ).toEqual([
      ["claude-3-haiku", "2026-02-23", "2026-08-23"],
      ["claude-3-5-haiku", "2026-01-05", "2026-07-05"],
      ["claude-3-7-sonnet", "2025-11-11", "2026-05-11"],
      ["claude-3-5-sonnet-v2", "2025-08-20", "2026-02-19"],
      ["claude-3-5-sonnet", "2025-08-20", "2026-02-19"],
      ["jamba-1.5-large", "2025-08-27", "2026-02-27"],
      ["jamba-1.5-mini", "2025-08-27", "2026-02-27"],
      ["claude-3-opus", "2025-06-30", "2025-08-01"],
    ]);
    for (const a of out.lifecycle) {
      expect(a.scope).toBe("deployment");
      expect(a.target?.api_surface).toBe("vertex-ai");
      expect(a.model_id).toBeUndefined();
      expect(a.status).toBeUndefined();
      expect(a.end_of_life).toMatchObject({ precision: "day", date_type: "on" });
    }
  });

  it("Partner model deprecations: the HTML table's Model ID row reads the same; a section without its notice or Model ID fails", async () => {
    const input = await recordedInput("google-vertex", "partner-model-deprecations");
    const html = ParseOutput.parse(
      partnerPage(
        edit(input, (c) =>
          c.replace(
            "Model ID\n\n`jamba-1.5-mini`",
            "<tr>\n<th>Model ID</th>\n<td><code>jamba-1.5-mini</code></td>",
          ),
        ),
      ),
    );
    expect(html.lifecycle.map((a) => a.target?.provider_model_id)).toContain("jamba-1.5-mini");
    expectParseFailure(
      () =>
        partnerPage(
          edit(input, (c) => c.replace("will be **shut down on July 5, 2026**", "retires on July 5, 2026")),
        ),
      'partner-model-deprecations: "Claude 3.5 Haiku": no "deprecated as of … shut down on …" notice',
    );
    expectParseFailure(
      () =>
        partnerPage(edit(input, (c) => c.replace("Model ID\n\n`claude-3-opus`", "Model\n\n`claude-3-opus`"))),
      'partner-model-deprecations: "Claude 3 Opus": no Model ID',
    );
  });
});
