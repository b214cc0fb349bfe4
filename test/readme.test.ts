/**
 * The README and docs/*.md keep working: every relative link resolves to a file (and its
 * anchor to a heading), every `catalog` command they show is a command of the program with
 * options it has, every document is listed in docs/index.md, and the README stays short. No
 * command may run `npx catalog` without `--no`: the registry's `catalog` is an unrelated
 * package, which would be downloaded and run wherever the local bin is missing.
 * (test/e2e/doc-requests.test.ts runs their curl requests against the committed release.)
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerCommands } from "../src/cli/commands.js";
import { REPO } from "./helpers/cli.js";
import {
  anchors,
  catalogInvocations,
  codeBlocks,
  documentationFiles,
  readDoc,
  relativeLinks,
} from "./helpers/markdown.js";

/** The program's commands as src/cli/main.ts registers them (registering runs nothing). */
function program(): Command {
  return registerCommands(new Command().name("catalog"));
}

const GLOBAL = new Set(["--help", "-h", "--version", "-V"]);

/** Why `args` is not an invocation of `catalog` (null when it is one). */
function unknownIn(root: Command, args: string[]): string | null {
  const [first, ...rest] = args;
  if (first === undefined || GLOBAL.has(first)) return null;
  let command = root.commands.find((c) => c.name() === first);
  if (!command) return `no command "${first}"`;
  let tail = rest;
  const sub = command.commands.find((c) => c.name() === rest[0]);
  if (sub) {
    command = sub;
    tail = rest.slice(1);
  } else if (command.commands.length > 0 && rest[0] !== undefined && !rest[0].startsWith("-"))
    return `no command "${first} ${rest[0]}"`;
  const longs = new Set(command.options.map((o) => o.long));
  for (const token of tail.filter((t) => t.startsWith("--"))) {
    const flag = token.split("=")[0] as string;
    if (!longs.has(flag) && !GLOBAL.has(flag)) return `"${command.name()}" has no option ${flag}`;
  }
  return null;
}

function targetOf(from: string, link: string): { file: string; anchor: string | null } {
  const [path, anchor] = link.split("#") as [string, string | undefined];
  const file = path === "" ? from : normalize(join(dirname(from), decodeURI(path)));
  return { file, anchor: anchor ?? null };
}

describe("the README and docs/", () => {
  const files = documentationFiles();

  it("every relative link resolves to a file of the repository, and every anchor to a heading of it", () => {
    let checked = 0;
    for (const from of files) {
      for (const link of relativeLinks(readDoc(from))) {
        checked++;
        const { file, anchor } = targetOf(from, link);
        expect(file.startsWith(".."), `${from}: ${link} leaves the repository`).toBe(false);
        expect(existsSync(join(REPO, file)), `${from}: ${link} (no ${file})`).toBe(true);
        if (anchor !== null) {
          expect(file.endsWith(".md"), `${from}: ${link}`).toBe(true);
          expect([...anchors(readDoc(file))], `${from}: ${link} (no such heading in ${file})`).toContain(
            anchor,
          );
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("a link to a missing file or heading is caught", () => {
    expect(existsSync(join(REPO, targetOf("docs/api.md", "nope.md").file))).toBe(false);
    expect(anchors(readDoc("docs/api.md")).has("no-such-heading")).toBe(false);
    expect(anchors("# A `b` c, d!\n## A `b` c, d!\n```sh\n# not a heading\n```\n")).toEqual(
      new Set(["a-b-c-d", "a-b-c-d-1"]),
    );
  });

  it("every catalog command they show is a command of the program, with options it has", () => {
    const root = program();
    let checked = 0;
    for (const file of files) {
      for (const args of catalogInvocations(readDoc(file))) {
        checked++;
        expect.soft(unknownIn(root, args), `${file}: catalog ${args.join(" ")}`).toBeNull();
      }
    }
    expect(checked).toBeGreaterThan(30);
    // the check itself notices a wrong command or option
    expect(unknownIn(root, ["bulid", "--offline"])).toBe('no command "bulid"');
    expect(unknownIn(root, ["serve", "--quota"])).toBe('"serve" has no option --quota');
    expect(unknownIn(root, ["keys", "make"])).toBe('no command "keys make"');
    expect(unknownIn(root, ["keys", "create", "--workspace", "w", "--plan", "free"])).toBeNull();
  });

  it("every npx in their code blocks and in the workflows is `npx --no`", () => {
    const texts = [
      ...files.map((f) => [
        f,
        codeBlocks(readDoc(f))
          .map((b) => b.text)
          .join("\n"),
      ]),
      ...readdirSync(join(REPO, ".github", "workflows")).map((f) => [
        f,
        readFileSync(join(REPO, ".github", "workflows", f), "utf8"),
      ]),
    ];
    let checked = 0;
    for (const [name, text] of texts) {
      for (const line of (text as string).split("\n").filter((l) => /\bnpx\s/.test(l))) {
        checked++;
        expect(line, `${name}: ${line}`).toMatch(/\bnpx --no\b/);
      }
    }
    expect(checked).toBeGreaterThan(3);
  });

  it("docs/index.md links every document in docs/, and the README links docs/index.md", () => {
    const index = new Set(relativeLinks(readDoc("docs/index.md")).map((l) => l.split("#")[0]));
    for (const file of files.filter((f) => f.startsWith("docs/") && f !== "docs/index.md"))
      expect(index.has(file.slice("docs/".length)), `docs/index.md does not link ${file}`).toBe(true);
    expect(relativeLinks(readDoc("README.md"))).toContain("docs/index.md");
  });

  it("the README is short and starts with the two commands: quick start, then the tests", () => {
    const readme = readDoc("README.md");
    expect(readme.split("\n").length).toBeLessThanOrEqual(400);
    const blocks = codeBlocks(readme).map((b) => b.text.trim());
    expect(blocks[0]).toBe(
      "npm ci && npm run build && npx --no catalog build --offline && npx --no catalog serve --port 8080",
    );
    expect(blocks[1]).toBe("npm ci && npm test");
    expect(statSync(join(REPO, "config", "plans.production.json")).isFile()).toBe(true);
  });
});

describe("catalog --help", () => {
  it("names every file `catalog export` writes", async () => {
    const { EXPORT_FILES } = await import("../src/release/export.js");
    const exportCommand = program().commands.find((c) => c.name() === "export");
    for (const file of EXPORT_FILES) expect(exportCommand?.description()).toContain(file);
  });
});
