/**
 * Cross-field rules of a schema, written as a function that lists a value's problems. zod
 * reports each problem as a custom issue (through `.superRefine`); the acceptor
 * (src/schema/accept.ts) calls the function itself and takes the value when it lists none, so
 * a valid record costs no zod payload, context or issue closure. At 100,000 deployments those
 * were about 140 MB of short-lived objects per schema pass.
 */
import type { z } from "zod";

export interface Problem {
  path: PropertyKey[];
  message: string;
}

/** What a problems function returns for a value without problems (nothing allocated). */
export const NO_PROBLEMS: readonly Problem[] = Object.freeze([]);

/** The problems function of each check `withProblems` made, by check object (read by the acceptor). */
const problemsOfCheck = new WeakMap<object, (value: never) => readonly Problem[]>();

/** The problems function a check was made from, or undefined for any other check. */
export function problemsFunction(check: object): ((value: unknown) => readonly Problem[]) | undefined {
  return problemsOfCheck.get(check) as ((value: unknown) => readonly Problem[]) | undefined;
}

/**
 * `schema` with the rule `problems` states: zod adds a custom issue per problem it lists.
 * `problems` must only read the value (never change it) and runs only on a value that passed
 * the schema's own checks.
 */
export function withProblems<S extends z.ZodType>(
  schema: S,
  problems: (value: z.output<S>) => readonly Problem[],
): S {
  const refined = schema.superRefine((value, ctx) => {
    for (const problem of problems(value))
      ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  });
  const checks = (refined as unknown as { _zod: { def: { checks?: object[] } } })._zod.def.checks;
  const check = checks?.[checks.length - 1];
  if (check === undefined) throw new Error("withProblems: zod added no check");
  problemsOfCheck.set(check, problems);
  return refined;
}

/** A problem added to a list made on first need (so a value without problems allocates nothing). */
export function addProblem(list: Problem[] | undefined, path: PropertyKey[], message: string): Problem[] {
  const found = list ?? [];
  found.push({ path, message });
  return found;
}
