/**
 * Test helper: the README and docs/*.md as the tests that keep them working read them: their
 * code blocks, relative links, heading anchors, `catalog` invocations and curl requests.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./cli.js";

/** README.md and every docs/*.md, as paths relative to the repository. */
export function documentationFiles(): string[] {
  const docs = readdirSync(join(REPO, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs.sort()];
}

export function readDoc(path: string): string {
  return readFileSync(join(REPO, path), "utf8");
}

export interface CodeBlock {
  lang: string;
  text: string;
}

const FENCE = /^```([a-z]*)\n([\s\S]*?)^```/gm;

export function codeBlocks(markdown: string): CodeBlock[] {
  return [...markdown.matchAll(FENCE)].map((m) => ({ lang: m[1] ?? "", text: m[2] ?? "" }));
}

/** The text outside fenced code blocks. */
export function prose(markdown: string): string {
  return markdown.replace(FENCE, "");
}

/** Every link target in the prose that is not an absolute URL (`path`, `path#anchor`, `#anchor`). */
export function relativeLinks(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a document's headings (repeated headings get -1, -2, ... as on GitHub). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1] as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/**
 * The `catalog` invocations of a document: in shell code blocks, each `catalog ARGS` run through
 * `npx --no [--] catalog`, `npm run catalog --` or `dist/src/cli/main.js`; in the prose, each
 * inline code span that starts with `catalog ` or `npx --no catalog `. ARGS stop at a shell
 * operator or a comment. Returned as argument lists (placeholders such as `<command>`,
 * `[--flag]` brackets and `…` removed).
 */
export function catalogInvocations(markdown: string): string[][] {
  const found: string[][] = [];
  const shellLines = codeBlocks(markdown)
    .filter((b) => ["sh", "bash", "shell", "ini"].includes(b.lang))
    .flatMap((b) => b.text.replace(/\\\n/g, " ").split("\n"));
  const runner = /(?:npx --no (?:-- )?catalog|npm run catalog --|dist\/src\/cli\/main\.js)(?=\s|$)(.*)$/;
  for (const line of shellLines) {
    const m = runner.exec(line);
    if (m) found.push(argsOf(m[1] as string));
  }
  for (const m of prose(markdown).matchAll(/`(?:npx --no )?catalog ([^`]+)`/g))
    found.push(argsOf(m[1] as string));
  return found.filter((args) => args.length > 0);
}

function argsOf(text: string): string[] {
  const cut = text.split(/\s(?:\||&&|;|#|>)|\)|\$\(|`/)[0] ?? "";
  return cut
    .replace(/[[\]…]/g, " ")
    .split(/\s+/)
    .filter((t) => t !== "" && !t.includes("<") && t !== "...");
}

export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The curl requests of a document's shell code blocks, parsed the way a POSIX shell would quote them. */
export function curlRequests(markdown: string): CurlRequest[] {
  const requests: CurlRequest[] = [];
  for (const block of codeBlocks(markdown).filter((b) => b.lang === "sh")) {
    for (const line of block.text.replace(/\\\n/g, " ").split("\n")) {
      if (!/^curl\s/.test(line.trim())) continue;
      const words = shellWords(line.trim()).slice(1);
      const request: CurlRequest = { method: "GET", url: "", headers: {} };
      for (let i = 0; i < words.length; i++) {
        const word = words[i] as string;
        if (word === "-s" || word === "-si" || word === "-sI") continue;
        if (word === "-H") {
          const [name, ...value] = (words[++i] as string).split(":");
          request.headers[(name as string).trim().toLowerCase()] = value.join(":").trim();
        } else if (word === "-d") {
          request.body = words[++i] as string;
          request.method = "POST";
        } else if (word === "-X") request.method = words[++i] as string;
        else if (word.startsWith("-")) throw new Error(`curl option ${word} not understood: ${line}`);
        else request.url = word;
      }
      requests.push(request);
    }
  }
  return requests;
}

/** Splits a shell command into words: single quotes literal, double quotes keep `$VAR` for the caller. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: "'" | '"' | null = null;
  let started = false;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started || word !== "") words.push(word);
      word = "";
      started = false;
    } else word += ch;
  }
  if (started || word !== "") words.push(word);
  return words;
}
