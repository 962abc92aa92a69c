/** The limits on declined attempts at the public hosted checkout (card testing). */

import type pg from "pg";
import { query } from "../../db/sql.ts";
import { ApiError } from "../../errors.ts";

/**
 * Declined attempts the checkout takes. The endpoint is public (the link is the credential), so
 * card testing (trying numbers until one passes) must be cut off; but a limit per transaction alone
 * (it was 20 declines, for ever) let anyone holding the link lock the customer out of paying by
 * burning the attempts. So two sliding windows over `checkout_declines`, neither permanent:
 * - per client address and transaction, 5 declines in 15 minutes: a stranger spends his own
 *   budget, never the customer's, and a customer mistyping a card waits at most 15 minutes;
 * - per transaction, from every address together, 30 declines an hour: the backstop against card
 *   testing spread over many addresses. Locking a customer out this way takes 6 addresses and
 *   lasts an hour at most.
 * `payments` keeps the newest MAX_STORED_DECLINES declined attempts (and every capture), so it
 * cannot grow without bound either.
 */
export const DECLINE_LIMITS = {
  perClient: { max: 5, windowSeconds: 15 * 60 },
  perTransaction: { max: 30, windowSeconds: 60 * 60 },
} as const;
export const MAX_STORED_DECLINES = 50;

/**
 * Refuses a payment attempt when the client or the transaction has used its declines (429 with
 * Retry-After: the seconds until the oldest decline counted leaves its window). Under the row lock.
 */
export async function checkDeclineLimits(client: pg.PoolClient, id: string, clientKey: string): Promise<void> {
  const { perClient, perTransaction } = DECLINE_LIMITS;
  const rows = await query<{ client_key: string; age: number }>(
    `SELECT client_key, extract(epoch FROM now() - created_at)::float8 AS age
       FROM checkout_declines
      WHERE transaction_id = $1 AND created_at > now() - $2 * interval '1 second'
      ORDER BY created_at DESC`,
    [id, perTransaction.windowSeconds],
    client,
  );
  // Newest first: the decline whose expiry frees one attempt is the max-th newest (none: under the limit).
  const wait = (age: number, window: number) => Math.max(1, Math.ceil(window - age));
  const mine = rows.filter((r) => r.client_key === clientKey && r.age < perClient.windowSeconds).map((r) => r.age);
  const freeingAll = rows[perTransaction.max - 1];
  const freeingMine = mine[perClient.max - 1];
  let retryAfter = 0;
  let detail = "";
  if (freeingAll !== undefined) {
    retryAfter = wait(freeingAll.age, perTransaction.windowSeconds);
    detail = `Transaction ${id} has had ${perTransaction.max} declined payment attempts in the last hour`;
  } else if (freeingMine !== undefined) {
    retryAfter = wait(freeingMine, perClient.windowSeconds);
    detail = `${perClient.max} payment attempts for transaction ${id} were declined from this address in the last 15 minutes`;
  }
  if (retryAfter > 0) {
    throw new ApiError(
      "too_many_requests",
      `${detail}: try again in ${retryAfter} seconds, or with another card later.`,
      {
        headers: { "Retry-After": String(retryAfter) },
      },
    );
  }
}

/** Deletes the checkout's declined attempts older than a day (the hourly retention job). */
export async function purgeCheckoutDeclines(): Promise<number> {
  const rows = await query<{ n: number }>(
    "WITH d AS (DELETE FROM checkout_declines WHERE created_at < now() - interval '1 day' RETURNING 1) SELECT count(*)::int AS n FROM d",
  );
  return rows[0]?.n ?? 0;
}
