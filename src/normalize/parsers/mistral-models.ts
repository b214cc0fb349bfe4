/**
 * Mistral official source: the model cards behind docs.mistral.ai/models, one TypeScript data
 * file per model in Mistral's docs repository (mistralai/platform-docs-public,
 * src/schema/models/models/*.ts), captured as one JSON bundle `{"files": [{name, sha, content}]}`
 * (src/collect/bundle.ts). Each file is read without executing it (ts-literal.ts) and checked
 * against the card shape below; a card whose shape is not understood fails the source.
 *
 * - Deployments: one per API model name on Mistral's API (`api`, standard, global). The first
 *   name of a card's `identifiers.apiNames` is the model's own name; the others (`-latest`, and
 *   undated names such as `mistral-embed` or `mistral-medium-3`) are aliases of it, returned by
 *   `mistralAliasTable` and used to resolve replacements. They are not extra deployments: the
 *   parser declares them (`aliases`, with the card's evidence), and the release merge makes a
 *   community fact named by one a fact about the deployment it stands for
 *   (src/release/declared-aliases.ts). A card with no API name (open-weights only) gives no
 *   deployment. When several cards claim the same name (e.g. `open-mistral-7b` on Mistral 7B
 *   v0.2 and v0.3), the newest release wins.
 * - Rate card: USD per million tokens only (`denominator: '/M Tokens'`): input (unlabelled or
 *   "Input"), cached input ("Cached input"), output. Per-minute, per-page and per-character
 *   prices have no place in the rate-card schema and are counted as skipped by reason. EUR
 *   prices are not used (the catalog is in USD).
 * - Limits: `contextLength` / `outputTokenLimit` ("128k" = 128,000, "1M" = 1,000,000: the card's
 *   printed value; "--" and null are unknown).
 * - Capabilities (supported unless said): features `function-calling` -> tool_calling,
 *   `structured-outputs` -> structured_output, `document-qna` -> pdf_input, `connectors` (built-in
 *   tools, web search among them, through the Agents API only) -> web_search `conditional`,
 *   `batching` (Mistral's Batch API) -> batch, `transcriptions` -> audio_input, `tts` ->
 *   audio_output; input modality `image` / `vision` -> vision, `audio` -> audio_input, `document`
 *   -> pdf_input; output modality `audio` -> audio_output, `reasoning` -> reasoning; a
 *   cached-input price -> prompt_caching. The other features (chat-completions, fim, prefix,
 *   predicted-outputs, embeddings, moderations, ocr, ...) have no catalog capability name; an
 *   absent capability is unknown, not unsupported.
 * - Status as declared: GA (`Active` in the cards before August 2026) -> available (legacy if `legacy: true`), PublicPreview -> preview,
 *   Deprecated -> deprecated, Retired -> retired. Lifecycle: `metadata.deprecationDate`,
 *   `retirementDate` (ISO or "April 30, 2026"; "" = not given) and `replacement` (a model card's
 *   display name, resolved to that card's API name). Dates are reported as declared, never
 *   compared with the capture time.
 * - `releaseDate` (a whole day) -> a model fact with released_at for the card's API model name.
 */
import { z } from "zod";
import type {
  Capabilities,
  DeploymentFact,
  LifecycleAssertion,
  LifecycleStatus,
  ModelFact,
  ProviderAlias,
  RateCard,
} from "../../schema/index.js";
import { parseCalendarDate } from "../dates.js";
import {
  evidenceFor,
  jsonDocument,
  parseFailure,
  requireSome,
  SkipLog,
  sourceMilestone,
  tokenRateCard,
  unknownMilestone,
  usdToMicro,
} from "../helpers.js";
import { MISTRAL, mistralDeployment } from "../identity/index.js";
import { readDefaultExport, TsFunction, TsNumber } from "../ts-literal.js";
import type { Parser, ParserInput } from "../types.js";

const PROVIDER_ID = "mistral";
const API_SURFACE = MISTRAL.surfaces.api;

const Num = z.instanceof(TsNumber);
const PriceRow = z.looseObject({
  type: z.enum(["range", "flat"]),
  price: Num,
  priceEur: Num.optional(),
  denominator: z.string(),
  label: z.string().optional(),
});
type PriceRow = z.infer<typeof PriceRow>;
const Pricing = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("custom"),
    free: z.boolean().optional(),
    input: z.array(PriceRow),
    output: z.array(PriceRow),
  }),
  z.looseObject({
    type: z.literal("flat"),
    free: z.boolean(),
    price: Num,
    priceEur: Num.optional(),
    denominator: z.string(),
  }),
  z.looseObject({
    type: z.literal("range"),
    free: z.boolean(),
    input: Num,
    output: Num,
    denominator: z.string(),
  }),
]);
const OptionalText = z.string().nullable().optional();
/** The fields of a card this parser reads; the others (ratings, avatar, weights, ...) are free. */
export const MistralCard = z.looseObject({
  name: z.string().min(1),
  describe: z.instanceof(TsFunction).optional(),
  slug: z.string().min(1),
  releaseDate: z.string().optional(),
  status: z.enum(["PublicPreview", "GA", "Active", "Deprecated", "Retired"]),
  legacy: z.boolean().optional(),
  contextLength: OptionalText,
  outputTokenLimit: OptionalText,
  pricing: Pricing,
  identifiers: z.looseObject({
    apiNames: z.array(z.string().min(1)),
    aliases: z.array(z.string()).optional(),
  }),
  capabilities: z.looseObject({
    input: z.array(z.string()),
    output: z.array(z.string()),
    features: z.array(z.string()),
  }),
  metadata: z
    .looseObject({
      deprecationDate: z.string().optional(),
      retirementDate: z.string().optional(),
      replacement: z.string().optional(),
    })
    .optional(),
});
export type MistralCard = z.infer<typeof MistralCard> & { file: string };

const Bundle = z.strictObject({
  files: z.array(z.strictObject({ name: z.string(), sha: z.string().nullable(), content: z.string() })),
});

/** Every card of the bundle, read and checked; a file that does not read as a card throws parse_failed. */
export function mistralCards(input: ParserInput): MistralCard[] {
  const bundle = jsonDocument(input, Bundle, "a bundle of model files");
  requireSome(input.source, bundle.files, "model card files");
  return bundle.files.map((file) => {
    let literal: unknown;
    try {
      literal = readDefaultExport(file.content);
    } catch (error) {
      throw parseFailure(input.source, `${file.name}: ${(error as Error).message}`);
    }
    const card = MistralCard.safeParse(literal);
    if (!card.success) {
      const issue = card.error.issues[0];
      throw parseFailure(
        input.source,
        `${file.name}: not a model card (${issue?.path.join(".")}: ${issue?.message})`,
      );
    }
    return { ...card.data, file: file.name };
  });
}

/** A card's release date as YYYY-MM-DD ("July 30, 2025" in the cards before August 2026), else as written. */
function releaseDay(card: MistralCard): string {
  const parsed = card.releaseDate ? parseCalendarDate(card.releaseDate) : null;
  return parsed?.date ?? card.releaseDate ?? "";
}

/** Newest release first, then file name: who owns a name several cards claim. */
function byRecency(a: MistralCard, b: MistralCard): number {
  const ra = releaseDay(a);
  const rb = releaseDay(b);
  return ra !== rb ? (ra < rb ? 1 : -1) : a.file < b.file ? -1 : 1;
}

export interface MistralAliasTable {
  /** API model name -> the card that owns it (newest release among its claimants). */
  owners: Map<string, MistralCard>;
  /** Alias name -> the API model name it stands for (`codestral-latest` -> `codestral-2508`). */
  aliases: Map<string, string>;
}

/** Which card owns each API name, and which names are aliases of another. */
export function mistralAliasTable(cards: readonly MistralCard[]): MistralAliasTable {
  const owners = new Map<string, MistralCard>();
  const aliases = new Map<string, string>();
  for (const card of [...cards].sort(byRecency)) {
    const [own, ...others] = card.identifiers.apiNames;
    if (own === undefined) continue;
    if (!owners.has(own) && !aliases.has(own)) owners.set(own, card);
    for (const alias of [...others, ...(card.identifiers.aliases ?? [])])
      if (!owners.has(alias) && !aliases.has(alias)) aliases.set(alias, own);
  }
  return { owners, aliases };
}

/** "128k" -> 128000, "1M" -> 1000000; "--", "" and null are unknown. */
export function mistralTokenCount(input: ParserInput, text: string | null | undefined): number | null {
  if (text === null || text === undefined || text.trim() === "" || text.trim() === "--") return null;
  const m = /^(\d+(?:\.\d+)?)\s*([kKmM])?$/.exec(text.trim());
  if (!m) throw parseFailure(input.source, `"${text}" is not a token count`);
  const scale = m[2] === undefined ? 1 : m[2].toLowerCase() === "m" ? 1_000_000 : 1000;
  return Math.round(Number(m[1]) * scale);
}

function priceRows(card: MistralCard): { side: "input" | "output"; row: PriceRow }[] {
  const p = card.pricing;
  if (p.type === "custom")
    return [
      ...p.input.map((row) => ({ side: "input" as const, row })),
      ...p.output.map((row) => ({ side: "output" as const, row })),
    ];
  if (p.type === "flat")
    return [{ side: "input", row: { type: "flat", price: p.price, denominator: p.denominator } }];
  return [
    { side: "input", row: { type: "range", price: p.input, denominator: p.denominator } },
    { side: "output", row: { type: "range", price: p.output, denominator: p.denominator } },
  ];
}

function money(input: ParserInput, card: MistralCard, price: TsNumber): number {
  const micro = usdToMicro(price.raw);
  if (micro === null)
    throw parseFailure(input.source, `${card.file}: price ${price.raw} is not a dollar amount`);
  return micro;
}

/** The token rate card of a card, or null when it states no per-million-token input price. */
function rateCard(input: ParserInput, card: MistralCard, skipped: SkipLog): RateCard | null {
  let inputPrice: number | null = null;
  let cached: number | null = null;
  let output: number | null = null;
  const set = (current: number | null, value: number, what: string): number => {
    if (current !== null && current !== value)
      throw parseFailure(input.source, `${card.file}: two different ${what} prices per million tokens`);
    return value;
  };
  for (const { side, row } of priceRows(card)) {
    if (row.denominator !== "/M Tokens") {
      skipped.add(`price per ${row.denominator.replace(/^\//, "")} (not a token price)`, card.file);
      continue;
    }
    const label = (row.label ?? "").toLowerCase();
    const value = money(input, card, row.price);
    if (side === "output") {
      if (label !== "" && label !== "output")
        throw parseFailure(input.source, `${card.file}: unknown output price label "${row.label}"`);
      output = set(output, value, "output");
    } else if (label === "cached input") cached = set(cached, value, "cached input");
    else if (label === "" || label === "input") inputPrice = set(inputPrice, value, "input");
    else throw parseFailure(input.source, `${card.file}: unknown input price label "${row.label}"`);
  }
  if (inputPrice === null) return null;
  return tokenRateCard(input.source, input.observedAt, { input: inputPrice, cachedInput: cached, output });
}

const FEATURE_CAPABILITY: Record<string, [keyof Capabilities, "supported" | "conditional"]> = {
  "function-calling": ["tool_calling", "supported"],
  "structured-outputs": ["structured_output", "supported"],
  "document-qna": ["pdf_input", "supported"],
  connectors: ["web_search", "conditional"],
  batching: ["batch", "supported"],
  transcriptions: ["audio_input", "supported"],
  tts: ["audio_output", "supported"],
};
const INPUT_CAPABILITY: Record<string, keyof Capabilities> = {
  image: "vision",
  vision: "vision",
  audio: "audio_input",
  document: "pdf_input",
};
const OUTPUT_CAPABILITY: Record<string, keyof Capabilities> = {
  audio: "audio_output",
  reasoning: "reasoning",
};

function capabilities(card: MistralCard, cachedPrice: boolean): Capabilities {
  const out: Capabilities = {};
  const say = (name: keyof Capabilities, status: "supported" | "conditional") => {
    if (out[name]?.status !== "supported") out[name] = { status };
  };
  for (const feature of card.capabilities.features) {
    const mapped = FEATURE_CAPABILITY[feature];
    if (mapped) say(mapped[0], mapped[1]);
  }
  for (const modality of card.capabilities.input) {
    const name = INPUT_CAPABILITY[modality];
    if (name) say(name, "supported");
  }
  for (const modality of card.capabilities.output) {
    const name = OUTPUT_CAPABILITY[modality];
    if (name) say(name, "supported");
  }
  if (cachedPrice) say("prompt_caching", "supported");
  return out;
}

function declaredStatus(card: MistralCard): LifecycleStatus {
  switch (card.status) {
    case "GA":
    case "Active":
      return card.legacy ? "legacy" : "available";
    case "PublicPreview":
      return "preview";
    case "Deprecated":
      return "deprecated";
    case "Retired":
      return "retired";
  }
}

export const parseMistralModelCards: Parser = (input) => {
  const evidence = evidenceFor(input.source, input.observedAt);
  const skipped = new SkipLog();
  const cards = mistralCards(input);
  const { owners, aliases } = mistralAliasTable(cards);
  const ownName = new Map<string, string>();
  for (const card of cards) {
    const own = card.identifiers.apiNames[0];
    if (own !== undefined && owners.get(own) === card) ownName.set(card.name, own);
  }
  const deployments: DeploymentFact[] = [];
  const lifecycle: LifecycleAssertion[] = [];
  const modelFacts: ModelFact[] = [];

  for (const card of cards) {
    const own = card.identifiers.apiNames[0];
    if (own === undefined) {
      skipped.add("no API model name (weights only, not served by the API)", card.file);
      continue;
    }
    if (owners.get(own) !== card) {
      skipped.add("API model name owned by a newer card", `${card.file} (${own})`);
      continue;
    }
    const card_ = rateCard(input, card, skipped);
    const context = mistralTokenCount(input, card.contextLength);
    const maxOutput = mistralTokenCount(input, card.outputTokenLimit);
    const status = declaredStatus(card);
    deployments.push({
      ...mistralDeployment(own),
      display_name: card.name,
      ...(context !== null ? { context_tokens: context } : {}),
      ...(maxOutput !== null ? { max_output_tokens: maxOutput } : {}),
      capabilities: capabilities(card, (card_?.cached_input_micro_usd ?? null) !== null),
      ...(card_ ? { rate_card: card_ } : {}),
      status,
      evidence,
    });
    if (!card_) skipped.add("no price per million tokens (no rate card)", card.file);
    const released = card.releaseDate === undefined ? null : parseCalendarDate(card.releaseDate);
    if (released?.precision === "day")
      modelFacts.push({
        provider_id: PROVIDER_ID,
        provider_model_id: own,
        released_at: released.date,
        evidence,
      });

    const meta = card.metadata ?? {};
    const date = (text: string | undefined, what: string) =>
      text === undefined || text.trim() === ""
        ? unknownMilestone()
        : sourceMilestone(input.source, text, [evidence], `${card.file} ${what}`);
    const replacements: string[] = [];
    if (meta.replacement !== undefined) {
      const target = ownName.get(meta.replacement) ?? aliases.get(meta.replacement) ?? null;
      if (target === null)
        skipped.add("replacement names no model card with an API name", `${card.file}: ${meta.replacement}`);
      else if (target !== own) replacements.push(target);
    }
    lifecycle.push({
      scope: "deployment",
      provider_id: PROVIDER_ID,
      target: { provider_model_id: own, api_surface: API_SURFACE },
      status,
      deprecation: date(meta.deprecationDate, "deprecationDate"),
      end_of_life: date(meta.retirementDate, "retirementDate"),
      ...(replacements.length > 0 ? { replacements } : {}),
      evidence,
    });
  }
  const declared: ProviderAlias[] = [];
  for (const [alias, target] of aliases) {
    if (owners.has(target))
      declared.push({ provider_id: PROVIDER_ID, alias, provider_model_id: target, evidence });
    else skipped.add("alias of a name that is itself an alias (not declared)", `${alias} -> ${target}`);
  }
  requireSome(input.source, deployments, "model cards with an API model name");
  return {
    deployments,
    lifecycle,
    ...(modelFacts.length > 0 ? { model_facts: modelFacts } : {}),
    ...(declared.length > 0 ? { aliases: declared } : {}),
    availability_list: "catalog",
    skipped: skipped.toArray(),
  };
};

export const parsers: Record<string, Parser> = {
  "mistral-model-cards": parseMistralModelCards,
};
