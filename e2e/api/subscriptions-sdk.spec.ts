/**
 * The Node SDK of the API family, pointed at our base URL, runs every subscription operation, the
 * customers' payment methods and credit balances against a subscription bought at our checkout.
 */
import type { Paddle } from "@paddle/paddle-node-sdk";
import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { sdk } from "./sdk-helpers";

const CARD = { cardholder_name: "Ada Buyer", number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" };

/** A monthly subscription bought at the hosted checkout (public endpoint, over HTTP). */
async function subscribe(paddle: Paddle, quantity = 1) {
  const product = await paddle.products.create({ name: `SDK plan ${Date.now()}`, taxCategory: "standard" });
  const price = await paddle.prices.create({
    productId: product.id,
    description: "Monthly",
    unitPrice: { amount: "3000", currencyCode: "USD" },
    billingCycle: { interval: "month", frequency: 1 },
  });
  const customer = await paddle.customers.create({ email: `sdk-sub-${Date.now()}@example.com`, name: "Ada Buyer" });
  const address = await paddle.addresses.create(customer.id, { countryCode: "US", postalCode: "10001" });
  const txn = await paddle.transactions.create({
    items: [{ priceId: price.id, quantity }],
    customerId: customer.id,
    addressId: address.id,
  });
  const paid = await fetch(`${baseURL}/api/checkout/${txn.id}/payments`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(CARD),
  });
  expect(paid.status).toBe(201);
  const completed = await paddle.transactions.get(txn.id);
  expect(completed.subscriptionId).toMatch(/^sub_/);
  return { subscriptionId: completed.subscriptionId as string, customer, price };
}

test("the Node SDK lists and reads subscriptions, payment methods and credit balances", async () => {
  const paddle = sdk();
  const { subscriptionId, customer, price } = await subscribe(paddle, 2);

  const subscription = await paddle.subscriptions.get(subscriptionId);
  expect(subscription.status).toBe("active");
  expect(subscription.customerId).toBe(customer.id);
  expect(subscription.collectionMode).toBe("automatic");
  expect(subscription.billingCycle).toEqual({ interval: "month", frequency: 1 });
  expect(subscription.items[0].quantity).toBe(2);
  expect(subscription.items[0].price.id).toBe(price.id);
  expect(subscription.currentBillingPeriod?.endsAt).toBe(subscription.nextBilledAt);
  expect(subscription.managementUrls?.cancel).toContain(subscriptionId);

  const listed = await paddle.subscriptions.list({ customerId: [customer.id] }).next();
  expect(listed.map((s) => s.id)).toEqual([subscriptionId]);

  const methods = await paddle.paymentMethods.list(customer.id).next();
  expect(methods).toHaveLength(1);
  expect(methods[0].card?.last4).toBe("4242");
  expect(methods[0].origin).toBe("subscription");
  const method = await paddle.paymentMethods.get(customer.id, methods[0].id);
  expect(method.id).toBe(methods[0].id);

  expect(await paddle.customers.getCreditBalance(customer.id)).toEqual([]);
});
