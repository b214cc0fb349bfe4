/** SHA-256 helpers: every content address in the project is lowercase hex SHA-256. */
import { createHash } from "node:crypto";
import { Worker } from "node:worker_threads";

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

// The worker streams the file through a hash and posts the hex digest (or the error's message).
const FILE_HASH_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { createReadStream } = require("node:fs");
const hash = createHash("sha256");
createReadStream(workerData)
  .on("data", (chunk) => hash.update(chunk))
  .on("error", (error) => parentPort.postMessage({ error: String(error && error.message) }))
  .on("end", () => parentPort.postMessage({ digest: hash.digest("hex") }));
`;

/**
 * The SHA-256 of a file, computed on a worker thread that reads the file itself: the caller's
 * thread goes on (a build merges while the previous release's 221 MB catalog.json is hashed on
 * the other core, which cost about a second on the main thread).
 */
export function sha256FileInBackground(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(FILE_HASH_WORKER, { eval: true, workerData: path });
    let settled = false;
    worker.once("message", (message: { digest?: string; error?: string }) => {
      settled = true;
      if (message.digest !== undefined) resolve(message.digest);
      else reject(new Error(`cannot hash ${path}: ${message.error}`));
      void worker.terminate();
    });
    worker.once("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`cannot hash ${path}: the hashing thread exited (${code})`));
    });
  });
}
