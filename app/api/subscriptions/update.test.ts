/**
 * PATCH /subscriptions/{id} and its preview: every proration mode, the refusals with their codes,
 * preview == apply, credits to the customer's balance and their use by the renewal, payment failure
 * both ways, next_billed_at, discounts, customers, collection modes, the renewal lock, limits and
 * hostile input.
 */
import { describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { events, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import {
  advanceTo,
  asPreview,
  billedTotals,
  comparable,
  creditBalance,
  DAY,
  getWith,
  lastTransaction,
  MINUTE,
  patchSubscription as patch,
  pendingLines,
  previewUpdate as preview,
  setClock,
  subscribed,
  transactionsOf,
} from "@/lib/dev/test/subscription-updates";
import {
  DECLINES_LATER_CARD,
  getSubscriptionJson,
  makeRecurringPrice,
  subscribeByInvoice,
} from "@/lib/dev/test/subscriptions";
import {
  archivePrice,
  makeAddress,
  makeBusiness,
  makeBuyer,
  makeDiscount,
  makePrice,
} from "@/lib/dev/test/transactions";
import { subscriptionPreviewSchema, subscriptionSchema } from "@/lib/schemas/subscription";

type Entity = Record<string, any>;

/** PATCH after its preview: both must agree (subscription shape and the immediate transaction). */
async function previewThenApply(id: string, body: Entity) {
  const before = await transactionsOf(id);
  const previewed = await preview(id, body);
  expect(previewed.status, JSON.stringify(previewed.body)).toBe(200);
  // The preview writes nothing.
  expect(await transactionsOf(id)).toHaveLength(before.length);
  const applied = await patch(id, body);
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  const after = await transactionsOf(id);
  const billed = after.length > before.length ? after[after.length - 1] : null;
  const p = previewed.body.data;
  expect(subscriptionPreviewSchema.strict().parse(p)).toBeTruthy();
  expect(subscriptionSchema.strict().parse(applied.body.data)).toBeTruthy();
  expect(comparable(p)).toEqual(comparable(applied.body.data));
  if (billed) {
    expect(p.immediate_transaction, "a transaction was billed: the preview must show it").not.toBeNull();
    expect({
      ...p.immediate_transaction.details,
      totals: billedTotals(p.immediate_transaction.details.totals),
    }).toEqual(asPreview(billed.details));
    expect(p.immediate_transaction.billing_period).toEqual({
      starts_at: billed.billing_period_starts_at?.toISOString().replace("Z", "000Z"),
      ends_at: billed.billing_period_ends_at?.toISOString().replace("Z", "000Z"),
    });
  } else {
    expect(p.immediate_transaction).toBeNull();
  }
  return { preview: p, subscription: applied.body.data as Entity, transaction: billed };
}

describe("proration billing modes", () => {
  it("prorated_immediately bills the added quantity for the rest of the period, now, as previewed", async () => {
    const { subscription, priceId } = await subscribed();
    const {
      preview: p,
      subscription: updated,
      transaction,
    } = await previewThenApply(subscription.id, {
      items: [{ price_id: priceId, quantity: 3 }],
      proration_billing_mode: "prorated_immediately",
    });
    expect(updated.items[0].quantity).toBe(3);
    expect(transaction).toMatchObject({ status: "completed", origin: "subscription_update" });
    const line = transaction?.details.line_items[0];
    // 30 days in the period, 20 left: 28800 of 43200 minutes.
    expect(line).toMatchObject({ price_id: priceId, quantity: 2, proration: { rate: "0.66667" } });
    expect(line.totals.subtotal).toBe("4000"); // round(3000 × 2 × 0.66667)
    expect(line.proration.billing_period.ends_at).toBe(subscription.current_billing_period.ends_at);
    expect(p.update_summary).toEqual({
      credit: { amount: "0", currency_code: "USD" },
      charge: { amount: "4000", currency_code: "USD" },
      result: { action: "charge", amount: "4000", currency_code: "USD" },
    });
    expect(p.next_transaction.details.totals.total).toBe("9000");
    expect(p.recurring_transaction_details.totals.total).toBe("9000");
    // subscription.updated precedes the transaction's events.
    const subEvents = (await events(subscription.id)).map((e) => e.eventType);
    expect(subEvents.slice(-1)).toEqual(["subscription.updated"]);
    expect((await events(transaction?.id as string)).map((e) => e.eventType)).toEqual([
      "transaction.created",
      "transaction.billed",
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
  });

  it("an upgrade and its reverse at the same instant net to nothing; the credit goes to the balance and pays the renewal", async () => {
    const { subscription, customer, priceId } = await subscribed({ country: "DE" });
    const up = await previewThenApply(subscription.id, {
      items: [{ price_id: priceId, quantity: 4 }],
      proration_billing_mode: "prorated_immediately",
    });
    const down = await previewThenApply(subscription.id, {
      items: [{ price_id: priceId, quantity: 1 }],
      proration_billing_mode: "prorated_immediately",
    });
    const charged = up.transaction?.details.line_items[0];
    const credited = down.transaction?.details.line_items[0];
    expect(credited.quantity).toBe(-3);
    expect(Number(credited.totals.total)).toBeLessThan(0);
    for (const key of ["subtotal", "tax", "total"]) {
      expect(Math.abs(Number(charged.totals[key]) + Number(credited.totals[key]))).toBeLessThanOrEqual(1);
    }
    const credit = down.transaction?.details.totals;
    expect(credit.total).toBe(`-${charged.totals.total}`);
    expect(credit.credit_to_balance).toBe(charged.totals.total);
    expect(credit.grand_total).toBe("0");
    expect(down.transaction?.status).toBe("completed");
    expect(down.preview.update_summary.result).toEqual({
      action: "credit",
      amount: charged.totals.total,
      currency_code: "USD",
    });
    // The preview of the downgrade already counted the credit in the next renewal (3000 + 19% VAT).
    const used = Math.min(Number(charged.totals.total), 3570);
    expect(down.preview.next_transaction.details.totals).toMatchObject({ total: "3570", credit: String(used) });
    expect(await creditBalance(customer.id)).toEqual([
      {
        customer_id: customer.id,
        currency_code: "USD",
        balance: { available: charged.totals.total, reserved: "0", used: "0" },
      },
    ]);

    // The next renewal is paid first from the balance, as GET ?include=next_transaction said.
    const next = (await getWith(subscription.id, "?include=next_transaction")).body.data.next_transaction;
    const renewed = await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + MINUTE));
    expect(renewed.status).toBe("active");
    const renewal = await lastTransaction(subscription.id);
    expect(renewal).toMatchObject({ origin: "subscription_recurring", status: "completed" });
    expect(billedTotals(renewal.details.totals)).toEqual(billedTotals(next.details.totals));
    expect(renewal.details.totals.credit).toBe(String(used));
    expect(renewal.details.totals.grand_total).toBe(String(3570 - used));
    expect(await creditBalance(customer.id)).toEqual([
      {
        customer_id: customer.id,
        currency_code: "USD",
        balance: { available: String(Number(charged.totals.total) - used), reserved: "0", used: String(used) },
      },
    ]);
  });

  it("full_immediately bills the whole price of what is added and credits nothing for what is removed", async () => {
    const { subscription, priceId } = await subscribed();
    const addon = await makeRecurringPrice({ unit_price: { amount: "500", currency_code: "USD" } });
    const { transaction } = await previewThenApply(subscription.id, {
      items: [{ price_id: addon.id, quantity: 2 }],
      proration_billing_mode: "full_immediately",
    });
    expect(transaction?.details.line_items).toHaveLength(1);
    expect(transaction?.details.line_items[0]).toMatchObject({ price_id: addon.id, quantity: 2, proration: null });
    expect(transaction?.details.totals.total).toBe("1000");
    const after = await getSubscriptionJson(subscription.id);
    expect(after.items.map((i: Entity) => i.price.id)).toEqual([addon.id]);
    expect(after.items[0].previously_billed_at).not.toBeNull();
    expect(priceId).not.toBe(addon.id);
  });

  it("prorated_next_billing_period waits for the renewal, which bills it once", async () => {
    const { subscription, priceId } = await subscribed();
    const { preview: p } = await previewThenApply(subscription.id, {
      items: [{ price_id: priceId, quantity: 2 }],
      proration_billing_mode: "prorated_next_billing_period",
    });
    expect(p.update_summary.charge.amount).toBe("2000");
    expect(p.next_transaction.details.line_items).toHaveLength(2);
    expect(p.next_transaction.details.totals.total).toBe("8000"); // 2 × 3000 + 2000
    const pending = await pendingLines(subscription.id);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ price_id: priceId, quantity: 1, transaction_id: null });
    expect(pending[0]!.proration?.rate).toBe("0.66667");

    const next = (await getWith(subscription.id, "?include=next_transaction")).body.data.next_transaction;
    expect(next).toEqual(p.next_transaction);
    const renewalAt = Date.parse(subscription.next_billed_at);
    await advanceTo(subscription.id, new Date(renewalAt + MINUTE));
    const renewal = await lastTransaction(subscription.id);
    expect(billedTotals(renewal.details.totals)).toEqual(billedTotals(next.details.totals));
    expect(renewal.details.line_items[1].proration.rate).toBe("0.66667");
    expect((await pendingLines(subscription.id))[0]!.transaction_id).toBe(renewal.id);
    // The renewal after bills the items alone.
    const later = (await getWith(subscription.id, "")).body.data.next_billed_at;
    await advanceTo(subscription.id, new Date(Date.parse(later) + MINUTE));
    expect((await lastTransaction(subscription.id)).details.totals.total).toBe("6000");
  });

  it("a downgrade on the next billing period credits the renewal; credit beyond it goes to the balance", async () => {
    const { subscription, customer, priceId } = await subscribed({ quantity: 3 });
    const { preview: p } = await previewThenApply(subscription.id, {
      items: [{ price_id: priceId, quantity: 1 }],
      proration_billing_mode: "prorated_next_billing_period",
    });
    expect(p.update_summary.result).toEqual({ action: "credit", amount: "4000", currency_code: "USD" });
    const lines = p.next_transaction.details.line_items;
    expect(lines.map((line: Entity) => [line.quantity, line.totals.total])).toEqual([
      [1, "3000"],
      [-2, "-4000"],
    ]);
    expect(p.next_transaction.details.totals).toMatchObject({
      total: "-1000",
      credit_to_balance: "1000",
      grand_total: "0",
    });
    expect((await pendingLines(subscription.id))[0]!.quantity).toBe(-2);
    await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + MINUTE));
    const renewal = await lastTransaction(subscription.id);
    expect(renewal).toMatchObject({ origin: "subscription_recurring", status: "completed" });
    expect(billedTotals(renewal.details.totals)).toEqual(billedTotals(p.next_transaction.details.totals));
    expect((await creditBalance(customer.id))[0]!.balance).toEqual({ available: "1000", reserved: "0", used: "0" });
    // The renewal after uses it.
    const next = (await getWith(subscription.id, "?include=next_transaction")).body.data;
    expect(next.next_transaction.details.totals).toMatchObject({ total: "3000", credit: "1000", balance: "2000" });
    await advanceTo(subscription.id, new Date(Date.parse(next.next_billed_at) + MINUTE));
    expect((await lastTransaction(subscription.id)).payments[0]!.amount).toBe("2000");
    expect((await creditBalance(customer.id))[0]!.balance).toEqual({ available: "0", reserved: "0", used: "1000" });
  });

  it("full_next_billing_period adds the whole price of the change to the renewal; do_not_bill bills nothing", async () => {
    const { subscription, priceId } = await subscribed();
    const addon = await makeRecurringPrice({ unit_price: { amount: "700", currency_code: "USD" } });
    const full = await previewThenApply(subscription.id, {
      items: [
        { price_id: priceId, quantity: 1 },
        { price_id: addon.id, quantity: 1 },
      ],
      proration_billing_mode: "full_next_billing_period",
    });
    expect(full.preview.next_transaction.details.totals.total).toBe("4400"); // 3000 + 700 + 700
    const none = await previewThenApply(subscription.id, {
      items: [{ price_id: priceId }],
      proration_billing_mode: "do_not_bill",
    });
    expect(none.preview.update_summary.result).toEqual({ action: "charge", amount: "0", currency_code: "USD" });
    expect(none.subscription.items).toHaveLength(1);
    expect(none.preview.next_transaction.details.totals.total).toBe("3700"); // the pending full charge stays
    expect(await pendingLines(subscription.id)).toHaveLength(1);
  });

  it("a billing-cycle swap billed now starts a new period at the change, crediting the old one", async () => {
    const { subscription, at, priceId } = await subscribed();
    const yearly = await makeRecurringPrice({
      unit_price: { amount: "30000", currency_code: "USD" },
      billing_cycle: { interval: "year", frequency: 1 },
    });
    expectFieldError(
      await patch(subscription.id, {
        items: [{ price_id: yearly.id, quantity: 1 }],
        proration_billing_mode: "prorated_next_billing_period",
      }),
      "proration_billing_mode",
    );
    const { subscription: updated, transaction } = await previewThenApply(subscription.id, {
      items: [{ price_id: yearly.id, quantity: 1 }],
      proration_billing_mode: "prorated_immediately",
    });
    expect(updated.billing_cycle).toEqual({ interval: "year", frequency: 1 });
    expect(Date.parse(updated.current_billing_period.starts_at)).toBe(at.getTime());
    expect(updated.next_billed_at).toBe(updated.current_billing_period.ends_at);
    const [charge, credit] = transaction?.details.line_items ?? [];
    expect(charge).toMatchObject({ price_id: yearly.id, quantity: 1, proration: { rate: "1" } });
    expect(credit).toMatchObject({ price_id: priceId, quantity: -1, proration: { rate: "0.66667" } });
    expect(transaction?.details.totals.total).toBe(String(30000 - 2000));
  });

  it("mixed items: new prices need a quantity, kept ones keep theirs; non-catalogue recurring prices are created", async () => {
    const { subscription, priceId } = await subscribed();
    const res = await patch(subscription.id, {
      items: [{ price_id: priceId }, { price_id: (await makeRecurringPrice()).id }],
      proration_billing_mode: "do_not_bill",
    });
    const error = expectError(res, 400, "subscription_quantity_missing_for_new_items");
    expect(error.errors?.map((e) => e.field)).toEqual(["items[1].quantity"]);
    const custom = {
      description: "Support plan",
      product_id: subscription.items[0].product.id,
      billing_cycle: { interval: "month", frequency: 1 },
      unit_price: { amount: "900", currency_code: "USD" },
    };
    const p = await preview(subscription.id, {
      items: [{ price_id: priceId }, { price: custom, quantity: 1 }],
      proration_billing_mode: "prorated_immediately",
    });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(subscriptionPreviewSchema.strict().parse(p.body.data)).toBeTruthy();
    expect(p.body.data.items[1].price.id).toBeNull();
    expect(p.body.data.immediate_transaction.details.totals.total).toBe("600"); // 900 × 0.66667
    const applied = await patch(subscription.id, {
      items: [{ price_id: priceId }, { price: custom, quantity: 1 }],
      proration_billing_mode: "prorated_immediately",
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.items[1].price).toMatchObject({ type: "custom", description: "Support plan" });
    expect(applied.body.data.items[1].price.id).toMatch(/^pri_/);
    expect((await lastTransaction(subscription.id)).details.totals.total).toBe("600");
  });
});

describe("on_payment_failure", () => {
  it("prevent_change (the default): a declined charge changes nothing", async () => {
    const { subscription, priceId } = await subscribed({ card: DECLINES_LATER_CARD });
    const eventsBefore = (await events(subscription.id)).length;
    const txnsBefore = (await transactionsOf(subscription.id)).length;
    const res = await patch(subscription.id, {
      items: [{ price_id: priceId, quantity: 2 }],
      proration_billing_mode: "prorated_immediately",
    });
    expectError(res, 400, "subscription_payment_declined");
    expect((await getSubscriptionJson(subscription.id)).items[0].quantity).toBe(1);
    expect(await transactionsOf(subscription.id)).toHaveLength(txnsBefore);
    expect(await events(subscription.id)).toHaveLength(eventsBefore);
  });

  it("apply_change: the change stays, its transaction and the subscription are past due", async () => {
    const { subscription, priceId } = await subscribed({ card: DECLINES_LATER_CARD });
    const res = await patch(subscription.id, {
      items: [{ price_id: priceId, quantity: 2 }],
      proration_billing_mode: "prorated_immediately",
      on_payment_failure: "apply_change",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "past_due" });
    expect(res.body.data.items[0].quantity).toBe(2);
    const txn = await lastTransaction(subscription.id);
    expect(txn).toMatchObject({ status: "past_due", origin: "subscription_update" });
    expect((await events(subscription.id)).map((e) => e.eventType).slice(-3)).toEqual([
      "subscription.updated",
      "subscription.updated",
      "subscription.past_due",
    ]);
  });
});

describe("next_billed_at", () => {
  it("later bills the extra time, re-anchoring the periods at the new date", async () => {
    const { subscription, at } = await subscribed();
    const target = new Date(Date.parse(subscription.next_billed_at) + 15 * DAY);
    const { subscription: updated, transaction } = await previewThenApply(subscription.id, {
      next_billed_at: target.toISOString(),
      proration_billing_mode: "prorated_immediately",
    });
    expect(Date.parse(updated.next_billed_at)).toBe(target.getTime());
    expect(updated.current_billing_period.ends_at).toBe(updated.next_billed_at);
    expect(transaction?.details.line_items[0]).toMatchObject({ quantity: 1, proration: { rate: "0.5" } });
    expect(transaction?.details.totals.total).toBe("1500");
    expect(Date.parse(transaction?.details.line_items[0].proration.billing_period.starts_at)).toBe(
      Date.parse(subscription.next_billed_at),
    );
    expect(transaction?.billing_period_starts_at?.getTime()).toBe(at.getTime());
    // The renewal at the new date bills a whole month from it.
    await advanceTo(subscription.id, new Date(target.getTime() + MINUTE));
    const renewed = await getSubscriptionJson(subscription.id);
    expect(Date.parse(renewed.current_billing_period.starts_at)).toBe(target.getTime());
    const expected = new Date(target);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(Date.parse(renewed.next_billed_at)).toBe(expected.getTime());
  });

  it("sooner credits the time given up; do_not_bill moves it without billing; full_* and too soon are refused", async () => {
    const { subscription, customer, at } = await subscribed();
    const sooner = new Date(Date.parse(subscription.next_billed_at) - 15 * DAY);
    const credit = await previewThenApply(subscription.id, {
      next_billed_at: sooner.toISOString(),
      proration_billing_mode: "prorated_immediately",
    });
    expect(credit.transaction?.details.totals).toMatchObject({ total: "-1500", credit_to_balance: "1500" });
    expect((await creditBalance(customer.id))[0]!.balance.available).toBe("1500");
    expectFieldError(
      await patch(subscription.id, {
        next_billed_at: new Date(sooner.getTime() + DAY).toISOString(),
        proration_billing_mode: "full_immediately",
      }),
      "proration_billing_mode",
    );
    expectError(
      await patch(subscription.id, {
        next_billed_at: new Date(at.getTime() + 20 * MINUTE).toISOString(),
        proration_billing_mode: "do_not_bill",
      }),
      400,
      "subscription_next_billed_at_too_soon",
    );
    const moved = await previewThenApply(subscription.id, {
      next_billed_at: new Date(at.getTime() + 31 * MINUTE).toISOString(),
      proration_billing_mode: "do_not_bill",
    });
    expect(moved.transaction).toBeNull();
    expect(Date.parse(moved.subscription.next_billed_at)).toBe(at.getTime() + 31 * MINUTE);
  });

  it("moves a trial's end with do_not_bill (the only mode a trial takes)", async () => {
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
    const { subscription } = await subscribed({ price });
    const end = new Date(Date.parse(subscription.next_billed_at) + 7 * DAY);
    expectError(
      await patch(subscription.id, {
        next_billed_at: end.toISOString(),
        proration_billing_mode: "prorated_immediately",
      }),
      400,
      "subscription_trialing_items_update_invalid_options",
    );
    const { subscription: updated } = await previewThenApply(subscription.id, {
      next_billed_at: end.toISOString(),
      proration_billing_mode: "do_not_bill",
    });
    expect(updated.status).toBe("trialing");
    expect(Date.parse(updated.items[0].trial_dates.ends_at)).toBe(end.getTime());
    expect(updated.current_billing_period.ends_at).toBe(updated.next_billed_at);
  });
});

describe("refusals", () => {
  it("needs proration_billing_mode when items or next_billed_at change, not otherwise", async () => {
    const { subscription, priceId } = await subscribed();
    const error = expectError(
      await patch(subscription.id, { items: [{ price_id: priceId, quantity: 2 }] }),
      400,
      "subscription_items_update_missing_proration_billing_mode",
    );
    expect(error.errors?.[0]?.field).toBe("proration_billing_mode");
    // The same items sent back with other fields need no mode.
    const same = await patch(subscription.id, { items: [{ price_id: priceId }], custom_data: { plan: "basic" } });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.data.custom_data).toEqual({ plan: "basic" });
  });

  it("refuses duplicate prices, one-time prices, other billing cycles, other currencies and archived new prices", async () => {
    const { subscription, priceId } = await subscribed();
    const mode = { proration_billing_mode: "do_not_bill" };
    expectError(
      await patch(subscription.id, {
        items: [
          { price_id: priceId, quantity: 1 },
          { price_id: priceId, quantity: 2 },
        ],
        ...mode,
      }),
      400,
      "subscription_duplicate_price_ids",
    );
    const oneTime = await makePrice();
    expectFieldError(
      await patch(subscription.id, { items: [{ price_id: oneTime.id, quantity: 1 }], ...mode }),
      "items[0].price_id",
    );
    const weekly = await makeRecurringPrice({ billing_cycle: { interval: "week", frequency: 1 } });
    expectFieldError(
      await patch(subscription.id, {
        items: [
          { price_id: priceId, quantity: 1 },
          { price_id: weekly.id, quantity: 1 },
        ],
        ...mode,
      }),
      "items[1].price_id",
    );
    const euro = await makeRecurringPrice({ unit_price: { amount: "2000", currency_code: "EUR" } });
    expectFieldError(
      await patch(subscription.id, {
        items: [
          { price_id: priceId, quantity: 1 },
          { price_id: euro.id, quantity: 1 },
        ],
        ...mode,
      }),
      "items[1].price_id",
    );
    expectFieldError(await patch(subscription.id, { currency_code: "EUR" }), "currency_code");
    const archived = await makeRecurringPrice();
    await archivePrice(archived.id);
    expectError(
      await patch(subscription.id, { items: [{ price_id: archived.id, quantity: 1 }], ...mode }),
      400,
      "entity_archived",
    );
    expectFieldError(
      await patch(subscription.id, { items: [{ price_id: "pri_01hzzzzzzzzzzzzzzzzzzzzzzz", quantity: 1 }], ...mode }),
      "items[0].price_id",
    );
    expectFieldError(
      await patch(subscription.id, { items: [{ price_id: priceId, quantity: 101 }], ...mode }),
      "items[0].quantity",
    );
    // An archived price already on the subscription stays billable.
    await archivePrice(priceId);
    const kept = await patch(subscription.id, { items: [{ price_id: priceId, quantity: 2 }], ...mode });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
  });

  it("by status: canceled, past_due (only custom_data and scheduled_change), paused (only items with do_not_bill)", async () => {
    const { subscription, priceId } = await subscribed();
    const items = { items: [{ price_id: priceId, quantity: 2 }], proration_billing_mode: "do_not_bill" };
    await query("UPDATE subscriptions SET status = 'past_due' WHERE id = $1", [subscription.id]);
    expectError(await patch(subscription.id, items), 400, "subscription_update_when_past_due");
    expect((await patch(subscription.id, { custom_data: { note: "dunning" } })).status).toBe(200);
    await query("UPDATE subscriptions SET status = 'paused', paused_at = now() WHERE id = $1", [subscription.id]);
    expectError(
      await patch(subscription.id, { collection_mode: "manual" }),
      400,
      "subscription_only_update_items_on_paused_subscription",
    );
    expectFieldError(
      await patch(subscription.id, { ...items, proration_billing_mode: "prorated_immediately" }),
      "proration_billing_mode",
    );
    const paused = await previewThenApply(subscription.id, items);
    expect(paused.subscription.items[0]).toMatchObject({ quantity: 2, status: "inactive" });
    await query("UPDATE subscriptions SET status = 'canceled', canceled_at = now() WHERE id = $1", [subscription.id]);
    expectError(await patch(subscription.id, { custom_data: null }), 400, "subscription_update_when_canceled");
    expectError(await preview(subscription.id, { custom_data: null }), 400, "subscription_update_when_canceled");
  });

  it("a scheduled cancel locks changes until removed; scheduled_change null removes it (with the change in one request)", async () => {
    const { subscription, priceId } = await subscribed();
    await query(
      `UPDATE subscriptions SET scheduled_change = json_build_object('action', 'cancel', 'effective_at', next_billed_at, 'resume_at', null)
        WHERE id = $1`,
      [subscription.id],
    );
    expect((await getWith(subscription.id, "?include=next_transaction")).body.data.next_transaction).toBeNull();
    const items = {
      items: [{ price_id: priceId, quantity: 2 }],
      proration_billing_mode: "prorated_next_billing_period",
    };
    expectError(await patch(subscription.id, items), 400, "subscription_locked_pending_changes");
    const { subscription: updated, preview: p } = await previewThenApply(subscription.id, {
      ...items,
      scheduled_change: null,
    });
    expect(updated.scheduled_change).toBeNull();
    expect(updated.next_billed_at).toBe(subscription.next_billed_at);
    expect(p.next_transaction.details.totals.total).toBe("8000"); // 2 × 3000 + the prorated 2000
  });

  it("trialing subscriptions change quantities only, with do_not_bill", async () => {
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
    const { subscription, priceId } = await subscribed({ price });
    const other = await makeRecurringPrice();
    expectError(
      await patch(subscription.id, {
        items: [
          { price_id: priceId, quantity: 1 },
          { price_id: other.id, quantity: 1 },
        ],
        proration_billing_mode: "do_not_bill",
      }),
      400,
      "subscription_trialing_items_update_invalid_options",
    );
    expectError(
      await patch(subscription.id, {
        items: [{ price_id: priceId, quantity: 2 }],
        proration_billing_mode: "prorated_immediately",
      }),
      400,
      "subscription_trialing_items_update_invalid_options",
    );
    const ok = await previewThenApply(subscription.id, {
      items: [{ price_id: priceId, quantity: 2 }],
      proration_billing_mode: "do_not_bill",
    });
    expect(ok.subscription.items[0]).toMatchObject({ quantity: 2, status: "trialing" });
  });

  it("locks changes that bill within 30 minutes of the renewal (409), not do_not_bill ones", async () => {
    const { subscription, priceId } = await subscribed();
    await setClock(subscription.id, new Date(Date.parse(subscription.next_billed_at) - 20 * MINUTE));
    const change = { items: [{ price_id: priceId, quantity: 2 }] };
    for (const mode of ["prorated_immediately", "full_next_billing_period"]) {
      expectError(
        await patch(subscription.id, { ...change, proration_billing_mode: mode }),
        409,
        "subscription_locked_renewal",
      );
      expectError(
        await preview(subscription.id, { ...change, proration_billing_mode: mode }),
        409,
        "subscription_locked_renewal",
      );
    }
    expect((await patch(subscription.id, { ...change, proration_billing_mode: "do_not_bill" })).status).toBe(200);
  });

  it("refuses a card charge below the minimum (USD 0.70), but not on the next billing period", async () => {
    const cheap = await makeRecurringPrice({ unit_price: { amount: "100", currency_code: "USD" } });
    const { subscription, priceId } = await subscribed({ price: cheap });
    const change = { items: [{ price_id: priceId, quantity: 2 }] };
    expectError(
      await patch(subscription.id, { ...change, proration_billing_mode: "prorated_immediately" }),
      400,
      "subscription_update_transaction_balance_less_than_charge_limit",
    );
    expectError(
      await preview(subscription.id, { ...change, proration_billing_mode: "prorated_immediately" }),
      400,
      "subscription_update_transaction_balance_less_than_charge_limit",
    );
    expect(
      (await patch(subscription.id, { ...change, proration_billing_mode: "prorated_next_billing_period" })).status,
    ).toBe(200);
  });
});

describe("customer, address, business, collection mode, currency", () => {
  it("a new customer needs its own address (and business), and drops the saved card", async () => {
    const { subscription, priceId } = await subscribed();
    const other = await makeBuyer("US");
    expectFieldError(await patch(subscription.id, { customer_id: other.customer.id }), "address_id");
    expectFieldError(
      await patch(subscription.id, { customer_id: other.customer.id, address_id: subscription.address_id }),
      "address_id",
    );
    expectFieldError(await patch(subscription.id, { address_id: other.address.id }), "address_id");
    const business = await makeBusiness(other.customer.id, { name: "Other Ltd" });
    expectFieldError(await patch(subscription.id, { business_id: business.id }), "business_id");
    const moved = await previewThenApply(subscription.id, {
      customer_id: other.customer.id,
      address_id: other.address.id,
      business_id: business.id,
    });
    expect(moved.subscription).toMatchObject({ customer_id: other.customer.id, business_id: business.id });
    expectError(
      await patch(subscription.id, {
        items: [{ price_id: priceId, quantity: 2 }],
        proration_billing_mode: "prorated_immediately",
      }),
      400,
      "subscription_missing_payment_method_cannot_update",
    );
    const second = await makeAddress(other.customer.id, { country_code: "US", postal_code: "10002" });
    expect((await patch(subscription.id, { address_id: second.id })).status).toBe(200);
  });

  it("manual collection needs billing_details and USD, EUR or GBP; automatic clears them", async () => {
    const { subscription } = await subscribed();
    expectFieldError(await patch(subscription.id, { collection_mode: "manual" }), "billing_details");
    const terms = { payment_terms: { interval: "day", frequency: 14 } };
    const manual = await previewThenApply(subscription.id, { collection_mode: "manual", billing_details: terms });
    expect(manual.subscription.collection_mode).toBe("manual");
    expect(manual.subscription.billing_details.payment_terms).toEqual(terms.payment_terms);
    expect(manual.subscription.management_urls.update_payment_method).toBeNull();
    expectFieldError(await patch(subscription.id, { billing_details: null }), "billing_details");
    const back = await previewThenApply(subscription.id, { collection_mode: "automatic" });
    expect(back.subscription.billing_details).toBeNull();
    expect(back.subscription.management_urls.update_payment_method).toContain(subscription.id);
  });

  it("changes currency when every item has a price in it", async () => {
    const price = await makeRecurringPrice({
      unit_price_overrides: [{ country_codes: ["US"], unit_price: { amount: "2800", currency_code: "EUR" } }],
    });
    const { subscription } = await subscribed({ price, extra: { currency_code: "USD" } });
    expect(subscription.currency_code).toBe("USD");
    const res = await previewThenApply(subscription.id, { currency_code: "EUR" });
    expect(res.subscription.currency_code).toBe("EUR");
    expect(res.preview.recurring_transaction_details.totals).toMatchObject({ total: "2800", currency_code: "EUR" });
    expectFieldError(await patch(subscription.id, { currency_code: "GBP" }), "currency_code");
  });

  it("a manual subscription's change billed now is an invoice", async () => {
    const { subscription } = await subscribeByInvoice();
    await setClock(subscription.id, new Date(Date.parse(subscription.started_at) + 10 * DAY));
    const { transaction } = await previewThenApply(subscription.id, {
      items: [{ price_id: subscription.items[0].price.id, quantity: 2 }],
      proration_billing_mode: "prorated_immediately",
    });
    expect(transaction).toMatchObject({ status: "billed", origin: "subscription_update" });
  });
});

describe("discounts", () => {
  it("applies from now or from the next renewal, for its intervals; null removes it", async () => {
    const { subscription, priceId } = await subscribed();
    const once = await makeDiscount({ recur: false });
    const res = await previewThenApply(subscription.id, {
      discount: { id: once.id, effective_from: "next_billing_period" },
    });
    expect(res.subscription.discount).toEqual({
      id: once.id,
      starts_at: subscription.next_billed_at,
      ends_at: res.subscription.discount.ends_at,
    });
    expect(Date.parse(res.subscription.discount.ends_at)).toBeGreaterThan(Date.parse(subscription.next_billed_at));
    expect(res.preview.next_transaction.details.totals).toMatchObject({ discount: "300", total: "2700" });
    const { times_used } = (
      await query<{ times_used: number }>("SELECT times_used FROM discounts WHERE id = $1", [once.id])
    )[0]!;
    expect(times_used).toBe(1);
    // From next period: a change billed now is not discounted yet.
    const now = await previewThenApply(subscription.id, {
      items: [{ price_id: priceId, quantity: 2 }],
      proration_billing_mode: "prorated_immediately",
    });
    expect(now.transaction?.details.totals.discount).toBe("0");

    const forever = await makeDiscount({ recur: true, amount: "50" });
    const immediately = await previewThenApply(subscription.id, {
      discount: { id: forever.id, effective_from: "immediately" },
      items: [{ price_id: priceId, quantity: 3 }],
      proration_billing_mode: "prorated_immediately",
    });
    expect(immediately.subscription.discount.ends_at).toBeNull();
    expect(immediately.transaction?.details.totals).toMatchObject({ subtotal: "2000", discount: "1000" });
    const removed = await previewThenApply(subscription.id, { discount: null });
    expect(removed.subscription.discount).toBeNull();
    expect(removed.preview.next_transaction.details.totals.discount).toBe("0");
  });

  it("refuses unknown, archived and used-up discounts and flat ones in another currency; takes expired ones", async () => {
    const { subscription } = await subscribed();
    const set = (id: string) => patch(subscription.id, { discount: { id, effective_from: "immediately" } });
    expectFieldError(await set("dsc_01hzzzzzzzzzzzzzzzzzzzzzzz"), "discount.id");
    const archived = await makeDiscount();
    await query("UPDATE discounts SET status = 'archived' WHERE id = $1", [archived.id]);
    expectError(await set(archived.id), 400, "entity_archived");
    const used = await makeDiscount({ usage_limit: 1 });
    await query("UPDATE discounts SET times_used = 1 WHERE id = $1", [used.id]);
    expectFieldError(await set(used.id), "discount.id");
    const euros = await makeDiscount({ type: "flat", amount: "100", currency_code: "EUR" });
    expectFieldError(await set(euros.id), "discount.id");
    const expired = await makeDiscount();
    await query("UPDATE discounts SET expires_at = now() - interval '1 day' WHERE id = $1", [expired.id]);
    expect((await set(expired.id)).status).toBe(200);
    expectFieldError(
      await patch(subscription.id, { discount: { id: expired.id, effective_from: "someday" } }),
      "discount.effective_from",
    );
  });
});

describe("permissions, IDs and hostile input", () => {
  it("PATCH needs subscription.write, the preview subscription.read; unknown IDs are 404", async () => {
    const { subscription } = await subscribed();
    const readOnly = await testKey(["subscription.read"]);
    expectError(await patch(subscription.id, { custom_data: null }, readOnly), 403, "forbidden");
    expect((await preview(subscription.id, { custom_data: null }, readOnly)).status).toBe(200);
    const none = await testKey(permissionsWithout("subscription."));
    expectError(await preview(subscription.id, { custom_data: null }, none), 403, "forbidden");
    expectError(await patch(subscription.id, { custom_data: null }, null), 401, "invalid_token");
    const unknown = "sub_01hzzzzzzzzzzzzzzzzzzzzzzz";
    expectNotFound(await patch(unknown, { custom_data: null }));
    expectNotFound(await preview(unknown, { custom_data: null }));
    expectNotFound(await patch("sub_x", { custom_data: null }));
  });

  it("refuses malformed bodies with field errors, never a 5xx", async () => {
    const { subscription, priceId } = await subscribed();
    const many = Array.from({ length: 101 }, () => ({ price_id: priceId, quantity: 1 }));
    const bodies: [unknown, string][] = [
      [{ items: [] }, "items"],
      [{ items: many, proration_billing_mode: "do_not_bill" }, "items"],
      [{ items: "all" }, "items"],
      [{ items: [{ price_id: priceId, quantity: 0 }], proration_billing_mode: "do_not_bill" }, "items[0]"],
      [{ items: [{ price_id: priceId, quantity: 1.5 }], proration_billing_mode: "do_not_bill" }, "items[0]"],
      [{ items: [{ price_id: priceId, quantity: 1e12 }], proration_billing_mode: "do_not_bill" }, "items[0]"],
      [{ items: [{ price_id: "nope", quantity: 1 }], proration_billing_mode: "do_not_bill" }, "items[0]"],
      [{ proration_billing_mode: "sometimes" }, "proration_billing_mode"],
      [{ on_payment_failure: "retry" }, "on_payment_failure"],
      [{ next_billed_at: "tomorrow" }, "next_billed_at"],
      [{ scheduled_change: { action: "cancel" } }, "scheduled_change"],
      [{ currency_code: "dollars" }, "currency_code"],
      [{ customer_id: "ctm_'; drop table subscriptions; --" }, "customer_id"],
      [{ custom_data: "x" }, "custom_data"],
      [{ status: "active" }, "status"],
      [{ collection_mode: "sometimes" }, "collection_mode"],
    ];
    for (const [body, field] of bodies) {
      const res = await patch(subscription.id, body);
      expect(res.status, JSON.stringify({ body, res: res.body })).toBeLessThan(500);
      const error = expectError(res, 400, "invalid_field");
      expect(
        error.errors?.some(
          (e) => e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`),
        ),
        JSON.stringify({ body, error }),
      ).toBe(true);
      expect((await preview(subscription.id, body)).status).toBe(400);
    }
    expectError(
      await call((await import("@/app/api/subscriptions/[subscription_id]/route")).PATCH, "PATCH", "/x", {
        key: await admin(),
        params: { subscription_id: subscription.id },
        rawBody: "{not json",
        headers: { "content-type": "application/json" },
      }),
      400,
      "bad_request",
    );
    // Dates at the edges of what RFC 3339 allows: refused or taken, never a 5xx.
    for (const date of [
      "9999-12-31T23:59:59Z",
      "0001-01-01T00:00:00Z",
      "2030-02-30T00:00:00Z",
      "2030-01-01T00:00:00+14:00",
    ]) {
      for (const mode of ["prorated_immediately", "prorated_next_billing_period", "do_not_bill"]) {
        const res = await preview(subscription.id, { next_billed_at: date, proration_billing_mode: mode });
        expect(res.status, JSON.stringify({ date, mode, body: res.body })).toBeLessThan(500);
      }
    }
    const nul = await patch(subscription.id, { custom_data: { note: "a\u0000b" } });
    expect(nul.status).toBe(400);
    expect((await getSubscriptionJson(subscription.id)).items[0].quantity).toBe(1);
  });
});
