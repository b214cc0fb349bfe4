/**
 * Every per-model page source, recorded or live-only, names its parser's provider, a URL on that
 * provider's documentation host and the Markdown form its parser reads. A live-only definition
 * (`offline_capture: false`) is first fetched by the nightly build: without this test a wrong
 * host, a redirect to a host the definition does not allow, or an HTML URL would only show up
 * there, as a failed source.
 */
import { describe, expect, it } from "vitest";
import { loadSourceDefinitions } from "../../src/collect/index.js";
import type { SourceDefinition } from "../../src/schema/index.js";
import { SOURCES_DIR } from "../helpers/captures.js";

interface PageRule {
  provider: string;
  /** The host of the URL. */
  host: string;
  /** Hosts a redirect may lead to: the provider's own documentation hosts only. */
  redirectHosts: readonly string[];
  /** The URL's path: the page in the Markdown form the parser reads. */
  path: RegExp;
}

const RULES: Readonly<Record<string, PageRule>> = {
  "openai-model-page": {
    provider: "openai",
    host: "developers.openai.com",
    redirectHosts: ["developers.openai.com", "platform.openai.com"],
    path: /^\/api\/docs\/models\/[a-z0-9][a-z0-9.-]*\.md$/,
  },
  "amazon-bedrock-model-card": {
    provider: "amazon-bedrock",
    host: "docs.aws.amazon.com",
    redirectHosts: ["docs.aws.amazon.com"],
    path: /^\/bedrock\/latest\/userguide\/model-card-[a-z0-9-]+\.md$/,
  },
  "google-vertex-model-page": {
    provider: "google-vertex",
    host: "docs.cloud.google.com",
    redirectHosts: ["docs.cloud.google.com"],
    path: /^\/gemini-enterprise-agent-platform\/models\/gemini\/[a-z0-9-]+\.md\.txt$/,
  },
  "anthropic-model-page": {
    provider: "anthropic",
    host: "platform.claude.com",
    redirectHosts: ["platform.claude.com"],
    path: /^\/docs\/[a-z]{2}(-[A-Za-z]+)?\/models\/[a-z0-9-]+\/overview\.md$/,
  },
  "anthropic-launch-page": {
    provider: "anthropic",
    host: "platform.claude.com",
    redirectHosts: ["platform.claude.com"],
    path: /^\/docs\/[a-z]{2}(-[A-Za-z]+)?\/about-claude\/models\/[a-z0-9-]+\.md$/,
  },
  "google-vertex-model-guide": {
    provider: "google-vertex",
    host: "docs.cloud.google.com",
    redirectHosts: ["docs.cloud.google.com"],
    path: /^\/gemini-enterprise-agent-platform\/models\/guides\/[a-z0-9-]+\.md\.txt$/,
  },
  "groq-model-page": {
    provider: "groq",
    host: "console.groq.com",
    redirectHosts: ["console.groq.com"],
    // /docs/model/<model id>.md; the id may have a lab prefix (openai/gpt-oss-120b) or not
    path: /^\/docs\/model\/([a-z0-9][a-z0-9.-]*\/)?[a-z0-9][a-z0-9.-]*\.md$/,
  },
  "google-model-facts": {
    provider: "google",
    host: "ai.google.dev",
    redirectHosts: ["ai.google.dev"],
    // the models page, a per-model page, or the Embeddings page (its model versions tables)
    path: /^\/gemini-api\/docs\/(models(\/[a-z0-9][a-z0-9.-]*)?|embeddings)\.md\.txt$/,
  },
};

/** What is wrong with a model-page definition; [] when nothing is. */
function modelPageProblems(def: SourceDefinition): string[] {
  const rule = RULES[def.parser];
  if (!rule) return [];
  const problems: string[] = [];
  const url = new URL(def.url);
  if (def.provider_id !== rule.provider)
    problems.push(`provider ${def.provider_id}, but ${def.parser} reads ${rule.provider}'s pages`);
  if (url.protocol !== "https:") problems.push(`${url.protocol} URL`);
  if (url.host !== rule.host) problems.push(`host ${url.host}, not ${rule.host}`);
  if (!rule.path.test(url.pathname) || url.search !== "" || url.hash !== "")
    problems.push(`${url.pathname}${url.search}${url.hash} is not the Markdown page ${rule.path}`);
  if (def.format !== "markdown") problems.push(`format ${def.format}, not markdown`);
  if (def.source_type !== "official_docs") problems.push(`source_type ${def.source_type}`);
  for (const host of def.allowed_hosts)
    if (!rule.redirectHosts.includes(host)) problems.push(`allowed host ${host} is not ${rule.provider}'s`);
  return problems;
}

const { definitions, errors } = await loadSourceDefinitions(SOURCES_DIR);
const pages = definitions.filter((d) => RULES[d.parser] !== undefined);

describe("model page source definitions", () => {
  it("every definition loads, every model-page parser has a rule, and there are both recorded and live-only pages", () => {
    expect(errors).toEqual([]);
    const parsers = new Set(pages.map((d) => d.parser));
    expect([...parsers].sort()).toEqual(Object.keys(RULES).sort());
    expect(pages.some((d) => d.offline_capture)).toBe(true);
    expect(pages.some((d) => !d.offline_capture)).toBe(true);
  });

  for (const def of pages)
    it(`${def.provider_id}/${def.name} (${def.offline_capture ? "recorded" : "live only"}) is ${RULES[def.parser]?.provider}'s Markdown page on its documentation host`, () => {
      expect(modelPageProblems(def)).toEqual([]);
    });

  it("no two definitions fetch the same page", () => {
    const urls = pages.map((d) => d.url);
    expect(urls.length).toBe(new Set(urls).size);
  });

  it("a page on another provider's host, an HTML URL or a foreign redirect host is caught", () => {
    const base = pages.find((d) => d.parser === "amazon-bedrock-model-card");
    expect(base).toBeDefined();
    if (!base) return;
    expect(modelPageProblems(base)).toEqual([]);
    const html = { ...base, url: base.url.replace(/\.md$/, ".html") };
    expect(modelPageProblems(html)).toEqual([expect.stringContaining("is not the Markdown page")]);
    const foreign = { ...base, url: "https://developers.openai.com/api/docs/models/gpt-5.md" };
    expect(modelPageProblems(foreign)).toEqual([
      "host developers.openai.com, not docs.aws.amazon.com",
      expect.stringContaining("is not the Markdown page"),
    ]);
    const redirect = { ...base, allowed_hosts: ["docs.aws.amazon.com", "example.com"] };
    expect(modelPageProblems(redirect)).toEqual(["allowed host example.com is not amazon-bedrock's"]);
    const provider = { ...base, provider_id: "openai" };
    expect(modelPageProblems(provider)).toEqual([
      "provider openai, but amazon-bedrock-model-card reads amazon-bedrock's pages",
    ]);
  });
});
