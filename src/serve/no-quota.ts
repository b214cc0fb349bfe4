/**
 * `catalog serve --no-quota`: a deployment for internal use, where no plan quota applies. Nothing
 * is counted or stored, and answers carry no x-ratelimit-* headers (there is no limit to report,
 * and a number would claim one). Keys are still checked, and compare and calculate still
 * require one.
 */
import type { QuotaStore } from "./quota.js";

export const NO_QUOTA: QuotaStore = {
  kind: "none",
  consume: async () => ({ count: 0, allowed: true }),
  peek: async () => 0,
  unavailable: () => null,
  close: async () => {},
};
