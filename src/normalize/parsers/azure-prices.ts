import type { ParseOutput, TokenPriceComponent } from "../../schema/index.js";
import { parseFailure, requireSome, SkipLog } from "../helpers.js";
import {
  AZURE,
  AZURE_SCOPES,
  type AzureScope,
  azureDataZone,
  azureDeployment,
  azureMode,
} from "../identity/index.js";
import { PartPrices, type PricedEntry, perUnitToMicroPerMillion, pricedDeployments } from "../price-parts.js";
import type { Parser, ParserInput } from "../types.js";

// ---------------------------------------------------------------------------------------
// Meter vocabulary (reviewed)

/**
 * Reviewed: meter-name model prefixes (lowercase, "-" read as a space) -> the Azure model name
 * and its versions in the catalog (the Azure docs' model tables). A meter's 4-digit hint picks
 * the version with that month and day; without a hint the model must have exactly one version.
 */
export const METER_MODELS: Readonly<Record<string, { model: string; versions: readonly string[] }>> = {
  "gpt 4o": { model: "gpt-4o", versions: ["2024-05-13", "2024-08-06", "2024-11-20"] },
  "gpt 4o mini": { model: "gpt-4o-mini", versions: ["2024-07-18"] },
  gpt4omini: { model: "gpt-4o-mini", versions: ["2024-07-18"] },
  "gpt 4.1": { model: "gpt-4.1", versions: ["2025-04-14"] },
  "gpt 4.1 mini": { model: "gpt-4.1-mini", versions: ["2025-04-14"] },
  "gpt 4.1 nano": { model: "gpt-4.1-nano", versions: ["2025-04-14"] },
  o1: { model: "o1", versions: ["2024-12-17"] },
  "o1 mini": { model: "o1-mini", versions: ["2024-09-12"] },
  o3: { model: "o3", versions: ["2025-04-16"] },
  "o3 mini": { model: "o3-mini", versions: ["2025-01-31"] },
  "o3 pro": { model: "o3-pro", versions: ["2025-06-10"] },
  "o4 mini": { model: "o4-mini", versions: ["2025-04-16"] },
  "gpt 5": { model: "gpt-5", versions: ["2025-08-07"] },
  "gpt 5 mini": { model: "gpt-5-mini", versions: ["2025-08-07"] },
  "gpt 5 nano": { model: "gpt-5-nano", versions: ["2025-08-07"] },
  "gpt 5 chat": { model: "gpt-5-chat", versions: ["2025-08-07", "2025-10-03"] },
  "gpt 5 pro": { model: "gpt-5-pro", versions: ["2025-10-06"] },
  "gpt 5.1": { model: "gpt-5.1", versions: ["2025-11-13"] },
  "gpt 5.1 chat": { model: "gpt-5.1-chat", versions: ["2025-11-13"] },
  "gpt 5.2": { model: "gpt-5.2", versions: ["2025-12-11"] },
  "5.2": { model: "gpt-5.2", versions: ["2025-12-11"] },
  "gpt 5.2 chat": { model: "gpt-5.2-chat", versions: ["2025-12-11"] },
  "5.2 chat": { model: "gpt-5.2-chat", versions: ["2025-12-11"] },
};

/** Reviewed qualifier words of token meters. */
const DIRECTION: Readonly<Record<string, "input" | "output">> = {
  inp: "input",
  input: "input",
  inpt: "input",
  outp: "output",
  output: "output",
  outpt: "output",
  opt: "output",
  out: "output",
};
const CACHED = new Set(["cached", "cchd", "cd"]);
const DEPLOYMENT_TYPE: Readonly<Record<string, AzureScope>> = {
  glbl: AZURE_SCOPES.global,
  global: AZURE_SCOPES.global,
  gl: AZURE_SCOPES.global,
  datazone: AZURE_SCOPES.dataZone,
  dzone: AZURE_SCOPES.dataZone,
  dz: AZURE_SCOPES.dataZone,
  dzn: AZURE_SCOPES.dataZone,
  regnl: AZURE_SCOPES.regional,
  regional: AZURE_SCOPES.regional,
  regn: AZURE_SCOPES.regional,
};

/** The part a meter prices: Azure publishes meters for the token components only. */
export type MeterPart = TokenPriceComponent;

export type MeterReading =
  | {
      ok: true;
      model: string;
      version: string;
      part: MeterPart;
      type: AzureScope;
      batch: boolean;
    }
  | { ok: false; reason: string };

/** Reads a meter name with the reviewed vocabulary. */
export function readMeter(meterName: string): MeterReading {
  const words = meterName
    .toLowerCase()
    .replace(/-/g, " ")
    .replace(/\bdata ?zone\b/g, "datazone")
    .trim()
    .split(/\s+/);
  if (words.at(-1) !== "tokens") return { ok: false, reason: "not a token meter" };
  words.pop();
  if (words.at(-1) === "1m" || words.at(-1) === "1k") words.pop();
  let prefixLength = 0;
  for (let n = words.length; n > 0; n--)
    if (Object.hasOwn(METER_MODELS, words.slice(0, n).join(" "))) {
      prefixLength = n;
      break;
    }
  if (prefixLength === 0)
    return { ok: false, reason: "model not in the reviewed meter table (METER_MODELS)" };
  const entry = METER_MODELS[words.slice(0, prefixLength).join(" ")] as (typeof METER_MODELS)[string];
  let hint: string | null = null;
  let batch = false;
  let cached = false;
  let direction: "input" | "output" | null = null;
  let type: AzureScope | null = null;
  for (const word of words.slice(prefixLength)) {
    if (/^\d{4}$/.test(word) && hint === null) hint = word;
    else if (/^batch$/.test(word) && !batch) batch = true;
    else if (CACHED.has(word) && !cached) cached = true;
    else if (DIRECTION[word] && direction === null) direction = DIRECTION[word];
    else if (DEPLOYMENT_TYPE[word] && type === null) type = DEPLOYMENT_TYPE[word];
    else
      return {
        ok: false,
        reason:
          "meter qualifier outside the reviewed vocabulary (realtime, audio, fine-tuning, long context...)",
      };
  }
  if (direction === null || type === null)
    return { ok: false, reason: "meter names no direction or no deployment type" };
  if (cached && direction === "output")
    return { ok: false, reason: "cached output meter (not a price part)" };
  if (batch && type === "regional")
    return { ok: false, reason: "regional batch meter (no such deployment type)" };
  const versions =
    hint === null ? entry.versions : entry.versions.filter((v) => v.slice(5).replace("-", "") === hint);
  const [version] = versions;
  if (versions.length !== 1 || version === undefined)
    return {
      ok: false,
      reason:
        hint === null
          ? "model version ambiguous (no version in the meter, several in the catalog)"
          : "model version of the meter not in the reviewed table",
    };
  return {
    ok: true,
    model: entry.model,
    version,
    part: cached ? "cached_input" : direction,
    type,
    batch,
  };
}

// ---------------------------------------------------------------------------------------
// Rows of either shape -> deployments

/** One price of one meter in one or more Azure regions. */
interface PriceRow {
  meterName: string;
  /** The price as decimal text, exactly as the document's number prints. */
  price: string;
  unit: string;
  regions: string[];
}

const AZURE_REGION = /^[a-z]+[0-9]*$/;

/** A JSON number or numeric string as decimal text; null when it is not a non-negative amount. */
function decimalText(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) {
    const text = String(value);
    return /e/i.test(text) ? null : text;
  }
  if (typeof value === "string" && /^\d+(?:\.\d+)?$/.test(value)) return value;
  return null;
}

function priceRows(input: ParserInput, rows: PriceRow[], skipped: SkipLog, counted: number): ParseOutput {
  const { source } = input;
  const pending = new Map<string, PricedEntry>();
  let priced = 0;
  for (const row of rows) {
    const meter = readMeter(row.meterName);
    if (!meter.ok) {
      skipped.add(meter.reason, row.meterName);
      continue;
    }
    const unitTokens = row.unit === "1K" ? 1000 : row.unit === "1M" ? 1_000_000 : null;
    if (unitTokens === null) {
      skipped.add(`unit "${row.unit}" is not 1K or 1M tokens`, row.meterName);
      continue;
    }
    const micro = perUnitToMicroPerMillion(row.price, unitTokens);
    if (micro === null) {
      skipped.add("price finer than 1 micro-USD per million tokens, or not an amount", row.meterName);
      continue;
    }
    const mode = azureMode(meter.type, meter.batch);
    const regions = new Set<string>();
    if (meter.type === AZURE_SCOPES.global) regions.add(AZURE.regions.global);
    else
      for (const azureRegion of row.regions) {
        if (!AZURE_REGION.test(azureRegion)) {
          skipped.add("not an Azure region name", `${row.meterName} @ ${azureRegion}`);
          continue;
        }
        if (meter.type === AZURE_SCOPES.regional) regions.add(azureRegion);
        else {
          const zone = azureDataZone(azureRegion);
          if (zone) regions.add(zone);
          else skipped.add("region in no known data zone", `${row.meterName} @ ${azureRegion}`);
        }
      }
    if (regions.size === 0) {
      if (row.regions.length === 0) skipped.add("no region charges the meter", row.meterName);
      continue;
    }
    priced++;
    for (const region of regions) {
      const identity = azureDeployment(meter.model, meter.version, mode, region);
      let entry = pending.get(identity.id);
      if (!entry) {
        entry = {
          fact: { ...identity, display_name: `${meter.model} ${meter.version}` },
          prices: new PartPrices(),
        };
        pending.set(identity.id, entry);
      }
      entry.prices.add(meter.part, micro);
    }
  }
  const deployments = pricedDeployments(pending.values(), input, skipped, (entry) =>
    skipped.add("deployment has no single input price (a rate card needs one)", entry.fact.id),
  );
  if (counted === 0) throw parseFailure(source, "the document has no price items");
  requireSome(source, deployments, `priced token meters (${priced} of ${counted} rows mapped)`);
  return { deployments, lifecycle: [], skipped: skipped.toArray() };
}

function parseJson(input: ParserInput): Record<string, unknown> {
  let document: unknown;
  try {
    document = JSON.parse(input.content);
  } catch (error) {
    throw parseFailure(input.source, `not valid JSON (${(error as Error).message})`);
  }
  if (document === null || typeof document !== "object" || Array.isArray(document))
    throw parseFailure(input.source, "the document is not a JSON object");
  return document as Record<string, unknown>;
}

function itemsOf(
  input: ParserInput,
  document: Record<string, unknown>,
  key: string,
): Record<string, unknown>[] {
  const items = document[key];
  if (!Array.isArray(items)) throw parseFailure(input.source, `no "${key}" array`);
  return items.map((item, i) => {
    if (
      item === null ||
      typeof item !== "object" ||
      typeof (item as { meterName?: unknown }).meterName !== "string"
    )
      throw parseFailure(input.source, `${key}[${i}] is not a price item with a meterName`);
    return item as Record<string, unknown>;
  });
}

/** An item's meter name: every item of either document names its meter. */
function meterNameOf(input: ParserInput, item: Record<string, unknown>): string {
  const name = item["meterName"];
  if (typeof name !== "string")
    throw parseFailure(input.source, `an item has no meterName (${JSON.stringify(item)})`);
  return name;
}

/** The Retail Prices API's own response: one item per meter and region. */
function parseRetailPrices(input: ParserInput): ParseOutput {
  const items = itemsOf(input, parseJson(input), "Items");
  const skipped = new SkipLog();
  const rows: PriceRow[] = [];
  for (const item of items) {
    const meterName = meterNameOf(input, item);
    if (item["type"] !== "Consumption") {
      skipped.add(
        `price type "${String(item["type"])}" (only Consumption is a pay-as-you-go price)`,
        meterName,
      );
      continue;
    }
    if (item["currencyCode"] !== "USD") {
      skipped.add("not a USD price", meterName);
      continue;
    }
    if ((item["tierMinimumUnits"] ?? 0) !== 0) {
      skipped.add("a higher usage tier (tierMinimumUnits > 0)", meterName);
      continue;
    }
    const price = decimalText(item["retailPrice"]);
    if (price === null) {
      skipped.add("price finer than 1 micro-USD per million tokens, or not an amount", meterName);
      continue;
    }
    rows.push({
      meterName,
      price,
      unit: String(item["unitOfMeasure"] ?? ""),
      regions: [String(item["armRegionName"] ?? "")],
    });
  }
  return priceRows(input, rows, skipped, items.length);
}

/** The community projection: one item per meter and price, with the regions charging it. */
function parseCommunitySnapshot(input: ParserInput): ParseOutput {
  const items = itemsOf(input, parseJson(input), "items");
  const skipped = new SkipLog();
  const rows: PriceRow[] = [];
  for (const item of items) {
    const meterName = meterNameOf(input, item);
    const price = decimalText(item["retailPrice"]);
    const regions = item["regions"];
    if (!Array.isArray(regions) || !regions.every((r): r is string => typeof r === "string"))
      throw parseFailure(input.source, `item "${meterName}" has no regions list`);
    if (price === null) {
      skipped.add("price finer than 1 micro-USD per million tokens, or not an amount", meterName);
      continue;
    }
    rows.push({ meterName, price, unit: String(item["unitOfMeasure"] ?? ""), regions });
  }
  return priceRows(input, rows, skipped, items.length);
}

export const parsers: Record<string, Parser> = {
  "azure-retail-prices": parseRetailPrices,
  "azure-genai-prices-snapshot": parseCommunitySnapshot,
};
