/**
 * Canonical JSON of a record of a known schema, without sorting or copying: the serializer is
 * compiled once from the zod schema (each object's members in code-point order), so a record
 * built in any key order is written by reading its members by name. The bytes are exactly
 * `canonicalJson(value)`'s for every value: whatever the schema does not describe exactly
 * (an unknown member, an `undefined` member, a value of another type, a class instance, a
 * union or any other schema kind) is handed to `canonicalJson` itself, so a record that does
 * not match its schema is still serialized correctly, only slower.
 */
import type { z } from "zod";
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";

type Serialize = (value: unknown) => string;

function plainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function string(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : canonicalJson(value);
}

function number(value: unknown): string {
  return typeof value === "number" && Number.isFinite(value) ? `${value}` : canonicalJson(value);
}

function boolean(value: unknown): string {
  return value === true ? "true" : value === false ? "false" : canonicalJson(value);
}

function primitive(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  return canonicalJson(value);
}

function countKeys(record: Record<string, unknown>): number {
  let n = 0;
  for (const _ in record) n++;
  return n;
}

interface Member {
  key: string;
  /** `"key":` */
  prefix: string;
  serialize: Serialize;
}

function compileObject(shape: Record<string, z.ZodType>): Serialize {
  const members: Member[] = Object.keys(shape)
    .sort(compareCodePoints)
    .map((key) => ({ key, prefix: `${JSON.stringify(key)}:`, serialize: compile(shape[key] as z.ZodType) }));
  return (value) => {
    if (!plainObject(value)) return canonicalJson(value);
    let out = "{";
    let present = 0;
    for (const member of members) {
      const item = value[member.key];
      if (item === undefined) continue;
      out += present === 0 ? member.prefix : `,${member.prefix}`;
      out += member.serialize(item);
      present++;
    }
    // a member the schema does not name, or one that is undefined: the general path
    if (present !== countKeys(value)) return canonicalJson(value);
    return `${out}}`;
  };
}

function compileRecord(valueSchema: z.ZodType): Serialize {
  const serialize = compile(valueSchema);
  return (value) => {
    if (!plainObject(value)) return canonicalJson(value);
    const keys = Object.keys(value).sort(compareCodePoints);
    let out = "{";
    let first = true;
    for (const key of keys) {
      const item = value[key];
      if (item === undefined) continue;
      out += `${first ? "" : ","}${JSON.stringify(key)}:${serialize(item)}`;
      first = false;
    }
    return `${out}}`;
  };
}

function compileArray(elementSchema: z.ZodType): Serialize {
  const serialize = compile(elementSchema);
  return (value) => {
    if (!Array.isArray(value)) return canonicalJson(value);
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as unknown;
      if (i > 0) out += ",";
      out += item === undefined || item === null ? "null" : serialize(item);
    }
    return `${out}]`;
  };
}

function compile(schema: z.ZodType): Serialize {
  const def = schema._zod.def as unknown as {
    type: string;
    shape?: Record<string, z.ZodType>;
    innerType?: z.ZodType;
    element?: z.ZodType;
    valueType?: z.ZodType;
  };
  switch (def.type) {
    case "string":
      return string;
    case "number":
      return number;
    case "boolean":
      return boolean;
    case "enum":
    case "literal":
      return primitive;
    case "object":
      return compileObject(def.shape as Record<string, z.ZodType>);
    case "array":
      return compileArray(def.element as z.ZodType);
    case "record":
      return compileRecord(def.valueType as z.ZodType);
    case "nullable": {
      const inner = compile(def.innerType as z.ZodType);
      return (value) => (value === null ? "null" : inner(value));
    }
    // an absent member is skipped by its object before its serializer is asked
    case "optional":
    case "default":
      return compile(def.innerType as z.ZodType);
    default:
      return canonicalJson;
  }
}

/** A function giving `canonicalJson(value)` for any value, fast for values of `schema`. */
export function canonicalSerializer(schema: z.ZodType): (value: unknown) => string {
  const serialize = compile(schema);
  return (value) => (value === null ? "null" : serialize(value));
}
