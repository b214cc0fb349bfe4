/**
 * Request bodies (docs/decisions.md, "Bodies"): `application/json` or any `application/*+json`, at
 * most 64 KiB (413; a declared-oversize body is not read and the connection is closed), valid
 * JSON nested at most MAX_BODY_DEPTH levels (checked on the text, before anything walks the
 * value recursively), without reserved field names, checked against the route's zod schema
 * (400 naming each bad field).
 */
import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import { bodyErrors, ProblemError, type Reply, reservedFieldErrors } from "../http.js";

export const MAX_BODY_BYTES = 64 * 1024;
/** Arrays and objects inside one another: no request of the API needs more than a few. */
export const MAX_BODY_DEPTH = 64;

/**
 * Whether JSON text opens more than `max` arrays or objects inside one another: one pass over
 * the characters, brackets inside strings ignored. No recursion, so any depth is safe to check.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The client hung up (or was cut off) before its request ended: nothing to answer, not a server error. */
export class ClientGone extends Error {}

const tooLarge = (): ProblemError =>
  new ProblemError("payload_too_large", `request bodies are limited to ${MAX_BODY_BYTES} bytes`);

/** The body of a POST, at most MAX_BODY_BYTES; the rest of a larger body is read and dropped. */
function readBody(req: IncomingMessage, reply: Reply): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > MAX_BODY_BYTES) {
    // do not read a declared-oversize body; close the connection after answering
    reply.headers.connection = "close";
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > MAX_BODY_BYTES) reject(tooLarge());
      else resolve(Buffer.concat(chunks, size));
    });
    // a client that hangs up (or is cut off by the request timeout) before its body ends
    req.on("error", (error: Error) => reject(new ClientGone(error.message)));
    req.on("close", () => {
      if (!req.complete) reject(new ClientGone("the connection closed before the body ended"));
    });
  });
}

/** The bytes of a POST body sent as JSON (any other media type is refused: 415). */
export async function jsonBytes(req: IncomingMessage, reply: Reply): Promise<Buffer> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type))
    throw new ProblemError("unsupported_media_type", "send the body as application/json");
  return readBody(req, reply);
}

/** A JSON body's bytes checked against `schema`: 400 naming each bad (or reserved) field. */
export function parseJson<S extends z.ZodType>(raw: Buffer, schema: S): z.infer<S> {
  const text = raw.toString("utf8");
  if (nestsDeeperThan(text, MAX_BODY_DEPTH))
    throw new ProblemError(
      "invalid_body",
      `the body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProblemError("invalid_body", "the body is not valid JSON");
  }
  const reserved = reservedFieldErrors(value);
  if (reserved.length > 0)
    throw new ProblemError(
      "invalid_body",
      `invalid body field${reserved.length === 1 ? "" : "s"}: ${reserved.map((e) => e.parameter).join(", ")}`,
      reserved,
    );
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const errors = bodyErrors(parsed.error);
    throw new ProblemError(
      "invalid_body",
      `invalid body field${errors.length === 1 ? "" : "s"}: ${[...new Set(errors.map((e) => e.parameter))].join(", ")}`,
      errors,
    );
  }
  return parsed.data as z.infer<S>;
}
