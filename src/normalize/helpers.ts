/**
 * The parsers' shared helpers, one module per topic; this file only re-exports them so a parser
 * imports one place. Pure functions; a page whose structure does not match throws a
 * `parse_failed` CatalogError, never an empty success.
 */
export {
  type ParsedDate,
  parseCalendarDate,
  parseMilestone,
  sourceMilestone,
  unknownMilestone,
} from "./dates.js";
export { declaredCapability, evidenceFor } from "./evidence.js";
export { isJsonObject, type JsonObject, jsonDocument, parseFailure, requireSome } from "./failure.js";
export { cellText, columnIndex, type FoundTable, findTables } from "./html-tables.js";
export { googleModelId } from "./identity/google.js";
export { MODALITY_CAPABILITIES, modalityPairs, modalityUse, setModality } from "./modalities.js";
export { type PriceConversion, perTokenToMicroPerMillion, tokenRateCard, usdToMicro } from "./money.js";
export { SkipLog } from "./skips.js";
export { printedTokenCount, tokenCount } from "./tokens.js";
