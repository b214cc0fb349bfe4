/**
 * Canonical JSON: the bytes of RFC 8785, the JSON Canonicalization Scheme, for every value a
 * release holds: object keys sorted by UTF-16 code unit, no insignificant whitespace, numbers
 * and strings as ECMAScript's JSON.stringify writes them (which RFC 8785 prescribes). As
 * JSON.stringify does, an `undefined` member is dropped and an `undefined` array item is `null`.
 * Everything that is hashed or written to a release goes through here, so that the same value
 * always gives the same bytes whatever the insertion order of its keys. A test holds it to the
 * `canonicalize` package (RFC 8785's reference implementation) byte for byte; that package is
 * not used here because it cost a 100,000-deployment build about 3 s and 90-170 MB more
 * (measured: docs/lean-core-validation.md). One difference: a lone surrogate, which RFC 8785
 * refuses, is escaped (\udXXX) as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  // Fast path: the native serializer over a value whose objects already have their keys in
  // sorted order. `canonicalValue` returns the value itself where it already is (records read
  // from a canonical file, or built in key order) and key-sorted copies only of the objects
  // that are not, so a 100,000-deployment catalog costs one walk and one native string build.
  // V8 emits integer-like keys ("0", "10") in numeric order whatever the order, so an object
  // with such a key takes the exact recursive path below; both give the same bytes (a property
  // test holds them equal).
  try {
    const text = JSON.stringify(canonicalValue(value));
    if (text === undefined) throw new TypeError(`canonicalJson: cannot serialize ${typeof value}`);
    return text;
  } catch (error) {
    if (error === INTEGER_LIKE_KEY) return canonicalJsonRecursive(value);
    throw error;
  }
}

const INTEGER_LIKE_KEY = Symbol("integer-like key");
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * The value with every object's keys in code-point order: the value itself when that holds
 * already (no copy), else copies of exactly the objects (and their ancestors) that need one.
 * Throws what canonicalJson throws (non-finite number, bigint, function, symbol) and
 * INTEGER_LIKE_KEY for a key that native serialization would reorder.
 */
function canonicalValue(value: unknown): unknown {
  switch (typeof value) {
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number ${value}`);
      return value;
    case "bigint":
      throw new TypeError("canonicalJson: bigint must be converted before serialization");
    case "function":
    case "symbol":
      throw new TypeError(`canonicalJson: cannot serialize ${typeof value}`);
    case "object": {
      if (value === null) return value;
      if (Array.isArray(value)) {
        let copy: unknown[] | null = null;
        for (let i = 0; i < value.length; i++) {
          const item = value[i] as unknown;
          // a string, null or finite number is its own canonical value: no call per item (the
          // columns of a serving index and a diff hold millions of them)
          if (
            typeof item === "string" ||
            item === null ||
            (typeof item === "number" && Number.isFinite(item))
          ) {
            if (copy !== null) copy.push(item);
            continue;
          }
          const done = canonicalValue(item);
          if (done !== item && copy === null) copy = value.slice(0, i);
          if (copy !== null) copy.push(done);
        }
        return copy ?? value;
      }
      if (typeof (value as { toJSON?: unknown }).toJSON === "function")
        return canonicalValue((value as { toJSON: () => unknown }).toJSON());
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      let sorted = true;
      let previous: string | null = null;
      for (const key of keys) {
        if (previous !== null && !(previous < key)) {
          sorted = false;
          break;
        }
        previous = key;
      }
      if (!sorted) {
        // a key-sorted copy, its members' canonical values put in in key order
        const order = sortedOrder(keys);
        const copy: Record<string, unknown> = {};
        for (const n of order) {
          const key = keys[n] ?? "";
          copy[key] = canonicalValue(record[key]);
        }
        return copy;
      }
      // In order already: Object.keys lists the keys in the order JSON.stringify emits them
      // (integer-like keys first, numerically), so that order being code-point order is enough.
      // The value itself, unless a member is not its own canonical value: then a copy, made at
      // the first such member.
      let copy: Record<string, unknown> | null = null;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] ?? "";
        const member = record[key];
        const canonical = canonicalValue(member);
        if (canonical !== member && copy === null) {
          // "__proto__" would set the copy's prototype instead of a member: the exact path
          if (keys.includes("__proto__")) throw INTEGER_LIKE_KEY;
          copy = {};
          for (const earlier of keys.slice(0, i)) copy[earlier] = record[earlier];
        }
        if (copy !== null) copy[key] = canonical;
      }
      return copy ?? value;
    }
    default:
      return value;
  }
}

/**
 * The code-point order of an object's keys, as positions in `keys`. Records of one shape share
 * their key list, so the order is computed once per distinct list and found again by comparing
 * the lists (their strings are the same strings, so each comparison is cheap; a key string
 * joined per object to look it up cost more than the sort it saved). Bounded. Throws
 * INTEGER_LIKE_KEY for a key that native serialization would reorder, or "__proto__" (which
 * would set a copy's prototype instead of a member).
 */
function sortedOrder(keys: readonly string[]): readonly number[] {
  const first = keys[0] ?? "";
  const known = ORDERS.get(first);
  if (known !== undefined) for (const shape of known) if (sameKeys(shape.keys, keys)) return shape.order;
  for (const key of keys) if (ARRAY_INDEX.test(key) || key === "__proto__") throw INTEGER_LIKE_KEY;
  const order = keys.map((_, i) => i).sort((a, b) => compareCodePoints(keys[a] ?? "", keys[b] ?? ""));
  if (orderCount >= MAX_ORDERS) {
    ORDERS.clear();
    orderCount = 0;
  }
  const shapes = ORDERS.get(first) ?? [];
  shapes.push({ keys, order });
  ORDERS.set(first, shapes);
  orderCount++;
  return order;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Key lists by their first key. */
const ORDERS = new Map<string, Array<{ keys: readonly string[]; order: readonly number[] }>>();
let orderCount = 0;
const MAX_ORDERS = 4096;

/** The reference implementation: recursive, exact for any key. */
export function canonicalJsonRecursive(value: unknown): string {
  return serialize(value);
}

function serialize(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number ${value}`);
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      throw new TypeError("canonicalJson: bigint must be converted before serialization");
    case "object": {
      if (Array.isArray(value))
        return `[${value.map((item) => serialize(item === undefined ? null : item)).join(",")}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort(compareCodePoints);
      return `{${keys.map((key) => `${JSON.stringify(key)}:${serialize(record[key])}`).join(",")}}`;
    }
    default:
      throw new TypeError(`canonicalJson: cannot serialize ${typeof value}`);
  }
}

/**
 * Writes `canonicalJson(value)` piece by piece to `emit`, never as one string: down to `depth`
 * levels of plain objects and arrays, an object's members go in key order and an array's items
 * one by one; below that, each value is one piece. (A source's facts can hold a whole
 * 100,000-deployment map: at depth 2, the largest piece is one of its records.)
 */
export function writeCanonicalJson(value: unknown, emit: (piece: string) => void, depth: number): void {
  if (depth <= 0 || typeof value !== "object" || value === null || hasToJson(value)) {
    emit(canonicalJson(value));
    return;
  }
  if (Array.isArray(value)) {
    emit("[");
    value.forEach((item, i) => {
      if (i > 0) emit(",");
      writeCanonicalJson(item === undefined ? null : item, emit, depth - 1);
    });
    emit("]");
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => hasText(record[key]))
    .sort(compareCodePoints);
  emit("{");
  keys.forEach((key, i) => {
    emit(`${i > 0 ? "," : ""}${canonicalJson(key)}:`);
    writeCanonicalJson(record[key], emit, depth - 1);
  });
  emit("}");
}

/** Whether a member is written at all (JSON drops undefined, functions and symbols). */
function hasText(member: unknown): boolean {
  return member !== undefined && typeof member !== "function" && typeof member !== "symbol";
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}

/** Locale-independent string ordering (by UTF-16 code unit: RFC 8785's order of keys). */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
