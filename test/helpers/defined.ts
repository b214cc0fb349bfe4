/**
 * A value the test needs to exist, narrowed by a check instead of a non-null assertion: a missing
 * value fails the test at once, naming what was missing, instead of failing later on `undefined`.
 */
export function defined<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}, but it is missing`);
  return value;
}
