/**
 * API key values: `svc_apikey_<sdbx|live>_<26-char ID body>_<22 random>_<3 checksum>`, 69 characters
 * (the spec's Authentication part). The ID body makes the key's row a primary-key lookup; the
 * checksum rejects typos before any database work. Only a SHA-256 hash of the whole key is stored:
 * the key has 131 bits of randomness, so a fast hash is as safe as a slow one here.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Environment } from "../config.ts";
import { ulid } from "../ids.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** The environment as API key values (and their masked form) write it. */
export const ENV_CODE = { sandbox: "sdbx", live: "live" } as const;
const KEY_PATTERN = /^svc_apikey_(sdbx|live)_([a-z0-9]{26})_([A-Za-z0-9]{22})_([A-Za-z0-9]{3})$/;
export const API_KEY_LENGTH = 69;

function base62(bytes: Buffer, length: number): string {
  let out = "";
  for (let i = 0; out.length < length; i++) out += BASE62.charAt(bytes.readUInt8(i % bytes.length) % 62);
  return out;
}

function randomBase62(length: number): string {
  // Rejection sampling keeps every character uniformly likely.
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  return base62(createHash("sha256").update(body).digest(), 3);
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function generateApiKey(environment: Environment): { id: string; key: string; hash: string } {
  const idBody = ulid();
  const body = `svc_apikey_${ENV_CODE[environment]}_${idBody}_${randomBase62(22)}`;
  const key = `${body}_${checksum(body)}`;
  return { id: `apikey_${idBody}`, key, hash: hashApiKey(key) };
}

export interface ParsedApiKey {
  id: string;
  environment: Environment;
}

/** The key's ID and environment, or null when the value is not shaped like one of our keys. */
export function parseApiKey(key: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const body = key.slice(0, -4);
  if (checksum(body) !== match[4]) return null;
  return { id: `apikey_${match[2]}`, environment: match[1] === "sdbx" ? "sandbox" : "live" };
}

export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}
