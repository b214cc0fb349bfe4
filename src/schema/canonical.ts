/**
 * Canonical JSON of a record of a known schema, without sorting or copying: the serializer is
 * compiled once from the zod schema into generated code (each object's members read by name in
 * code-point order, scalar members written inline), so a record built in any key order is
 * written by reading its members by name. The bytes are exactly `canonicalJson(value)`'s for
 * every value: whatever the schema does not describe exactly (an unknown member, an
 * `undefined` member, a value of another type, a class instance, a union or any other schema
 * kind) is handed to `canonicalJson` itself, so a record that does not match its schema is
 * still serialized correctly, only slower.
 */
import type { z } from "zod";
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";

/** Receives the canonical JSON text piece by piece, in order. */
export type Emit = (piece: string) => void;

type Serialize = (value: unknown) => string;
type Write = (value: unknown, emit: Emit) => void;

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return schema._zod.def as unknown as Def;
}

function plainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function countKeys(record: Record<string, unknown>): number {
  let n = 0;
  for (const _ in record) n++;
  return n;
}

/** Characters JSON.stringify escapes: a string without them is written as it is, quoted. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify(text), without its general machinery for the common string that needs no escape. */
function quote(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** What the generated code calls: named `h.<name>` in it. */
const helpers = { plainObject, countKeys, quote, general: canonicalJson };

/** Constants of generated code, named `c[i]` in it. */
type Constants = unknown[];

function constant(constants: Constants, value: unknown): string {
  constants.push(value);
  return `c[${constants.length - 1}]`;
}

/**
 * `canonicalJson(x)` as an expression of generated code, for a value of `schema` that is
 * present (not undefined): a scalar (string, enum, literal, number, boolean) and a nullable
 * one inline, anything else a call of its compiled serializer.
 */
function expression(schema: z.ZodType, x: string, constants: Constants): string {
  const def = defOf(schema);
  switch (def.type) {
    case "enum":
    case "literal": {
      // each value's text made once (a value of another type, or none of these, goes the general way)
      const values = (schema._zod as { values?: Set<unknown> }).values;
      if (values) {
        const texts = new Map([...values].map((value) => [value, canonicalJson(value)]));
        return `(${constant(constants, texts)}.get(${x}) ?? h.general(${x}))`;
      }
      return `(typeof ${x} === "string" ? h.quote(${x}) : h.general(${x}))`;
    }
    case "string":
      return `(typeof ${x} === "string" ? h.quote(${x}) : h.general(${x}))`;
    case "number":
      return `(typeof ${x} === "number" && Number.isFinite(${x}) ? "" + ${x} : h.general(${x}))`;
    case "boolean":
      return `(${x} === true ? "true" : ${x} === false ? "false" : h.general(${x}))`;
    case "nullable":
      return `(${x} === null ? "null" : ${expression(def.innerType as z.ZodType, x, constants)})`;
    // an absent member is skipped by its object before its expression is evaluated
    case "optional":
    case "default":
      return expression(def.innerType as z.ZodType, x, constants);
    default:
      return `${constant(constants, serializer(schema))}(${x})`;
  }
}

function generated(parameters: string, body: string, constants: Constants): Serialize {
  return new Function("h", "c", `return function (${parameters}) {\n${body}\n};`)(
    helpers,
    constants,
  ) as Serialize;
}

/** The object's members in code-point order, with their `"key":` prefixes. */
function membersOf(
  shape: Record<string, z.ZodType>,
): Array<{ key: string; name: string; schema: z.ZodType }> {
  return Object.keys(shape)
    .sort(compareCodePoints)
    .map((key) => ({ key, name: JSON.stringify(key), schema: shape[key] as z.ZodType }));
}

/**
 * The lines that read every member and fall back to the general path unless every key of the
 * value is a member and none is undefined (checked before anything is written).
 */
function readMembers(members: ReturnType<typeof membersOf>): string[] {
  return [
    "if (!h.plainObject(v)) return h.general(v);",
    ...members.map((m, i) => `const x${i} = v[${m.name}];`),
    "let present = 0;",
    ...members.map((_, i) => `if (x${i} !== undefined) present++;`),
    "if (present !== h.countKeys(v)) return h.general(v);",
  ];
}

function compileObject(shape: Record<string, z.ZodType>): Serialize {
  const members = membersOf(shape);
  const constants: Constants = [];
  const lines = [
    ...readMembers(members),
    'let s = "";',
    ...members.map(
      (m, i) =>
        `if (x${i} !== undefined) s += (s.length === 0 ? ${JSON.stringify(`{${m.name}:`)} : ${JSON.stringify(`,${m.name}:`)}) + ${expression(m.schema, `x${i}`, constants)};`,
    ),
    'return s.length === 0 ? "{}" : s + "}";',
  ];
  return generated("v", lines.join("\n"), constants);
}

function compileRecord(valueSchema: z.ZodType): Serialize {
  const constants: Constants = [];
  const item = expression(valueSchema, "item", constants);
  return generated(
    "v",
    [
      "if (!h.plainObject(v)) return h.general(v);",
      'let s = "";',
      `for (const key of Object.keys(v).sort(${constant(constants, compareCodePoints)})) {`,
      "  const item = v[key];",
      "  if (item === undefined) continue;",
      `  s += (s.length === 0 ? "{" : ",") + h.quote(key) + ":" + ${item};`,
      "}",
      'return s.length === 0 ? "{}" : s + "}";',
    ].join("\n"),
    constants,
  );
}

function compileArray(elementSchema: z.ZodType): Serialize {
  const constants: Constants = [];
  const item = expression(elementSchema, "item", constants);
  return generated(
    "v",
    [
      "if (!Array.isArray(v)) return h.general(v);",
      'let s = "[";',
      "for (let i = 0; i < v.length; i++) {",
      "  const item = v[i];",
      '  if (i > 0) s += ",";',
      `  s += item === undefined || item === null ? "null" : ${item};`,
      "}",
      'return s + "]";',
    ].join("\n"),
    constants,
  );
}

const serializers = new WeakMap<z.ZodType, Serialize>();

/** `canonicalJson` of any value, generated for values of `schema`. */
function serializer(schema: z.ZodType): Serialize {
  let serialize = serializers.get(schema);
  if (serialize === undefined) {
    const def = defOf(schema);
    if (def.type === "object") serialize = compileObject(def.shape as Record<string, z.ZodType>);
    else if (def.type === "array") serialize = compileArray(def.element as z.ZodType);
    else if (def.type === "record") serialize = compileRecord(def.valueType as z.ZodType);
    else {
      const constants: Constants = [];
      serialize = generated("v", `return ${expression(schema, "v", constants)};`, constants);
    }
    serializers.set(schema, serialize);
  }
  return serialize;
}

/**
 * The piecewise writer of `schema`: an object's members and an array's items are written one
 * by one, each item as one string (so the largest string is one item's, however long the array).
 */
function writer(schema: z.ZodType): Write {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      const members = membersOf(def.shape as Record<string, z.ZodType>);
      const writers = members.map((m) => writer(m.schema));
      const serialize = serializer(schema);
      return (value, emit) => {
        if (!plainObject(value)) return emit(canonicalJson(value));
        let present = 0;
        for (const m of members) if (value[m.key] !== undefined) present++;
        // not exactly this object: its serializer takes the general path
        if (present !== countKeys(value)) return emit(serialize(value));
        let first = true;
        members.forEach((m, i) => {
          const item = value[m.key];
          if (item === undefined) return;
          emit(first ? `{${m.name}:` : `,${m.name}:`);
          (writers[i] as Write)(item, emit);
          first = false;
        });
        emit(first ? "{}" : "}");
      };
    }
    case "array": {
      const element = serializer(def.element as z.ZodType);
      return (value, emit) => {
        if (!Array.isArray(value)) return emit(canonicalJson(value));
        emit("[");
        for (let i = 0; i < value.length; i++) {
          const item = value[i] as unknown;
          if (i > 0) emit(",");
          emit(item === undefined || item === null ? "null" : element(item));
        }
        emit("]");
      };
    }
    case "nullable": {
      const inner = writer(def.innerType as z.ZodType);
      return (value, emit) => (value === null ? emit("null") : inner(value, emit));
    }
    case "optional":
    case "default":
      return writer(def.innerType as z.ZodType);
    default: {
      const serialize = serializer(schema);
      return (value, emit) => emit(serialize(value));
    }
  }
}

/**
 * A function writing `canonicalJson(value)` piece by piece for any value, fast for values of
 * `schema`: a record of any size is written without one string of it ever being built (the
 * largest piece is one array item's text).
 */
export function canonicalWriter(schema: z.ZodType): (value: unknown, emit: Emit) => void {
  const write = writer(schema);
  return (value, emit) => (value === null ? emit("null") : write(value, emit));
}

/** A function giving `canonicalJson(value)` for any value, fast for values of `schema`. */
export function canonicalSerializer(schema: z.ZodType): (value: unknown) => string {
  const serialize = serializer(schema);
  return (value) => (value === null ? "null" : serialize(value));
}
