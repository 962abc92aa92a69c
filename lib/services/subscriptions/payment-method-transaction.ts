/**
 * GET /subscriptions/{id}/update-payment-method-transaction (decision: payment-method-transaction; permission
 * transaction.write): the transaction whose hosted checkout lets the customer give the subscription
 * a new card.
 * - past_due: the latest past-due transaction. Paying it at the checkout collects what is owed,
 *   saves the card as the subscription's payment method, and recovers the subscription
 *   (lib/services/payments/checkout.ts payAtCheckout, then the one completion,
 *   lib/services/payments/completion.ts).
 * - otherwise: a zero-value transaction, `ready`, origin subscription_payment_method_change, for
 *   the subscription's customer, address and items, with `billing_period` starts_at == ends_at ==
 *   now (the subscription's clock) and `checkout.url`. All its items and totals are zero, as in the
 *   API family: the items say what the card is for, each priced at nothing. Paying it at the
 *   checkout (a payment of 0) saves the card as the subscription's payment method and completes it.
 *
 * The answer includes, as the API family's does, the transaction's customer, address, business,
 * discount, adjustments and adjustments' totals when the caller may read them (and, for the business,
 * discount and adjustments, when there are any), and the payment methods the checkout offers.
 *
 * Decisions: only automatically-collected subscriptions (subscription_not_automatic_collection) that
 * are not canceled (subscription-states.ts). A GET should not pile up transactions: while an
 * earlier payment-method transaction of the subscription is still `ready`, that one is answered
 * (its billing_period says when it was made). Paused and trialing subscriptions get one too (a
 * customer updates a card to come back, or before a trial ends).
 */
import { refusal } from "../../billing/subscription-states.ts";
import { pool } from "../../db/connection.ts";
import { TRANSACTION, transactionEntity } from "../../db/entities/transaction.ts";
import { getJson, insertJson, query, type RawJson, sqlTransaction, storableJson } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Transaction, TransactionInclude } from "../../schemas/transaction.ts";
import { taxContext, transactionDetails } from "../transactions/details.ts";
import { type ResolvedItem, writeItems } from "../transactions/items.ts";
import { lineItems, subscriptionCountry, subscriptionNow } from "./billing.ts";
import { runDue } from "./engine.ts";
import { periodLines } from "./lifecycle.ts";
import { refuse } from "./operation.ts";
import { lockSubscription, readSubscription } from "./store.ts";

/** The price as the line is charged: nothing (the item keeps its real price). */
function atNoCharge(item: ResolvedItem): ResolvedItem {
  const zero = (money: { currency_code: string }) => ({ amount: "0", currency_code: money.currency_code });
  return {
    ...item,
    price: {
      ...item.price,
      unit_price: zero(item.price.unit_price),
      unit_price_overrides: item.price.unit_price_overrides.map((o) => ({ ...o, unit_price: zero(o.unit_price) })),
    },
  };
}

/** What the answer includes, by the permission each needs (the family: "only returned if the API key has …"). */
const INCLUDED_WITH: readonly [TransactionInclude, string | null][] = [
  ["customer", "customer.read"],
  ["address", "address.read"],
  ["business", "business.read"],
  ["discount", "discount.read"],
  ["adjustments", "adjustment.read"],
  ["adjustments_totals", "adjustment.read"],
  ["available_payment_methods", null],
];

/** The `include` of the answer for a caller holding `permissions` (write implies read: already expanded). */
export function paymentMethodTransactionIncludes(permissions: ReadonlySet<string>): TransactionInclude[] {
  return INCLUDED_WITH.filter(([, needs]) => needs === null || permissions.has(needs)).map(([name]) => name);
}

/** The transaction; `permissions`, the caller's, choose what it includes (none: internal callers). */
export async function paymentMethodTransaction(
  id: string,
  permissions: ReadonlySet<string> = new Set(),
): Promise<RawJson<Transaction>> {
  const entity = transactionEntity(paymentMethodTransactionIncludes(permissions));
  // The engine first catches the subscription up to its "now" (a renewal that just failed makes it
  // past_due: its transaction is then the one to pay), as the subscription operations do.
  await runDue(id, subscriptionNow(await readSubscription(pool(), id)));
  return sqlTransaction(async (client) => {
    const sub = await lockSubscription(client, id);
    refuse(refusal("update_payment_method", sub));
    const byId = async (txnId: string) => {
      const json = await getJson(entity, "t.id = $1", [txnId], client);
      if (!json) throw notFound(txnId);
      return json;
    };
    if (sub.status === "past_due") {
      const [due] = await query<{ id: string }>(
        "SELECT id FROM transactions WHERE subscription_id = $1 AND status = 'past_due' ORDER BY id DESC LIMIT 1",
        [id],
        client,
      );
      if (due) return byId(due.id);
    }
    const [open] = await query<{ id: string }>(
      `SELECT id FROM transactions WHERE subscription_id = $1 AND status = 'ready'
          AND origin = 'subscription_payment_method_change' ORDER BY id DESC LIMIT 1`,
      [id],
      client,
    );
    if (open) return byId(open.id);

    const at = subscriptionNow(sub);
    const { lines, pendingIds } = await periodLines(client, id, false);
    const items = lineItems(lines.slice(0, lines.length - pendingIds.length));
    const txnId = newId("txn");
    await writeItems(client, txnId, items);
    const details = transactionDetails(items.map(atNoCharge), {
      currency: sub.currency_code,
      tax: await taxContext(await subscriptionCountry(client, sub.address_id), client),
      discount: null,
      ignoreTrials: true,
    });
    // The events carry the transaction alone; the answer is read again with what it includes.
    await insertJson(
      TRANSACTION,
      {
        id: txnId,
        status: "ready",
        customer_id: sub.customer_id,
        address_id: sub.address_id,
        business_id: sub.business_id,
        custom_data: null,
        currency_code: sub.currency_code,
        origin: "subscription_payment_method_change",
        subscription_id: id,
        collection_mode: "automatic",
        discount_id: null,
        billing_details: null,
        billing_period_starts_at: at,
        billing_period_ends_at: at,
        details: storableJson(details),
        payments: "[]",
        checkout: null,
      },
      ["transaction.created", "transaction.ready"],
      client,
    );
    return byId(txnId);
  });
}
