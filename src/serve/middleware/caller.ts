/**
 * Who is asking (docs/decisions.md, "Authentication, plans and quota"): a workspace, from a valid
 * Bearer key, or the anonymous plan of the client address. An Authorization header that is not
 * a valid, active key is 401 on every /v1 route; it is never treated as anonymous.
 */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import type { Logger } from "../../lib/logger.js";
import { ProblemError } from "../http.js";
import type { KeyRing } from "../keys.js";
import { ANONYMOUS_PLAN, type PlansFile } from "../plans.js";
import { ANONYMOUS_PREFIX } from "../quota.js";

export interface Caller {
  /** The quota counter: a workspace, or `anon:<client address>`. */
  subject: string;
  plan: string;
  limit: number;
  workspace: string | null;
}

/** An address as the quota counts it: trimmed, IPv4-mapped IPv6 (`::ffff:a.b.c.d`) as plain IPv4. */
export function plainAddress(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith("::ffff:") ? trimmed.slice(7) : trimmed;
}

/**
 * The address the anonymous quota counts: the socket peer, unless the peer is one of the
 * operator's trusted proxies (`--trust-proxy`); then the rightmost X-Forwarded-For entry that is
 * not itself a trusted proxy (entries further left are written by the client and can be forged).
 */
export function clientAddress(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const peer = plainAddress(req.socket.remoteAddress ?? "unknown");
  if (!trustedProxies.has(peer)) return peer;
  const header = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map(plainAddress)
    .filter((hop) => hop !== "");
  for (const hop of hops.reverse()) {
    if (!trustedProxies.has(hop)) return isIP(hop) ? hop : peer;
  }
  return peer;
}

export function anonymousCaller(
  req: IncomingMessage,
  plans: PlansFile,
  trustedProxies: ReadonlySet<string>,
): Caller {
  return {
    subject: `${ANONYMOUS_PREFIX}${clientAddress(req, trustedProxies)}`,
    plan: ANONYMOUS_PLAN,
    limit: plans.plans[ANONYMOUS_PLAN]?.monthly_quota ?? 0,
    workspace: null,
  };
}

const BEARER = /^bearer +([^\s]+) *$/i;

/**
 * The caller of a request carrying an Authorization header, or why it is refused: the 401
 * problem to answer (after the anonymous counter is reported, which the caller of this does).
 */
export async function keyedCaller(
  authorization: string,
  keys: KeyRing,
  plans: PlansFile,
  logger: Logger,
): Promise<Caller | ProblemError> {
  const match = BEARER.exec(authorization);
  const owner = match?.[1] ? await keys.lookup(match[1]) : null;
  const plan = owner ? plans.plans[owner.plan] : undefined;
  if (!owner || !plan) {
    if (owner)
      logger.warn({ key_id: owner.keyId, plan: owner.plan }, "key's plan is not defined in the plans file");
    return new ProblemError(
      "unauthorized",
      match
        ? "the API key is malformed, unknown or revoked"
        : "use the Bearer scheme: Authorization: Bearer <key>",
      undefined,
      { "www-authenticate": 'Bearer realm="catalog", error="invalid_token"' },
    );
  }
  return {
    subject: owner.workspace,
    plan: owner.plan,
    limit: plan.monthly_quota,
    workspace: owner.workspace,
  };
}

/** 401 for a route that requires a key when the caller sent none. */
export function keyRequired(path: string): ProblemError {
  return new ProblemError(
    "unauthorized",
    `${path} requires an API key: Authorization: Bearer <key>`,
    undefined,
    {
      "www-authenticate": 'Bearer realm="catalog"',
    },
  );
}
