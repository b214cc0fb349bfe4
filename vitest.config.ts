import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // the packed-package test installs the tarball for real: `npm run test:pack`
    exclude: ["test/pack/**", "**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine.
    // Many files wait on child processes (CLI runs, servers, redis-server, Chromium), so one
    // worker per core overlaps that waiting: on 2 cores the suite took 243 s instead of 304 s.
    maxWorkers: availableParallelism(),
    // A worker runs its files one after another in one module graph instead of importing every
    // module anew for each file (import time 88 s -> 19-21 s; the suite 243 s -> 169-194 s). No
    // test changes module or process state it does not restore (no global dispatcher, env
    // or cwd changes; the one process listener is removed in a finally).
    isolate: false,
  },
});
