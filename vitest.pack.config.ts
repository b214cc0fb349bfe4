import { defineConfig } from "vitest/config";

// `npm run test:pack`: packs the package, installs the tarball elsewhere and runs its `catalog`
// (slow: a real install of the production dependencies); `.ci/run` runs it after `npm test`.
export default defineConfig({
  test: {
    include: ["test/pack/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: "forks",
  },
});
