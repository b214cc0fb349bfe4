/**
 * A regular expression's capture group as a string, narrowed by a check instead of a cast: for a
 * group the pattern makes non-optional, a missing value means the pattern and the code disagree,
 * which is a bug, so it throws rather than carrying `undefined` on.
 */
export function group(match: RegExpExecArray | RegExpMatchArray, index: number): string {
  const value = match[index];
  if (value === undefined) throw new Error(`capture group ${index} is missing from the match "${match[0]}"`);
  return value;
}
