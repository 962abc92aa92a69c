/**
 * Webhook signatures, as the API family signs deliveries:
 *   Service-Signature: ts=<unix seconds>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>">
 * keyed by the destination's endpoint_secret_key. Receivers recompute h1 over the raw body.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ulid } from "../ids.ts";

export const SIGNATURE_HEADER = "Service-Signature";

export function sign(secret: string, body: string, timestamp: number): string {
  return createHmac("sha256", secret).update(`${timestamp}:${body}`).digest("hex");
}

export function signatureHeader(secret: string, body: string, now: Date = new Date()): string {
  const ts = Math.floor(now.getTime() / 1000);
  return `ts=${ts};h1=${sign(secret, body, ts)}`;
}

/**
 * Checks a signature header against a body, as a receiver does; `toleranceSeconds` bounds the age
 * of `ts` (replay protection). For our tests and for merchants' reference.
 */
export function verifySignature(
  secret: string,
  body: string,
  header: string | null,
  options: { now?: Date; toleranceSeconds?: number } = {},
): boolean {
  if (!header) return false;
  const parts = new Map(header.split(";").map((part) => part.split("=", 2) as [string, string]));
  const ts = Number(parts.get("ts"));
  const h1 = parts.get("h1");
  if (!Number.isInteger(ts) || !h1 || !/^[0-9a-f]{64}$/.test(h1)) return false;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - ts) > (options.toleranceSeconds ?? 300)) return false;
  return timingSafeEqual(Buffer.from(h1, "hex"), Buffer.from(sign(secret, body, ts), "hex"));
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A destination's secret: `svc_ntfset_<26 alphanumerics>_<32 alphanumerics>` (the spec's pattern). */
export function newEndpointSecretKey(): string {
  let tail = "";
  // Rejection sampling keeps every character equally likely (62 does not divide 256).
  while (tail.length < 32) {
    for (const byte of randomBytes(48)) if (byte < 248 && tail.length < 32) tail += ALPHANUMERIC[byte % 62];
  }
  return `svc_ntfset_${ulid()}_${tail}`;
}
