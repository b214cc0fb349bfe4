/**
 * Reviewed corrections of upstream typos: `sources/<provider>/corrections.yaml`. Each entry
 * says what a source's page says, what it means, why, and where the provider itself states the
 * right value. The normalize stage replaces the page's text by the meant text before the
 * parser reads the capture (the capture itself stays as recorded), and every build report
 * lists what was applied and which corrections no longer match the capture.
 */

import { z } from "zod";
import { SLUG } from "../lib/ids.js";
import { Url } from "./common.js";

export const Correction = z
  .strictObject({
    /** The source (its `name`, e.g. `models`) of this provider whose capture has the typo. */
    source: z.string().regex(SLUG, "source must name a source of this provider"),
    /** The exact text of the capture that is wrong (it must occur exactly once). */
    page_says: z.string().min(1),
    /** The text it means. */
    means: z.string().min(1),
    /** Why the page's text is a typo and the meant text is right. */
    why: z.string().min(20, "say why, in a sentence"),
    /** An official page of the provider stating the right value. */
    evidence_url: Url,
  })
  .refine((c) => c.page_says !== c.means, { message: "means must differ from page_says", path: ["means"] });
export type Correction = z.infer<typeof Correction>;

export const CorrectionsFile = z.strictObject({ corrections: z.array(Correction).min(1) });
export type CorrectionsFile = z.infer<typeof CorrectionsFile>;

/**
 * What became of one correction in a build: `applied` (its text occurred once and was
 * replaced), `stale` (the capture no longer contains the text: the page changed, review the
 * entry) or `ambiguous` (the text occurs more than once: not applied).
 */
export type CorrectionOutcome = Correction & {
  provider_id: string;
  status: "applied" | "stale" | "ambiguous";
  occurrences: number;
};
