/**
 * The Node SDK of the API family, pointed at our base URL, changes a subscription: previews and
 * applies an upgrade, reads the previews that `include` adds, previews and adds a one-time charge,
 * and asks for the update-payment-method transaction — each answer parsed by the SDK's own types.
 */
import { expect, test } from "@playwright/test";
import { cliApiKey } from "../cli";
import { baseURL } from "../playwright.config";
import { sdk, subscribeAtCheckout } from "./sdk-helpers";

const DAY = 86_400_000;

test("the Node SDK previews and applies changes and one-time charges, and gets the payment-method transaction", async () => {
  const key = cliApiKey();
  const paddle = sdk(key);
  const { subscriptionId, product, price } = await subscribeAtCheckout(paddle);
  const started = await paddle.subscriptions.get(subscriptionId);
  // The sandbox test clock: 10 days into the period, the same "now" for every request below.
  const moved = await fetch(`${baseURL}/api/subscriptions/${subscriptionId}/test-clock/advance`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ to: new Date(Date.parse(started.startedAt as string) + 10 * DAY).toISOString() }),
  });
  expect(moved.status).toBe(200);

  const change = {
    items: [{ priceId: price.id, quantity: 3 }],
    prorationBillingMode: "prorated_immediately" as const,
  };
  const preview = await paddle.subscriptions.previewUpdate(subscriptionId, change);
  expect(preview.items[0]!.quantity).toBe(3);
  expect(preview.immediateTransaction?.details.lineItems[0]?.quantity).toBe(2);
  expect(preview.updateSummary?.result.action).toBe("charge");
  expect(preview.nextTransaction?.details.totals.total).toBe("9000");
  expect(preview.recurringTransactionDetails?.totals.total).toBe("9000");

  const updated = await paddle.subscriptions.update(subscriptionId, change);
  expect(updated.items[0]!.quantity).toBe(3);
  const billed = await paddle.transactions
    .list({ subscriptionId: [subscriptionId], origin: ["subscription_update"] })
    .next();
  expect(billed).toHaveLength(1);
  expect(billed[0]!.status).toBe("completed");
  expect(billed[0]!.details?.totals?.total).toBe(preview.immediateTransaction?.details.totals.total);

  const oneTime = await paddle.prices.create({
    productId: product.id,
    description: "Setup",
    unitPrice: { amount: "1500", currencyCode: "USD" },
  });
  const charge = { effectiveFrom: "next_billing_period" as const, items: [{ priceId: oneTime.id, quantity: 1 }] };
  const chargePreview = await paddle.subscriptions.previewOneTimeCharge(subscriptionId, charge);
  expect(chargePreview.immediateTransaction).toBeNull();
  expect(chargePreview.nextTransaction?.details.totals.total).toBe("10500");
  const charged = await paddle.subscriptions.createOneTimeCharge(subscriptionId, charge);
  expect(charged.id).toBe(subscriptionId);

  const withPreviews = await paddle.subscriptions.get(subscriptionId, {
    include: ["next_transaction", "recurring_transaction_details"],
  });
  expect(withPreviews.nextTransaction?.details.totals.total).toBe("10500");
  expect(withPreviews.nextTransaction?.billingPeriod.startsAt).toBe(withPreviews.nextBilledAt);
  expect(withPreviews.recurringTransactionDetails?.totals.total).toBe("9000");

  const pmTxn = await paddle.subscriptions.getPaymentMethodChangeTransaction(subscriptionId);
  expect(pmTxn.origin).toBe("subscription_payment_method_change");
  expect(pmTxn.status).toBe("ready");
  expect(pmTxn.billingPeriod?.startsAt).toBe(pmTxn.billingPeriod?.endsAt);
  expect(pmTxn.checkout?.url).toContain(pmTxn.id);
});
