/**
 * A fast yes/no check of a value against a record schema, for the build's hot paths (every
 * parser's output, every record of a release): ajv, compiled from the zod schema's own JSON
 * Schema (`z.toJSONSchema`), with the schema's cross-field rules (./refine.ts) run by a keyword
 * of their own. It reads the value and never copies it, where zod's parse builds a new object
 * for every value (docs/lean-core-validation.md has the measurements).
 *
 * zod stays the one definition and the one voice: a value the compiled check refuses is parsed
 * by zod for its issues, so every error message is zod's (the schemas' domain wording). Only
 * schemas whose parse returns the value as it came in can be checked this way (no defaults, no
 * transforms, strict objects only): `compileCheck` refuses any other at compile time, and a
 * test holds the compiled check's verdicts to zod's on real and altered records.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { z } from "zod";
import { PROBLEM_RULES, type Problem } from "./refine.js";

export type CheckResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } };

/** The JSON Schema keyword that runs a schema's cross-field rules (its value: the rule's index). */
const PROBLEMS_KEYWORD = "x-problems";

/**
 * `schema`'s check: success with the value itself (not a copy), or zod's issues. The schema is
 * compiled on the first call (tens of milliseconds), so a module can make its checks at load
 * time without slowing down a process that never uses them.
 */
export function compileCheck<S extends z.ZodType>(schema: S): (value: unknown) => CheckResult<z.output<S>> {
  let check: ((value: unknown) => CheckResult<z.output<S>>) | null = null;
  return (value) => {
    check ??= compile(schema);
    return check(value);
  };
}

function compile<S extends z.ZodType>(schema: S): (value: unknown) => CheckResult<z.output<S>> {
  const rules: Array<(value: never) => readonly Problem[]> = [];
  const jsonSchema = z.toJSONSchema(schema, {
    io: "input",
    override: (ctx) => {
      const rule = PROBLEM_RULES.get(ctx.zodSchema);
      if (rule === undefined) return;
      let index = rules.indexOf(rule.problems);
      if (index < 0) index = rules.push(rule.problems) - 1;
      ctx.jsonSchema[PROBLEMS_KEYWORD] = index;
    },
  });
  const output = z.toJSONSchema(schema, { io: "output" });
  // the input's JSON Schema (without the rules' keyword) is the output's: the parse returns the value as it came
  const withoutRules = (key: string, value: unknown) => (key === PROBLEMS_KEYWORD ? undefined : value);
  if (JSON.stringify(jsonSchema, withoutRules) !== JSON.stringify(output))
    throw new TypeError(
      "compileCheck: the schema's parse changes values (defaults, transforms or non-strict objects)",
    );
  // zod wrote the JSON Schema, so ajv does not check it against the 2020-12 meta-schema again
  // (that cost about 0.1 s a process: the build's four checks compiled in 223-306 ms, now
  // 171-183 ms); strict mode still refuses an unknown keyword or format
  const ajv = new Ajv2020({ strict: true, allErrors: false, validateFormats: true, validateSchema: false });
  ajv.addKeyword({
    keyword: PROBLEMS_KEYWORD,
    // after the schema's own keywords, so the rule reads only a value of the schema's shape (as
    // zod runs a refinement only on a value that passed the schema's checks)
    post: true,
    schemaType: "number",
    validate: (index: number, data: unknown) => (rules[index]?.(data as never) ?? []).length === 0,
  });
  // zod's `Url` (http or https, parsed by WHATWG URL); the other formats zod writes come with
  // the pattern zod checks them by (checked below), so the format itself adds nothing
  ajv.addFormat("uri", (text: string) => isHttpUrl(text));
  for (const format of patternedFormats(jsonSchema)) ajv.addFormat(format, true);
  const validate = ajv.compile(jsonSchema);
  return (value) => {
    if (validate(value)) return { success: true, data: value as z.output<S> };
    // zod decides (a value the two judged differently would be zod's to judge; a test holds
    // them to the same verdicts) and gives the issues
    const parsed = schema.safeParse(value);
    return parsed.success
      ? { success: true, data: parsed.data as z.output<S> }
      : { success: false, error: { issues: parsed.error.issues } };
  };
}

/**
 * The last URL judged and its verdict: a record repeats its source's URL (rate card, evidence,
 * each fact's provenance), and a WHATWG parse per occurrence cost a 100,000-deployment build
 * about 0.3 s.
 */
let lastUrl: string | null = null;
let lastUrlIsHttp = false;

function isHttpUrl(text: string): boolean {
  if (text !== lastUrl) {
    lastUrl = text;
    lastUrlIsHttp = parsesAsHttp(text);
  }
  return lastUrlIsHttp;
}

function parsesAsHttp(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * The formats the JSON Schema uses besides `uri`, each of which must come with its pattern.
 * Refuses a `maxLength`: ajv counts a string's code points, zod its UTF-16 units, so ajv would
 * accept strings zod refuses. (A `minLength` errs the other way, and zod then decides.)
 */
function patternedFormats(jsonSchema: unknown): string[] {
  const formats = new Set<string>();
  JSON.stringify(jsonSchema, (key, value: unknown) => {
    if (key === "maxLength") throw new TypeError("compileCheck: maxLength counts differently in ajv and zod");
    if (value !== null && typeof value === "object" && "format" in value) {
      const { format, pattern } = value as { format: unknown; pattern?: unknown };
      if (typeof format === "string" && format !== "uri") {
        if (typeof pattern !== "string")
          throw new TypeError(`compileCheck: format ${format} without a pattern`);
        formats.add(format);
      }
    }
    return value;
  });
  return [...formats];
}
