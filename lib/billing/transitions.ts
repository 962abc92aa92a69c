/**
 * Every status move the services write, as (from, to) pairs per verb: the subscription verbs of
 * lib/services/subscriptions/moves.ts and the transaction verbs of
 * lib/services/transactions/moves.ts. A verb writes a row only from a status its pairs name (its
 * SQL is built from these pairs), so a row in any other status is left as it is; moves.test.ts
 * runs each verb from every status and compares what it wrote with this table.
 *
 * What a caller may ask for is decided before a verb runs: subscription-states.ts (refusal) for
 * subscriptions, transaction-states.ts for transactions (whose PATCH moves, ready → billed and
 * draft, ready or billed → canceled, are written by lib/services/transactions/update.ts with the
 * rest of the PATCH). The pairs here are wider where the engine moves rows no caller may (dunning
 * ends a past_due subscription; pausing cancels a past_due renewal transaction).
 */
import type { SubscriptionStatus } from "./subscription-states.ts";
import type { TransactionStatus } from "./transaction-states.ts";

/** (from, to) pairs: the statuses a verb moves rows from, and where each goes. */
export type Moves<S extends string> = readonly (readonly [from: S, to: S])[];

export const SUBSCRIPTION_MOVES = {
  /** The trial ends now (POST activate): the first period starts and is billed. */
  activate: [["trialing", "active"]],
  /** A period starts at next_billed_at (the engine's renewal): a trial's end activates it. */
  renew: [
    ["trialing", "active"],
    ["active", "active"],
    ["past_due", "past_due"],
  ],
  /** Its last unpaid transaction was paid: dunning ends. */
  recover: [["past_due", "active"]],
  /** A charge failed (a renewal, a change applied anyway) or a manual invoice's due date passed. */
  past_due: [
    ["active", "past_due"],
    ["trialing", "past_due"],
  ],
  /** A pause takes effect (the API, a scheduled pause, dunning exhausted with `pause`). */
  pause: [
    ["active", "paused"],
    ["trialing", "paused"],
    ["past_due", "paused"],
  ],
  /** A resume takes effect, continuing the kept period or starting a new one. */
  resume: [["paused", "active"]],
  /** A cancel takes effect (the API, a scheduled cancel, dunning exhausted). Final. */
  cancel: [
    ["active", "canceled"],
    ["trialing", "canceled"],
    ["past_due", "canceled"],
    ["paused", "canceled"],
  ],
} as const satisfies Record<string, Moves<SubscriptionStatus>>;
export type SubscriptionMove = keyof typeof SUBSCRIPTION_MOVES;

export const TRANSACTION_MOVES = {
  /** An unpaid invoice's due date passed (the engine, the manual-invoice sweep). */
  past_due: [["billed", "past_due"]],
  /**
   * A saved card's charge asked to move its transaction on failure (attempt on_failure past_due: a
   * renewal's) was declined.
   */
  decline: [
    ["ready", "past_due"],
    ["billed", "past_due"],
  ],
  /** Canceled by the engine: a past_due renewal when its subscription pauses, a declined change undone. */
  cancel: [
    ["billed", "canceled"],
    ["past_due", "canceled"],
  ],
  /** Paid, on its way to completed: a transaction that buys its subscription, before it is created. */
  pay: [
    ["ready", "paid"],
    ["billed", "paid"],
    ["past_due", "paid"],
  ],
  /** The payment is captured (or nothing is owed): the one completion. */
  complete: [
    ["ready", "completed"],
    ["billed", "completed"],
    ["past_due", "completed"],
    ["paid", "completed"],
  ],
} as const satisfies Record<string, Moves<TransactionStatus>>;
export type TransactionMove = keyof typeof TRANSACTION_MOVES;

/** Where `moves` takes a row in status `from`, or null when it does not move it. */
export function moveTo<S extends string>(moves: Moves<S>, from: S): S | null {
  return moves.find(([source]) => source === from)?.[1] ?? null;
}
