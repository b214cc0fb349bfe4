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
 */
import { group } from "../../lib/regex.js";
import type { CapabilityEntry, CapabilityName, DeploymentFact, ModelFact } from "../../schema/index.js";
import { parseCalendarDate } from "../dates.js";
import { declaredCapability, evidenceFor, parseFailure, tokenCount } from "../helpers.js";
import { BEDROCK, BEDROCK_GEOGRAPHIES, bedrockDeployment } from "../identity/index.js";
import { type MarkdownTable, markdownTables, plainCell } from "../markdown.js";
import type { Parser } from "../types.js";

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

/** A modalities cell: its yes / no icon and the modality after it; null for an empty cell. */
function modalityCell(raw: string): { supported: boolean; modality: string } | null {
  const yes = /icon-yes\.png\)/.test(raw);
  const no = /icon-no\.png\)/.test(raw);
  const modality = raw
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .trim()
    .toLowerCase();
  if (modality === "" || yes === no) return null;
  return { supported: yes, modality };
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

  const access = tables.find((t) => headerIs(t, 0, "endpoint") && headerIs(t, 1, "model id"));
  const runtime = access?.rows.find((r) => plainCell(r[0] ?? "") === BEDROCK.surfaces.runtime);
  const id = runtime ? plainCell(runtime[1] ?? "") : "";
  if (!MODEL_ID.test(id))
    throw parseFailure(
      input.source,
      `${title}: the Programmatic Access table gives no bedrock-runtime model ID (got "${id}")`,
    );

  // the Geo / Global inference ID cells of the bedrock-runtime row: its inference profiles
  const evidence = evidenceFor(input.source, input.observedAt);
  const deployments: DeploymentFact[] = [];
  for (const label of ["Geo inference ID", "Global inference ID"]) {
    const column = access?.headers.findIndex((h) => plainCell(h).toLowerCase() === label.toLowerCase()) ?? -1;
    if (column < 0 || !runtime) continue;
    const prefixes = profilePrefixes(runtime[column] ?? "", id);
    if (prefixes === null)
      throw parseFailure(
        input.source,
        `${title}: the ${label} cell "${runtime[column]}" names no inference profile of ${id}`,
      );
    for (const prefix of prefixes)
      deployments.push({ ...bedrockDeployment(id, prefix), display_name: title, evidence });
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
  // the two cells name every profile of the model: the card speaks for every geography
  const covers = BEDROCK_GEOGRAPHIES.map((region) => ({
    api_surface: BEDROCK.surfaces.runtime,
    mode: BEDROCK.modes.standard,
    region,
  }));
  return {
    deployments,
    lifecycle: [],
    model_facts: [fact],
    availability_list: "per_model",
    availability_covers: covers,
    skipped: [],
  };
};

export const parsers: Record<string, Parser> = {
  "amazon-bedrock-model-card": parseBedrockModelCard,
};
