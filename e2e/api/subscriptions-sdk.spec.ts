/**
 * The Node SDK of the API family, pointed at our base URL, lists and reads a subscription bought at
 * our checkout, its customer's saved payment methods and credit balances.
 */
import { expect, test } from "@playwright/test";
import { sdk, subscribeAtCheckout } from "./sdk-helpers";

test("the Node SDK lists and reads subscriptions, payment methods and credit balances", async () => {
  const paddle = sdk();
  const { subscriptionId, customer, price } = await subscribeAtCheckout(paddle, { quantity: 2 });

  const subscription = await paddle.subscriptions.get(subscriptionId);
  expect(subscription.status).toBe("active");
  expect(subscription.customerId).toBe(customer.id);
  expect(subscription.collectionMode).toBe("automatic");
  expect(subscription.billingCycle).toEqual({ interval: "month", frequency: 1 });
  expect(subscription.items[0]!.quantity).toBe(2);
  expect(subscription.items[0]!.price.id).toBe(price.id);
  expect(subscription.currentBillingPeriod?.endsAt).toBe(subscription.nextBilledAt);
  expect(subscription.managementUrls?.cancel).toContain(subscriptionId);

  const listed = await paddle.subscriptions.list({ customerId: [customer.id] }).next();
  expect(listed.map((s) => s.id)).toEqual([subscriptionId]);

  const methods = await paddle.paymentMethods.list(customer.id).next();
  expect(methods).toHaveLength(1);
  expect(methods[0]!.card?.last4).toBe("4242");
  expect(methods[0]!.origin).toBe("subscription");
  const method = await paddle.paymentMethods.get(customer.id, methods[0]!.id);
  expect(method.id).toBe(methods[0]!.id);

  expect(await paddle.customers.getCreditBalance(customer.id)).toEqual([]);
});
