/**
 * An Amazon Bedrock model card in its Markdown form
 * (docs.aws.amazon.com/bedrock/latest/userguide/model-card-<provider>-<model>.md): the
 * "## Model Details" bullets ("+ **Context window:** 1M tokens"), the Input / Output Modalities
 * table and the Programmatic Access table. Model facts only; it creates no deployments.
 *
 * - context_tokens = "Context window", max_output_tokens = "Max output tokens", as printed
 *   ("200K tokens" -> 200,000, "1M tokens" -> 1,000,000, "128,000" -> 128,000). A card without
 *   a "Max output tokens" bullet (the Voxtral speech cards) states no output limit: unknown; a
 *   bullet that is there but gives no token count is a parse failure.
 * - released_at = "Model launch date" ("Oct 16, 2025" -> 2025-10-16), only a whole day; absent
 *   (or "N/A") = not stated.
 * - reasoning: the "Reasoning" bullet ("Supported ..." / "Not supported ..."); absent = unknown.
 * - Modalities table (two columns, or four where the page adds APIs and endpoints): each cell
 *   is a yes / no icon and a modality. Input Image -> vision, Audio or Speech -> audio_input
 *   (supported where either row is: the Voxtral speech-to-text cards tick Speech, not Audio),
 *   Video -> video_input; output Image -> image_output, Speech -> audio_output. A modality the
 *   table leaves out stays unknown.
 * - The "## Capabilities and Features" section, where the capture keeps it: its "Features
 *   supported using `bedrock-runtime` endpoint" table (Supported | Not Supported), each cell a
 *   list of features, each the feature's name after a yes / no icon (some copies print no
 *   icons: the column says it). "Structured outputs" -> structured_output, "Computer use" ->
 *   computer_use, "Client-side tool calling" -> tool_calling: supported in the Supported column, unsupported in the Not Supported column
 *   (the card says so); a feature in neither column stays unknown (the Claude Fable 5 card
 *   names neither). A feature whose icon contradicts its column, or a
 *   kept section without the bedrock-runtime table, fails the parse. The other features
 *   (Guardrails, Agents, Flows ...) have no catalog capability and are not read; the section's
 *   prompt caching table is not read either (the prompt-caching page, parser
 *   amazon-bedrock-prompt-caching, states caching per model and mode).
 * - Facts apply to the Model ID of the Programmatic Access table's bedrock-runtime row, the id
 *   the catalog's Bedrock deployments carry. The bedrock-mantle row is another endpoint and is
 *   not read.
 * - The bedrock-runtime row's "Geo inference ID" cell (`us.<id>`<br />`eu.<id>` ...) and
 *   "Global inference ID" cell (`global.<id>`) name the cross-Region inference profiles AWS
 *   serves the model through: each is the model id's deployment through that profile
 *   (`bedrock-runtime`, `standard`, region = the prefix, where the identity module places a
 *   community key `us.<id>`). The cells list every profile of the model, so the card is an
 *   availability list (src/release/listing-gate.ts): a community record of the model through a
 *   profile the card leaves out is an unlisted offering. "Not supported" / "N/A" name none. A
 *   profile id that is not a known prefix and the row's own model id fails the parse.
 * - The "## Regional Availability" table (Region | In-Region | Geo | Global), where the capture
 *   keeps it: each Region whose In-Region cell is a yes icon is the model id's in-Region
 *   deployment there (`bedrock-runtime`, `standard`, region = the Region code before its name in
 *   brackets); "Legacy (EOL: 2026-11-26)" is one too, with a lifecycle assertion for that Region:
 *   status `legacy`, end of life on that day. A no icon places nothing. The Geo and Global cells
 *   say which Regions send requests into the profiles the ID cells above name: each profile's
 *   fact carries them as `source_regions` (profileSourceRegions). The
 *   table lists every Region that offers the model in some form, so the card speaks for every AWS
 *   Region (AWS_REGIONS): a community record of the model in a Region the table leaves out, or
 *   marks no, is an unlisted offering. A Region cell or In-Region cell of another shape fails the
 *   parse.
 * - "Model lifecycle: Legacy" with "Model EOL date: March 30, 2027": a lifecycle assertion for
 *   the model id on bedrock-runtime (every Region and mode): status `legacy`, end of life on that
 *   day. Bedrock's per-Region lifecycle pages are more specific and win where both speak.
 *   "Legacy (certain regions)" names no Regions and states nothing model-wide; an "Active" card's
 *   "No sooner than" floor is not read (the card's Regions already say where it is offered); a
 *   Legacy card whose EOL date is not a day ("Legacy: July 7, 2026") is skipped by reason.
 */
import { group } from "../../lib/regex.js";
import type {
  CapabilityEntry,
  CapabilityName,
  DeploymentFact,
  LifecycleAssertion,
  ModelFact,
} from "../../schema/index.js";
import { parseCalendarDate } from "../dates.js";
import { declaredCapability, evidenceFor, parseFailure, SkipLog, tokenCount } from "../helpers.js";
import {
  AWS_REGIONS,
  BEDROCK,
  BEDROCK_GEOGRAPHIES,
  bedrockDeployment,
  isGovCloudRegion,
} from "../identity/index.js";
import { levelTwoSection, type MarkdownTable, markdownTables, plainCell } from "../markdown.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "amazon-bedrock";
const MODEL_ID = /^[a-z0-9-]+\.[a-z0-9.:-]+$/;

const INPUT: Readonly<Record<string, CapabilityName>> = {
  image: "vision",
  audio: "audio_input",
  speech: "audio_input",
  video: "video_input",
};
const OUTPUT: Readonly<Record<string, CapabilityName>> = {
  image: "image_output",
  speech: "audio_output",
};

/** "+ **Context window:** 1M tokens" bullets by lower-case label. */
function detailBullets(content: string): Map<string, string> {
  const bullets = new Map<string, string>();
  for (const m of content.matchAll(/^\+ \*\*([^*]+?):\*\*\s*(.*?)\s*$/gm))
    bullets.set(group(m, 1).trim().toLowerCase(), group(m, 2));
  return bullets;
}

/** A cell's yes / no icon: true, false, or null when it has neither or both. */
function iconOf(raw: string): boolean | null {
  const yes = /icon-yes\.png\)/.test(raw);
  const no = /icon-no\.png\)/.test(raw);
  return yes === no ? null : yes;
}

/** A modalities cell: its yes / no icon and the modality after it; null for an empty cell. */
function modalityCell(raw: string): { supported: boolean; modality: string } | null {
  const supported = iconOf(raw);
  const modality = raw
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .trim()
    .toLowerCase();
  if (modality === "" || supported === null) return null;
  return { supported, modality };
}

/**
 * The inference profile prefixes an id cell names: `us.<id>`<br />`eu.<id>` -> [us, eu];
 * "Not supported" / "N/A" / empty -> none; anything else is not read as a profile (null).
 */
function profilePrefixes(cell: string, modelId: string): string[] | null {
  const ids = cell
    .split(/<br\s*\/?>/i)
    .map((part) => plainCell(part).replace(/`/g, "").trim())
    .filter((part) => part !== "");
  if (ids.length === 0 || (ids.length === 1 && /^(?:not supported|n\/a)$/i.test(ids[0] ?? ""))) return [];
  const prefixes: string[] = [];
  for (const profileId of ids) {
    const dot = profileId.indexOf(".");
    const prefix = profileId.slice(0, dot);
    if (dot <= 0 || !BEDROCK_GEOGRAPHIES.includes(prefix) || profileId.slice(dot + 1) !== modelId)
      return null;
    prefixes.push(prefix);
  }
  return prefixes;
}

const REGION_CELL = /^([a-z]{2}(?:-gov)?-[a-z]+-\d+)(?:\s+\(.+\))?$/;
const LEGACY_CELL = /^Legacy \(EOL: (\d{4}-\d{2}-\d{2})\)$/;

/**
 * The "## Regional Availability" section's text for the bedrock-runtime endpoint: the whole
 * section, or where it says "Availability differs by endpoint", the part under "**Availability
 * using the `bedrock-runtime` endpoint**" (a `bedrock-mantle` table may follow); null without
 * the section.
 */
function runtimeAvailability(content: string): string | null {
  const start = content.search(/^## Regional Availability\s*$/m);
  if (start < 0) return null;
  const rest = content.slice(start).replace(/^## Regional Availability\s*$/m, "");
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  const labels = [...section.matchAll(/^\*\*Availability using the `([a-z-]+)` endpoint\*\*\s*$/gm)];
  if (labels.length === 0) return section;
  const at = labels.findIndex((m) => m[1] === BEDROCK.surfaces.runtime);
  if (at < 0) return "";
  const from = (labels[at]?.index ?? 0) + (labels[at]?.[0].length ?? 0);
  return section.slice(from, labels[at + 1]?.index ?? section.length);
}

/**
 * The Regional Availability table: its in-Region places (Region -> null when offered, or its EOL
 * day when Legacy) and the Regions whose Geo and whose Global cell is a yes icon.
 */
interface RegionalAvailability {
  inRegion: Map<string, string | null>;
  geo: string[];
  global: string[];
}

function regionalAvailability(input: ParserInput, title: string): RegionalAvailability | null {
  const section = runtimeAvailability(input.content);
  if (section === null) return null;
  const table = markdownTables(section).find(
    (t) => headerIs(t, 0, "region") && headerIs(t, 1, "in-region") && headerIs(t, 2, "geo"),
  );
  if (!table)
    throw parseFailure(
      input.source,
      `${title}: the Regional Availability section has no bedrock-runtime table`,
    );
  const places = new Map<string, string | null>();
  const geo: string[] = [];
  const global: string[] = [];
  for (const row of table.rows) {
    const region = REGION_CELL.exec(plainCell(row[0] ?? ""))?.[1];
    if (region === undefined)
      throw parseFailure(input.source, `${title}: Regional Availability row "${row[0]}" names no AWS Region`);
    const cell = row[1] ?? "";
    const icon = iconOf(cell);
    const legacy = LEGACY_CELL.exec(plainCell(cell));
    if (legacy) places.set(region, group(legacy, 1));
    else if (icon === true) places.set(region, null);
    else if (icon === null)
      throw parseFailure(
        input.source,
        `${title}: the In-Region cell of ${region} is neither a yes / no icon nor "Legacy (EOL: <day>)"`,
      );
    if (iconOf(row[2] ?? "") === true) geo.push(region);
    if (iconOf(row[3] ?? "") === true) global.push(region);
  }
  return { inRegion: places, geo, global };
}

/**
 * The Regions that send requests into a profile: the Global column's for `global`; for a Geo
 * profile, the Geo column's of its partition (GovCloud for `us-gov`, the commercial Regions for
 * the others). The card does not say which geography each Region's Geo cell sends to, so every
 * Geo profile of the partition gets them all: more Regions than its own, never fewer.
 */
function profileSourceRegions(availability: RegionalAvailability, prefix: string): string[] {
  if (prefix === BEDROCK.regions.global) return availability.global;
  const govCloud = prefix === BEDROCK.regions.usGov;
  return availability.geo.filter((region) => isGovCloudRegion(region) === govCloud);
}

/** Bedrock features of the Capabilities and Features section read as a catalog capability. */
const FEATURES: Readonly<Record<string, CapabilityName>> = {
  "structured outputs": "structured_output",
  "computer use": "computer_use",
  "client-side tool calling": "tool_calling",
};

/**
 * The "## Capabilities and Features" section's bedrock-runtime features: each read feature's
 * status by the column it stands in (Supported / Not Supported); null without the section.
 */
function runtimeFeatures(
  input: ParserInput,
  title: string,
): Partial<Record<CapabilityName, CapabilityEntry>> | null {
  const sectionLines = levelTwoSection(input.content, "Capabilities and Features");
  if (sectionLines === null) return null;
  const section = sectionLines.join("\n");
  const labels = [...section.matchAll(/^\*\*Features supported using `([a-z-]+)` endpoint\*\*\s*$/gm)];
  const at = labels.find((m) => m[1] === BEDROCK.surfaces.runtime);
  const next = labels.find((m) => (m.index ?? 0) > (at?.index ?? 0));
  const part = at ? section.slice(at.index ?? 0, next?.index ?? section.length) : "";
  const table = markdownTables(part).find(
    (t) => headerIs(t, 0, "supported") && headerIs(t, 1, "not supported"),
  );
  if (!table)
    throw parseFailure(
      input.source,
      `${title}: the Capabilities and Features section has no bedrock-runtime features table`,
    );
  const features: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  for (const row of table.rows)
    for (const [column, supported] of [
      [0, true],
      [1, false],
    ] as const)
      for (const item of (row[column] ?? "").split(/<br\s*\/?>/i)) {
        const name = plainCell(
          item.replace(/!\[[^\]]*\]\([^)]*\)/g, "").replace(/^\s*\+\s*/, ""),
        ).toLowerCase();
        const capability = FEATURES[name];
        if (capability === undefined) continue;
        const icon = iconOf(item);
        if (icon !== null && icon !== supported)
          throw parseFailure(
            input.source,
            `${title}: the feature "${name}" stands in the ${supported ? "Supported" : "Not Supported"} column with another icon`,
          );
        features[capability] = declaredCapability(supported ? "supported" : "unsupported");
      }
  return features;
}

function headerIs(table: MarkdownTable, index: number, label: string): boolean {
  return plainCell(table.headers[index] ?? "").toLowerCase() === label;
}

export const parseBedrockModelCard: Parser = (input) => {
  const title = /^# (.+)$/m.exec(input.content)?.[1]?.trim() ?? "";
  if (title === "") throw parseFailure(input.source, 'no "# <model>" title');
  const bullets = detailBullets(input.content);
  const limit = (label: string): number => {
    const value = tokenCount(plainCell(bullets.get(label) ?? ""));
    if (value === null)
      throw parseFailure(input.source, `${title}: no "${label}" token count in the model details`);
    return value;
  };
  const contextTokens = limit("context window");
  const outputTokens = bullets.has("max output tokens") ? limit("max output tokens") : undefined;

  const capabilities: Partial<Record<CapabilityName, CapabilityEntry>> = {};
  const reasoning = plainCell(bullets.get("reasoning") ?? "");
  if (/^supported\b/i.test(reasoning)) capabilities.reasoning = declaredCapability("supported");
  else if (/^not supported\b/i.test(reasoning)) capabilities.reasoning = declaredCapability("unsupported");

  const tables = markdownTables(input.content);
  const modalities = tables.find(
    (t) => headerIs(t, 0, "input modalities") && headerIs(t, 1, "output modalities"),
  );
  if (!modalities) throw parseFailure(input.source, `${title}: no Input / Output Modalities table`);
  for (const row of modalities.rows)
    for (const [column, names] of [
      [0, INPUT],
      [1, OUTPUT],
    ] as const) {
      const cell = modalityCell(row[column] ?? "");
      const name = cell ? names[cell.modality] : undefined;
      // Two rows can name one capability (input Audio and Speech): a supported row wins.
      if (cell && name && (cell.supported || capabilities[name] === undefined))
        capabilities[name] = declaredCapability(cell.supported ? "supported" : "unsupported");
    }

  Object.assign(capabilities, runtimeFeatures(input, title));

  const access = tables.find((t) => headerIs(t, 0, "endpoint") && headerIs(t, 1, "model id"));
  const runtime = access?.rows.find((r) => plainCell(r[0] ?? "") === BEDROCK.surfaces.runtime);
  const id = runtime ? plainCell(runtime[1] ?? "") : "";
  if (!MODEL_ID.test(id))
    throw parseFailure(
      input.source,
      `${title}: the Programmatic Access table gives no bedrock-runtime model ID (got "${id}")`,
    );

  // the Geo / Global inference ID cells of the bedrock-runtime row: its inference profiles,
  // each with the Regions the table's Geo or Global column sends into it
  const evidence = evidenceFor(input.source, input.observedAt);
  const deployments: DeploymentFact[] = [];
  const availability = regionalAvailability(input, title);
  for (const label of ["Geo inference ID", "Global inference ID"]) {
    const column = access?.headers.findIndex((h) => plainCell(h).toLowerCase() === label.toLowerCase()) ?? -1;
    if (column < 0 || !runtime) continue;
    const prefixes = profilePrefixes(runtime[column] ?? "", id);
    if (prefixes === null)
      throw parseFailure(
        input.source,
        `${title}: the ${label} cell "${runtime[column]}" names no inference profile of ${id}`,
      );
    for (const prefix of prefixes) {
      const sources = availability ? profileSourceRegions(availability, prefix) : [];
      deployments.push({
        ...bedrockDeployment(id, prefix),
        display_name: title,
        ...(sources.length > 0 ? { source_regions: sources } : {}),
        evidence,
      });
    }
  }

  // the model legacy until its end of life on that day, in one Region or (no Region) in all
  const lifecycle: LifecycleAssertion[] = [];
  const legacyUntil = (date: string, region?: string) =>
    lifecycle.push({
      scope: "deployment",
      provider_id: PROVIDER_ID,
      target: {
        provider_model_id: id,
        ...(region !== undefined ? { region } : {}),
        api_surface: BEDROCK.surfaces.runtime,
      },
      status: "legacy",
      end_of_life: { state: "scheduled", date, precision: "day", date_type: "on", evidence: [evidence] },
      evidence,
    });

  // the Regional Availability table: in-Region deployments (and a Legacy Region's end of life)
  const regions = availability?.inRegion;
  for (const [region, endOfLife] of regions ?? []) {
    deployments.push({ ...bedrockDeployment(id, region), display_name: title, evidence });
    if (endOfLife !== null) legacyUntil(endOfLife, region);
  }

  // "Model lifecycle: Legacy" with a "Model EOL date" day: the model's end of life on Bedrock
  const skipped = new SkipLog();
  if (plainCell(bullets.get("model lifecycle") ?? "") === "Legacy") {
    const text = plainCell(bullets.get("model eol date") ?? "");
    const eol = parseCalendarDate(text);
    if (eol?.precision === "day") legacyUntil(eol.date);
    else skipped.add("a Legacy card whose Model EOL date is not a day", `${title}: "${text}"`);
  }

  const launched = parseCalendarDate(plainCell(bullets.get("model launch date") ?? ""));
  const fact: ModelFact = {
    provider_id: PROVIDER_ID,
    provider_model_id: id,
    context_tokens: contextTokens,
    ...(outputTokens !== undefined ? { max_output_tokens: outputTokens } : {}),
    capabilities,
    ...(launched?.precision === "day" ? { released_at: launched.date } : {}),
    evidence,
  };
  // the two cells name every profile of the model: the card speaks for every geography, and
  // with its Regional Availability table for every AWS Region too
  const covers = [...BEDROCK_GEOGRAPHIES, ...(regions ? AWS_REGIONS : [])].map((region) => ({
    api_surface: BEDROCK.surfaces.runtime,
    mode: BEDROCK.modes.standard,
    region,
  }));
  return {
    deployments,
    lifecycle,
    model_facts: [fact],
    availability_list: "per_model",
    availability_covers: covers,
    skipped: skipped.toArray(),
  };
};

export const parsers: Record<string, Parser> = {
  "amazon-bedrock-model-card": parseBedrockModelCard,
};
