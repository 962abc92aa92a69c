/**
 * The status moves against their table (lib/billing/transitions.ts), on real rows: each verb of
 * subscriptions/moves.ts and transactions/moves.ts is run on a row in every status, and must move
 * it (with events) exactly from the statuses its pairs name, to the status they name, and leave
 * any other row as it is (without events). Each run is rolled back, so one row serves them all.
 */
import type pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { SUBSCRIPTION_STATUSES } from "@/lib/billing/subscription-states";
import { TRANSACTION_STATUSES } from "@/lib/billing/transaction-states";
import {
  type Moves,
  moveTo,
  SUBSCRIPTION_MOVES,
  type SubscriptionMove,
  TRANSACTION_MOVES,
  type TransactionMove,
} from "@/lib/billing/transitions";
import { query, sqlTransaction } from "@/lib/db/sql";
import { subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import { makeReady } from "@/lib/dev/test/transactions";
import {
  activateTrialNow,
  markSubscriptionCanceled,
  markSubscriptionPaused,
  markSubscriptionResumed,
  markSubscriptionsPastDue,
  recoverSubscription,
  renewSubscriptions,
} from "@/lib/services/subscriptions/moves";
import {
  cancelTransactions,
  completeTransaction,
  completeTransactions,
  markTransactionPaid,
  markTransactionsPastDue,
  recordFailedPayment,
} from "@/lib/services/transactions/moves";

type Verb = (client: pg.PoolClient, id: string, from: string) => Promise<unknown>;

const at = new Date("2030-01-01T00:00:00Z");
const later = new Date("2030-02-01T00:00:00Z");

/** Every verb of a move (a move may have several: one row, many rows). */
const SUBSCRIPTION_VERBS: Record<SubscriptionMove, Verb[]> = {
  activate: [(c, id) => activateTrialNow(c, id, { startsAt: at, endsAt: later, discountEndsAt: null })],
  renew: [
    (c, id, from) => renewSubscriptions(c, [{ id, status: from, starts_at: at, ends_at: later, reanchor: false }]),
  ],
  recover: [(c, id) => recoverSubscription(c, id)],
  past_due: [
    (c, id) => markSubscriptionsPastDue(c, [id]),
    (c, id) => markSubscriptionsPastDue(c, [id], { nextRetryAt: at }),
  ],
  pause: [(c, id) => markSubscriptionPaused(c, id, at, null, "start_new_billing_period")],
  resume: [
    (c, id) => markSubscriptionResumed(c, id, null),
    (c, id) => markSubscriptionResumed(c, id, { startsAt: at, endsAt: later }),
  ],
  cancel: [(c, id) => markSubscriptionCanceled(c, id, at)],
};

/** A declined charge is recorded whether or not it moves the transaction. */
const recordDecline: Verb = (c, id, from) => recordFailedPayment(c, { id, status: from }, [], true);

const TRANSACTION_VERBS: Record<TransactionMove, Verb[]> = {
  past_due: [(c, id) => markTransactionsPastDue(c, [id])],
  decline: [recordDecline],
  cancel: [(c, id) => cancelTransactions(c, [id])],
  pay: [(c, id) => markTransactionPaid(c, id, {})],
  complete: [(c, id) => completeTransaction(c, id, {}), (c, id) => completeTransactions(c, [{ id }])],
};

class Rollback extends Error {}

/** Runs `verb` on row `id` of `table` put in status `from`, rolled back: the status after it and the events it wrote. */
async function run(
  table: "subscriptions" | "transactions",
  id: string,
  from: string,
  verb: Verb,
): Promise<{ status: string; events: string[] }> {
  let seen: { status: string; events: string[] } | null = null;
  await sqlTransaction(async (client) => {
    await query(`UPDATE ${table} SET status = $2 WHERE id = $1`, [id, from], client);
    const { last } = (
      await query<{ last: string }>("SELECT coalesce(max(id), '') AS last FROM events", [], client)
    )[0]!;
    await verb(client, id, from);
    const [row] = await query<{ status: string }>(`SELECT status FROM ${table} WHERE id = $1`, [id], client);
    const events = await query<{ event_type: string }>(
      "SELECT event_type FROM events WHERE entity_id = $1 AND id > $2 ORDER BY id",
      [id, last],
      client,
    );
    seen = { status: row!.status, events: events.map((e) => e.event_type) };
    throw new Rollback();
  }).catch((error) => {
    if (!(error instanceof Rollback)) throw error;
  });
  return seen as unknown as { status: string; events: string[] };
}

/** Checks every verb of `verbs` from every status against `table`'s pairs. */
async function checkAll<M extends string>(
  table: "subscriptions" | "transactions",
  id: string,
  statuses: readonly string[],
  moves: Record<M, Moves<string>>,
  verbs: Record<M, Verb[]>,
): Promise<void> {
  for (const name of Object.keys(moves) as M[]) {
    for (const [index, verb] of verbs[name].entries()) {
      for (const from of statuses) {
        const to = moveTo(moves[name], from);
        const after = await run(table, id, from, verb);
        const what = `${table} ${name} (verb ${index}) from ${from}`;
        expect(after.status, what).toBe(to ?? from);
        if (to) expect(after.events.length, what).toBeGreaterThan(0);
        else if (verb === recordDecline) {
          expect(after.events, what).toEqual(["transaction.updated", "transaction.payment_failed"]);
        } else expect(after.events, what).toEqual([]);
      }
    }
  }
}

describe("status moves", () => {
  let subscriptionId: string;
  let transactionId: string;

  beforeAll(async () => {
    subscriptionId = (await subscribeAtCheckout()).subscription.id;
    transactionId = (await makeReady()).id;
  });

  it("every subscription verb moves exactly as SUBSCRIPTION_MOVES says", async () => {
    await checkAll("subscriptions", subscriptionId, SUBSCRIPTION_STATUSES, SUBSCRIPTION_MOVES, SUBSCRIPTION_VERBS);
  });

  it("every transaction verb moves exactly as TRANSACTION_MOVES says", async () => {
    await checkAll("transactions", transactionId, TRANSACTION_STATUSES, TRANSACTION_MOVES, TRANSACTION_VERBS);
  });

  it("a verb's events are those of its move, in the API family's order", async () => {
    expect((await run("subscriptions", subscriptionId, "trialing", SUBSCRIPTION_VERBS.renew[0]!)).events).toEqual([
      "subscription.updated",
      "subscription.activated",
    ]);
    expect((await run("subscriptions", subscriptionId, "active", SUBSCRIPTION_VERBS.past_due[0]!)).events).toEqual([
      "subscription.updated",
      "subscription.past_due",
    ]);
    expect((await run("transactions", transactionId, "billed", recordDecline)).events).toEqual([
      "transaction.updated",
      "transaction.payment_failed",
      "transaction.past_due",
    ]);
    expect((await run("transactions", transactionId, "ready", TRANSACTION_VERBS.complete[1]!)).events).toEqual([
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
  });
});
