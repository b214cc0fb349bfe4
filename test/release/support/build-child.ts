/**
 * Child-process entry for the reproducibility test: runs one release build of the standard
 * fixture world into the snapshots directory given as argv[2] and prints the release id.
 * REVERSE_INPUT=1 feeds the sources in reverse order (a different file-listing order).
 */
import { runRelease } from "../../../src/release/index.js";
import { releaseInput } from "../fixtures.js";

const snapshotsDir = process.argv[2];
if (!snapshotsDir) throw new Error("usage: build-child.ts SNAPSHOTS_DIR");
const outcome = await runRelease(releaseInput(snapshotsDir, { reverse: process.env.REVERSE_INPUT === "1" }));
process.stdout.write(`${outcome.releaseId}\n`);
