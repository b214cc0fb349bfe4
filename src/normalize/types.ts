/** The parser contract: a pure function from one capture to normalized records. */
import type { ParseOutput, SourceDefinition } from "../schema/index.js";

export interface ParserInput {
  source: SourceDefinition;
  /** The recorded capture's monitored content (decoded text). */
  content: string;
  /** When the capture was recorded (ISO 8601 UTC); evidence uses this, never the build clock. */
  observedAt: string;
}

export type Parser = (input: ParserInput) => ParseOutput;
