/**
 * Subscriptions for tests, made the way the product makes them: a ready automatically-collected
 * transaction with recurring items paid at the hosted checkout (lib/services/payments/checkout.ts), or a
 * manual invoice with recurring items issued (PATCH status billed).
 */
import { expect } from "vitest";
import * as subscriptionItem from "@/app/api/subscriptions/[subscription_id]/route";
import type { CardPaymentInput } from "../../schemas/payment.ts";
import { payAtCheckout } from "../../services/payments/checkout.ts";
import { getTransaction } from "../../services/transactions/get.ts";
import { TEST_CARD } from "./adjustments.ts";
import { call } from "./api.ts";
import { admin } from "./resource.ts";
import { MANUAL_TERMS, makeBuyer, makePrice, makeTransaction, transactions } from "./transactions.ts";

type Body = Record<string, unknown>;
type Entity = Record<string, any>;

/** The sandbox card that pays at checkout and declines every later charge of its saved copy. */
export const DECLINES_LATER_CARD: CardPaymentInput = { ...TEST_CARD, number: "4000 0000 0000 0341" };

/** A recurring USD price: by default 30.00 a month, tax-exclusive. */
export function makeRecurringPrice(body: Body = {}): Promise<Entity> {
  return makePrice({
    description: "Monthly plan",
    unit_price: { amount: "3000", currency_code: "USD" },
    billing_cycle: { interval: "month", frequency: 1 },
    ...body,
  });
}

export async function getSubscriptionJson(id: string, query = ""): Promise<Entity> {
  const res = await call(subscriptionItem.GET, "GET", `/subscriptions/${id}${query}`, {
    key: await admin(),
    params: { subscription_id: id },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/**
 * A subscription bought at checkout: a new buyer, `quantity` of `price` (a new monthly price by
 * default) and any `extra` transaction fields, paid with `card`. Returns it with its transaction.
 */
export async function subscribeAtCheckout(
  options: { price?: Entity; quantity?: number; card?: CardPaymentInput; extra?: Body; country?: string } = {},
): Promise<{ subscription: Entity; transaction: Entity; customer: Entity; address: Entity }> {
  const { customer, address } = await makeBuyer(options.country ?? "US");
  const price = options.price ?? (await makeRecurringPrice());
  const txn = await makeTransaction({
    items: [{ price_id: price.id, quantity: options.quantity ?? 1 }],
    customer_id: customer.id,
    address_id: address.id,
    ...options.extra,
  });
  const result = await payAtCheckout(txn.id, options.card ?? TEST_CARD);
  expect(result.transaction_status).toBe("completed");
  const transaction = (await getTransaction(txn.id)).parse() as Entity;
  expect(transaction.subscription_id).toMatch(/^sub_/);
  const subscription = await getSubscriptionJson(transaction.subscription_id);
  return { subscription, transaction, customer, address };
}

/** A manually-collected subscription: a manual invoice with a monthly price, issued. */
export async function subscribeByInvoice(
  options: { price?: Entity; quantity?: number } = {},
): Promise<{ subscription: Entity; transaction: Entity }> {
  const { customer, address } = await makeBuyer("US");
  const price = options.price ?? (await makeRecurringPrice());
  const txn = await makeTransaction({
    items: [{ price_id: price.id, quantity: options.quantity ?? 1 }],
    customer_id: customer.id,
    address_id: address.id,
    collection_mode: "manual",
    billing_details: MANUAL_TERMS,
  });
  const billed = await transactions.update(txn.id, { status: "billed" });
  expect(billed.status, JSON.stringify(billed.body)).toBe(200);
  const transaction = billed.body.data as Entity;
  expect(transaction.subscription_id).toMatch(/^sub_/);
  return { subscription: await getSubscriptionJson(transaction.subscription_id), transaction };
}
