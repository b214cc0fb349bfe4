/**
 * Together AI "Deprecations" (docs.together.ai/docs/deprecations, Markdown form): the removal
 * history of serverless inference, the table under "### Inference" (Removal date | Model |
 * Supported by on-demand dedicated endpoints, "most recent first"), and, where the page has one,
 * the table of scheduled removals under "## Scheduled deprecations" (Removal date | Model |
 * Recommended replacement | …).
 *
 * Lifecycle only: one deployment assertion per model id on Together's `api` surface, end_of_life
 * the removal date as printed (day precision, `on`), no declared status (the release stage derives
 * it from the date), the recommended replacement where a scheduled row names one, and no
 * model_id: a removal from Together's serverless inference says nothing of the model elsewhere. A
 * model listed twice (the page lists `Qwen/Qwen3-235B-A22B-Thinking-2507` removed on 2026-03-06
 * and again on 2026-04-16) takes its latest date. The fine-tuning removals ("### Fine-tuning": a
 * model withdrawn as a fine-tuning base may still be served) and the active redirects table are
 * not read; a row without a model (the table's "**Notes on model support:**" line) is skipped. No
 * inference table, a removal date that is not YYYY-MM-DD or a Removal date table under another
 * heading fail the parse. No deployments and no model facts.
 */
import type { LifecycleAssertion } from "../../schema/index.js";
import { evidenceFor, parseFailure, sourceMilestone } from "../helpers.js";
import { TOGETHER } from "../identity/index.js";
import { markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser } from "../types.js";

const PROVIDER_ID = "together-ai";
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

export const parseTogetherDeprecations: Parser = (input) => {
  const { source, content } = input;
  const tables = markdownTables(content).filter((t) =>
    t.headers.some((h) => /^removal date$/i.test(plainCell(h))),
  );
  const read = tables.filter((t) => !/^fine-tuning$/i.test(t.heading));
  for (const t of read)
    if (!/^(inference|scheduled deprecations)$/i.test(t.heading))
      throw parseFailure(
        source,
        `a Removal date table under "${t.heading}", not Inference or Scheduled deprecations`,
      );
  if (!read.some((t) => /^inference$/i.test(t.heading)))
    throw parseFailure(source, 'no Removal date table under "### Inference"');
  const evidence = evidenceFor(source, input.observedAt);
  const latest = new Map<string, { date: string; replacement: string | null }>();
  for (const table of read) {
    const dateColumn = requireColumn(source, table.headers, /^removal date$/i);
    const modelColumn = requireColumn(source, table.headers, /^model$/i);
    const replacementColumn = table.headers.findIndex((h) => /^recommended replacement$/i.test(plainCell(h)));
    for (const row of table.rows) {
      const model = plainCell(row[modelColumn] ?? "");
      if (model === "") continue;
      if (!MODEL.test(model)) throw parseFailure(source, `"${model}" is not a model id`);
      const date = plainCell(row[dateColumn] ?? "");
      if (!DAY.test(date)) throw parseFailure(source, `${model}: removal date "${date}" is not YYYY-MM-DD`);
      const replacement = replacementColumn < 0 ? "" : plainCell(row[replacementColumn] ?? "");
      const known = latest.get(model);
      if (known === undefined || date > known.date)
        latest.set(model, { date, replacement: replacement === "" ? null : replacement });
    }
  }
  if (latest.size === 0) throw parseFailure(source, "the removal tables list no model");
  const lifecycle: LifecycleAssertion[] = [...latest].map(([model, { date, replacement }]) => ({
    scope: "deployment",
    provider_id: PROVIDER_ID,
    target: { provider_model_id: model, api_surface: TOGETHER.surfaces.api },
    end_of_life: sourceMilestone(source, date, [evidence], `${model} removal date`),
    ...(replacement === null ? {} : { replacements: [replacement] }),
    evidence,
  }));
  return { deployments: [], lifecycle, skipped: [] };
};

export const parsers: Record<string, Parser> = {
  "together-ai-deprecations": parseTogetherDeprecations,
};
