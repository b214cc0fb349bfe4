/**
 * Source secrets (`secrets:` in a source definition): API keys read from the environment when a
 * source is fetched and sent as query parameters. The request URL carrying them exists only
 * inside the collect stage: captures record the definition's URL, and every error that leaves
 * collect has the secret values replaced by `[redacted]` (in the message and in the details), so
 * logs, build summaries, source states and events never see them.
 */
import { CatalogError, isCatalogError } from "../lib/errors.js";
import type { SourceDefinition } from "../schema/index.js";

export const REDACTED = "[redacted]";

export type SecretEnv = Readonly<Record<string, string | undefined>>;

export type AppliedSecrets = { ok: true; url: string; values: string[] } | { ok: false; missing: string[] };

/** The source URL with every secret as its query parameter, or the variables that are not set. */
export function applySecrets(
  source: Pick<SourceDefinition, "url" | "secrets">,
  env: SecretEnv,
): AppliedSecrets {
  const secrets = Object.values(source.secrets ?? {});
  const resolved = secrets.map((secret) => ({ secret, value: env[secret.env] ?? "" }));
  const missing = resolved.filter((r) => r.value === "").map((r) => r.secret.env);
  if (missing.length > 0) return { ok: false, missing };
  const url = new URL(source.url);
  const values: string[] = [];
  for (const { secret, value } of resolved) {
    url.searchParams.set(secret.query_param, value);
    values.push(value);
  }
  return { ok: true, url: url.href, values };
}

/** `text` with every secret value (raw, URL-encoded or form-encoded) replaced by [redacted]. */
export function redact(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) {
    if (value === "") continue;
    const forms = new Set([
      value,
      encodeURIComponent(value),
      new URLSearchParams({ v: value }).toString().slice(2),
    ]);
    for (const form of forms) out = out.split(form).join(REDACTED);
  }
  return out;
}

function redactValue(value: unknown, values: readonly string[]): unknown {
  if (typeof value === "string") return redact(value, values);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, values));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, values)]));
  return value;
}

/** The error as it may leave collect: same code and status, secrets redacted, no cause chain. */
export function redactError(error: unknown, values: readonly string[]): Error {
  if (values.length === 0) return error instanceof Error ? error : new Error(String(error));
  const message = redact(error instanceof Error ? error.message : String(error), values);
  if (isCatalogError(error))
    return new CatalogError(
      error.code,
      message,
      redactValue(error.details ?? {}, values) as Record<string, unknown>,
    );
  return new Error(message);
}
