/** A live collect against a loopback server, with a fresh sources folder and server per test. */
import { afterEach, beforeEach } from "vitest";
import { type CollectResult, collectSources } from "../../src/collect/index.js";
import { fixedClock } from "../../src/lib/clock.js";
import { silentLogger } from "../../src/lib/logger.js";
import type { SourceDefinition } from "../../src/schema/index.js";
import { type TempSources, tempSourcesDir } from "./fixtures.js";
import { startServer, type TestServer } from "./server.js";

export interface LiveHarness {
  readonly temp: TempSources;
  readonly server: TestServer;
  /** Collects the definitions live (loopback allowed, no pacing, one retry), reading secrets from `env`. */
  collect(
    definitions: SourceDefinition[],
    env?: Record<string, string | undefined>,
  ): Promise<CollectResult[]>;
}

/** Registers beforeEach / afterEach hooks in the calling test file. */
export function liveHarness(): LiveHarness {
  let temp: TempSources | undefined;
  let server: TestServer | undefined;
  beforeEach(async () => {
    temp = await tempSourcesDir();
    server = await startServer();
  });
  afterEach(async () => {
    await server?.close();
    await temp?.cleanup();
  });
  return {
    get temp() {
      return temp as TempSources;
    },
    get server() {
      return server as TestServer;
    },
    collect: (definitions, env = {}) =>
      collectSources({
        sourcesDir: (temp as TempSources).dir,
        definitions,
        offline: false,
        clock: fixedClock("2026-11-22T12:00:00Z"),
        logger: silentLogger,
        previousStates: [],
        progress: false,
        env,
        fetcher: {
          allowLoopback: true,
          perHostIntervalMs: 0,
          retries: 1,
          sleep: async () => {},
          random: () => 0,
        },
      }),
  };
}
