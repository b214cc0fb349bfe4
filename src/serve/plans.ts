/**
 * Plans: a plan has a monthly request quota. The shipped defaults apply when the server is
 * given no plans file: they are for a server a person runs for their own use (the README's
 * quick start), where real use is thousands of requests. A public server is given a plans
 * file (`--plans`, e.g. the repository's config/plans.production.json; docs/operations.md),
 * which replaces them entirely and must define `anonymous` (the keyless plan, counted per
 * client address). A quota is a finite non-negative integer: there is no "unlimited" plan,
 * and 0 blocks every request of that plan.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { CatalogError } from "../lib/errors.js";

export const ANONYMOUS_PLAN = "anonymous";

export const PlansFile = z.strictObject({
  plans: z
    .record(
      z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
      z.strictObject({ monthly_quota: z.int().nonnegative() }),
    )
    .refine((plans) => Object.hasOwn(plans, ANONYMOUS_PLAN), {
      message: `plans must define "${ANONYMOUS_PLAN}" (the keyless plan)`,
    }),
});
export type PlansFile = z.infer<typeof PlansFile>;

/** A month of one person's use: anonymous (no key) 10,000 per client address; free 10,000; pro 100,000. */
export const DEFAULT_PLANS: PlansFile = {
  plans: {
    free: { monthly_quota: 10_000 },
    pro: { monthly_quota: 100_000 },
    anonymous: { monthly_quota: 10_000 },
  },
};

export async function loadPlans(path: string | undefined): Promise<PlansFile> {
  if (!path) return DEFAULT_PLANS;
  let raw: string;
  try {
    raw = await readFile(path, "utf8");
  } catch (error) {
    throw new CatalogError("io_failed", `cannot read plans file ${path}`, {}, { cause: error });
  }
  const parsed = PlansFile.safeParse(
    (() => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return undefined;
      }
    })(),
  );
  if (!parsed.success)
    throw new CatalogError(
      "invalid_argument",
      `plans file ${path} is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`).join("; ")}`,
    );
  return parsed.data;
}
