/**
 * Cross-field rules of a schema, written as a function that lists a value's problems. zod
 * reports each problem as a custom issue (through `.superRefine`), and the compiled check of
 * ./compiled-check.ts runs the same function (it finds it in PROBLEM_RULES). Every cross-field
 * rule of a record schema is written this way, never as a bare `.refine`, so that both paths
 * check it (a test holds the schema files to that).
 */
import { z } from "zod";

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
  const refined = schema.superRefine((value, ctx) => {
    for (const problem of problems(value))
      ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  });
  PROBLEM_RULES.add(refined, { problems: problems as (value: never) => readonly Problem[] });
  return refined;
}

/**
 * The problems function of every schema made by withProblems. A zod registry: its entries are
 * found again on the schemas derived from the registered one (`.meta()` copies), as zod's own
 * metadata is.
 */
export const PROBLEM_RULES = z.registry<{ problems: (value: never) => readonly Problem[] }>();

/** A problem added to a list made on first need (so a value without problems allocates nothing). */
export function addProblem(list: Problem[] | undefined, path: PropertyKey[], message: string): Problem[] {
  const found = list ?? [];
  found.push({ path, message });
  return found;
}
