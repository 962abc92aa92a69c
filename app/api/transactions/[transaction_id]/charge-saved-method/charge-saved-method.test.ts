/** Ours: a new subscription charged to a saved card, or its checkout link emailed (real handlers, real database). */
import { describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, expectNotFound } from "@/lib/dev/test/api";
import { expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import {
  DECLINES_LATER_CARD,
  getSubscriptionJson,
  makeRecurringPrice,
  subscribeAtCheckout,
} from "@/lib/dev/test/subscriptions";
import { MANUAL_TERMS, makeTransaction } from "@/lib/dev/test/transactions";
import * as email from "../checkout-email/route";
import * as charge from "./route";

type Entity = Record<string, any>;

async function chargeIt(id: string, body: unknown, key?: string | null) {
  return call(charge.POST as never, "POST", `/transactions/${id}/charge-saved-method`, {
    key: key === undefined ? await admin() : key,
    body,
    params: { transaction_id: id },
  });
}

async function emailIt(id: string, key?: string | null) {
  return call(email.POST as never, "POST", `/transactions/${id}/checkout-email`, {
    key: key === undefined ? await admin() : key,
    params: { transaction_id: id },
  });
}

async function methodOf(subscriptionId: string): Promise<string | null> {
  const [row] = await query<{ payment_method_id: string | null }>(
    "SELECT payment_method_id FROM subscriptions WHERE id = $1",
    [subscriptionId],
  );
  return row!.payment_method_id;
}

/** A customer who bought once (so has a saved card) and a ready transaction for a new monthly plan. */
async function returningCustomer(card?: typeof DECLINES_LATER_CARD, priceBody: Entity = {}) {
  const first = await subscribeAtCheckout(card ? { card } : {});
  const { id: methodId } = (
    await query<{ id: string }>("SELECT id FROM payment_methods WHERE customer_id = $1", [first.customer.id])
  )[0]!;
  const price = await makeRecurringPrice({ unit_price: { amount: "5000", currency_code: "USD" }, ...priceBody });
  const txn = await makeTransaction({
    items: [{ price_id: price.id, quantity: 2 }],
    customer_id: first.customer.id,
    address_id: first.address.id,
  });
  return { first, methodId, txn, price };
}

describe("POST /transactions/{id}/charge-saved-method", () => {
  it("charges the saved card: the transaction completes and its subscription starts on that card", async () => {
    const { methodId, txn, first } = await returningCustomer();
    const res = await chargeIt(txn.id, { payment_method_id: methodId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id: txn.id, status: "completed" });
    expect(res.body.data.payments[0]).toMatchObject({
      status: "captured",
      amount: "10000",
      payment_method_id: methodId,
    });
    const sub = await getSubscriptionJson(res.body.data.subscription_id);
    expect(sub).toMatchObject({ status: "active", customer_id: first.customer.id });
    expect(sub.id).not.toBe(first.subscription.id);
    expect(await methodOf(sub.id)).toBe(methodId);
  });

  it("a trial owes nothing today: completed at once, the card kept for the renewals", async () => {
    const { methodId, txn } = await returningCustomer(undefined, { trial_period: { interval: "day", frequency: 14 } });
    const res = await chargeIt(txn.id, { payment_method_id: methodId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe("completed");
    const sub = await getSubscriptionJson(res.body.data.subscription_id);
    expect(sub.status).toBe("trialing");
    expect(await methodOf(sub.id)).toBe(methodId);
  });

  it("a decline leaves the transaction ready with the failed attempt; nothing starts", async () => {
    const { methodId, txn } = await returningCustomer(DECLINES_LATER_CARD);
    const res = await chargeIt(txn.id, { payment_method_id: methodId });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("ready");
    expect(res.body.data.subscription_id).toBeNull();
    expect(res.body.data.payments[0]).toMatchObject({ status: "error", error_code: "declined" });
  });

  it("refuses another customer's method, a manual or finished transaction, bad bodies; 404; 403", async () => {
    const { methodId, txn } = await returningCustomer();
    const other = await returningCustomer();
    expectFieldError(await chargeIt(txn.id, { payment_method_id: other.methodId }), "payment_method_id");
    expectFieldError(
      await chargeIt(txn.id, { payment_method_id: "paymtd_00000000000000000000000000" }),
      "payment_method_id",
    );
    expectFieldError(await chargeIt(txn.id, { payment_method_id: "card" }), "payment_method_id");
    expectFieldError(await chargeIt(txn.id, {}), "payment_method_id");
    expectFieldError(await chargeIt(txn.id, { payment_method_id: methodId, amount: "1" }), "amount");
    const manual = await makeTransaction({
      items: [{ price_id: other.price.id, quantity: 1 }],
      customer_id: other.first.customer.id,
      address_id: other.first.address.id,
      collection_mode: "manual",
      billing_details: MANUAL_TERMS,
    });
    expectError(await chargeIt(manual.id, { payment_method_id: other.methodId }), 400, "transaction_not_payable");
    expectError(
      await chargeIt(other.first.transaction.id, { payment_method_id: other.methodId }),
      400,
      "transaction_not_payable",
    );
    expectNotFound(await chargeIt("txn_00000000000000000000000000", { payment_method_id: methodId }));
    await expectPermission((key) => chargeIt(txn.id, { payment_method_id: methodId }, key), {
      permission: "transaction.write",
      denied: [["transaction.read"], permissionsWithout("transaction.")],
    });
  });
});

describe("POST /transactions/{id}/checkout-email", () => {
  it("emails the customer the checkout link (202), once per call; refuses what the checkout cannot take", async () => {
    const { txn, first } = await returningCustomer();
    const res = await emailIt(txn.id);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({ to: first.customer.email, status: "pending" });
    const [row] = await query<{ template: string; subject: string; text_body: string }>(
      "SELECT template, subject, text_body FROM emails WHERE id = $1",
      [res.body.data.id],
    );
    expect(row!.template).toBe("checkout_link");
    expect(row!.subject).toContain("Start your subscription");
    expect(row!.text_body).toContain(`/checkout?_ptxn=${txn.id}`);
    expect(row!.text_body).toContain("$100.00");
    expectError(await emailIt(first.transaction.id), 400, "transaction_not_payable");
    expectNotFound(await emailIt("txn_00000000000000000000000000"));
    await expectPermission((key) => emailIt(txn.id, key), {
      permission: "transaction.write",
      denied: [["transaction.read"], permissionsWithout("transaction.")],
      status: 202,
    });
  });
});
