/**
 * Cross-field rules of a schema, written as a function that lists a value's problems. zod
 * reports each problem as a custom issue (through `.superRefine`).
 */
import type { z } from "zod";

export interface Problem {
  path: PropertyKey[];
  message: string;
}

/** What a problems function returns for a value without problems (nothing allocated). */
export const NO_PROBLEMS: readonly Problem[] = Object.freeze([]);

/**
 * `schema` with the rule `problems` states: zod adds a custom issue per problem it lists.
 * `problems` must only read the value (never change it) and runs only on a value that passed
 * the schema's own checks.
 */
export function withProblems<S extends z.ZodType>(
  schema: S,
  problems: (value: z.output<S>) => readonly Problem[],
): S {
  return schema.superRefine((value, ctx) => {
    for (const problem of problems(value))
      ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  });
}

/** A problem added to a list made on first need (so a value without problems allocates nothing). */
export function addProblem(list: Problem[] | undefined, path: PropertyKey[], message: string): Problem[] {
  const found = list ?? [];
  found.push({ path, message });
  return found;
}
