/**
 * `npm run rehearse` (docs/rehearsal.md): rehearses the nightly against a replay of every
 * recorded capture and prints, as its last line, whether it fetched every replayed source and
 * whether night 1's release is the offline build's. Exit 0 only when every expectation held.
 * Options: `--providers a,b` rehearses only those providers' folders; `--sources <dir>`.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { rehearse, verdictLine } from "./rehearse.js";

const { values } = parseArgs({
  options: { sources: { type: "string", default: "sources" }, providers: { type: "string" } },
});
const started = performance.now();
const report = await rehearse({
  sourcesDir: resolve(values.sources),
  ...(values.providers ? { providers: values.providers.split(",") } : {}),
  log: (line) => console.log(line),
});
for (const problem of report.problems) console.log(`problem: ${problem}`);
console.log(`${report.problems.length} problems in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(verdictLine(report));
process.exitCode = report.problems.length === 0 && report.fetched === report.replayed && report.equal ? 0 : 1;
