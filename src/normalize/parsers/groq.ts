/**
 * Groq official source: the Model Deprecation page (console.groq.com/docs/deprecations, its
 * Markdown form). Under "Deprecation History", one section per shutdown
 * ("### [August 16, 2026: llama-3.1-8b-instant and ...]") whose prose says when users were told
 * ("on June 17, 2026, we emailed users to announce the deprecation ...") and whose table lists
 * Deprecated Model (or Model ID) | Shutdown Date (MM/DD/YY) | Recommended Replacement Model ID.
 *
 * Every listed model is asserted `deprecated` with its shutdown date as the end-of-life
 * milestone (on, day) and the announcement date, when the prose gives one with its year, as the
 * deprecation milestone. Whether a shutdown has passed is the release stage's business, not
 * this parser's.
 */
import { group } from "../../lib/regex.js";
import type { DeploymentFact, Evidence, LifecycleAssertion, LifecycleStatus } from "../../schema/index.js";
import {
  evidenceFor,
  parseCalendarDate,
  parseFailure,
  printedTokenCount,
  requireSome,
  SkipLog,
  sourceMilestone,
  tokenRateCard,
  usdToMicro,
} from "../helpers.js";
import { groqModelId } from "../identity/hosted-models.js";
import { GROQ, groqDeployment } from "../identity/index.js";
import { collapseSpace, markdownTables, plainCell, requireColumn } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "groq";
const API_SURFACE = GROQ.surfaces.api;
const MODEL_ID = /^[a-z0-9][a-z0-9./-]*$/;

export { groqModelId } from "../identity/hosted-models.js";

/** The page's shutdown dates: "08/16/26", "1/6/25" (M/D/YY) -> "2026-08-16". */
export function groqShutdownDate(cell: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(plainCell(cell));
  if (!m) return null;
  const parsed = parseCalendarDate(`${m[1]}/${m[2]}/20${m[3]}`);
  return parsed ? parsed.date : null;
}

/**
 * Replacement ids of a "Recommended Replacement Model ID" cell: "openai/gpt-oss-120b or
 * qwen/qwen3.6-27b", "qwen-qwq-32b openai/gpt-oss-120b" (two links rendered side by side),
 * "llama-3.1-8b-instant (text-only workloads)"; "—" is none.
 */
export function groqReplacements(cell: string): string[] {
  const text = plainCell(cell).replace(/\([^)]*\)/g, " ");
  return text
    .split(/\s+(?:or\s+)?|,\s*/)
    .map((t) => t.trim())
    .filter((t) => t !== "" && t !== "or" && MODEL_ID.test(t));
}

/** The announcement date in a section's prose ("On June 17, 2026, we emailed ..."), when it has a year. */
export function groqAnnouncement(prose: string): string | null {
  const text = collapseSpace(prose);
  const m =
    /\b[Oo]n ([A-Z][a-z]+ \d{1,2}(?:st|nd|rd|th)?, \d{4}),/.exec(text) ??
    /\b[Ii]n ([A-Z][a-z]+ \d{4}), we emailed/.exec(text);
  return m ? group(m, 1) : null;
}

/** Section prose between each "### " heading of the history and the next table. */
function sectionProse(content: string): Map<string, string> {
  const prose = new Map<string, string>();
  let heading: string | null = null;
  let lines: string[] = [];
  for (const line of content.split(/\r?\n/)) {
    const h = /^###\s+(.*)$/.exec(line);
    if (h) {
      if (heading !== null) prose.set(heading, lines.join(" "));
      heading = group(h, 1);
      lines = [];
    } else if (heading !== null && !line.trim().startsWith("|")) lines.push(line);
  }
  if (heading !== null) prose.set(heading, lines.join(" "));
  return prose;
}

function assertion(
  input: ParserInput,
  evidence: Evidence,
  id: string,
  shutdown: string,
  announced: string | null,
  replacements: string[],
): LifecycleAssertion {
  const deprecation = announced
    ? { deprecation: sourceMilestone(input.source, announced, [evidence], `${id} announcement`) }
    : {};
  return {
    scope: "deployment",
    provider_id: PROVIDER_ID,
    target: { provider_model_id: id, api_surface: API_SURFACE },
    status: "deprecated",
    ...(deprecation.deprecation?.date ? { announced_at: `${deprecation.deprecation.date}T00:00:00Z` } : {}),
    ...deprecation,
    end_of_life: sourceMilestone(input.source, shutdown, [evidence], `${id} shutdown date`),
    replacements,
    evidence,
  };
}

export const parseGroqDeprecations: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const prose = sectionProse(input.content);
  const tables = requireSome(
    input.source,
    markdownTables(input.content).filter(
      (t) =>
        t.headers.some((h) => /^shutdown date$/i.test(plainCell(h))) &&
        t.headers.some((h) => /^(deprecated model|model id)$/i.test(plainCell(h))),
    ),
    "deprecation table (Deprecated Model | Shutdown Date | Recommended Replacement Model ID)",
  );
  const deployments: DeploymentFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  const seen = new Set<string>();
  for (const table of tables) {
    const section = table.headings[3] ?? "";
    const col = {
      model: requireColumn(input.source, table.headers, /^(deprecated model|model id)$/i),
      shutdown: requireColumn(input.source, table.headers, /^shutdown date$/i),
      replacement: requireColumn(input.source, table.headers, /replacement/i),
    };
    const announced = groqAnnouncement(prose.get(section) ?? "");
    for (const row of table.rows) {
      const id = plainCell(row[col.model] ?? "");
      if (!MODEL_ID.test(id))
        throw parseFailure(input.source, `"${id}" under "${section}" is not a model id`);
      const shutdown = groqShutdownDate(row[col.shutdown] ?? "");
      if (!shutdown)
        throw parseFailure(
          input.source,
          `${id}: "${row[col.shutdown] ?? ""}" is not a MM/DD/YY shutdown date`,
        );
      if (seen.has(id)) {
        // The page lists newest first; a model listed again under an older announcement keeps
        // the newest section's entry (deepseek-r1-distill-llama-70b-specdec is in the April 14,
        // 2025 batch, 04/14/25, and again in the older March 24, 2025 section, 03/24/25).
        skipped.add("model listed again in an older section (the newest entry is kept)", id);
        continue;
      }
      seen.add(id);
      const canonical = groqModelId(id);
      if (!canonical) {
        skipped.add("model whose maker the id does not tell", id);
        continue;
      }
      deployments.push({ ...groqDeployment(id), display_name: id, evidence });
      lifecycle.push(
        assertion(input, evidence, id, shutdown, announced, groqReplacements(row[col.replacement] ?? "")),
      );
    }
  }
  return {
    deployments: requireSome(input.source, deployments, "deprecated models"),
    lifecycle,
    skipped: skipped.toArray(),
  };
};

/** A Supported Models cell as text: the page escapes a lone dash ("\\-") for "not stated". */
function modelsCell(cell: string): string {
  return plainCell(cell).replace(/\\-/g, "-");
}

/**
 * The model id of a Supported Models row: the Markdown form prints a linked name (with its logo)
 * and then the id, after an "Enterprise" badge for enterprise-only models:
 * "[![Meta](...)Llama 3.3 70B](/docs/model/llama-3.3-70b-versatile)Enterprisellama-3.3-70b-versatile".
 * A cell without the link is the id itself.
 */
export function groqRowModelId(cell: string): string | null {
  const raw = cell.trim();
  const m = /\]\([^)]*\)(?:Enterprise)?([a-z0-9][a-z0-9./-]*)$/.exec(raw);
  const id = m ? group(m, 1) : plainCell(raw);
  return MODEL_ID.test(id) ? id : null;
}

/**
 * A "Price per 1M tokens" cell: "$0.15 input$0.60 output" -> token prices; "ContactSales" and
 * "-" -> null (no published price); a price per hour or per character -> "not-token".
 */
export function groqTokenPrices(
  input: Pick<ParserInput, "source">,
  cell: string,
): { input: number; cachedInput: null; output: number } | null | "not-token" {
  const text = modelsCell(cell);
  if (text === "" || text === "-" || /^contact\s*sales$/i.test(text)) return null;
  const m = /^(\$[\d.,]+) input\s*(\$[\d.,]+) output$/.exec(text);
  if (m) {
    const inPrice = usdToMicro(group(m, 1));
    const outPrice = usdToMicro(group(m, 2));
    if (inPrice === null || outPrice === null)
      throw parseFailure(input.source, `"${cell}" has an empty price`);
    return { input: inPrice, cachedInput: null, output: outPrice };
  }
  if (/^\$[\d.,]+ per (?:hour|1M characters)$/i.test(text)) return "not-token";
  throw parseFailure(input.source, `"${cell}" is not a price the parser knows`);
}

/**
 * Groq official source: the Supported Models page (console.groq.com/docs/models, Markdown form).
 * Its Production Models, Production Systems and Preview Models tables give each model's price
 * per million input / output tokens, context window and max completion tokens. A row under
 * "Preview" is declared `preview`, one under "Production" `available`. Speech-to-text (priced
 * per hour) and text-to-speech (per character) rows are not token deployments and are skipped.
 */
export const parseGroqModels: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const tables = requireSome(
    input.source,
    markdownTables(input.content).filter(
      (t) =>
        t.headers.some((h) => /^model id$/i.test(plainCell(h))) &&
        t.headers.some((h) => /^context window/i.test(plainCell(h))),
    ),
    "models table (Model ID | ... | Context Window (tokens) | Max Completion Tokens | ...)",
  );
  const deployments: DeploymentFact[] = [];
  const seen = new Set<string>();
  for (const table of tables) {
    const section = plainCell(table.headings[2] ?? "");
    const status: LifecycleStatus | undefined = /^preview/i.test(section)
      ? "preview"
      : /^production/i.test(section)
        ? "available"
        : undefined;
    const col = {
      model: requireColumn(input.source, table.headers, /^model id$/i),
      price: requireColumn(input.source, table.headers, /^price per 1m tokens$/i),
      context: requireColumn(input.source, table.headers, /^context window/i),
      maxOutput: requireColumn(input.source, table.headers, /^max completion tokens$/i),
    };
    for (const row of table.rows) {
      const id = groqRowModelId(row[col.model] ?? "");
      if (!id)
        throw parseFailure(input.source, `"${row[col.model] ?? ""}" under "${section}" has no model id`);
      const prices = groqTokenPrices(input, row[col.price] ?? "");
      if (prices === "not-token") {
        skipped.add("priced per hour or per character (speech models), not per token", id);
        continue;
      }
      const context = printedTokenCount(input.source, modelsCell(row[col.context] ?? ""));
      if (context === null) {
        skipped.add("no context window (not a token model)", id);
        continue;
      }
      if (seen.has(id)) throw parseFailure(input.source, `${id} is listed twice`);
      seen.add(id);
      const canonical = groqModelId(id);
      if (!canonical) {
        skipped.add("model whose maker the id does not tell", id);
        continue;
      }
      deployments.push({
        ...groqDeployment(id),
        display_name: id,
        context_tokens: context,
        max_output_tokens: printedTokenCount(input.source, modelsCell(row[col.maxOutput] ?? "")),
        ...(prices ? { rate_card: tokenRateCard(input.source, input.observedAt, prices) } : {}),
        ...(status ? { status } : {}),
        evidence,
      });
    }
  }
  return {
    deployments: requireSome(input.source, deployments, "token models"),
    lifecycle: [],
    skipped: skipped.toArray(),
  };
};

export const parsers: Record<string, Parser> = {
  "groq-deprecations": parseGroqDeprecations,
  "groq-models": parseGroqModels,
};
