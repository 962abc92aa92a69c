import { randomFillSync } from "node:crypto";

import type { IdPrefix } from "./id-prefixes.ts";

export { ID_PREFIX, type IdPrefix } from "./id-prefixes.ts";

// Crockford base32 in lower case: every character is in [a-z0-9], so IDs match the spec's pattern.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const TIME_CHARS = 10;
const SEQUENCE_CHARS = 1;
const RANDOM_CHARS = 15;
/** IDs one process can make in one millisecond before its clock is advanced by one. */
const SEQUENCE_SIZE = 32 ** SEQUENCE_CHARS;

/**
 * The ID body (26 characters): 10 of millisecond time, 1 of sequence within the millisecond, 15
 * random (75 bits from the CSPRNG, drawn anew for every ID).
 *
 * Why not a ULID's monotonic counter: IDs are the only credential of public links (the hosted
 * checkout is `?_ptxn=txn_…`), and a counter makes the IDs of one millisecond differ by 1-7 in their
 * last characters, so one ID gave away its neighbours. Here no part of an ID follows from another
 * but its time and its sequence character: guessing a neighbour means guessing 75 random bits.
 *
 * Order within a process still holds (lib/db/sql.ts eventCte writes the several events of one
 * change with IDs made in a row and relies on their order; so do simulation events and adjustment
 * items): the sequence character counts the IDs of the millisecond, and when it overflows (more
 * than 32 IDs in one millisecond) or the clock goes backwards, the time part is carried forward
 * from the last ID instead. IDs of different processes made in the same millisecond have no order
 * between them (they never had).
 */
let lastTime = -1;
let sequence = 0;

// Random bytes are drawn from the CSPRNG in blocks (one call per 64 IDs), each byte used once.
const pool = Buffer.alloc(RANDOM_CHARS * 64);
let poolAt = pool.length;

function randomPart(): string {
  if (poolAt + RANDOM_CHARS > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  let out = "";
  // The low 5 bits of each byte: 256 is a multiple of 32, so every character is equally likely.
  // `pool[i]!`: i < poolAt + RANDOM_CHARS <= pool.length, as the refill above ensures.
  for (let i = poolAt; i < poolAt + RANDOM_CHARS; i++) out += ALPHABET[pool[i]! & 31];
  poolAt += RANDOM_CHARS;
  return out;
}

function encodeTime(time: number): string {
  let out = "";
  let t = time;
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

/**
 * 26 characters: time, sequence, randomness (see above). Sorting IDs of one process sorts them by
 * creation; across processes, by millisecond. This makes `after` a keyset cursor.
 */
export function ulid(now: number = Date.now()): string {
  if (now > lastTime) {
    lastTime = now;
    sequence = 0;
  } else if (sequence < SEQUENCE_SIZE - 1) {
    sequence++;
  } else {
    // More than 32 IDs in this millisecond (or a clock gone backwards that far): borrow the next
    // millisecond. The clock catches up after the burst.
    lastTime++;
    sequence = 0;
  }
  return encodeTime(lastTime) + ALPHABET[sequence] + randomPart();
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
