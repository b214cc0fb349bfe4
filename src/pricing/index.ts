/** Exact money arithmetic shared by compare, calculate and the release diff. */
export { deploymentOn, intervalAt } from "./at.js";
export {
  type CalculateResult,
  type CompareOmission,
  type CompareResult,
  calculate,
  compare,
  compareView,
  meetsRequirement,
  type OmissionReason,
} from "./compare.js";
export {
  formatMicroUsd,
  formatPicoUsd,
  formatUsdCompact,
  PICO_PER_MICRO,
  picoUsdFor,
  roundPicoToMicro,
} from "./money.js";
export {
  type AppliedPrices,
  appliedPrices,
  type PriceComponentName,
  type PriceResult,
  priceUsage,
  promptAbove,
  USAGE_PRICE_COMPONENTS,
} from "./price.js";
