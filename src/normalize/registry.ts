/** Every parser by id, as named in source definitions' `parser:` field. */
import type { Parser } from "./types.js";

export const parserRegistry: Record<string, Parser> = {};
