import { randomBytes } from "node:crypto";

import type { IdPrefix } from "./id-prefixes.ts";

export { ID_PREFIX, type IdPrefix } from "./id-prefixes.ts";

// Crockford base32 in lower case: every character is in [a-z0-9], so IDs match the spec's pattern.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;

let lastTime = -1;
let lastRandom: number[] = [];

function randomDigits(): number[] {
  const bytes = randomBytes(RANDOM_CHARS);
  return Array.from(bytes, (b) => b & 31);
}

/** Adds one to a base32 digit array (used to keep IDs monotonic within one millisecond). */
function increment(digits: number[]): number[] {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] < 31) {
      next[i]++;
      return next;
    }
    next[i] = 0;
  }
  return randomDigits(); // 80 bits overflowed in one millisecond: practically impossible
}

/**
 * 26 characters of a ULID: 10 for the millisecond timestamp, 16 random, monotonic inside a process.
 * Sorting IDs sorts them by creation time, which makes `after` a keyset cursor.
 */
export function ulid(now: number = Date.now()): string {
  if (now <= lastTime) {
    lastRandom = increment(lastRandom);
    now = lastTime;
  } else {
    lastTime = now;
    lastRandom = randomDigits();
  }
  let time = "";
  let t = now;
  for (let i = 0; i < TIME_CHARS; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time + lastRandom.map((d) => ALPHABET[d]).join("");
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

const ID_BODY = "[a-z0-9]{26}";

export function idPattern(prefix: IdPrefix): RegExp {
  return new RegExp(`^${prefix}_${ID_BODY}$`);
}

export function isId(prefix: IdPrefix, value: string): boolean {
  return idPattern(prefix).test(value);
}

/** Decodes the creation time of an ID (the first ten characters after the prefix). */
export function idTime(id: string): Date {
  const body = id.slice(id.lastIndexOf("_") + 1, id.lastIndexOf("_") + 1 + TIME_CHARS);
  let t = 0;
  for (const ch of body) t = t * 32 + ALPHABET.indexOf(ch);
  return new Date(t);
}
