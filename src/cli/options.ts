/** Option defaults shared by the commands: flags win over environment variables, which win over defaults. */
import { resolve } from "node:path";
import { type Clock, fixedClock, systemClock } from "../lib/clock.js";
import { CatalogError } from "../lib/errors.js";

export const DEFAULT_SOURCES_DIR = "sources";
export const DEFAULT_SNAPSHOTS_DIR = "snapshots";
/** The keys file `catalog keys` writes and `catalog serve` reads (hashes only). */
export const DEFAULT_KEYS_FILE = "keys.json";

export function snapshotsDir(flag: string | undefined): string {
  return resolve(flag ?? process.env.CATALOG_SNAPSHOTS ?? DEFAULT_SNAPSHOTS_DIR);
}

export function sourcesDir(flag: string | undefined): string {
  return resolve(flag ?? process.env.CATALOG_SOURCES ?? DEFAULT_SOURCES_DIR);
}

export function clockFrom(now: string | undefined): Clock {
  if (!now) return systemClock;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(now))
    throw new CatalogError(
      "invalid_argument",
      `--now must be an ISO 8601 UTC instant such as 2026-11-22T00:00:00Z, got "${now}"`,
    );
  return fixedClock(now);
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new CatalogError("invalid_argument", `--port must be 0-65535, got "${value}"`);
  return port;
}

/** A whole number of things (0 or more), for a flag named `flag`. */
export function parseCount(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new CatalogError("invalid_argument", `${flag} must be a whole number, got "${value}"`);
  return Number(value);
}

export function parseRatio(value: string): number {
  const ratio = Number(value);
  if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(value))
    throw new CatalogError("invalid_argument", `expected a ratio between 0 and 1, got "${value}"`);
  return ratio;
}
