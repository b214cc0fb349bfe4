/**
 * Canonical JSON of a record of a known schema, without sorting or copying: the writer is
 * compiled once from the zod schema (each object's members in code-point order), so a record
 * built in any key order is written by reading its members by name, piece by piece. The bytes are exactly
 * `canonicalJson(value)`'s for every value: whatever the schema does not describe exactly
 * (an unknown member, an `undefined` member, a value of another type, a class instance, a
 * union or any other schema kind) is handed to `canonicalJson` itself, so a record that does
 * not match its schema is still serialized correctly, only slower.
 */
import type { z } from "zod";
import { canonicalJson, compareCodePoints } from "../lib/canonical-json.js";

/** Receives the canonical JSON text piece by piece, in order. */
export type Emit = (piece: string) => void;

type Write = (value: unknown, emit: Emit) => void;

function plainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function general(value: unknown, emit: Emit): void {
  emit(canonicalJson(value));
}

function string(value: unknown, emit: Emit): void {
  emit(typeof value === "string" ? JSON.stringify(value) : canonicalJson(value));
}

function number(value: unknown, emit: Emit): void {
  emit(typeof value === "number" && Number.isFinite(value) ? `${value}` : canonicalJson(value));
}

function boolean(value: unknown, emit: Emit): void {
  emit(value === true ? "true" : value === false ? "false" : canonicalJson(value));
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
  write: Write;
}

function compileObject(shape: Record<string, z.ZodType>): Write {
  const members: Member[] = Object.keys(shape)
    .sort(compareCodePoints)
    .map((key) => ({ key, prefix: `${JSON.stringify(key)}:`, write: compile(shape[key] as z.ZodType) }));
  return (value, emit) => {
    if (!plainObject(value)) return general(value, emit);
    // Every member must be one the schema names and not undefined, checked before anything is
    // written: otherwise the general path writes the whole object.
    let present = 0;
    for (const member of members) if (value[member.key] !== undefined) present++;
    if (present !== countKeys(value)) return general(value, emit);
    let first = true;
    for (const member of members) {
      const item = value[member.key];
      if (item === undefined) continue;
      emit(first ? `{${member.prefix}` : `,${member.prefix}`);
      member.write(item, emit);
      first = false;
    }
    emit(first ? "{}" : "}");
  };
}

function compileRecord(valueSchema: z.ZodType): Write {
  const write = compile(valueSchema);
  return (value, emit) => {
    if (!plainObject(value)) return general(value, emit);
    let first = true;
    for (const key of Object.keys(value).sort(compareCodePoints)) {
      const item = value[key];
      if (item === undefined) continue;
      emit(`${first ? "{" : ","}${JSON.stringify(key)}:`);
      write(item, emit);
      first = false;
    }
    emit(first ? "{}" : "}");
  };
}

function compileArray(elementSchema: z.ZodType): Write {
  const write = compile(elementSchema);
  return (value, emit) => {
    if (!Array.isArray(value)) return general(value, emit);
    emit("[");
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as unknown;
      if (i > 0) emit(",");
      if (item === undefined || item === null) emit("null");
      else write(item, emit);
    }
    emit("]");
  };
}

function compile(schema: z.ZodType): Write {
  const def = schema._zod.def as unknown as {
    type: string;
    shape?: Record<string, z.ZodType>;
    innerType?: z.ZodType;
    element?: z.ZodType;
    valueType?: z.ZodType;
  };
  switch (def.type) {
    case "string":
    case "enum":
    case "literal":
      return string;
    case "number":
      return number;
    case "boolean":
      return boolean;
    case "object":
      return compileObject(def.shape as Record<string, z.ZodType>);
    case "array":
      return compileArray(def.element as z.ZodType);
    case "record":
      return compileRecord(def.valueType as z.ZodType);
    case "nullable": {
      const inner = compile(def.innerType as z.ZodType);
      return (value, emit) => (value === null ? emit("null") : inner(value, emit));
    }
    // an absent member is skipped by its object before its writer is asked
    case "optional":
    case "default":
      return compile(def.innerType as z.ZodType);
    default:
      return general;
  }
}

/**
 * A function writing `canonicalJson(value)` piece by piece for any value, fast for values of
 * `schema`: a record of any size is written without one string of it ever being built.
 */
export function canonicalWriter(schema: z.ZodType): (value: unknown, emit: Emit) => void {
  const write = compile(schema);
  return (value, emit) => (value === null ? emit("null") : write(value, emit));
}

/** A function giving `canonicalJson(value)` for any value, fast for values of `schema`. */
export function canonicalSerializer(schema: z.ZodType): (value: unknown) => string {
  const write = canonicalWriter(schema);
  return (value) => {
    let text = "";
    write(value, (piece) => {
      text += piece;
    });
    return text;
  };
}
