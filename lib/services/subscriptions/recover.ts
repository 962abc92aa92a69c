/**
 * Recovery from dunning (reference §2, §9): a past_due subscription becomes `active` again when its
 * past-due transaction is paid — a successful retry of the saved card, the customer paying through
 * the update-payment-method checkout, or the merchant marking a manual invoice paid. Called by the
 * one completion function (lib/services/payments.ts) for every transaction of a subscription.
 */
import type pg from "pg";
import { query } from "../../db/sql.ts";
import { emitSubscriptionEvents } from "./store.ts";

export async function subscriptionTransactionPaid(
  client: pg.PoolClient,
  subscriptionId: string,
  transactionId: string,
): Promise<void> {
  const [sub] = await query<{ status: string }>(
    "SELECT status FROM subscriptions WHERE id = $1 FOR UPDATE",
    [subscriptionId],
    client,
  );
  if (sub?.status !== "past_due") return;
  // Still past due while another of its transactions is unpaid (e.g. two failed renewals).
  const [other] = await query(
    "SELECT 1 FROM transactions WHERE subscription_id = $1 AND status = 'past_due' AND id <> $2 LIMIT 1",
    [subscriptionId, transactionId],
    client,
  );
  if (other) return;
  await query(
    "UPDATE subscriptions SET status = 'active', next_retry_at = NULL, retry_count = 0 WHERE id = $1",
    [subscriptionId],
    client,
  );
  await emitSubscriptionEvents(client, subscriptionId, ["subscription.updated", "subscription.activated"]);
}
