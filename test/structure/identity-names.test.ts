/**
 * Identity is the provider's (docs/identity.md): a parser (src/normalize/parsers/) never spells
 * a deployment's surface, mode or region, and never builds a deployment id itself; it calls its
 * provider's identity module (src/normalize/identity/). The names checked are the identity
 * modules' own exported vocabularies (`DEPLOYMENT_VOCABULARIES`), so a name added to a module is
 * checked from then on. Read with TypeScript's parser and checker: a name in a comment or a
 * regular expression is not a string literal, and a literal typed as a capability name
 * (`"batch"`, the capability) is not the mode of the same spelling.
 */
import { basename, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DEPLOYMENT_VOCABULARIES } from "../../src/normalize/identity/index.js";
import { CapabilityName } from "../../src/schema/index.js";
import { sourceFiles } from "../helpers/source-files.js";

const ROOT = resolve(import.meta.dirname, "../..");
const PARSERS = join(ROOT, "src/normalize/parsers");

/** Every surface, mode and region name of every provider's vocabulary. */
function identityNames(): Set<string> {
  const names = new Set<string>();
  for (const vocabulary of Object.values(DEPLOYMENT_VOCABULARIES))
    for (const group of [vocabulary.surfaces, vocabulary.modes, vocabulary.regions])
      for (const name of Object.values(group)) names.add(name);
  return names;
}

const CAPABILITIES: ReadonlySet<string> = new Set(CapabilityName.options);

/** Functions that build a deployment id or identity: only the identity modules call them. */
const ID_BUILDERS = new Set(["deploymentId", "deploymentIdentity", "placedDeployment"]);

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"],
};

/** The contextual type is a union of capability names: the literal is a capability, not a mode. */
function isCapability(checker: ts.TypeChecker, node: ts.Expression): boolean {
  const type = checker.getContextualType(node);
  if (!type) return false;
  const members = type.isUnion() ? type.types : [type];
  return members.length > 1 && members.every((t) => t.isStringLiteral() && CAPABILITIES.has(t.value));
}

/** Each identity name a file spells as a string literal, and each id builder it imports or calls. */
function violations(program: ts.Program, file: ts.SourceFile, names: ReadonlySet<string>): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    found.push(`${basename(file.fileName)}:${line + 1} ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)))
        for (const element of bindings.elements)
          if (ID_BUILDERS.has((element.propertyName ?? element.name).text))
            at(element, `imports ${(element.propertyName ?? element.name).text}`);
      return; // module specifiers are paths, not names
    }
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      ID_BUILDERS.has(node.expression.text)
    )
      at(node, `calls ${node.expression.text}`);
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      names.has(node.text) &&
      !isCapability(checker, node)
    )
      at(node, `spells "${node.text}"`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Violations of each file of a program, by the files' own names. */
function check(program: ts.Program, files: readonly string[], names: ReadonlySet<string>): string[] {
  return files.flatMap((path) => {
    const file = program.getSourceFile(path);
    if (!file) throw new Error(`${path} is not in the program`);
    return violations(program, file, names);
  });
}

/** A program over in-memory files (name -> text) besides the real ones. */
function programWith(files: Readonly<Record<string, string>>): ts.Program {
  const host = ts.createCompilerHost(OPTIONS);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    const text = files[name];
    return text !== undefined
      ? ts.createSourceFile(name, text, version, true)
      : getSourceFile(name, version, ...rest);
  };
  host.fileExists = (name) => Object.hasOwn(files, name) || fileExists(name);
  return ts.createProgram(Object.keys(files), OPTIONS, host);
}

describe("identity is the provider's", () => {
  it("no parser spells a surface, mode or region name, nor builds a deployment id itself", () => {
    const names = identityNames();
    expect(names.size).toBeGreaterThan(15);
    const files = sourceFiles(PARSERS);
    expect(files.length).toBeGreaterThanOrEqual(27);
    const program = ts.createProgram(files, OPTIONS);
    expect(check(program, files, names)).toEqual([]);
  }, 120_000);

  it("finds a name spelled as a literal and an id built by hand, and none in a comment, a regex, a capability or a path", () => {
    const sample = join(PARSERS, "sample-parser.ts");
    const text = [
      'import { deploymentId } from "../../lib/ids.js";',
      'import type { CapabilityName } from "../../schema/index.js";',
      'const mode = "batch";',
      "const region = `global`;",
      '// "flex" in a comment',
      "const re = /^priority$/;",
      'const labels: Record<string, CapabilityName> = { "batch api": "batch" };',
      'const id = deploymentId({ provider_id: "x", provider_model_id: "m", api_surface: "s", mode, region });',
      "export { id, labels, re };",
    ].join("\n");
    const program = programWith({ [sample]: text });
    const names = new Set(["batch", "global", "flex", "priority", "s"]);
    expect(check(program, [sample], names).map((v) => v.replace(/^sample-parser\.ts:/, ""))).toEqual([
      "1 imports deploymentId",
      '3 spells "batch"',
      '4 spells "global"',
      "8 calls deploymentId",
      '8 spells "s"',
    ]);
    expect(relative(ROOT, sample)).toBe("src/normalize/parsers/sample-parser.ts");
  }, 120_000);
});
