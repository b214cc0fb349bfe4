/** SHA-256 helpers: every content address in the project is lowercase hex SHA-256. */
import { createHash } from "node:crypto";

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;
