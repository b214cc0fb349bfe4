/** The registry of validation checks, in the order they run and are reported. */
import { cachedInputAboveInput } from "./cached-input-above-input.js";
import { deploymentHasEvidence } from "./deployment-has-evidence.js";
import { deprecationBeforeEndOfLife } from "./deprecation-before-end-of-life.js";
import { idShapes } from "./id-shapes.js";
import { lifecycleDateMoved } from "./lifecycle-date-moved.js";
import { milestoneHasEvidence } from "./milestone-has-evidence.js";
import { milestoneRules } from "./milestone-rules.js";
import { nonNegativePrices } from "./non-negative-prices.js";
import { oneDeploymentPerModelScope } from "./one-deployment-per-model-scope.js";
import { priceMoved } from "./price-moved.js";
import { rateCardHasSource } from "./rate-card-has-source.js";
import { referencesResolve } from "./references-resolve.js";
import { retiredAfterEndOfLife } from "./retired-after-end-of-life.js";
import type { CheckDefinition } from "./types.js";
import { uniqueDeploymentIds } from "./unique-deployment-ids.js";

export type { CheckContext, CheckDefinition } from "./types.js";

export const CHECKS: readonly CheckDefinition[] = [
  uniqueDeploymentIds,
  oneDeploymentPerModelScope,
  idShapes,
  referencesResolve,
  milestoneRules,
  deprecationBeforeEndOfLife,
  retiredAfterEndOfLife,
  nonNegativePrices,
  cachedInputAboveInput,
  priceMoved,
  lifecycleDateMoved,
  milestoneHasEvidence,
  rateCardHasSource,
  deploymentHasEvidence,
];
