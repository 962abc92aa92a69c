/**
 * POST /subscriptions/{id}/charge and its preview (one-time charges, now or with the next renewal),
 * the per-subscription limits of immediate charges, and GET /subscriptions/{id}?include=…: the
 * previews equal what the renewal then bills.
 */
import { describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { expectError, expectFieldError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { events, permissionsWithout } from "@/lib/dev/test/checks";
import {
  advanceTo,
  asPreview,
  billedTotals,
  chargeSubscription as charge,
  DAY,
  getWith,
  lastTransaction,
  MINUTE,
  patchSubscription as patch,
  pendingLines,
  previewCharge,
  setClock,
  subscribed,
  transactionsOf,
} from "@/lib/dev/test/subscription-updates";
import { DECLINES_LATER_CARD, getSubscriptionJson, makeRecurringPrice } from "@/lib/dev/test/subscriptions";
import { makeDiscount, makePrice } from "@/lib/dev/test/transactions";
import { newId } from "@/lib/ids";
import { subscriptionPreviewSchema, subscriptionSchema } from "@/lib/schemas/subscription";

type Entity = Record<string, any>;

describe("POST /subscriptions/{id}/charge", () => {
  it("immediately: a transaction now (origin subscription_charge), as previewed; answers 201 with the subscription", async () => {
    const { subscription } = await subscribed({ country: "DE" });
    const setup = await makePrice({ unit_price: { amount: "2500", currency_code: "USD" } });
    const body = { effective_from: "immediately", items: [{ price_id: setup.id, quantity: 2 }] };
    const previewed = await previewCharge(subscription.id, body);
    expect(previewed.status, JSON.stringify(previewed.body)).toBe(200);
    const p = previewed.body.data;
    expect(subscriptionPreviewSchema.strict().parse(p)).toBeTruthy();
    expect(p.id).toBeUndefined();
    expect(p.immediate_transaction.details.totals).toMatchObject({ subtotal: "5000", tax: "950", total: "5950" });
    expect(p.update_summary.charge.amount).toBe("5950");
    expect(await transactionsOf(subscription.id)).toHaveLength(1);

    const res = await charge(subscription.id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.id).toBe(subscription.id);
    expect(res.body.data.items).toEqual(subscription.items); // a one-time charge is not an item
    const txn = await lastTransaction(subscription.id);
    expect(txn).toMatchObject({ status: "completed", origin: "subscription_charge" });
    expect({
      ...p.immediate_transaction.details,
      totals: billedTotals(p.immediate_transaction.details.totals),
    }).toEqual(asPreview(txn.details));
    expect(txn.details.line_items[0]).toMatchObject({ price_id: setup.id, quantity: 2, proration: null });
    expect(txn.billing_period_starts_at?.toISOString()).toBe(
      subscription.current_billing_period.starts_at.replace("000Z", "Z"),
    );
    expect((await events(txn.id)).map((e) => e.eventType)).toEqual([
      "transaction.created",
      "transaction.billed",
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
  });

  it("next_billing_period: shown in next_transaction, billed once by the renewal", async () => {
    const { subscription } = await subscribed();
    const setup = await makePrice({ unit_price: { amount: "1200", currency_code: "USD" } });
    const custom = {
      description: "Onboarding call",
      product_id: setup.product_id,
      unit_price: { amount: "800", currency_code: "USD" },
    };
    const body = {
      effective_from: "next_billing_period",
      items: [
        { price_id: setup.id, quantity: 1 },
        { price: custom, quantity: 1 },
      ],
    };
    const p = (await previewCharge(subscription.id, body)).body.data;
    expect(p.immediate_transaction).toBeNull();
    expect(p.next_transaction.details.totals.total).toBe("5000");
    expect(p.recurring_transaction_details.totals.total).toBe("3000");
    const res = await charge(subscription.id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await transactionsOf(subscription.id)).toHaveLength(1);
    expect(await pendingLines(subscription.id)).toHaveLength(2);
    expect((await events(subscription.id)).map((e) => e.eventType).slice(-1)).toEqual(["subscription.updated"]);

    const included = (await getWith(subscription.id, "?include=next_transaction,recurring_transaction_details")).body
      .data;
    expect(subscriptionSchema.strict().parse(included)).toBeTruthy();
    expect(included.next_transaction.details.totals).toEqual(p.next_transaction.details.totals);
    expect(included.recurring_transaction_details.totals.total).toBe("3000");
    await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + MINUTE));
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.origin).toBe("subscription_recurring");
    expect(billedTotals(renewal.details.totals)).toEqual(billedTotals(included.next_transaction.details.totals));
    expect(renewal.details.line_items).toHaveLength(3);
    const after = (await getWith(subscription.id, "?include=next_transaction")).body.data;
    expect(after.next_transaction.details.totals.total).toBe("3000");
    await advanceTo(subscription.id, new Date(Date.parse(after.next_billed_at) + MINUTE));
    expect((await lastTransaction(subscription.id)).details.totals.total).toBe("3000");
  });

  it("on_payment_failure: prevent_change keeps nothing; apply_change leaves the charge and the subscription past due", async () => {
    const { subscription } = await subscribed({ card: DECLINES_LATER_CARD });
    const setup = await makePrice();
    const body = { effective_from: "immediately", items: [{ price_id: setup.id, quantity: 1 }] };
    expectError(await charge(subscription.id, body), 400, "subscription_payment_declined");
    expect(await transactionsOf(subscription.id)).toHaveLength(1);
    const res = await charge(subscription.id, { ...body, on_payment_failure: "apply_change" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.status).toBe("past_due");
    expect(await lastTransaction(subscription.id)).toMatchObject({ status: "past_due", origin: "subscription_charge" });
    // A past-due subscription takes no more charges.
    expectError(await charge(subscription.id, body), 400, "subscription_not_active");
  });

  it("refuses recurring prices, other currencies, and states that cannot be charged", async () => {
    const { subscription } = await subscribed();
    const monthly = await makeRecurringPrice();
    expectFieldError(
      await charge(subscription.id, { effective_from: "immediately", items: [{ price_id: monthly.id, quantity: 1 }] }),
      "items[0].price_id",
    );
    expectFieldError(
      await charge(subscription.id, {
        effective_from: "immediately",
        items: [
          {
            price: {
              description: "Recurring",
              product_id: monthly.product_id,
              billing_cycle: { interval: "month", frequency: 1 },
              unit_price: { amount: "100", currency_code: "USD" },
            },
            quantity: 1,
          },
        ],
      }),
      "items[0].price.billing_cycle",
    );
    const euro = await makePrice({ unit_price: { amount: "100", currency_code: "EUR" } });
    expectFieldError(
      await charge(subscription.id, { effective_from: "immediately", items: [{ price_id: euro.id, quantity: 1 }] }),
      "items[0].price_id",
    );
    const setup = await makePrice();
    const next = { effective_from: "next_billing_period", items: [{ price_id: setup.id, quantity: 1 }] };
    await query(
      `UPDATE subscriptions SET scheduled_change = json_build_object('action', 'cancel', 'effective_at', next_billed_at, 'resume_at', null)
        WHERE id = $1`,
      [subscription.id],
    );
    expectError(await charge(subscription.id, next), 400, "subscription_locked_pending_changes");
    expect((await charge(subscription.id, { ...next, effective_from: "immediately" })).status).toBe(201);
    await query("UPDATE subscriptions SET status = 'paused', scheduled_change = NULL WHERE id = $1", [subscription.id]);
    expectError(await charge(subscription.id, next), 400, "subscription_not_active");
    await query("UPDATE subscriptions SET status = 'canceled' WHERE id = $1", [subscription.id]);
    expectError(await previewCharge(subscription.id, next), 400, "subscription_is_canceled_action_invalid");
  });

  it("charges a trial now; the subscription's discount applies as to its renewals", async () => {
    const discount = await makeDiscount({ recur: true });
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 7 } });
    const { subscription } = await subscribed({ price, extra: { discount_id: discount.id } });
    await setClock(subscription.id, new Date(Date.parse(subscription.started_at) + 3 * DAY));
    expect(subscription.status).toBe("trialing");
    const setup = await makePrice({ unit_price: { amount: "1000", currency_code: "USD" } });
    const res = await charge(subscription.id, {
      effective_from: "immediately",
      items: [{ price_id: setup.id, quantity: 1 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await lastTransaction(subscription.id)).details.totals).toMatchObject({ discount: "100", total: "900" });
  });

  it("needs subscription.write (the preview subscription.read); 404 for unknown IDs; hostile bodies are 400", async () => {
    const { subscription } = await subscribed();
    const setup = await makePrice();
    const body = { effective_from: "immediately", items: [{ price_id: setup.id, quantity: 1 }] };
    const readOnly = await testKey(["subscription.read"]);
    expectError(await charge(subscription.id, body, readOnly), 403, "forbidden");
    expect((await previewCharge(subscription.id, body, readOnly)).status).toBe(200);
    expectError(
      await previewCharge(subscription.id, body, await testKey(permissionsWithout("subscription."))),
      403,
      "forbidden",
    );
    expectNotFound(await charge("sub_01hzzzzzzzzzzzzzzzzzzzzzzz", body));
    const many = Array.from({ length: 101 }, () => ({ price_id: setup.id, quantity: 1 }));
    const bad: [unknown, string][] = [
      [{ items: body.items }, "effective_from"],
      [{ ...body, effective_from: "later" }, "effective_from"],
      [{ effective_from: "immediately" }, "items"],
      [{ effective_from: "immediately", items: [] }, "items"],
      [{ effective_from: "immediately", items: many }, "items"],
      [{ effective_from: "immediately", items: [{ price_id: setup.id }] }, "items[0]"],
      [{ effective_from: "immediately", items: [{ price_id: setup.id, quantity: -1 }] }, "items[0]"],
      [{ effective_from: "immediately", items: [{ price_id: setup.id, quantity: 1000 }] }, "items[0].quantity"],
      [
        { effective_from: "immediately", items: [{ price_id: "pri_01hzzzzzzzzzzzzzzzzzzzzzzz", quantity: 1 }] },
        "items[0].price_id",
      ],
      [{ ...body, on_payment_failure: "ignore" }, "on_payment_failure"],
      [{ ...body, extra: true }, "extra"],
    ];
    for (const [request, field] of bad) {
      const res = await charge(subscription.id, request);
      const error = expectError(res, 400, "invalid_field");
      expect(
        error.errors?.some(
          (e) => e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`),
        ),
        JSON.stringify({ request, error }),
      ).toBe(true);
    }
    expect(await transactionsOf(subscription.id)).toHaveLength(1);
  });
});

describe("limits of immediate charges (per subscription)", () => {
  /** `count` charges of the subscription billed `ago` milliseconds before its clock. */
  async function pastCharges(subscription: Entity, at: Date, count: number, ago: number) {
    const [source] = await query<Entity>("SELECT * FROM transactions WHERE subscription_id = $1", [subscription.id]);
    for (let i = 0; i < count; i++) {
      await query(
        `INSERT INTO transactions (id, status, customer_id, address_id, currency_code, origin, subscription_id, collection_mode,
           details, payments, billed_at, created_at, updated_at)
         VALUES ($1, 'completed', $2, $3, 'USD', 'subscription_charge', $4, 'automatic', $5::json, '[]', $6, now(), now())`,
        [
          newId("txn"),
          source!.customer_id,
          source!.address_id,
          subscription.id,
          JSON.stringify(source!.details),
          new Date(at.getTime() - ago),
        ],
      );
    }
  }

  it("20 an hour and 100 a day (429, with Retry-After); next-period charges and do_not_bill stay usable", async () => {
    const { subscription, at } = await subscribed();
    const setup = await makePrice();
    const now = { effective_from: "immediately", items: [{ price_id: setup.id, quantity: 1 }] };
    await pastCharges(subscription, at, 19, 10 * MINUTE);
    expect((await charge(subscription.id, now)).status).toBe(201); // the 20th
    const refused = await charge(subscription.id, now);
    expectError(refused, 429, "subscription_immediate_charge_hour_limit_exceeded");
    expect(Number(refused.headers.get("retry-after"))).toBe(50 * 60);
    expectError(await previewCharge(subscription.id, now), 429, "subscription_immediate_charge_hour_limit_exceeded");
    expectError(
      await patch(subscription.id, {
        items: [{ price_id: subscription.items[0].price.id, quantity: 2 }],
        proration_billing_mode: "prorated_immediately",
      }),
      429,
      "subscription_immediate_charge_hour_limit_exceeded",
    );
    expect((await charge(subscription.id, { ...now, effective_from: "next_billing_period" })).status).toBe(201);
    expect(
      (
        await patch(subscription.id, {
          items: [{ price_id: subscription.items[0].price.id, quantity: 2 }],
          proration_billing_mode: "do_not_bill",
        })
      ).status,
    ).toBe(200);
    // An hour later the hourly window is clear, but 100 in the day are reached.
    await setClock(subscription.id, new Date(at.getTime() + 61 * MINUTE));
    await pastCharges(subscription, at, 80, 2 * 60 * MINUTE);
    const daily = await charge(subscription.id, now);
    expectError(daily, 429, "subscription_immediate_charge_24_hour_limit_exceeded");
    expect(Number(daily.headers.get("retry-after"))).toBeGreaterThan(20 * 60 * 60);
  });
});

describe("GET /subscriptions/{id}?include=", () => {
  it("needs transaction.read as well; next_transaction is null when a pause or cancel is scheduled", async () => {
    const { subscription } = await subscribed();
    const key = await testKey(["subscription.read"]);
    const error = expectError(await getWith(subscription.id, "?include=next_transaction", key), 403, "forbidden");
    expect(error.detail).toContain("transaction.read");
    expect((await getWith(subscription.id, "", key)).status).toBe(200);
    const both = await testKey(["subscription.read", "transaction.read"]);
    const res = await getWith(subscription.id, "?include=next_transaction,recurring_transaction_details", both);
    expect(res.status).toBe(200);
    expect(res.body.data.next_transaction.billing_period).toEqual({
      starts_at: subscription.next_billed_at,
      ends_at: res.body.data.next_transaction.billing_period.ends_at,
    });
    expect(res.body.data.next_transaction.adjustments).toEqual([]);
    await query(
      `UPDATE subscriptions SET scheduled_change = json_build_object('action', 'pause', 'effective_at', next_billed_at, 'resume_at', null)
        WHERE id = $1`,
      [subscription.id],
    );
    const paused = (await getWith(subscription.id, "?include=next_transaction,recurring_transaction_details")).body
      .data;
    expect(paused.next_transaction).toBeNull();
    expect(paused.recurring_transaction_details.totals.total).toBe("3000");
    expect((await getSubscriptionJson(subscription.id)).next_transaction).toBeUndefined();
  });

  it("next_transaction equals what the renewal bills: tax, a limited discount, prorated and one-time lines", async () => {
    const discount = await makeDiscount({ recur: true, maximum_recurring_intervals: 1, amount: "15" });
    const { subscription } = await subscribed({ country: "DE", quantity: 3, extra: { discount_id: discount.id } });
    await patch(subscription.id, {
      items: [{ price_id: subscription.items[0].price.id, quantity: 5 }],
      proration_billing_mode: "prorated_next_billing_period",
    });
    const setup = await makePrice({ unit_price: { amount: "999", currency_code: "USD" } });
    await charge(subscription.id, {
      effective_from: "next_billing_period",
      items: [{ price_id: setup.id, quantity: 3 }],
    });
    for (let renewal = 0; renewal < 3; renewal++) {
      const sub = (await getWith(subscription.id, "?include=next_transaction")).body.data;
      const next = sub.next_transaction;
      await advanceTo(subscription.id, new Date(Date.parse(sub.next_billed_at) + MINUTE));
      const billed = await lastTransaction(subscription.id);
      expect(billed.billing_period_starts_at?.getTime()).toBe(Date.parse(next.billing_period.starts_at));
      expect(billed.billing_period_ends_at?.getTime()).toBe(Date.parse(next.billing_period.ends_at));
      expect(asPreview(billed.details)).toEqual({ ...next.details, totals: billedTotals(next.details.totals) });
      if (renewal === 0) expect(Number(next.details.totals.discount)).toBeGreaterThan(0);
      if (renewal === 2) expect(next.details.totals.discount).toBe("0");
    }
  });
});
