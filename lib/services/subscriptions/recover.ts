/**
 * Recovery from dunning (decision: dunning-schedule): a past_due subscription becomes `active` again when its
 * past-due transaction is paid — a successful retry of the saved card, the customer paying through
 * the update-payment-method checkout, or the merchant marking a manual invoice paid. Called by the
 * one completion function (lib/services/payments/completion.ts) for every transaction of a subscription.
 */
import type pg from "pg";
import { query } from "../../db/sql.ts";
import { recoverSubscription } from "./moves.ts";

export async function subscriptionTransactionPaid(
  client: pg.PoolClient,
  subscriptionId: string,
  transactionId: string,
): Promise<void> {
  await subscriptionTransactionsPaid(client, [{ subscriptionId, transactionId }]);
}

/**
 * subscriptionTransactionPaid for many paid transactions (a batch of renewals): the subscriptions
 * are locked and read in one query, and only past-due ones, the unusual case, go further.
 */
export async function subscriptionTransactionsPaid(
  client: pg.PoolClient,
  paid: readonly { subscriptionId: string; transactionId: string }[],
): Promise<void> {
  if (paid.length === 0) return;
  const pastDue = await query<{ id: string; status: string }>(
    "SELECT id, status FROM subscriptions WHERE id = ANY($1) ORDER BY id FOR UPDATE",
    [[...new Set(paid.map((p) => p.subscriptionId))]],
    client,
  ).then((rows) => new Set(rows.filter((row) => row.status === "past_due").map((row) => row.id)));
  for (const { subscriptionId, transactionId } of paid) {
    if (!pastDue.has(subscriptionId)) continue;
    // Still past due while another of its transactions is unpaid (e.g. two failed renewals).
    const [other] = await query(
      "SELECT 1 FROM transactions WHERE subscription_id = $1 AND status = 'past_due' AND id <> $2 LIMIT 1",
      [subscriptionId, transactionId],
      client,
    );
    if (other) continue;
    await recoverSubscription(client, subscriptionId);
    pastDue.delete(subscriptionId);
  }
}
