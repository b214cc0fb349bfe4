/**
 * Canonical JSON: object keys sorted by code point, no insignificant whitespace, `undefined`
 * members dropped. Everything that is hashed or written to a release goes through here, so
 * that the same value always gives the same bytes whatever the insertion order of its keys.
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
      // members' canonical values, allocated at the first member that is not its own
      let done: unknown[] | null = null;
      let previous: string | null = null;
      let i = 0;
      for (const key of keys) {
        if (previous !== null && !(previous < key)) sorted = false;
        previous = key;
        const member = record[key];
        const canonical = canonicalValue(member);
        if (canonical !== member && done === null) {
          done = keys.slice(0, i).map((k) => record[k]);
          done.length = keys.length;
        }
        if (done !== null) done[i] = canonical;
        i++;
      }
      // In order already: Object.keys lists the keys in the order JSON.stringify emits them
      // (integer-like keys first, numerically), so that order being code-point order is enough.
      if (sorted && done === null) return value;
      const order = sorted ? keys.map((_, n) => n) : sortedOrder(keys);
      const copy: Record<string, unknown> = {};
      for (const n of order) {
        const key = keys[n] ?? "";
        // "__proto__" would set the copy's prototype instead of a member: the exact path
        if (key === "__proto__") throw INTEGER_LIKE_KEY;
        copy[key] = done === null ? record[key] : done[n];
      }
      return copy;
    }
    default:
      return value;
  }
}

/**
 * The code-point order of an object's keys, as positions in `keys`. Records of one shape share
 * their key list, so the order is computed once per distinct list (a bounded memo). Throws
 * INTEGER_LIKE_KEY for a key that native serialization would reorder, or "__proto__" (which
 * would set a copy's prototype instead of a member).
 */
function sortedOrder(keys: readonly string[]): readonly number[] {
  const shape = keys.join("\u0000");
  let order = ORDERS.get(shape);
  if (order === undefined) {
    for (const key of keys) if (ARRAY_INDEX.test(key) || key === "__proto__") throw INTEGER_LIKE_KEY;
    order = keys.map((_, i) => i).sort((a, b) => compareCodePoints(keys[a] ?? "", keys[b] ?? ""));
    if (ORDERS.size >= MAX_ORDERS) ORDERS.clear();
    ORDERS.set(shape, order);
  }
  return order;
}

const ORDERS = new Map<string, readonly number[]>();
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

/** Locale-independent string ordering (by UTF-16 code unit, identical for BMP text). */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
