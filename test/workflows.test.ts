import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadSourceDefinitions } from "../src/collect/definitions.js";
import { committedRelease } from "./helpers/committed-release.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WORKFLOWS = join(ROOT, ".github", "workflows");
const LINTER = join(ROOT, "node_modules", ".bin", "action-validator");

// biome-ignore lint/suspicious/noExplicitAny: workflow files are untyped YAML
type Yaml = Record<string, any>;

async function lint(file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(LINTER, [file]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

const files = (await readdir(WORKFLOWS)).filter((f) => /\.ya?ml$/.test(f)).sort();
const workflows = new Map<string, { text: string; doc: Yaml }>();
for (const file of files) {
  const text = await readFile(join(WORKFLOWS, file), "utf8");
  workflows.set(file, { text, doc: parse(text) as Yaml });
}

function workflow(name: string): { text: string; doc: Yaml } {
  const found = workflows.get(name);
  if (!found) throw new Error(`.github/workflows/${name} is missing`);
  return found;
}

function steps(doc: Yaml): Yaml[] {
  return Object.values(doc.jobs as Yaml).flatMap((job) => (job as Yaml).steps ?? []);
}

const runScripts = (doc: Yaml): string =>
  steps(doc)
    .map((s) => String(s.run ?? ""))
    .join("\n");

/**
 * What the nightly's "Write the job summary" step writes (its script, run by bash and jq) for a
 * night that published nothing, with `report` as the build's report.
 */
async function nightlySummary(report: unknown): Promise<string> {
  const step = steps(workflow("nightly.yml").doc).find((s) => s.name === "Write the job summary");
  expect(step?.run).toBeTypeOf("string");
  const dir = await mkdtemp(join(tmpdir(), "nightly-summary-"));
  try {
    await writeFile(
      join(dir, "build.json"),
      JSON.stringify({ status: "unchanged", sources: [], failed_sources: [], report }),
    );
    const summary = join(dir, "summary.md");
    await run("bash", ["-e", "-c", String(step?.run)], {
      cwd: dir,
      env: { ...process.env, GITHUB_STEP_SUMMARY: summary, BUILD_STATUS: "unchanged", RELEASE_ID: "" },
    });
    return await readFile(summary, "utf8");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("GitHub workflows", () => {
  it("the ci and nightly workflows exist", () => {
    expect(files).toEqual(expect.arrayContaining(["ci.yml", "nightly.yml"]));
  });

  it.each(files)("%s passes the action-validator workflow linter", async (file) => {
    const result = await lint(join(WORKFLOWS, file));
    expect(result.output.trim(), result.output).toBe("");
    expect(result.code).toBe(0);
  });

  it("the linter rejects a broken workflow (so the lint test can fail)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "workflow-"));
    try {
      const broken = join(dir, "broken.yml");
      await writeFile(
        broken,
        "name: broken\non:\n  push:\njobs:\n  a:\n    runs-on: ubuntu-latest\n    timeout-minutes: ten\n    stepz:\n      - run: echo hi\n",
      );
      const result = await lint(broken);
      expect(result.code).not.toBe(0);
      expect(result.output).toContain("stepz");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each(files)("%s pins every action to a full commit SHA with the version in a comment", (file) => {
    const { text, doc } = workflow(file);
    const uses = steps(doc)
      .map((s) => s.uses as string | undefined)
      .filter((u): u is string => u !== undefined);
    expect(uses.length).toBeGreaterThan(0);
    for (const ref of uses) {
      if (ref.startsWith("./")) continue;
      expect(ref, ref).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/);
    }
    for (const line of text.split("\n").filter((l) => /^\s*(-\s+)?uses:/.test(l)))
      expect(line, line).toMatch(/@[0-9a-f]{40} # v\d+(\.\d+)*\s*$/);
  });

  it.each(files)("%s has a timeout on every job, permissions and a concurrency group", (file) => {
    const { doc } = workflow(file);
    expect(doc.permissions, "top-level permissions").toBeDefined();
    expect(doc.concurrency?.group, "concurrency group").toEqual(expect.any(String));
    for (const [name, job] of Object.entries(doc.jobs as Yaml)) {
      expect((job as Yaml)["timeout-minutes"], `${name} timeout`).toEqual(expect.any(Number));
      expect((job as Yaml)["timeout-minutes"]).toBeLessThanOrEqual(60);
    }
  });

  it("ci runs lint, the tests and then the rehearsal, with redis-server on Node 20, 22 and 24, read-only", () => {
    const { doc } = workflow("ci.yml");
    expect(Object.keys(doc.on).sort()).toEqual(["pull_request", "push"]);
    expect(doc.permissions).toEqual({ contents: "read" });
    expect(doc.concurrency["cancel-in-progress"]).toBe(true);
    expect(doc.concurrency.group).toContain("github.ref");
    const job = doc.jobs.test as Yaml;
    expect(job.strategy.matrix.node).toEqual([20, 22, 24]);
    const scripts = runScripts(doc);
    for (const command of [
      "apt-get install",
      "redis-server",
      "npm ci",
      "npm run lint",
      "npm test",
      "npm run rehearse",
    ])
      expect(scripts).toContain(command);
    const order = ["npm ci", "npm run lint", "npm test", "npm run rehearse"].map((c) => scripts.indexOf(c));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("nightly runs on a schedule and on manual dispatch choosing pull-request (default) or push", () => {
    const { doc } = workflow("nightly.yml");
    expect(doc.on.schedule[0].cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    const input = doc.on.workflow_dispatch.inputs.publish as Yaml;
    expect(input.type).toBe("choice");
    expect(input.options).toEqual(["pull-request", "push"]);
    expect(input.default).toBe("pull-request");
  });

  it("nightly grants contents: write only to the job that publishes, and pull-requests: write to the job that closes a stale one", () => {
    const { doc } = workflow("nightly.yml");
    expect(doc.permissions).toEqual({});
    const writers = Object.entries(doc.jobs as Yaml).filter(([, job]) =>
      Object.values((job as Yaml).permissions ?? {}).includes("write"),
    );
    expect(writers.map(([name]) => name)).toEqual(["publish", "tidy"]);
    expect(doc.jobs.publish.permissions).toEqual({ contents: "write", "pull-requests": "write" });
    expect(doc.jobs.tidy.permissions).toEqual({ "pull-requests": "write" });
    expect(doc.jobs.build.permissions).toEqual({ contents: "read" });
    expect(doc.jobs.publish.needs).toBe("build");
  });

  it("nightly builds live, reports the diff and failed sources, uploads the release and publishes one pull request", () => {
    const { doc } = workflow("nightly.yml");
    const scripts = runScripts(doc);
    expect(scripts).toContain("npm ci && npm run build");
    // `npx --no`: the registry's `catalog` is an unrelated package and must never be fetched.
    expect(scripts).not.toMatch(/npx (?!--no )catalog/);
    expect(scripts).toMatch(/npx --no catalog build --json(?![^\n]*--offline)/);
    expect(scripts).toContain("|| status=$?");
    expect(scripts).toContain("npx --no catalog diff --format markdown");
    expect(scripts).toContain("$GITHUB_STEP_SUMMARY");
    expect(scripts).toContain("::warning title=source failed::");
    expect(scripts).toContain("failed_sources");
    expect(scripts).toContain("gh pr create");
    expect(scripts).toContain("gh pr edit");
    expect(scripts).toContain("--body-file");
    expect(scripts).toContain("git push origin HEAD:main");
    expect(scripts).toContain("git add --all -- snapshots sources");
    expect(doc.env.NIGHTLY_BRANCH).toBe("nightly/catalog");
    const uploads = steps(doc).filter((s) => String(s.uses ?? "").startsWith("actions/upload-artifact@"));
    expect(uploads.some((s) => String(s.with?.name).includes("steps.build.outputs.release_id"))).toBe(true);
    const failStep = steps(doc).find((s) => String(s.if ?? "").includes("exit_code != '0'"));
    expect(failStep?.run).toContain("exit 1");
  });

  it("nightly passes every secret a source definition names to the build step, from the repository's secrets", async () => {
    const { definitions } = await loadSourceDefinitions(join(ROOT, "sources"));
    const names = definitions.flatMap((d) => Object.values(d.secrets ?? {}).map((secret) => secret.env));
    expect(names).toEqual(expect.arrayContaining(["GOOGLE_CLOUD_BILLING_API_KEY", "GEMINI_API_KEY"]));
    const build = steps(workflow("nightly.yml").doc).find((s) => s.id === "build");
    for (const name of names) expect(build?.env?.[name]).toBe(`\${{ secrets.${name} }}`);
  });

  it("nightly attaches the exports and the Markdown diff to a GitHub Release named after the release id", () => {
    const { doc } = workflow("nightly.yml");
    const build = runScripts({ jobs: { build: doc.jobs.build } });
    expect(build).toContain('npx --no catalog export --release "$RELEASE_ID" --out export');
    expect(build).toContain("cp diff.md export/diff.md");
    const publish = runScripts({ jobs: { publish: doc.jobs.publish } });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    expect(publish).toContain('gh release create "$RELEASE_ID" "${export_dir}"/*');
    expect(publish).toContain("--clobber");
  });

  it("nightly's job summary tabulates the report's official specs per provider (its script, run by bash and jq)", async () => {
    const { report } = await committedRelease();
    const totals = report.totals.official_specs;
    if (!totals) throw new Error("the committed release's report has no official_specs");
    const text = await nightlySummary(report);
    const share = (n: number, d: number) => (d === 0 ? `${n}` : `${n} (${Math.round((n * 1000) / d) / 10}%)`);
    const row = (name: string, c: typeof totals) =>
      `| ${name} | ${c.non_retired} | ${share(c.context_tokens, c.non_retired)} | ${share(c.max_output_tokens, c.non_retired)} | ${share(c.capability, c.non_retired)} |`;
    expect(text).toContain(
      "| Provider | Not retired | Official context window | Official max output | Official capability |",
    );
    expect(text).toContain(row("**total**", totals));
    expect(text).toContain("| **total** | 1403 | 1209 (86.2%) | 1065 (75.9%) | 1190 (84.8%) |");
    for (const p of report.providers)
      if (p.official_specs) expect(text).toContain(row(p.provider_id, p.official_specs));
  });

  it("nightly's job summary tabulates the report's facts by verification level per provider (its script, run by bash and jq)", async () => {
    const { report } = await committedRelease();
    const totals = report.totals.verification;
    if (!totals) throw new Error("the committed release's report has no verification counts");
    const text = await nightlySummary(report);
    type Levels = typeof totals.listings;
    const levels = (c: Levels) =>
      `${c.official_declared} / ${c.official_inferred} / ${c.community_corroborated} / ${c.community_reported}`;
    const row = (name: string, v: typeof totals) =>
      `| ${name} | ${levels(v.listings)} | ${levels(v.prices)} | ${levels(v.limits)} | ${levels(v.capabilities)} |`;
    expect(text).toContain("| Provider | Listings | Prices | Limits | Capabilities |");
    expect(text).toContain(row("**total**", totals));
    for (const p of report.providers) {
      if (!p.verification) throw new Error(`${p.provider_id} has no verification counts`);
      expect(text).toContain(row(p.provider_id, p.verification));
    }
    // every deployment has one listing, every rate card one price
    const sum = (c: Levels) => Object.values(c).reduce((a, b) => a + b, 0);
    expect(sum(totals.listings)).toBe(report.totals.deployments);
    expect(sum(totals.prices)).toBe(report.totals.priced);
  });

  it("nightly's job summary lists the report's model identity folds and the near names kept apart (its script, run by bash and jq)", async () => {
    const { report } = await committedRelease();
    const identity = report.model_identity;
    if (!identity) throw new Error("the committed release's report has no model_identity");
    const text = await nightlySummary(report);
    expect(text).toContain(
      `Model names folded into one identity: ${identity.folds.length}; near names kept apart: ${identity.kept_apart.length}`,
    );
    expect(text).toContain(
      "| openai | gpt-3.5-0301 (https://developers.openai.com/api/docs/pricing.md) | gpt-3.5-turbo-0301 (https://developers.openai.com/api/docs/deprecations.md) | abbreviation | gpt-3.5-0301 is gpt-3.5-turbo-0301 with turbo left out",
    );
    for (const k of identity.kept_apart)
      expect(text).toContain(
        `| ${k.provider_id} | ${k.names[0].provider_model_id} / ${k.names[1].provider_model_id} | ${k.relation} | ${k.reason}: `,
      );
  });

  it("nightly closes an open nightly pull request on a night with no change (its diff is stale)", () => {
    const { doc } = workflow("nightly.yml");
    expect(doc.jobs.tidy.needs).toBe("build");
    expect(doc.jobs.tidy.if).toContain("needs.build.outputs.status == 'unchanged'");
    const tidy = runScripts({ jobs: { tidy: doc.jobs.tidy } });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    expect(tidy).toContain('gh pr list --head "${NIGHTLY_BRANCH}"');
    expect(tidy).toContain('gh pr close "$number"');
  });
});
