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
  },
});
