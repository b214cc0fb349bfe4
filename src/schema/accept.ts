/**
 * A fast acceptor compiled from a zod schema: `accept(value)` true means `schema.safeParse(value)`
 * succeeds and gives back a value deeply equal to `value` (nothing stripped, defaulted or
 * transformed). False means only "not sure": the caller asks zod itself, which then decides and
 * words the issue. So the acceptor must never accept what zod rejects (a differential test holds
 * it to that on the committed release and on many mutations of it); rejecting more is allowed.
 *
 * What it checks itself: the type of each node as zod's parser does (object, record, array,
 * string, number, boolean, enum, literal, null, optional, nullable, union, unknown), and then
 * every check of the node (`.regex`, `.int()`, string formats, `.min`, `.refine`,
 * `.superRefine`, ...) by calling zod's own check functions in zod's order, so their meaning is
 * zod's. Any other schema kind, coercion, a default to apply, a key the schema does not declare
 * (stripped by zod), a class instance or an absent required key is "not sure".
 *
 * Why: a 100,000-deployment build runs every record through its schema twice (the normalize
 * stage's output, the release's records); zod's general machinery costs seconds there, while
 * almost every record is valid.
 */
import type { z } from "zod";
import { problemsFunction } from "./refine.js";

type Accept = (value: unknown) => boolean;

interface Payload {
  value: unknown;
  issues: unknown[];
}

interface Check {
  _zod: {
    def: { when?: (payload: Payload) => boolean };
    check(payload: Payload): unknown;
    traits: Set<string>;
  };
}

interface Internals {
  def: {
    type: string;
    checks?: Check[];
    shape?: Record<string, z.ZodType>;
    catchall?: z.ZodType;
    innerType?: z.ZodType;
    element?: z.ZodType;
    keyType?: z.ZodType;
    valueType?: z.ZodType;
    options?: z.ZodType[];
    partial?: boolean;
    inclusive?: boolean;
    mode?: string;
    coerce?: boolean;
  };
  traits: Set<string>;
  values?: Set<unknown>;
  optin?: string;
  optout?: string;
}

const never: Accept = () => false;
const always: Accept = () => true;

function internals(schema: z.ZodType): Internals {
  return (schema as unknown as { _zod: Internals })._zod;
}

/** Only objects made by `{}` or JSON.parse (zod takes others too: those are "not sure"). */
function plainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Checks whose whole work is one regular expression test (zod's `$ZodCheckStringFormat` check
 * as these kinds install it, and `.regex()`): tested here without a payload.
 */
const PATTERN_CHECKS = ["$ZodCheckRegex", "$ZodISODateTime", "$ZodISODate", "$ZodUUID", "$ZodGUID"];

function patternOf(check: Check): RegExp | null {
  const def = check._zod.def as { when?: unknown; pattern?: unknown };
  if (def.when !== undefined || !(def.pattern instanceof RegExp)) return null;
  return PATTERN_CHECKS.some((trait) => check._zod.traits.has(trait)) ? def.pattern : null;
}

/** Constants of a generated acceptor, named `c[i]` in its code. */
type Constants = unknown[];

function constant(constants: Constants, value: unknown): string {
  constants.push(value);
  return `c[${constants.length - 1}]`;
}

/**
 * A number check whose whole work is one comparison, as an expression over `x`: `z.int()` (a
 * safe integer, zod's "safeint" format, whose range is the safe range itself) and `.min`,
 * `.max`, `.positive()`, `.nonnegative()` on a number. Null for any other check.
 */
function numberCheck(check: Check, x: string, constants: Constants): string | null {
  const def = check._zod.def as { when?: unknown; format?: unknown; value?: unknown; inclusive?: unknown };
  if (def.when !== undefined) return null;
  const traits = check._zod.traits;
  if (traits.has("$ZodCheckNumberFormat") && def.format === "safeint") return `Number.isSafeInteger(${x})`;
  if (typeof def.value !== "number") return null;
  const bound = constant(constants, def.value);
  const or = def.inclusive === true ? "=" : "";
  if (traits.has("$ZodCheckGreaterThan")) return `(typeof ${x} === "number" && ${x} >${or} ${bound})`;
  if (traits.has("$ZodCheckLessThan")) return `(typeof ${x} === "number" && ${x} <${or} ${bound})`;
  return null;
}

/** Strings whose answer a check remembers, at most (then it starts afresh). */
const MEMO_STRINGS = 4096;

/**
 * A check run through zod's own function: it passes when it adds no issue and leaves the value
 * as it was (a URL check, for one, gives back the URL without surrounding whitespace: that
 * value is zod's, not the input, so "not sure"). A built-in check's answer depends on the
 * string alone, so it is remembered per string (a catalog repeats its URLs across thousands of
 * records, and a URL check parses each with `new URL`); a `.refine`/`.superRefine` runs every time.
 */
function zodStep(check: Check): Accept {
  const when = check._zod.def.when;
  const run: Accept = (value) => {
    const payload: Payload = { value, issues: [] };
    if (when && !when(payload)) return true;
    if (check._zod.check(payload) instanceof Promise) return false;
    return payload.issues.length === 0 && Object.is(payload.value, value);
  };
  if (check._zod.traits.has("$ZodCustom")) return run;
  const memo = new Map<string, boolean>();
  return (value) => {
    if (typeof value !== "string") return run(value);
    let known = memo.get(value);
    if (known === undefined) {
      known = run(value);
      if (memo.size >= MEMO_STRINGS) memo.clear();
      memo.set(value, known);
    }
    return known;
  };
}

/** One check of a node as an expression over `x` (see withChecks). */
function checkExpression(check: Check, x: string, constants: Constants): string {
  const pattern = patternOf(check);
  if (pattern !== null) {
    const p = constant(constants, pattern);
    return `(typeof ${x} === "string" && (${p}.lastIndex = 0, ${p}.test(${x})))`;
  }
  const step = `${constant(constants, zodStep(check))}(${x})`;
  const sure = surelyLongEnough(check, x);
  return (
    numberCheck(check, x, constants) ??
    ruleCheck(check, x, constants) ??
    (sure === null ? step : `(${sure} || ${step})`)
  );
}

/**
 * A string length that passes a `.min` or `.max` whatever zod counts (it counts code points,
 * one or two UTF-16 units each): at least twice the minimum in units, or at most the maximum.
 * Any other length goes to zod's check. Null for other checks.
 */
function surelyLongEnough(check: Check, x: string): string | null {
  const def = check._zod.def as { minimum?: unknown; maximum?: unknown };
  const traits = check._zod.traits;
  if (traits.has("$ZodCheckMinLength") && typeof def.minimum === "number")
    return `(typeof ${x} === "string" && ${x}.length >= ${2 * def.minimum})`;
  if (traits.has("$ZodCheckMaxLength") && typeof def.maximum === "number")
    return `(typeof ${x} === "string" && ${x}.length <= ${def.maximum})`;
  return null;
}

/**
 * A rule check called without zod's payload, as an expression over `x`: a `withProblems` rule
 * (src/schema/refine.ts) passes when its function lists no problem, a `.refine(fn)` when `fn`
 * returns true (zod takes any truthy value that is not a promise; anything but true is "not
 * sure" here). Null for any other check, or one with a `when`.
 */
function ruleCheck(check: Check, x: string, constants: Constants): string | null {
  const def = check._zod.def as { when?: unknown; fn?: unknown };
  if (def.when !== undefined) return null;
  const problems = problemsFunction(check);
  if (problems) return `(${constant(constants, problems)}(${x}).length === 0)`;
  if (check._zod.traits.has("$ZodCustom") && typeof def.fn === "function")
    return `(${constant(constants, def.fn)}(${x}) === true)`;
  return null;
}

/**
 * The node's checks, in the order zod runs them once its value has no issue: the node itself
 * first when it is a check (string and number formats), then `def.checks`, each skipped when
 * its `when` says so; an issue, a changed value, or a check that is asynchronous, is "not sure".
 */
function checksOf(schema: z.ZodType): Check[] {
  const zod = internals(schema);
  return [...(zod.traits.has("$ZodCheck") ? [schema as unknown as Check] : []), ...(zod.def.checks ?? [])];
}

function withChecks(schema: z.ZodType, base: Accept): Accept {
  const checks = checksOf(schema);
  if (checks.length === 0) return base;
  const constants: Constants = [];
  const body = ["base(x)", ...checks.map((check) => checkExpression(check, "x", constants))].join(" && ");
  return new Function("c", "base", `return function (x) { return ${body}; };`)(constants, base) as Accept;
}

/**
 * The acceptor of `schema` as an expression over the variable `x`, for generated code: a
 * scalar, an enum, and nullable, optional and default wrappers of them are written out with
 * their checks; an object, record, array or union is a call of its compiled acceptor.
 */
function expression(schema: z.ZodType, x: string, constants: Constants): string {
  const zod = internals(schema);
  const { def } = zod;
  let base: string | null;
  switch (def.coerce === true ? "coerce" : def.type) {
    case "coerce":
      base = "false";
      break;
    case "string":
      base = `typeof ${x} === "string"`;
      break;
    case "number":
      base = `(typeof ${x} === "number" && Number.isFinite(${x}))`;
      break;
    case "boolean":
      base = `typeof ${x} === "boolean"`;
      break;
    case "null":
      base = `${x} === null`;
      break;
    case "unknown":
    case "any":
      base = "true";
      break;
    case "enum":
    case "literal":
      base = zod.values ? `${constant(constants, zod.values)}.has(${x})` : "false";
      break;
    case "nullable":
      base = `(${x} === null || ${expression(def.innerType as z.ZodType, x, constants)})`;
      break;
    case "optional":
      base = `(${x} === undefined ? ${undefinedPasses(schema)} : ${expression(def.innerType as z.ZodType, x, constants)})`;
      break;
    case "default":
      base = `(${x} !== undefined && ${expression(def.innerType as z.ZodType, x, constants)})`;
      break;
    default:
      base = null;
  }
  if (base === null) return `${constant(constants, compile(schema))}(${x})`;
  const checks = checksOf(schema).map((check) => checkExpression(check, x, constants));
  return checks.length === 0 ? base : `(${[base, ...checks].join(" && ")})`;
}

/** Whether an `.optional()` takes undefined: not when its inner schema would put a default in its place, nor when it is an exact optional (absence, not an undefined value). */
function undefinedPasses(schema: z.ZodType): boolean {
  const zod = internals(schema);
  return (
    internals(zod.def.innerType as z.ZodType).optin !== "defaulted" && !zod.traits.has("$ZodExactOptional")
  );
}

/**
 * An object's acceptor as generated code: each declared member read by name (a fast property
 * load where a loop over names would be a slow keyed one) and tested by its expression (a
 * scalar member inline, no call), and every key of the value checked against the declared
 * names by a string switch.
 */
function compileObject(zod: Internals): Accept {
  const shape = zod.def.shape ?? {};
  const catchall = zod.def.catchall;
  // strip (no catchall) and strict (never) both leave a value with only declared keys as it is
  if (catchall !== undefined && internals(catchall).def.type !== "never") return never;
  const keys = Object.keys(shape);
  // zod skips a declared __proto__ (and reads symbol keys): not sure
  if (keys.includes("__proto__") || Object.getOwnPropertySymbols(shape).length > 0) return never;
  const constants: Constants = [];
  const lines = ["if (!plainObject(value)) return false;"];
  for (const key of keys) {
    const schema = shape[key] as z.ZodType;
    const member = internals(schema);
    // zod skips an absent member only when it is an `.optional()` without a default inside
    const mayBeAbsent = member.optin === "optional" && member.optout === "optional";
    const name = JSON.stringify(key);
    lines.push(
      `if (${name} in value) { const x = value[${name}]; if (!${expression(schema, "x", constants)}) return false; }`,
      mayBeAbsent ? "" : "else return false;",
    );
  }
  // every enumerable key declared: nothing for zod to strip or reject
  lines.push(
    "for (const key in value) switch (key) {",
    ...keys.map((key) => `case ${JSON.stringify(key)}:`),
    keys.length > 0 ? "break;" : "",
    "default: return false;",
    "}",
    "return true;",
  );
  const make = new Function("plainObject", "c", `return function (value) {\n${lines.join("\n")}\n};`);
  return make(plainObject, constants) as Accept;
}

function compileRecord(zod: Internals): Accept {
  const keyType = zod.def.keyType as z.ZodType;
  // an exhaustive record (every key of an enum required) or a loose one: not sure
  if (zod.def.mode === "loose" || (internals(keyType).values !== undefined && zod.def.partial !== true))
    return never;
  const acceptKey = compile(keyType);
  const acceptValue = compile(zod.def.valueType as z.ZodType);
  return (value) => {
    if (!plainObject(value) || Object.getOwnPropertySymbols(value).length > 0) return false;
    for (const key of Object.keys(value)) {
      if (key === "__proto__" || !acceptKey(key) || !acceptValue(value[key])) return false;
    }
    return true;
  };
}

function compileArray(zod: Internals): Accept {
  const element = compile(zod.def.element as z.ZodType);
  return (value) => {
    if (!Array.isArray(value)) return false;
    for (let i = 0; i < value.length; i++) if (!element(value[i])) return false;
    return true;
  };
}

function compileBase(schema: z.ZodType): Accept {
  const zod = internals(schema);
  const { def } = zod;
  if (def.coerce === true) return never;
  switch (def.type) {
    case "string":
      return (value) => typeof value === "string";
    case "number":
      return (value) => typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return (value) => typeof value === "boolean";
    case "null":
      return (value) => value === null;
    case "unknown":
    case "any":
      return always;
    case "enum":
    case "literal": {
      const values = zod.values;
      return values ? (value) => values.has(value) : never;
    }
    case "object":
      return compileObject(zod);
    case "record":
      return compileRecord(zod);
    case "array":
      return compileArray(zod);
    case "nullable": {
      const inner = compile(def.innerType as z.ZodType);
      return (value) => value === null || inner(value);
    }
    case "optional": {
      // undefined passes unless the inner schema would put a default in its place
      const inner = compile(def.innerType as z.ZodType);
      const passes = undefinedPasses(schema);
      return (value) => (value === undefined ? passes : inner(value));
    }
    case "default": {
      // a value in place: the inner schema decides (undefined would be replaced by the default)
      const inner = compile(def.innerType as z.ZodType);
      return (value) => value !== undefined && inner(value);
    }
    case "union": {
      // an exclusive union (exactly one option) is not sure
      if (def.inclusive === false) return never;
      const options = (def.options ?? []).map(compile);
      return (value) => options.some((option) => option(value));
    }
    default:
      return never;
  }
}

const compiled = new WeakMap<z.ZodType, Accept>();

function compile(schema: z.ZodType): Accept {
  let accept = compiled.get(schema);
  if (accept === undefined) {
    accept = withChecks(schema, compileBase(schema));
    compiled.set(schema, accept);
  }
  return accept;
}

/** The acceptor of `schema` (see the top of this file): true only for values zod takes as they are. */
export function acceptor(schema: z.ZodType): Accept {
  return compile(schema);
}

/**
 * `schema.parse(value)`, skipped when the acceptor takes the value (zod would return an equal
 * value): the value itself is returned then.
 */
export function parseAccepted<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  return (compile(schema)(value) ? value : schema.parse(value)) as z.output<S>;
}

/** `schema.safeParse(value)`, skipped when the acceptor takes the value (the data is the value itself then). */
export function safeParseAccepted<S extends z.ZodType>(
  schema: S,
  value: unknown,
): ReturnType<S["safeParse"]> | { success: true; data: z.output<S> } {
  return compile(schema)(value)
    ? { success: true, data: value as z.output<S> }
    : (schema.safeParse(value) as ReturnType<S["safeParse"]>);
}
