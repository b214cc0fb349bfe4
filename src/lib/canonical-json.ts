/**
 * Canonical JSON: object keys sorted by code point, no insignificant whitespace, `undefined`
 * members dropped. Everything that is hashed or written to a release goes through here, so
 * that the same value always gives the same bytes whatever the insertion order of its keys.
 */
export function canonicalJson(value: unknown): string {
  // Fast path: the native serializer with a replacer that hands it key-sorted copies, so a
  // 100,000-deployment catalog is built in one native string builder instead of a tree of
  // joined pieces (about a gigabyte less at peak). V8 emits integer-like keys ("0", "10") in
  // numeric order whatever the copy's order, so an object with such keys takes the exact
  // recursive path below; both give the same bytes (a property test holds them equal).
  try {
    const text = JSON.stringify(value, sortedCopy);
    if (text === undefined) throw new TypeError(`canonicalJson: cannot serialize ${typeof value}`);
    return text;
  } catch (error) {
    if (error === INTEGER_LIKE_KEY) return canonicalJsonRecursive(value);
    throw error;
  }
}

const INTEGER_LIKE_KEY = Symbol("integer-like key");
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function sortedCopy(_key: string, value: unknown): unknown {
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
      if (value === null || Array.isArray(value)) return value;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort(compareCodePoints);
      const copy: Record<string, unknown> = {};
      for (const key of keys) {
        // "__proto__" would set the copy's prototype instead of a member: exact path too.
        if (ARRAY_INDEX.test(key) || key === "__proto__") throw INTEGER_LIKE_KEY;
        copy[key] = record[key];
      }
      return copy;
    }
    default:
      return value;
  }
}

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
