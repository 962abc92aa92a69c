/**
 * The official Node SDK of the API family, pointed at our base URL, drives a subscription's
 * actions over HTTP unchanged: activate a trial, pause (scheduled and now), resume, cancel, and
 * reads our refusals as its errors.
 */
import type { Paddle } from "@paddle/paddle-node-sdk";
import { expect, test } from "@playwright/test";
import { cliApiKey } from "../cli";
import { baseURL } from "../playwright.config";
import { sdk } from "./sdk-helpers";

const CARD = { cardholder_name: "Sam Buyer", number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" };

/** A subscription bought at the hosted checkout (its payment posted as the checkout page does). */
async function subscribe(paddle: Paddle, trialDays?: number): Promise<string> {
  const product = await paddle.products.create({ name: `Plan ${Date.now()}`, taxCategory: "standard" });
  const price = await paddle.prices.create({
    productId: product.id,
    description: "Monthly",
    unitPrice: { amount: "3000", currencyCode: "USD" },
    billingCycle: { interval: "month", frequency: 1 },
    ...(trialDays ? { trialPeriod: { interval: "day", frequency: trialDays } } : {}),
  });
  const customer = await paddle.customers.create({ email: `sub-${Date.now()}@example.com` });
  const address = await paddle.addresses.create(customer.id, { countryCode: "US", postalCode: "10001" });
  const txn = await paddle.transactions.create({
    items: [{ priceId: price.id, quantity: 1 }],
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
  return completed.subscriptionId as string;
}

test("the Node SDK activates a trial, schedules a pause, and cancels", async () => {
  const paddle = sdk(cliApiKey());
  const id = await subscribe(paddle, 14);
  expect((await paddle.subscriptions.get(id)).status).toBe("trialing");

  const active = await paddle.subscriptions.activate(id);
  expect(active.status).toBe("active");
  expect(active.firstBilledAt).toBe(active.currentBillingPeriod?.startsAt);

  const pausing = await paddle.subscriptions.pause(id, { effectiveFrom: "next_billing_period" });
  expect(pausing.status).toBe("active");
  expect(pausing.scheduledChange).toMatchObject({ action: "pause", effectiveAt: active.nextBilledAt, resumeAt: null });

  // A second pause is refused with the family's code, surfaced by the SDK.
  await expect(paddle.subscriptions.pause(id, {})).rejects.toMatchObject({
    code: "subscription_locked_pending_changes",
  });

  const canceled = await paddle.subscriptions.cancel(id, { effectiveFrom: "immediately" });
  expect(canceled.status).toBe("canceled");
  expect(canceled.canceledAt).not.toBeNull();
  await expect(paddle.subscriptions.activate(id)).rejects.toMatchObject({ code: "subscription_cannot_activate" });
});

test("the Node SDK pauses now with a resume date, resumes now, and cancels at the period's end", async () => {
  const paddle = sdk(cliApiKey());
  const id = await subscribe(paddle);
  await expect(paddle.subscriptions.resume(id, { effectiveFrom: "immediately" })).rejects.toMatchObject({
    code: "subscription_must_be_paused",
  });

  const resumeAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const paused = await paddle.subscriptions.pause(id, { effectiveFrom: "immediately", resumeAt });
  expect(paused.status).toBe("paused");
  expect(paused.currentBillingPeriod).toBeNull();
  expect(paused.scheduledChange?.action).toBe("resume");

  const resumed = await paddle.subscriptions.resume(id, { effectiveFrom: "immediately" });
  expect(resumed.status).toBe("active");
  expect(resumed.scheduledChange).toBeNull();

  const ending = await paddle.subscriptions.cancel(id, {});
  expect(ending.status).toBe("active");
  expect(ending.scheduledChange).toMatchObject({ action: "cancel", effectiveAt: resumed.nextBilledAt });

  // The SDK's read-only key is refused the write.
  await expect(sdk(cliApiKey(["subscription.read"])).subscriptions.cancel(id, {})).rejects.toMatchObject({
    code: "forbidden",
  });
});
