/**
 * GET /subscriptions/{id}/update-payment-method-transaction: a zero transaction whose checkout saves
 * a new card for the subscription, or the past-due transaction whose payment recovers it.
 */
import { describe, expect, it } from "vitest";
import * as paymentMethodTransaction from "@/app/api/subscriptions/[subscription_id]/update-payment-method-transaction/route";
import { query } from "@/lib/db/sql";
import { TEST_CARD } from "@/lib/dev/test/adjustments";
import { call, expectError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { events, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import { advanceTo, lastTransaction, MINUTE, transactionsOf } from "@/lib/dev/test/subscription-updates";
import {
  DECLINES_LATER_CARD,
  getSubscriptionJson,
  subscribeAtCheckout,
  subscribeByInvoice,
} from "@/lib/dev/test/subscriptions";
import { payAtCheckout } from "@/lib/services/payments/checkout";

async function get(id: string, key?: string | null) {
  return call(paymentMethodTransaction.GET, "GET", `/subscriptions/${id}/update-payment-method-transaction`, {
    key: key === undefined ? await admin() : key,
    params: { subscription_id: id },
  });
}

const savedCardOf = async (id: string) =>
  (
    await query<{ payment_method_id: string | null }>("SELECT payment_method_id FROM subscriptions WHERE id = $1", [id])
  )[0]!.payment_method_id;

describe("GET /subscriptions/{id}/update-payment-method-transaction", () => {
  it("an active subscription gets a ready zero transaction; paying it saves the card the renewals then charge", async () => {
    const { subscription } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD, quantity: 2 });
    const oldCard = await savedCardOf(subscription.id);
    const res = await get(subscription.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const txn = res.body.data;
    expect(txn).toMatchObject({
      status: "ready",
      origin: "subscription_payment_method_change",
      subscription_id: subscription.id,
      customer_id: subscription.customer_id,
      address_id: subscription.address_id,
      collection_mode: "automatic",
    });
    expect(txn.billing_period.starts_at).toBe(txn.billing_period.ends_at);
    expect(txn.checkout.url).toContain(txn.id);
    expect(txn.items).toHaveLength(1);
    expect(txn.items[0]).toMatchObject({ price_id: subscription.items[0].price.id, quantity: 2 });
    expect(txn.details.totals).toMatchObject({ subtotal: "0", total: "0", grand_total: "0", balance: "0" });
    expect(txn.details.line_items[0].totals.total).toBe("0");
    expect((await events(txn.id)).map((e) => e.eventType)).toEqual(["transaction.created", "transaction.ready"]);
    // Asked again before it is used: the same transaction.
    expect((await get(subscription.id)).body.data.id).toBe(txn.id);

    const paid = await payAtCheckout(txn.id, TEST_CARD);
    expect(paid.transaction_status).toBe("completed");
    expect(paid.payment.amount).toBe("0");
    const newCard = await savedCardOf(subscription.id);
    expect(newCard).not.toBe(oldCard);
    expect(paid.payment.stored_payment_method_id).toBe(newCard);
    // The renewal charges the new card (the old one declines every later charge).
    await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + MINUTE));
    expect((await getSubscriptionJson(subscription.id)).status).toBe("active");
    const renewal = await lastTransaction(subscription.id);
    expect(renewal).toMatchObject({ origin: "subscription_recurring", status: "completed" });
    expect(renewal.payments[0]!.stored_payment_method_id).toBe(newCard);
    // Used up: the next request makes a new one.
    expect((await get(subscription.id)).body.data.id).not.toBe(txn.id);
  });

  it("a past-due subscription gets its past-due transaction, whose payment recovers it", async () => {
    const { subscription } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD });
    await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + MINUTE));
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.status).toBe("past_due");
    const res = await get(subscription.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: renewal.id, status: "past_due" });
    expect(res.body.data.checkout.url).toContain(renewal.id);
    await payAtCheckout(renewal.id, TEST_CARD);
    expect((await getSubscriptionJson(subscription.id)).status).toBe("active");
    expect(await transactionsOf(subscription.id)).toHaveLength(2);
  });

  it("includes the customer, address and adjustments' totals the key may read, and the payment methods, as the family", async () => {
    const { subscription, customer, address } = await subscribeAtCheckout();
    const all = (await get(subscription.id)).body.data;
    // No business, discount or adjustments: left out, as the family leaves them.
    expect(Object.keys(all).slice(-4)).toEqual([
      "address",
      "adjustments_totals",
      "customer",
      "available_payment_methods",
    ]);
    expect(all.customer).toMatchObject({ id: customer.id, email: customer.email });
    expect(all.address).toMatchObject({ id: address.id, country_code: address.country_code });
    expect(all.adjustments_totals).toMatchObject({
      total: "0",
      breakdown: { credit: "0", refund: "0", chargeback: "0" },
    });
    expect(all.available_payment_methods).toEqual(["card"]);
    // A key that may read none of them gets the payment methods alone.
    const narrow = (await get(subscription.id, await testKey(["transaction.write"]))).body.data;
    expect(Object.keys(narrow).at(-1)).toBe("available_payment_methods");
    for (const name of ["customer", "address", "adjustments_totals"]) expect(narrow).not.toHaveProperty(name);
    const withCustomer = (await get(subscription.id, await testKey(["transaction.write", "customer.read"]))).body.data;
    expect(withCustomer.customer.id).toBe(customer.id);
    expect(withCustomer).not.toHaveProperty("address");
    // The events carry the transaction alone.
    for (const event of await events(all.id)) expect(event.data).not.toHaveProperty("customer");
  });

  it("refuses manual and canceled subscriptions; needs transaction.write; 404 for unknown IDs", async () => {
    const manual = await subscribeByInvoice();
    expectError(await get(manual.subscription.id), 400, "subscription_not_automatic_collection");
    const { subscription } = await subscribeAtCheckout();
    expectError(
      await get(subscription.id, await testKey(["subscription.read", "subscription.write"])),
      403,
      "forbidden",
    );
    expectError(await get(subscription.id, await testKey(permissionsWithout("transaction."))), 403, "forbidden");
    expect((await get(subscription.id, await testKey(["transaction.write"]))).status).toBe(200);
    expectError(await get(subscription.id, null), 401, "invalid_token");
    expectNotFound(await get("sub_01hzzzzzzzzzzzzzzzzzzzzzzz"));
    expectNotFound(await get("nope"));
    await query("UPDATE subscriptions SET status = 'canceled' WHERE id = $1", [subscription.id]);
    expectError(await get(subscription.id), 400, "subscription_is_canceled_action_invalid");
  });
});
