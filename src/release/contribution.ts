/** One source's part in a build: its parse output, or why it has none (its own module so facts.ts and types.ts do not import each other). */
import type { ParseOutput, SourceDefinition } from "../schema/index.js";

export interface SourceContribution {
  source: SourceDefinition;
  /** The parse output of this build, or null when the source failed (fetch or parse) or was skipped. */
  output: ParseOutput | null;
  /** true = failed this build (its last good facts are carried forward from the previous release). */
  failed: boolean;
  /** Capture time. */
  observedAt: string | null;
}
