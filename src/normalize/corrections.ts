/**
 * Applies a provider's reviewed corrections (sources/<provider>/corrections.yaml, schema
 * Correction) to one capture before its parser reads it. Pure; parsers never correct data
 * themselves. Every correction of the source has an outcome, so nothing is silent: applied,
 * stale (the page no longer says it) or ambiguous (the text occurs more than once, not applied).
 */
import type { Correction, CorrectionOutcome, SourceDefinition } from "../schema/index.js";

function occurrences(content: string, text: string): number {
  let count = 0;
  for (let at = content.indexOf(text); at >= 0; at = content.indexOf(text, at + text.length)) count++;
  return count;
}

export function applyCorrections(
  source: Pick<SourceDefinition, "provider_id" | "name">,
  content: string,
  corrections: readonly Correction[],
): { content: string; outcomes: CorrectionOutcome[] } {
  let corrected = content;
  const outcomes: CorrectionOutcome[] = [];
  for (const correction of corrections) {
    if (correction.source !== source.name) continue;
    const found = occurrences(corrected, correction.page_says);
    const status = found === 1 ? "applied" : found === 0 ? "stale" : "ambiguous";
    if (status === "applied") corrected = corrected.replace(correction.page_says, () => correction.means);
    outcomes.push({ ...correction, provider_id: source.provider_id, status, occurrences: found });
  }
  return { content: corrected, outcomes };
}
