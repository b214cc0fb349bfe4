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
});
