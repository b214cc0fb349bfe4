/**
 * Amazon Bedrock (provider `amazon-bedrock`): the model lifecycle pages (Markdown renderings
 * of model-lifecycle.html and model-lifecycle-legacy.html). AWS publishes Legacy / EOL models
 * either as a pipe table (Model provider | Model name | Model ID | Regions | Legacy date |
 * EOL date | Public extended access start date) or as a nested bullet list with the same
 * fields, where a model with per-Region dates has one "Regions: ... / Legacy date: ... /
 * EOL date: ... / Public extended access start date: ..." line per Region group.
 *
 * One deployment per (model ID, Region) listed, each with its own lifecycle assertion:
 * - deprecation = the Legacy date, with `deprecation_status: "legacy"` (AWS's word for the
 *   state it starts: new customers can no longer use the model);
 * - extended_access = the public extended access start date (higher, provider-set prices
 *   until EOL), when given;
 * - end_of_life = the EOL date;
 * - a declared status only where the page states one: `retired` for the models listed under
 *   "Models that have reached EOL". The release stage derives the rest from the dates and the
 *   build's clock (src/release/status.ts); the parser compares no date with its capture time.
 */

import { group } from "../../lib/regex.js";
import type {
  DeploymentFact,
  LifecycleAssertion,
  LifecycleMilestone,
  ParseOutput,
  SourceDefinition,
} from "../../schema/index.js";
import { columnIndex, evidenceFor, parseFailure, requireSome, sourceMilestone } from "../helpers.js";
import { BEDROCK, bedrockDeployment, bedrockIdentity } from "../identity/index.js";
import { cleanCell, splitTableRow, startsTable } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

export const PROVIDER_ID = "amazon-bedrock";
export const API_SURFACE = BEDROCK.surfaces.runtime;

/** The canonical model of a Bedrock model id: see ../identity/amazon-bedrock.ts. */
export const bedrockCanonicalModelId = (bedrockModelId: string): string =>
  bedrockIdentity.canonicalModelId(bedrockModelId);

interface RegionGroup {
  regions: string[];
  legacy: string | undefined;
  eol: string | undefined;
  extendedAccess: string | undefined;
}

interface LifecycleEntry {
  provider: string;
  name: string;
  modelId: string;
  /** "reached-eol" when the page lists the entry under "Models that have reached EOL". */
  section: "listed" | "reached-eol";
  groups: RegionGroup[];
}

const FIELD =
  /^\*\*(Model name|Model ID|Regions|Legacy date|EOL date|Public extended access start date):\*\*\s*(.*)$/i;

function fieldKey(label: string): "name" | "id" | "regions" | "legacy" | "eol" | "extended" {
  const l = label.toLowerCase();
  if (l === "model name") return "name";
  if (l === "model id") return "id";
  if (l === "regions") return "regions";
  if (l === "legacy date") return "legacy";
  if (l === "eol date") return "eol";
  return "extended";
}

function splitRegions(source: SourceDefinition, text: string): string[] {
  const regions = cleanCell(text)
    .split(",")
    .map((r) => r.trim())
    .filter((r) => r !== "");
  for (const r of regions)
    if (!/^[a-z]{2}(?:-gov)?-[a-z]+-\d$/.test(r))
      throw parseFailure(source, `"${r}" is not an AWS Region code`);
  if (regions.length === 0) throw parseFailure(source, `no Regions in "${text}"`);
  return regions;
}

/** Reads both published layouts (pipe table and nested bullet list) in document order. */
function readEntries(source: SourceDefinition, content: string): LifecycleEntry[] {
  const lines = content.split(/\r?\n/);
  const entries: LifecycleEntry[] = [];
  let section: LifecycleEntry["section"] = "listed";
  let current: LifecycleEntry | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === undefined) break; // i < lines.length: not reached
    const trimmed = line.trim();
    if (/^\*\*Models that have reached EOL\*\*$/i.test(trimmed)) {
      section = "reached-eol";
      current = null;
      continue;
    }
    if (/^\*\*Models with a scheduled EOL date\*\*$/i.test(trimmed)) {
      section = "listed";
      current = null;
      continue;
    }
    // Pipe table.
    if (startsTable(line, lines[i + 1])) {
      const headers = splitTableRow(line).map(cleanCell);
      const col = (re: RegExp): number => columnIndex(source, headers, re);
      const iProvider = col(/^model provider$/i);
      const iName = col(/^model name$/i);
      const iId = col(/^model id$/i);
      const iRegions = col(/^regions$/i);
      const iLegacy = col(/^legacy date$/i);
      const iEol = col(/^eol date$/i);
      const iExtended = col(/public extended access/i);
      let j = i + 2;
      for (let row = lines[j]; row?.trim().startsWith("|"); row = lines[++j]) {
        const cells = splitTableRow(row).map(cleanCell);
        if (cells.length !== headers.length)
          throw parseFailure(source, `row "${row}" has ${cells.length} cells, expected ${headers.length}`);
        /** A cell of a column the header row has (so of this row too, its length checked above). */
        const cell = (index: number): string => {
          const value = cells[index];
          if (value === undefined) throw parseFailure(source, `row "${row}" has no cell ${index}`);
          return value;
        };
        entries.push({
          provider: cell(iProvider),
          name: cell(iName),
          modelId: cell(iId),
          section,
          groups: [
            {
              regions: splitRegions(source, cell(iRegions)),
              legacy: cells[iLegacy],
              eol: cells[iEol],
              extendedAccess: cells[iExtended],
            },
          ],
        });
      }
      i = j - 1;
      current = null;
      continue;
    }
    // Bullet list: "- **Provider**" opens an entry, indented "- **Field:** value" lines fill it.
    const provider = /^- \*\*([^*:]+)\*\*\s*$/.exec(line);
    if (provider) {
      current = { provider: cleanCell(group(provider, 1)), name: "", modelId: "", section, groups: [] };
      entries.push(current);
      continue;
    }
    const item = /^\s+- (.*)$/.exec(line);
    if (item && current) {
      const parts = group(item, 1).split(/\s+\/\s+(?=\*\*)/);
      const fields = parts.map((part) => {
        const m = FIELD.exec(part.trim());
        if (!m) throw parseFailure(source, `unknown lifecycle field "${part.trim()}"`);
        return { key: fieldKey(group(m, 1)), value: cleanCell(group(m, 2)) };
      });
      const first = fields[0];
      if (!first) continue;
      if (first.key === "name") current.name = first.value;
      else if (first.key === "id") current.modelId = first.value;
      else if (first.key === "regions") {
        const group: RegionGroup = {
          regions: splitRegions(source, first.value),
          legacy: undefined,
          eol: undefined,
          extendedAccess: undefined,
        };
        current.groups.push(group);
        for (const f of fields.slice(1)) assignDate(source, group, f.key, f.value);
      } else {
        const group = current.groups.at(-1);
        if (!group) throw parseFailure(source, `"${item[1]}" comes before any Regions line`);
        assignDate(source, group, first.key, first.value);
      }
      continue;
    }
    if (trimmed !== "" && !trimmed.startsWith("-") && current && current.groups.length === 0)
      throw parseFailure(source, `entry for ${current.provider} ends before its Regions`);
  }
  for (const e of entries) {
    if (!e.modelId || !/^[a-z0-9-]+\.[a-z0-9.:-]+$/.test(e.modelId))
      throw parseFailure(source, `entry "${e.provider} ${e.name}" has no valid model ID ("${e.modelId}")`);
    if (e.groups.length === 0) throw parseFailure(source, `model ${e.modelId} lists no Regions`);
    for (const g of e.groups)
      if (g.legacy === undefined || g.eol === undefined)
        throw parseFailure(source, `model ${e.modelId} (${g.regions.join(", ")}) lacks a Legacy or EOL date`);
  }
  return entries;
}

function assignDate(source: SourceDefinition, group: RegionGroup, key: string, value: string): void {
  if (key === "legacy") group.legacy = value;
  else if (key === "eol") group.eol = value;
  else if (key === "extended") group.extendedAccess = value;
  else throw parseFailure(source, `field "${key}" inside a Region group`);
}

function milestone(
  source: SourceDefinition,
  text: string | undefined,
  input: ParserInput,
): LifecycleMilestone {
  return sourceMilestone(source, text, [evidenceFor(input.source, input.observedAt)]);
}

function parseModelLifecycle(input: ParserInput): ParseOutput {
  const { source } = input;
  const evidence = evidenceFor(source, input.observedAt);
  const deployments: DeploymentFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  const seen = new Set<string>();
  for (const entry of readEntries(source, input.content)) {
    for (const group of entry.groups) {
      const deprecation = milestone(source, group.legacy, input);
      const endOfLife = milestone(source, group.eol, input);
      const extendedAccess =
        group.extendedAccess === undefined ? undefined : milestone(source, group.extendedAccess, input);
      const reachedEol = entry.section === "reached-eol";
      for (const region of group.regions) {
        const deployment = bedrockDeployment(entry.modelId, region);
        const { id } = deployment;
        if (seen.has(id)) throw parseFailure(source, `${entry.modelId} in ${region} is listed twice`);
        seen.add(id);
        deployments.push({
          ...deployment,
          display_name: entry.name ? `${entry.provider} ${entry.name}` : entry.provider,
          evidence,
        });
        lifecycle.push({
          scope: "deployment",
          provider_id: PROVIDER_ID,
          target: { provider_model_id: entry.modelId, region, api_surface: API_SURFACE },
          ...(reachedEol ? { status: "retired" as const } : {}),
          deprecation,
          deprecation_status: "legacy",
          end_of_life: endOfLife,
          ...(extendedAccess?.state === "scheduled" ? { extended_access: extendedAccess } : {}),
          evidence,
        });
      }
    }
  }
  requireSome(source, lifecycle, "Legacy or EOL model rows");
  return { deployments, lifecycle, skipped: [] };
}

export const parsers: Record<string, Parser> = {
  "amazon-bedrock-model-lifecycle": parseModelLifecycle,
};
