/**
 * Throttling of staff sign-ins (password guessing) that a stranger cannot turn against the owner.
 *
 * Failed sign-ins are counted in three scopes, in PostgreSQL (sign-ins are rare; every process
 * shares the counts):
 *  - per (account, client address): after PAIR.free failures each further one makes that address
 *    wait before trying that account again, doubling from 1 s to at most 15 min. A success resets it.
 *  - per client address, across accounts: ADDRESS.limit failures in ADDRESS.windowMs, then that
 *    address waits for the window's end (one address trying many accounts).
 *  - per account, across addresses: ACCOUNT.limit failures in ACCOUNT.windowMs, then addresses
 *    wait for the window's end (many addresses trying one account).
 * Nothing locks an account: every limit is a wait that ends by itself. And an address the account
 * has signed in from before (in the last KNOWN_MS) is spared the per-address and per-account
 * limits, so that a stranger failing on purpose, from anywhere else, cannot keep the owner out;
 * the owner from a new address waits at most one ACCOUNT window after the failures stop.
 *
 * Accounts are counted by the email typed, whether or not a login has it, so that the limits
 * answer the same for unknown emails and do not tell who has an account. An attempt is counted
 * before the password is checked (and taken back if it was right), so that a burst of parallel
 * guesses cannot all slip in before the first one is counted.
 */
import { createHash } from "node:crypto";
import { query, sqlTransaction } from "../db/sql.ts";

const MINUTE = 60_000;

export const PAIR = { free: 5, baseMs: 1_000, maxMs: 15 * MINUTE, forgetMs: 24 * 60 * MINUTE };
export const ADDRESS = { limit: 50, windowMs: 15 * MINUTE };
export const ACCOUNT = { limit: 20, windowMs: 10 * MINUTE };
/** An address the account signed in from within this long is known to it. */
export const KNOWN_MS = 90 * 24 * 60 * MINUTE;

export interface LimitRow {
  key: string;
  failures: number;
  window_started_at: Date;
  blocked_until: Date | null;
  succeeded_at: Date | null;
}

type Scope = "pair" | "address" | "account";

/** The row's state after one more failure. */
export function afterFailure(scope: Scope, row: LimitRow, now: Date): LimitRow {
  const t = now.getTime();
  if (scope === "pair") {
    const fresh = t - row.window_started_at.getTime() > PAIR.forgetMs;
    const failures = fresh ? 1 : row.failures + 1;
    const wait = failures >= PAIR.free ? Math.min(PAIR.baseMs * 2 ** (failures - PAIR.free), PAIR.maxMs) : 0;
    return {
      ...row,
      failures,
      window_started_at: fresh ? now : row.window_started_at,
      blocked_until: wait > 0 ? new Date(t + wait) : null,
    };
  }
  const { limit, windowMs } = scope === "address" ? ADDRESS : ACCOUNT;
  const fresh = t >= row.window_started_at.getTime() + windowMs;
  const start = fresh ? now : row.window_started_at;
  const failures = fresh ? 1 : row.failures + 1;
  return {
    ...row,
    failures,
    window_started_at: start,
    blocked_until: failures >= limit ? new Date(start.getTime() + windowMs) : row.blocked_until,
  };
}

/** The row's state once an attempt counted as a failure turned out right. */
export function afterSuccess(scope: Scope, row: LimitRow, now: Date): LimitRow {
  if (scope === "pair") {
    return { ...row, failures: 0, window_started_at: now, blocked_until: null, succeeded_at: now };
  }
  const { limit } = scope === "address" ? ADDRESS : ACCOUNT;
  const failures = Math.max(0, row.failures - 1);
  return { ...row, failures, blocked_until: failures >= limit ? row.blocked_until : null };
}

/** How long an attempt must wait (ms), or 0 when it may go ahead. */
export function waitFor(rows: Record<Scope, LimitRow>, now: Date): number {
  const t = now.getTime();
  const until = (row: LimitRow) => Math.max(0, (row.blocked_until?.getTime() ?? 0) - t);
  const known = rows.pair.succeeded_at !== null && t - rows.pair.succeeded_at.getTime() < KNOWN_MS;
  return Math.max(until(rows.pair), known ? 0 : until(rows.address), known ? 0 : until(rows.account));
}

function hashKey(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\0")).digest("hex");
}

function keysOf(email: string, address: string): Record<Scope, string> {
  return {
    pair: hashKey("pair", email, address),
    address: hashKey("address", address),
    account: hashKey("account", email),
  };
}

const SCOPES: readonly Scope[] = ["pair", "address", "account"];

/**
 * Locks the three rows (made if missing), in key order so that concurrent sign-ins sharing rows
 * never deadlock, and writes back what `change` makes of them.
 */
async function withRows<T>(
  email: string,
  address: string,
  change: (rows: Record<Scope, LimitRow>, now: Date) => { rows: Record<Scope, LimitRow> | null; result: T },
): Promise<T> {
  const keys = keysOf(email, address);
  const sorted = Object.values(keys).sort();
  await query("INSERT INTO sign_in_limits (key) SELECT unnest($1::text[]) ORDER BY 1 ON CONFLICT (key) DO NOTHING", [
    sorted,
  ]);
  return sqlTransaction(async (client) => {
    const found = await query<LimitRow & { now: Date }>(
      `SELECT key, failures, window_started_at, blocked_until, succeeded_at, now() AS now
       FROM sign_in_limits WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE`,
      [sorted],
      client,
    );
    const byKey = new Map(found.map((row) => [row.key, row]));
    const now = found[0]?.now ?? new Date();
    const fresh = (key: string): LimitRow => ({
      key,
      failures: 0,
      window_started_at: now,
      blocked_until: null,
      succeeded_at: null,
    });
    const rows = Object.fromEntries(SCOPES.map((s) => [s, byKey.get(keys[s]) ?? fresh(keys[s])])) as Record<
      Scope,
      LimitRow
    >;
    const { rows: next, result } = change(rows, now);
    if (next) {
      await query(
        `INSERT INTO sign_in_limits AS l (key, failures, window_started_at, blocked_until, succeeded_at, updated_at)
         SELECT * , now() FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::timestamptz[])
         ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, window_started_at = excluded.window_started_at,
           blocked_until = excluded.blocked_until, succeeded_at = excluded.succeeded_at, updated_at = now()`,
        [
          SCOPES.map((s) => next[s].key),
          SCOPES.map((s) => next[s].failures),
          SCOPES.map((s) => next[s].window_started_at),
          SCOPES.map((s) => next[s].blocked_until),
          SCOPES.map((s) => next[s].succeeded_at),
        ],
        client,
      );
    }
    return result;
  });
}

/**
 * Before a password is checked: 0 when the attempt may go ahead (it is then counted as a failure
 * until recordSignInSuccess takes it back), or how many milliseconds it must wait.
 */
export function reserveSignInAttempt(email: string, address: string): Promise<number> {
  return withRows(email, address, (rows, now) => {
    const wait = waitFor(rows, now);
    if (wait > 0) return { rows: null, result: wait };
    const next = Object.fromEntries(SCOPES.map((s) => [s, afterFailure(s, rows[s], now)])) as Record<Scope, LimitRow>;
    return { rows: next, result: 0 };
  });
}

/** The password was right: the attempt is taken back and the address becomes known to the account. */
export async function recordSignInSuccess(email: string, address: string): Promise<void> {
  await withRows(email, address, (rows, now) => ({
    rows: Object.fromEntries(SCOPES.map((s) => [s, afterSuccess(s, rows[s], now)])) as Record<Scope, LimitRow>,
    result: undefined,
  }));
}

/**
 * Deletes rows that no longer matter: failures older than a day (every window is shorter) and
 * known addresses older than KNOWN_MS. Called now and then from the sign-in path.
 */
export async function purgeSignInLimits(): Promise<number> {
  const rows = await query<{ n: number }>(
    `WITH d AS (DELETE FROM sign_in_limits
                WHERE updated_at < now() - interval '1 day'
                  AND (succeeded_at IS NULL OR succeeded_at < now() - make_interval(secs => $1::double precision))
                RETURNING 1)
     SELECT count(*)::int AS n FROM d`,
    [KNOWN_MS / 1000],
  );
  return rows[0]?.n ?? 0;
}
