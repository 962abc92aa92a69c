/** What the checkout says a subscription costs after today (app/checkout/recurring-terms.ts). */
import { describe, expect, it } from "vitest";
import { advanceTo, lastTransaction, MINUTE } from "@/lib/dev/test/subscription-updates";
import { DECLINES_LATER_CARD, makeRecurringPrice, subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import { MANUAL_TERMS, makeBuyer, makePrice, makeReady, makeTransaction } from "@/lib/dev/test/transactions";
import { recurringTerms } from "./recurring-terms";

async function purchase(price: Record<string, any>, extra: Record<string, unknown> = {}, quantity = 2) {
  const { customer, address } = await makeBuyer("US");
  return makeTransaction({
    items: [{ price_id: price.id, quantity }],
    customer_id: customer.id,
    address_id: address.id,
    ...extra,
  });
}

describe("recurringTerms", () => {
  it("none for one-time items", async () => {
    expect(await recurringTerms((await makeReady()).id)).toBeNull();
  });

  it("a new subscription: the recurring lines' total each cycle, card saved", async () => {
    const txn = await purchase(await makeRecurringPrice());
    expect(await recurringTerms(txn.id)).toEqual({
      amount: "6000",
      cycle: { interval: "month", frequency: 1 },
      trial: null,
      next_at: null,
      kind: "purchase",
      collection: "automatic",
    });
  });

  it("a trial: nothing today, the first renewal priced with trials ignored", async () => {
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
    const txn = await purchase(price);
    expect(txn.details.totals.grand_total).toBe("0");
    expect(await recurringTerms(txn.id)).toMatchObject({
      amount: "6000",
      trial: { interval: "day", frequency: 14 },
      kind: "purchase",
    });
  });

  it("a manual invoice with checkout: renewals are invoiced", async () => {
    const txn = await purchase(await makeRecurringPrice(), {
      collection_mode: "manual",
      billing_details: { ...MANUAL_TERMS, enable_checkout: true },
    });
    expect(await recurringTerms(txn.id)).toMatchObject({ amount: "6000", collection: "manual" });
  });

  it("a past-due renewal: the subscription's renewal and its next date", async () => {
    const { subscription } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD });
    await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + MINUTE));
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.status).toBe("past_due");
    const terms = await recurringTerms(renewal.id);
    expect(terms).toMatchObject({ amount: "3000", kind: "existing", collection: "automatic", trial: null });
    expect(terms?.next_at).toMatch(/^\d{4}-/);
  });

  it("a one-time price beside a recurring one counts only the recurring one", async () => {
    const recurring = await makeRecurringPrice();
    const once = await makePrice({ unit_price: { amount: "900", currency_code: "USD" } });
    const { customer, address } = await makeBuyer("US");
    const txn = await makeTransaction({
      items: [
        { price_id: recurring.id, quantity: 1 },
        { price_id: once.id, quantity: 1 },
      ],
      customer_id: customer.id,
      address_id: address.id,
    });
    expect(await recurringTerms(txn.id)).toMatchObject({ amount: "3000" });
  });
});
