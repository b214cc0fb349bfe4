/**
 * Every curl request in the README and docs/*.md, run against a server on the committed release
 * (a copy of it): each answers 2xx, and a list answers at least one item, so a documented
 * question keeps its one-request answer. `$KEY` is a key created for the test, and
 * `$(cat snapshots/LATEST)` the served release's id.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/lib/logger.js";
import { createKey, type RunningServer, startServer } from "../../src/serve/index.js";
import { committedSnapshotsCopy } from "../helpers/committed-release.js";
import { curlRequests, documentationFiles, readDoc } from "../helpers/markdown.js";

describe("the documented requests", () => {
  let dir: string;
  let releaseId: string;
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    const copy = await committedSnapshotsCopy();
    dir = copy.dir;
    releaseId = copy.releaseId;
    const keysFile = join(dir, "keys.json");
    key = (await createKey(keysFile, "docs", "free")).key;
    server = await startServer({
      snapshotsDir: copy.snapshots,
      host: "127.0.0.1",
      port: 0,
      watchLatest: false,
      logger: silentLogger,
      keysFile,
      quotaFile: join(dir, "quota.json"),
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const requests = documentationFiles().flatMap((file) =>
    curlRequests(readDoc(file)).map((request) => ({ file, request })),
  );

  it("there are requests to run: the README's tour and docs/api.md's questions", () => {
    expect(requests.filter((r) => r.file === "README.md").length).toBeGreaterThanOrEqual(5);
    expect(requests.filter((r) => r.file === "docs/api.md").length).toBeGreaterThanOrEqual(12);
  });

  it.each(requests.map((r) => [`${r.file}: ${r.request.method} ${r.request.url}`, r.request] as const))(
    "%s",
    async (_name, request) => {
      const expand = (text: string) =>
        text.replaceAll("$KEY", key).replaceAll("$(cat snapshots/LATEST)", releaseId);
      expect(request.url).toMatch(/^localhost:8080\//);
      const url = `${server.url}${expand(request.url).slice("localhost:8080".length)}`;
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, expand(v)]));
      const answer = await fetch(url, {
        method: request.method,
        headers,
        ...(request.body !== undefined ? { body: expand(request.body) } : {}),
      });
      const text = await answer.text();
      expect(answer.status, text.slice(0, 500)).toBeGreaterThanOrEqual(200);
      expect(answer.status, text.slice(0, 500)).toBeLessThan(300);
      const body = JSON.parse(text) as { data?: unknown };
      if (Array.isArray(body.data)) expect(body.data.length, url).toBeGreaterThan(0);
      const checks = answerChecks(new URL(url));
      if (checks.length > 0 && Array.isArray(body.data))
        for (const item of body.data as DeploymentAnswer[]) for (const check of checks) check(item);
    },
  );

  it("a documented filter request is checked against what it answers (a wrong answer is caught)", () => {
    const checks = answerChecks(
      new URL(
        "http://x/v1/deployments?capability=vision&capability=tool_calling&min_context_tokens=128000&has_pricing=true",
      ),
    );
    const runAll = (d: DeploymentAnswer) => () => {
      for (const check of checks) check(d);
    };
    const good: DeploymentAnswer = {
      id: "dep_good",
      context_tokens: 128000,
      capabilities: { vision: { status: "supported" }, tool_calling: { status: "supported" } },
      rate_card: { input_micro_usd: 1 },
    };
    expect(runAll(good)).not.toThrow();
    expect(runAll({ ...good, context_tokens: 8000 })).toThrow();
    expect(runAll({ ...good, context_tokens: null })).toThrow();
    expect(runAll({ ...good, capabilities: { vision: { status: "supported" } } })).toThrow();
    expect(runAll({ ...good, rate_card: null })).toThrow();
    const official = answerChecks(
      new URL("http://x/v1/deployments?verification=official&max_input_price=10&min_max_output_tokens=100"),
    );
    const listed: DeploymentAnswer = {
      id: "dep_listed",
      max_output_tokens: 100,
      rate_card: { input_micro_usd: 10 },
      provenance: {
        listing: { verification_status: "official_declared" },
        rate_card: { verification_status: "official_declared" },
      },
    };
    const runOfficial = (d: DeploymentAnswer) => () => {
      for (const check of official) check(d);
    };
    expect(runOfficial(listed)).not.toThrow();
    expect(
      runOfficial({
        ...listed,
        provenance: { ...listed.provenance, rate_card: { verification_status: "community_reported" } },
      }),
    ).toThrow();
    expect(runOfficial({ ...listed, rate_card: { input_micro_usd: 11 } })).toThrow();
    expect(runOfficial({ ...listed, max_output_tokens: null })).toThrow();
  });
});

type DeploymentAnswer = {
  id: string;
  context_tokens?: number | null;
  capabilities?: Record<string, { status: string }>;
  max_output_tokens?: number | null;
  rate_card?: { input_micro_usd: number | null } | null;
  provenance?: Record<string, { verification_status: string } | null>;
};

/**
 * What a documented deployment list must answer, from its own filters: every `capability` is
 * supported, the context is known and at least `min_context_tokens` (and the max output at least
 * `min_max_output_tokens`), `has_pricing=true` answers a rate card, the input price is at most
 * `max_input_price`, and `verification=official` answers official listings and rate cards. (The 5 cheapest with vision, tool calling and 128k context, in the README.)
 */
function answerChecks(url: URL): ((d: DeploymentAnswer) => void)[] {
  if (url.pathname !== "/v1/deployments") return [];
  const checks: ((d: DeploymentAnswer) => void)[] = [];
  for (const name of url.searchParams.getAll("capability"))
    checks.push((d) => expect(d.capabilities?.[name]?.status, `${d.id} ${name}`).toBe("supported"));
  const minContext = url.searchParams.get("min_context_tokens");
  if (minContext !== null)
    checks.push((d) => expect(d.context_tokens ?? -1, d.id).toBeGreaterThanOrEqual(Number(minContext)));
  if (url.searchParams.get("has_pricing") === "true")
    checks.push((d) => expect(d.rate_card ?? null, d.id).not.toBeNull());
  const minOutput = url.searchParams.get("min_max_output_tokens");
  if (minOutput !== null)
    checks.push((d) => expect(d.max_output_tokens ?? -1, d.id).toBeGreaterThanOrEqual(Number(minOutput)));
  const maxInput = url.searchParams.get("max_input_price");
  if (maxInput !== null)
    checks.push((d) =>
      expect(d.rate_card?.input_micro_usd ?? Number.POSITIVE_INFINITY, d.id).toBeLessThanOrEqual(
        Number(maxInput),
      ),
    );
  if (url.searchParams.get("verification") === "official")
    checks.push((d) => {
      expect(d.provenance?.listing?.verification_status, d.id).toMatch(/^official_/);
      if (d.rate_card) expect(d.provenance?.rate_card?.verification_status, d.id).toMatch(/^official_/);
    });
  return checks;
}
