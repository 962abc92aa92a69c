/**
 * POST /transactions/{transaction_id}/charge-saved-method (ours): charges a ready, automatically-
 * collected transaction to a payment method the customer saved before — the dashboard's "New
 * subscription" → "Charge the saved card". It goes through the renewals' saved-charge code
 * (lib/services/payments/saved-charges.ts): a sandbox test card is decided in the database
 * transaction; a card held by Stripe is recorded as an attempt and charged off-session once that
 * commits, then settled as any other charge. A payment that completes a transaction with
 * recurring items creates its subscription on that method, as the checkout does; a trial (nothing
 * owed today) completes at once with the method kept for the first renewal.
 *
 * Decisions:
 * - The method must be the transaction's customer's (400 on `payment_method_id` otherwise).
 * - A decline leaves the transaction `ready` with the failed attempt in `payments` (and
 *   `transaction.payment_failed`), as a declined checkout attempt does: the merchant can try
 *   another card or send the checkout link.
 * - No checkout, no 3-D Secure: a charge Stripe declines for authentication is a decline here.
 */
import type pg from "pg";
import { query, type RawJson, sqlTransaction } from "../../db/sql.ts";
import { ApiError, invalidField, notFound } from "../../errors.ts";
import type { Transaction } from "../../schemas/transaction.ts";
import { savedCard } from "../payment-methods.ts";
import { offSessionScope } from "../payments/off-session.ts";
import { type ChargeableCard, chargeSavedCard } from "../payments/saved-charges.ts";
import { getTransaction } from "./get.ts";

async function check(client: pg.PoolClient, id: string, paymentMethodId: string): Promise<ChargeableCard> {
  const [t] = await query<{ status: string; collection_mode: string; customer_id: string | null }>(
    "SELECT status, collection_mode, customer_id FROM transactions WHERE id = $1 FOR UPDATE",
    [id],
    client,
  );
  if (!t) throw notFound(id);
  if (t.status !== "ready" || t.collection_mode !== "automatic") {
    throw new ApiError(
      "transaction_not_payable",
      `Transaction ${id} is ${t.status}${t.collection_mode === "manual" ? " and manually collected" : ""}: only a ready, automatically-collected transaction can be charged to a saved payment method.`,
    );
  }
  const [owner] = await query<{ customer_id: string }>(
    "SELECT customer_id FROM payment_methods WHERE id = $1",
    [paymentMethodId],
    client,
  );
  const saved = owner?.customer_id === t.customer_id ? await savedCard(client, paymentMethodId) : null;
  if (!saved) {
    throw invalidField("payment_method_id", `is not a saved payment method of customer ${t.customer_id}`);
  }
  return saved as ChargeableCard;
}

export async function chargeSavedMethod(id: string, paymentMethodId: string): Promise<RawJson<Transaction>> {
  await offSessionScope(
    () =>
      sqlTransaction(async (client) => {
        const saved = await check(client, id, paymentMethodId);
        return chargeSavedCard(client, id, saved, new Date(), false);
      }),
    () => undefined,
  );
  return getTransaction(id);
}
