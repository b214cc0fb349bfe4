/**
 * A full garbage collection on request, between the phases of a large build: the release stage
 * builds its catalog in JS, writes it out, and only then has DuckDB load and check it; without
 * a collection in between, V8 keeps the first phase's garbage (hundreds of MiB at 100,000
 * deployments) while DuckDB allocates its own, and the process's peak memory is their sum.
 *
 * `global.gc` exists only under --expose-gc; otherwise the flag is set at run time and the
 * function taken from a fresh context (V8 installs it in contexts created after the flag).
 * Where neither works this does nothing: it changes memory use, never results.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | null | undefined;

function collector(): (() => void) | null {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === "function") return exposed as () => void;
  try {
    setFlagsFromString("--expose-gc");
    const fromContext = runInNewContext("gc") as unknown;
    return typeof fromContext === "function" ? (fromContext as () => void) : null;
  } catch {
    return null;
  }
}

export function collectGarbage(): void {
  if (collect === undefined) collect = collector();
  collect?.();
}
