/**
 * The subscription engine through the sandbox test clock: renewals, trial ends, dunning, recovery,
 * manual invoices going past due, catch-up, and exactly-once billing under concurrency.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as advance from "@/app/api/subscriptions/[subscription_id]/test-clock/advance/route";
import { query } from "@/lib/db/sql";
import { TEST_CARD } from "@/lib/dev/test/adjustments";
import { call, expectError, expectFieldError, testKey } from "@/lib/dev/test/api";
import { events } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import {
  DECLINES_LATER_CARD,
  getSubscriptionJson,
  makeRecurringPrice,
  subscribeAtCheckout,
  subscribeByInvoice,
} from "@/lib/dev/test/subscriptions";
import { payAtCheckout } from "@/lib/services/payments/checkout";
import { processDueSubscriptions, runDue, step } from "@/lib/services/subscriptions/engine";

const DAY = 86_400_000;

async function advanceTo(id: string, to: string | Date, key?: string) {
  return call(advance.POST, "POST", `/subscriptions/${id}/test-clock/advance`, {
    key: key ?? (await admin()),
    params: { subscription_id: id },
    body: { to: typeof to === "string" ? to : to.toISOString() },
  });
}

interface TxnRow {
  id: string;
  status: string;
  origin: string;
  billing_period_starts_at: Date | null;
  billing_period_ends_at: Date | null;
  invoice_number: string | null;
  details: { totals: { grand_total: string } };
}

const transactionsOf = (subscriptionId: string) =>
  query<TxnRow>(
    `SELECT id, status, origin, billing_period_starts_at, billing_period_ends_at, invoice_number, details
       FROM transactions WHERE subscription_id = $1 ORDER BY id`,
    [subscriptionId],
  );

afterEach(() => {
  delete process.env.BILLING_DUNNING_EXHAUSTED_ACTION;
});

describe("renewals", () => {
  it("renews at next_billed_at with one billed-then-completed transaction per period, in the family's event order", async () => {
    const { subscription } = await subscribeAtCheckout();
    const next = subscription.next_billed_at as string;
    const res = await advanceTo(subscription.id, new Date(Date.parse(next) + 1000));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const renewed = res.body.data;
    expect(renewed.status).toBe("active");
    expect(Date.parse(renewed.current_billing_period.starts_at)).toBe(Date.parse(next));
    expect(Date.parse(renewed.next_billed_at)).toBeGreaterThan(Date.parse(next));
    expect(Date.parse(renewed.items[0].previously_billed_at)).toBe(Date.parse(next));

    const txns = await transactionsOf(subscription.id);
    expect(txns).toHaveLength(2);
    const renewal = txns[1];
    expect(renewal).toMatchObject({ status: "completed", origin: "subscription_recurring" });
    expect(renewal!.billing_period_starts_at?.getTime()).toBe(Date.parse(next));
    expect(renewal!.invoice_number).toMatch(/^INV-/);
    expect(renewal!.details.totals.grand_total).toBe("3000");
    expect((await events(renewal!.id)).map((e) => e.eventType)).toEqual([
      "transaction.created",
      "transaction.billed",
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
    expect((await events(subscription.id)).map((e) => e.eventType)).toEqual([
      "subscription.created",
      "subscription.activated",
      "subscription.updated",
    ]);
  });

  it("bills every missed period once, in order, when it catches up; a second run bills nothing", async () => {
    const { subscription } = await subscribeAtCheckout();
    // Three renewals fall due (the workers were "down" for three months).
    const start = Date.parse(subscription.started_at);
    const until = new Date(start + 95 * DAY);
    expect(await runDue(subscription.id, until)).toBe(3);
    expect(await runDue(subscription.id, until)).toBe(0);
    const txns = await transactionsOf(subscription.id);
    const renewals = txns.filter((t) => t.origin === "subscription_recurring");
    expect(renewals).toHaveLength(3);
    const starts = renewals.map((t) => t.billing_period_starts_at?.getTime());
    expect(new Set(starts).size).toBe(3);
    for (let i = 1; i < renewals.length; i++) {
      expect(renewals[i]!.billing_period_starts_at?.getTime()).toBe(renewals[i - 1]!.billing_period_ends_at?.getTime());
    }
  });

  it("keeps the anchor day: 31 January renews on the last day of February, then on 31 March", async () => {
    const { subscription } = await subscribeAtCheckout();
    await query(
      `UPDATE subscriptions SET billing_anchor_at = '2026-01-31T10:00:00Z', current_period_starts_at = '2026-01-31T10:00:00Z',
              current_period_ends_at = '2026-02-28T10:00:00Z', next_billed_at = '2026-02-28T10:00:00Z' WHERE id = $1`,
      [subscription.id],
    );
    expect(await runDue(subscription.id, new Date("2026-04-01T00:00:00Z"))).toBe(2);
    const after = await getSubscriptionJson(subscription.id);
    expect(after.current_billing_period).toEqual({
      starts_at: "2026-03-31T10:00:00.000000Z",
      ends_at: "2026-04-30T10:00:00.000000Z",
    });
  });

  it("never bills a period twice when two workers run the same subscription at once", async () => {
    const { subscription } = await subscribeAtCheckout();
    const until = new Date(Date.parse(subscription.next_billed_at) + 1000);
    const results = await Promise.all([
      step(subscription.id, until),
      step(subscription.id, until),
      step(subscription.id, until, true),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await transactionsOf(subscription.id)).filter((t) => t.origin === "subscription_recurring")).toHaveLength(
      1,
    );
  });

  it("the worker's sweep runs what is due by real time and leaves the rest", async () => {
    const { subscription } = await subscribeAtCheckout();
    await query("UPDATE subscriptions SET next_billed_at = now() - interval '1 minute' WHERE id = $1", [
      subscription.id,
    ]);
    expect(await processDueSubscriptions()).toBeGreaterThanOrEqual(1);
    const txns = await transactionsOf(subscription.id);
    expect(txns.filter((t) => t.origin === "subscription_recurring")).toHaveLength(1);
    expect(await runDue(subscription.id, new Date())).toBe(0);
  });
});

describe("the worker's sweep, in batches", () => {
  const renewalsOf = async (id: string) =>
    (await transactionsOf(id)).filter((t) => t.origin === "subscription_recurring");
  const makeDue = (ids: string[], ago = "1 minute") =>
    query(
      `UPDATE subscriptions SET billing_anchor_at = now() - $2::interval, current_period_starts_at = now() - $2::interval - interval '1 month',
              current_period_ends_at = now() - $2::interval, next_billed_at = now() - $2::interval WHERE id = ANY($1)`,
      [ids, ago],
    );

  it("several workers renew many due subscriptions, each exactly once, with distinct invoice numbers", async () => {
    const subs = [];
    for (let i = 0; i < 12; i++) subs.push((await subscribeAtCheckout()).subscription.id as string);
    await makeDue(subs);
    // Batches of 3 across four workers: they take disjoint rows (SKIP LOCKED) until none is due.
    const counts = await Promise.all([1, 2, 3, 4].map(() => processDueSubscriptions(3)));
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(subs.length);
    const numbers = new Set<string>();
    for (const id of subs) {
      const renewals = await renewalsOf(id);
      expect(renewals).toHaveLength(1);
      expect(renewals[0]!.status).toBe("completed");
      numbers.add(renewals[0]!.invoice_number as string);
      expect((await events(renewals[0]!.id)).map((e) => e.eventType)).toEqual([
        "transaction.created",
        "transaction.billed",
        "transaction.updated",
        "transaction.paid",
        "transaction.completed",
      ]);
    }
    expect(numbers.size).toBe(subs.length);
  });

  it("catches up every missed period of a subscription, in order, across batches", async () => {
    const { subscription } = await subscribeAtCheckout();
    await makeDue([subscription.id], "70 days");
    await processDueSubscriptions(1);
    const renewals = await renewalsOf(subscription.id);
    expect(renewals).toHaveLength(3);
    for (let i = 1; i < renewals.length; i++) {
      expect(renewals[i]!.billing_period_starts_at?.getTime()).toBe(renewals[i - 1]!.billing_period_ends_at?.getTime());
    }
    expect(await runDue(subscription.id, new Date())).toBe(0);
  });

  it("rolls a failing batch back whole: none of its renewals happened, and the next sweep does them", async () => {
    const subs = [];
    for (let i = 0; i < 3; i++) subs.push((await subscribeAtCheckout()).subscription.id as string);
    await makeDue(subs);
    // A renewal transaction already there for the last one's period: its insert fails the batch.
    const [first] = await transactionsOf(subs[2]!);
    await query(
      `INSERT INTO transactions
       SELECT (json_populate_record(t, json_build_object('id', 'txn_' || substr(t.id, 5, 20) || 'poison',
                 'origin', 'subscription_recurring', 'billing_period_starts_at', date_trunc('milliseconds', s.next_billed_at),
                 'invoice_number', NULL, 'invoice_id', NULL))).*
         FROM transactions t JOIN subscriptions s ON s.id = t.subscription_id WHERE t.id = $1`,
      [first!.id],
    );
    const before = await query<{ id: string; next_billed_at: Date }>(
      "SELECT id, next_billed_at FROM subscriptions WHERE id = ANY($1) ORDER BY id",
      [subs],
    );
    await expect(processDueSubscriptions()).rejects.toThrow(/transactions_subscription_renewal_key/);
    expect(await query("SELECT id, next_billed_at FROM subscriptions WHERE id = ANY($1) ORDER BY id", [subs])).toEqual(
      before,
    );
    for (const id of subs.slice(0, 2)) {
      expect(await renewalsOf(id)).toHaveLength(0);
      expect((await events(id)).map((e) => e.eventType)).toEqual(["subscription.created", "subscription.activated"]);
    }
    await query("DELETE FROM transactions WHERE id LIKE '%poison'");
    expect(await processDueSubscriptions()).toBeGreaterThanOrEqual(3);
    for (const id of subs) expect(await renewalsOf(id)).toHaveLength(1);
  });
});

describe("trials", () => {
  it("ends the trial into a first charge: trialing → active", async () => {
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 7 } });
    const { subscription } = await subscribeAtCheckout({ price });
    const res = await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + 1000));
    expect(res.body.data.status).toBe("active");
    expect(Date.parse(res.body.data.first_billed_at)).toBe(Date.parse(subscription.next_billed_at));
    const txns = await transactionsOf(subscription.id);
    expect(txns[1]).toMatchObject({ status: "completed", origin: "subscription_recurring" });
    expect(txns[1]!.details.totals.grand_total).toBe("3000");
    expect((await events(subscription.id)).map((e) => e.eventType)).toEqual([
      "subscription.created",
      "subscription.trialing",
      "subscription.updated",
      "subscription.activated",
    ]);
  });
});

describe("dunning", () => {
  it("a declined renewal makes it past_due; the retries run on the schedule; exhausted → canceled", async () => {
    const { subscription } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD });
    const renewalAt = Date.parse(subscription.next_billed_at);
    let res = await advanceTo(subscription.id, new Date(renewalAt + 1000));
    expect(res.body.data.status).toBe("past_due");
    const [, renewal] = await transactionsOf(subscription.id);
    expect(renewal!.status).toBe("past_due");
    expect((await events(renewal!.id)).map((e) => e.eventType).slice(-3)).toEqual([
      "transaction.updated",
      "transaction.payment_failed",
      "transaction.past_due",
    ]);
    // Four retries over a week (1d, 3d, 5d, 7d from the failure); after the last: canceled.
    res = await advanceTo(subscription.id, new Date(renewalAt + 6 * DAY));
    expect(res.body.data.status).toBe("past_due");
    res = await advanceTo(subscription.id, new Date(renewalAt + 8 * DAY));
    expect(res.body.data.status).toBe("canceled");
    const [txn] = await query<{ payments: unknown[] }>("SELECT payments FROM transactions WHERE id = $1", [
      renewal!.id,
    ]);
    expect(txn!.payments).toHaveLength(5); // the renewal's charge and four retries
    expect((await events(subscription.id)).map((e) => e.eventType).slice(-2)).toEqual([
      "subscription.updated",
      "subscription.canceled",
    ]);
  });

  it("pauses instead when BILLING_DUNNING_EXHAUSTED_ACTION=pause", async () => {
    process.env.BILLING_DUNNING_EXHAUSTED_ACTION = "pause";
    const { subscription } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD });
    const res = await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + 9 * DAY));
    expect(res.body.data.status).toBe("paused");
    expect(res.body.data.next_billed_at).toBeNull();
    const [, renewal] = await transactionsOf(subscription.id);
    expect(renewal!.status).toBe("canceled");
  });

  it("recovers when the past-due transaction is paid with a new card (the update-payment-method checkout)", async () => {
    const { subscription } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD });
    await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + 1000));
    const [, renewal] = await transactionsOf(subscription.id);
    const paid = await payAtCheckout(renewal!.id, TEST_CARD);
    expect(paid.transaction_status).toBe("completed");
    const after = await getSubscriptionJson(subscription.id);
    expect(after.status).toBe("active");
    expect((await events(subscription.id)).map((e) => e.eventType).slice(-2)).toEqual([
      "subscription.updated",
      "subscription.activated",
    ]);
  });
});

describe("manually-collected subscriptions", () => {
  it("renew by issuing invoices, which go past due when their terms lapse", async () => {
    const { subscription } = await subscribeByInvoice();
    const renewalAt = Date.parse(subscription.next_billed_at);
    // The first invoice's 30 days of terms lapse by the renewal: past_due, and the renewal's invoice is issued.
    const res = await advanceTo(subscription.id, new Date(renewalAt + 1000));
    expect(res.body.data.status).toBe("past_due");
    expect((await transactionsOf(subscription.id))[0]!.status).toBe("past_due");
    const txns = await transactionsOf(subscription.id);
    expect(txns).toHaveLength(2);
    expect(txns[1]).toMatchObject({ status: "billed", origin: "subscription_recurring" });
    expect(txns[1]!.invoice_number).toMatch(/^INV-/);
    expect((await events(txns[1]!.id)).map((e) => e.eventType)).toEqual(["transaction.created", "transaction.billed"]);
    await advanceTo(subscription.id, new Date(renewalAt + 31 * DAY));
    expect((await transactionsOf(subscription.id))[1]!.status).toBe("past_due");
  });
});

describe("POST /subscriptions/{id}/test-clock/advance", () => {
  it("only moves forward, needs subscription.write, and refuses bad dates", async () => {
    const { subscription } = await subscribeAtCheckout();
    expectFieldError(await advanceTo(subscription.id, "2020-01-01T00:00:00Z"), "to");
    expectFieldError(await advanceTo(subscription.id, "tomorrow"), "to");
    const later = new Date(Date.now() + 2 * DAY);
    expect((await advanceTo(subscription.id, later)).status).toBe(200);
    expectFieldError(await advanceTo(subscription.id, new Date(later.getTime() - 1000)), "to");
    const readOnly = await testKey(["subscription.read"]);
    expectError(await advanceTo(subscription.id, new Date(Date.now() + 3 * DAY), readOnly), 403, "forbidden");
    const unknown = "sub_01hzzzzzzzzzzzzzzzzzzzzzzz";
    expectError(await advanceTo(unknown, new Date(Date.now() + DAY)), 404, "not_found");
  });
});
