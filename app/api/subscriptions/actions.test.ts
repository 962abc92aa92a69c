/**
 * POST /subscriptions/{id}/pause, /resume, /cancel and /activate through the real route handlers:
 * each move now and scheduled, each refusal with its code, validation that never answers 5xx,
 * permissions and unknown IDs, the whole lifecycle through the sandbox test clock, and concurrency.
 */
import { describe, expect, it } from "vitest";
import * as paymentMethodItem from "@/app/api/customers/[customer_id]/payment-methods/[payment_method_id]/route";
import * as activate from "@/app/api/subscriptions/[subscription_id]/activate/route";
import * as cancel from "@/app/api/subscriptions/[subscription_id]/cancel/route";
import * as pause from "@/app/api/subscriptions/[subscription_id]/pause/route";
import * as resume from "@/app/api/subscriptions/[subscription_id]/resume/route";
import * as advance from "@/app/api/subscriptions/[subscription_id]/test-clock/advance/route";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { events, expectMethodsNotAllowed } from "@/lib/dev/test/checks";
import { admin, type Handlers } from "@/lib/dev/test/resource";
import {
  DECLINES_LATER_CARD,
  getSubscriptionJson,
  makeRecurringPrice,
  subscribeAtCheckout,
  subscribeByInvoice,
} from "@/lib/dev/test/subscriptions";
import type { CardPaymentInput } from "@/lib/schemas/payment";
import { subscriptionSchema } from "@/lib/schemas/subscription";

const DAY = 86_400_000;
type Entity = Record<string, any>;

const ACTIONS = { pause, resume, cancel, activate } as const;
type Action = keyof typeof ACTIONS;

/** POSTs `body` (none when undefined) to /subscriptions/{id}/{action}. */
async function act(action: Action, id: string, body?: unknown, key?: string) {
  return call(ACTIONS[action].POST, "POST", `/subscriptions/${id}/${action}`, {
    key: key ?? (await admin()),
    params: { subscription_id: id },
    body,
  });
}

/** POSTs and expects 200 with a subscription of the strict response schema; returns it. */
async function ok(action: Action, id: string, body?: unknown): Promise<Entity> {
  const res = await act(action, id, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  subscriptionSchema.strict().parse(res.body.data);
  return res.body.data;
}

async function advanceTo(id: string, to: Date): Promise<Entity> {
  const res = await call(advance.POST, "POST", `/subscriptions/${id}/test-clock/advance`, {
    key: await admin(),
    params: { subscription_id: id },
    body: { to: to.toISOString() },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const eventTypes = async (id: string) => (await events(id)).map((e) => e.eventType);

interface TxnRow {
  id: string;
  status: string;
  origin: string;
  billing_period_starts_at: Date | null;
  billing_period_ends_at: Date | null;
}

const transactionsOf = (subscriptionId: string) =>
  query<TxnRow>(
    `SELECT id, status, origin, billing_period_starts_at, billing_period_ends_at FROM transactions
      WHERE subscription_id = $1 ORDER BY id`,
    [subscriptionId],
  );

const iso = (ms: number) => new Date(ms).toISOString();
/** The API's rendering of a date (microseconds). */
const api = (ms: number) => iso(ms).replace("Z", "000Z");

/** A subscription in a 14-day trial, bought at checkout (with `options.card`, saved for later charges). */
async function trialing(options: { card?: CardPaymentInput } = {}) {
  const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
  return subscribeAtCheckout({ price, ...options });
}

/**
 * Pauses `sub` now after moving its clock 10 days into its period: the resume then bills the new
 * period less the credit of the 20-odd days the pause left unused (stops.ts pauseCreditLines),
 * something to charge. Returns the clock's time.
 */
async function pauseMidPeriod(sub: Entity): Promise<number> {
  const at = Date.parse(sub.current_billing_period.starts_at) + 10 * DAY;
  await advanceTo(sub.id, new Date(at));
  await ok("pause", sub.id, { effective_from: "immediately" });
  return at;
}

async function deletePaymentMethod(customerId: string): Promise<void> {
  const [pm] = await query<{ id: string }>("SELECT id FROM payment_methods WHERE customer_id = $1", [customerId]);
  const res = await call(paymentMethodItem.DELETE, "DELETE", `/customers/${customerId}/payment-methods/${pm!.id}`, {
    key: await admin(),
    params: { customer_id: customerId, payment_method_id: pm!.id },
  });
  expect(res.status).toBe(204);
}

describe("POST /subscriptions/{id}/pause", () => {
  it("schedules a pause at the end of the period by default (no body, or {}), announced by subscription.updated", async () => {
    const { subscription } = await subscribeAtCheckout();
    const paused = await ok("pause", subscription.id);
    expect(paused).toMatchObject({
      status: "active",
      paused_at: null,
      next_billed_at: subscription.next_billed_at,
      current_billing_period: subscription.current_billing_period,
      scheduled_change: { action: "pause", effective_at: subscription.next_billed_at, resume_at: null },
    });
    expect(await eventTypes(subscription.id)).toEqual([
      "subscription.created",
      "subscription.activated",
      "subscription.updated",
    ]);
    const other = await subscribeAtCheckout();
    const resumeAt = Date.parse(other.subscription.next_billed_at) + 10 * DAY;
    const withDate = await ok("pause", other.subscription.id, { resume_at: iso(resumeAt), effective_from: null });
    expect(withDate.scheduled_change).toEqual({
      action: "pause",
      effective_at: other.subscription.next_billed_at,
      resume_at: api(resumeAt),
    });
    const empty = await subscribeAtCheckout();
    expect((await ok("pause", empty.subscription.id, {})).scheduled_change.action).toBe("pause");
  });

  it("pauses immediately: paused_at now, no period shown, items inactive, subscription.updated then .paused", async () => {
    const { subscription } = await subscribeAtCheckout();
    const before = Date.now();
    const paused = await ok("pause", subscription.id, { effective_from: "immediately" });
    expect(paused).toMatchObject({
      status: "paused",
      next_billed_at: null,
      current_billing_period: null,
      scheduled_change: null,
    });
    expect(Date.parse(paused.paused_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(paused.items[0].status).toBe("inactive");
    expect((await eventTypes(subscription.id)).slice(2)).toEqual(["subscription.updated", "subscription.paused"]);
  });

  it("pauses immediately with resume_at: a scheduled resume, and next_billed_at is the resume date", async () => {
    const { subscription } = await subscribeAtCheckout();
    const resumeAt = Date.now() + 5 * DAY;
    const paused = await ok("pause", subscription.id, {
      effective_from: "immediately",
      resume_at: iso(resumeAt),
      on_resume: "continue_existing_billing_period",
    });
    expect(paused.status).toBe("paused");
    expect(paused.next_billed_at).toBe(api(resumeAt));
    expect(paused.scheduled_change).toEqual({ action: "resume", effective_at: api(resumeAt), resume_at: null });
    // The resume continues the kept period (it has not ended by then): no charge, same period.
    const resumed = await advanceTo(subscription.id, new Date(resumeAt + 1000));
    expect(resumed.status).toBe("active");
    expect(resumed.current_billing_period).toEqual(subscription.current_billing_period);
    expect(resumed.next_billed_at).toBe(subscription.next_billed_at);
    expect(await transactionsOf(subscription.id)).toHaveLength(1);
  });

  it("a trial pauses at its end only; a scheduled pause replaces the first charge", async () => {
    const { subscription } = await trialing();
    expectError(
      await act("pause", subscription.id, { effective_from: "immediately" }),
      400,
      "subscription_cannot_be_paused",
    );
    const scheduled = await ok("pause", subscription.id);
    expect(scheduled.scheduled_change).toMatchObject({ action: "pause", effective_at: subscription.next_billed_at });
    const after = await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + 1000));
    expect(after.status).toBe("paused");
    expect(await transactionsOf(subscription.id)).toHaveLength(1); // only the trial's zero checkout
  });

  it("refuses what the state machine refuses, with the family's codes", async () => {
    const { subscription } = await subscribeAtCheckout();
    await ok("pause", subscription.id, { effective_from: "immediately" });
    const again = expectError(await act("pause", subscription.id), 400, "subscription_cannot_be_paused");
    expect(again.detail).toContain("already paused");

    const scheduledCancel = await subscribeAtCheckout();
    await ok("cancel", scheduledCancel.subscription.id);
    expectError(await act("pause", scheduledCancel.subscription.id), 400, "subscription_locked_pending_changes");

    const scheduledPause = await subscribeAtCheckout();
    await ok("pause", scheduledPause.subscription.id);
    expectError(
      await act("pause", scheduledPause.subscription.id, { effective_from: "immediately" }),
      400,
      "subscription_locked_pending_changes",
    );

    const canceled = await subscribeAtCheckout();
    await ok("cancel", canceled.subscription.id, { effective_from: "immediately" });
    expectError(await act("pause", canceled.subscription.id), 400, "subscription_is_canceled_action_invalid");
  });

  it("continue_existing_billing_period: refused for a pause at the period's end, or a resume after it", async () => {
    const { subscription } = await subscribeAtCheckout();
    const end = Date.parse(subscription.next_billed_at);
    expectError(
      await act("pause", subscription.id, { on_resume: "continue_existing_billing_period" }),
      400,
      "subscription_continuing_existing_billing_period_not_allowed",
    );
    expectError(
      await act("pause", subscription.id, {
        effective_from: "immediately",
        resume_at: iso(end + DAY),
        on_resume: "continue_existing_billing_period",
      }),
      400,
      "subscription_continuing_existing_billing_period_not_allowed",
    );
    // Refused whole: nothing changed.
    const same = await getSubscriptionJson(subscription.id);
    expect(same).toMatchObject({ status: "active", scheduled_change: null });
    expect(await eventTypes(subscription.id)).toHaveLength(2);
  });

  it("past_due: pausing cancels the past-due renewal; its unpaid period cannot be continued", async () => {
    const { subscription } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD });
    const pastDue = await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + 1000));
    expect(pastDue.status).toBe("past_due");
    expectError(
      await act("pause", subscription.id, {
        effective_from: "immediately",
        on_resume: "continue_existing_billing_period",
      }),
      400,
      "subscription_continuing_existing_billing_period_not_allowed_subscription_past_due",
    );
    expect((await ok("pause", subscription.id, { effective_from: "immediately" })).status).toBe("paused");
    const [, renewal] = await transactionsOf(subscription.id);
    expect(renewal!.status).toBe("canceled");
  });

  it("validates resume_at and the enums: 400 naming the field, never 5xx", async () => {
    const { subscription } = await subscribeAtCheckout();
    const id = subscription.id;
    const next = Date.parse(subscription.next_billed_at);
    const cases: [unknown, string][] = [
      [{ effective_from: "tomorrow" }, "effective_from"],
      [{ effective_from: 1 }, "effective_from"],
      [{ on_resume: "later" }, "on_resume"],
      [{ on_resume: null }, "on_resume"],
      [{ resume_at: "next week" }, "resume_at"],
      [{ resume_at: 1_900_000_000 }, "resume_at"],
      [{ resume_at: "2030-02-30T00:00:00Z" }, "resume_at"],
      [{ resume_at: "2020-01-01T00:00:00Z" }, "resume_at"], // in the past
      [{ resume_at: "0001-01-01T00:00:00Z" }, "resume_at"],
      [{ resume_at: "9999-12-31T23:59:59+14:00" }, "resume_at"], // too far ahead
      [{ resume_at: iso(next - DAY) }, "resume_at"], // scheduled: before the pause starts
      [{ resume_at: iso(next) }, "resume_at"], // … or at it
      [{ effective_from: "immediately", resume_at: iso(Date.now() - 60_000) }, "resume_at"],
      [{ paused: true }, "paused"],
    ];
    for (const [body, field] of cases) expectFieldError(await act("pause", id, body), field);
    for (const raw of ["[]", '"immediately"', "{", "null"]) {
      const res = await call(pause.POST, "POST", `/subscriptions/${id}/pause`, {
        key: await admin(),
        params: { subscription_id: id },
        rawBody: raw,
        headers: { "content-type": "application/json" },
      });
      expectError(res, 400, "bad_request");
    }
    expect(await getSubscriptionJson(id)).toMatchObject({ status: "active", scheduled_change: null });
    expect(await eventTypes(id)).toHaveLength(2);
  });
});

describe("POST /subscriptions/{id}/resume", () => {
  it("resumes now with a new billing period, billed at once (subscription.updated, .resumed, then the transaction's)", async () => {
    const { subscription } = await subscribeAtCheckout();
    const before = await pauseMidPeriod(subscription);
    const resumed = await ok("resume", subscription.id);
    expect(resumed).toMatchObject({ status: "active", paused_at: null, scheduled_change: null });
    const starts = Date.parse(resumed.current_billing_period.starts_at);
    expect(starts).toBeGreaterThanOrEqual(before - 1000);
    expect(resumed.next_billed_at).toBe(resumed.current_billing_period.ends_at);
    expect(resumed.items[0]).toMatchObject({
      status: "active",
      previously_billed_at: resumed.current_billing_period.starts_at,
    });
    const txns = await transactionsOf(subscription.id);
    expect(txns).toHaveLength(2);
    expect(txns[1]).toMatchObject({ status: "completed", origin: "subscription_recurring" });
    expect(txns[1]!.billing_period_starts_at?.getTime()).toBe(starts);
    expect((await eventTypes(subscription.id)).slice(-2)).toEqual(["subscription.updated", "subscription.resumed"]);
    expect(await eventTypes(txns[1]!.id)).toEqual([
      "transaction.created",
      "transaction.billed",
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
  });

  it("continues the existing period while it lasts, without a charge; refused once it has ended or when there is none", async () => {
    const { subscription } = await subscribeAtCheckout();
    await ok("pause", subscription.id, { effective_from: "immediately" });
    const continued = await ok("resume", subscription.id, {
      effective_from: "immediately",
      on_resume: "continue_existing_billing_period",
    });
    expect(continued.current_billing_period).toEqual(subscription.current_billing_period);
    expect(continued.next_billed_at).toBe(subscription.next_billed_at);
    expect(await transactionsOf(subscription.id)).toHaveLength(1);

    // Paused past the period's end: nothing left to continue.
    await ok("pause", subscription.id, { effective_from: "immediately" });
    await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + DAY));
    expectError(
      await act("resume", subscription.id, { on_resume: "continue_existing_billing_period" }),
      400,
      "subscription_continuing_existing_billing_period_not_allowed",
    );
    await query(
      "UPDATE subscriptions SET current_period_starts_at = NULL, current_period_ends_at = NULL WHERE id = $1",
      [subscription.id],
    );
    expectError(
      await act("resume", subscription.id, { on_resume: "continue_existing_billing_period" }),
      400,
      "subscription_continuing_existing_billing_period_not_allowed_no_billing_period",
    );
    expect((await getSubscriptionJson(subscription.id)).status).toBe("paused");
  });

  it("a declined charge on resume makes the subscription past_due (dunning), as a renewal", async () => {
    const { subscription } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD });
    await pauseMidPeriod(subscription);
    const resumed = await ok("resume", subscription.id, {});
    expect(resumed.status).toBe("past_due");
    const [, txn] = await transactionsOf(subscription.id);
    expect(txn!.status).toBe("past_due");
    expect((await eventTypes(subscription.id)).slice(-4)).toEqual([
      "subscription.updated",
      "subscription.resumed",
      "subscription.updated",
      "subscription.past_due",
    ]);
  });

  it("schedules a resume at a date: next_billed_at is that date; the engine resumes and bills then", async () => {
    const { subscription } = await subscribeAtCheckout();
    await ok("pause", subscription.id, { effective_from: "immediately", resume_at: iso(Date.now() + 20 * DAY) });
    const at = Date.now() + 3 * DAY;
    const scheduled = await ok("resume", subscription.id, { effective_from: iso(at) });
    expect(scheduled).toMatchObject({
      status: "paused",
      next_billed_at: api(at),
      scheduled_change: { action: "resume", effective_at: api(at), resume_at: null },
    });
    expect((await eventTypes(subscription.id)).slice(-1)).toEqual(["subscription.updated"]);
    const resumed = await advanceTo(subscription.id, new Date(at + 1000));
    expect(resumed).toMatchObject({ status: "active", scheduled_change: null });
    expect(resumed.current_billing_period.starts_at).toBe(api(at));
    const txns = await transactionsOf(subscription.id);
    expect(txns[1]).toMatchObject({ status: "completed", origin: "subscription_recurring" });
  });

  it("gives a scheduled pause its resume date; `immediately` there is refused", async () => {
    const { subscription } = await subscribeAtCheckout();
    await ok("pause", subscription.id);
    const next = Date.parse(subscription.next_billed_at);
    expectError(await act("resume", subscription.id), 400, "subscription_must_be_paused");
    expectFieldError(await act("resume", subscription.id, { effective_from: iso(next - DAY) }), "effective_from");
    expectError(
      await act("resume", subscription.id, {
        effective_from: iso(next + DAY),
        on_resume: "continue_existing_billing_period",
      }),
      400,
      "subscription_continuing_existing_billing_period_not_allowed",
    );
    const dated = await ok("resume", subscription.id, { effective_from: iso(next + 7 * DAY) });
    expect(dated).toMatchObject({
      status: "active",
      next_billed_at: subscription.next_billed_at,
      scheduled_change: { action: "pause", effective_at: subscription.next_billed_at, resume_at: api(next + 7 * DAY) },
    });
  });

  it("refuses subscriptions that are not paused, and a billing resume without a saved card", async () => {
    const { subscription, customer } = await subscribeAtCheckout();
    const notPaused = expectError(await act("resume", subscription.id), 400, "subscription_must_be_paused");
    expect(notPaused.detail).toContain("'active'");
    await ok("pause", subscription.id, { effective_from: "immediately" });
    await deletePaymentMethod(customer.id);
    expectError(await act("resume", subscription.id), 400, "subscription_missing_payment_method_cannot_resume");
    expectError(
      await act("resume", subscription.id, { effective_from: iso(Date.now() + DAY) }),
      400,
      "subscription_missing_payment_method_cannot_resume",
    );
    // Continuing the period bills nothing: no card needed.
    const continued = await ok("resume", subscription.id, { on_resume: "continue_existing_billing_period" });
    expect(continued.status).toBe("active");

    const canceled = await subscribeAtCheckout();
    await ok("cancel", canceled.subscription.id, { effective_from: "immediately" });
    expectError(await act("resume", canceled.subscription.id), 400, "subscription_is_canceled_action_invalid");
  });

  it("validates effective_from and on_resume: 400 naming the field, never 5xx", async () => {
    const { subscription } = await subscribeAtCheckout();
    await ok("pause", subscription.id, { effective_from: "immediately" });
    const id = subscription.id;
    const cases: [unknown, string][] = [
      [{ effective_from: "next_billing_period" }, "effective_from"], // a 500 in the API family once (laravel/cashier-paddle#206)
      [{ effective_from: "now" }, "effective_from"],
      [{ effective_from: 0 }, "effective_from"],
      [{ effective_from: "2020-01-01T00:00:00Z" }, "effective_from"],
      [{ effective_from: iso(Date.now() - 1000) }, "effective_from"],
      [{ effective_from: "9999-12-31T00:00:00Z" }, "effective_from"],
      [{ effective_from: "2030-13-01T00:00:00Z" }, "effective_from"],
      [{ on_resume: "start_new" }, "on_resume"],
      [{ on_resume: ["start_new_billing_period"] }, "on_resume"],
      [{ resume_at: iso(Date.now() + DAY) }, "resume_at"],
    ];
    for (const [body, field] of cases) expectFieldError(await act("resume", id, body), field);
    expect((await getSubscriptionJson(id)).status).toBe("paused");
  });

  it("resumes a manually-collected subscription by issuing the new period's invoice", async () => {
    const { subscription } = await subscribeByInvoice();
    await pauseMidPeriod(subscription);
    const resumed = await ok("resume", subscription.id);
    expect(resumed.status).toBe("active");
    const txns = await transactionsOf(subscription.id);
    expect(txns[1]).toMatchObject({ status: "billed", origin: "subscription_recurring" });
  });
});

describe("POST /subscriptions/{id}/cancel", () => {
  it("schedules the cancel at the period's end by default; asking again changes nothing", async () => {
    const { subscription } = await subscribeAtCheckout();
    const scheduled = await ok("cancel", subscription.id);
    expect(scheduled).toMatchObject({
      status: "active",
      canceled_at: null,
      next_billed_at: subscription.next_billed_at,
      scheduled_change: { action: "cancel", effective_at: subscription.next_billed_at, resume_at: null },
    });
    const again = await ok("cancel", subscription.id, { effective_from: "next_billing_period" });
    expect(again.scheduled_change).toEqual(scheduled.scheduled_change);
    expect(await eventTypes(subscription.id)).toEqual([
      "subscription.created",
      "subscription.activated",
      "subscription.updated",
    ]);
    // At the period's end: canceled, not renewed.
    const after = await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + DAY));
    expect(after).toMatchObject({
      status: "canceled",
      canceled_at: subscription.next_billed_at,
      next_billed_at: null,
      current_billing_period: null,
      scheduled_change: null,
    });
    expect(await transactionsOf(subscription.id)).toHaveLength(1);
    expect((await eventTypes(subscription.id)).slice(-2)).toEqual(["subscription.updated", "subscription.canceled"]);
  });

  it("cancels immediately: canceled_at now, subscription.updated then .canceled; canceled is final", async () => {
    const { subscription } = await subscribeAtCheckout();
    const before = Date.now();
    const canceled = await ok("cancel", subscription.id, { effective_from: "immediately" });
    expect(canceled).toMatchObject({ status: "canceled", next_billed_at: null, current_billing_period: null });
    expect(Date.parse(canceled.canceled_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await eventTypes(subscription.id)).slice(2)).toEqual(["subscription.updated", "subscription.canceled"]);
    const final = expectError(await act("cancel", subscription.id), 400, "subscription_is_canceled_action_invalid");
    expect(final.detail).toContain("already canceled");
    expectError(
      await act("cancel", subscription.id, { effective_from: "immediately" }),
      400,
      "subscription_is_canceled_action_invalid",
    );
  });

  it("replaces a scheduled pause; a trial canceled at its end is never charged", async () => {
    const { subscription } = await subscribeAtCheckout();
    await ok("pause", subscription.id);
    const replaced = await ok("cancel", subscription.id);
    expect(replaced.scheduled_change.action).toBe("cancel");

    const trial = await trialing();
    const scheduled = await ok("cancel", trial.subscription.id);
    expect(scheduled.scheduled_change).toMatchObject({
      action: "cancel",
      effective_at: trial.subscription.next_billed_at,
    });
    const after = await advanceTo(
      trial.subscription.id,
      new Date(Date.parse(trial.subscription.next_billed_at) + 1000),
    );
    expect(after.status).toBe("canceled");
    expect(await transactionsOf(trial.subscription.id)).toHaveLength(1);
  });

  it("paused: immediately by default; at the next billing period = instead of the scheduled resume; refused without one", async () => {
    const { subscription } = await subscribeAtCheckout();
    await ok("pause", subscription.id, { effective_from: "immediately" });
    expectFieldError(await act("cancel", subscription.id, { effective_from: "next_billing_period" }), "effective_from");
    expect((await ok("cancel", subscription.id, {})).status).toBe("canceled");

    const other = await subscribeAtCheckout();
    const resumeAt = Date.now() + 4 * DAY;
    await ok("pause", other.subscription.id, { effective_from: "immediately", resume_at: iso(resumeAt) });
    const scheduled = await ok("cancel", other.subscription.id, { effective_from: "next_billing_period" });
    expect(scheduled).toMatchObject({
      status: "paused",
      scheduled_change: { action: "cancel", effective_at: api(resumeAt), resume_at: null },
    });
    // The scheduled cancel is not quietly taken back by a resume.
    expectError(await act("resume", other.subscription.id), 400, "subscription_locked_pending_changes");
    expectError(
      await act("resume", other.subscription.id, { effective_from: iso(resumeAt + DAY) }),
      400,
      "subscription_locked_pending_changes",
    );
    const after = await advanceTo(other.subscription.id, new Date(resumeAt + 1000));
    expect(after.status).toBe("canceled");
    expect(await transactionsOf(other.subscription.id)).toHaveLength(1);
  });

  it("validates the body: 400 naming the field, never 5xx", async () => {
    const { subscription } = await subscribeAtCheckout();
    for (const [body, field] of [
      [{ effective_from: "now" }, "effective_from"],
      [{ effective_from: "2030-01-01T00:00:00Z" }, "effective_from"],
      [{ effective_from: true }, "effective_from"],
      [{ reason: "too expensive" }, "reason"],
    ] as const) {
      expectFieldError(await act("cancel", subscription.id, body), field);
    }
    expect((await getSubscriptionJson(subscription.id)).scheduled_change).toBeNull();
  });

  it("two cancels at once: one scheduled change, one subscription.updated", async () => {
    const { subscription } = await subscribeAtCheckout();
    const results = await Promise.all([act("cancel", subscription.id), act("cancel", subscription.id)]);
    for (const res of results) expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(results[0].body.data.scheduled_change).toEqual(results[1].body.data.scheduled_change);
    expect(await eventTypes(subscription.id)).toEqual([
      "subscription.created",
      "subscription.activated",
      "subscription.updated",
    ]);
  });

  it("many actions at once take turns: each a 200 or a 400 refusal, never a 5xx, and the events tell the final state", async () => {
    const { subscription } = await subscribeAtCheckout();
    const id = subscription.id;
    const requests: [Action, unknown][] = [
      ["pause", { effective_from: "immediately" }],
      ["resume", {}],
      ["pause", {}],
      ["resume", { effective_from: iso(Date.now() + DAY) }],
      ["pause", { effective_from: "immediately" }],
      ["resume", {}],
      ["activate", undefined],
      ["cancel", {}],
    ];
    const results = await Promise.all(requests.map(([action, body]) => act(action, id, body)));
    for (const res of results) expect([200, 400], JSON.stringify(res.body)).toContain(res.status);
    const after = await getSubscriptionJson(id);
    subscriptionSchema.strict().parse(after);
    const moves = (await eventTypes(id)).filter((t) => t !== "subscription.updated");
    const last = moves[moves.length - 1];
    const status = { "subscription.paused": "paused", "subscription.canceled": "canceled" } as Record<string, string>;
    expect(after.status).toBe(status[last!] ?? "active");
    // Every resume that started a new period billed it once.
    const resumes = moves.filter((t) => t === "subscription.resumed").length;
    expect(await transactionsOf(id)).toHaveLength(1 + resumes);
  });

  it("a pause and a cancel at once: one wins whole, the other is refused or replaces it; never half-applied", async () => {
    const { subscription } = await subscribeAtCheckout();
    const [paused, canceled] = await Promise.all([
      act("pause", subscription.id, { effective_from: "immediately" }),
      act("cancel", subscription.id, { effective_from: "immediately" }),
    ]);
    expect(canceled.status).toBe(200); // a cancel is never refused but for a canceled subscription
    const after = await getSubscriptionJson(subscription.id);
    expect(after.status).toBe("canceled");
    const types = (await eventTypes(subscription.id)).slice(2);
    if (paused.status === 200) {
      expect(types).toEqual([
        "subscription.updated",
        "subscription.paused",
        "subscription.updated",
        "subscription.canceled",
      ]);
    } else {
      expectError(paused, 400, "subscription_is_canceled_action_invalid");
      expect(types).toEqual(["subscription.updated", "subscription.canceled"]);
    }
  });
});

describe("POST /subscriptions/{id}/activate", () => {
  it("ends the trial now and charges the first period: events updated, activated, then the transaction's", async () => {
    const { subscription } = await trialing();
    const before = Date.now();
    const active = await ok("activate", subscription.id);
    const starts = Date.parse(active.current_billing_period.starts_at);
    expect(starts).toBeGreaterThanOrEqual(before - 1000);
    expect(active).toMatchObject({ status: "active", started_at: subscription.started_at, scheduled_change: null });
    expect(active.first_billed_at).toBe(active.current_billing_period.starts_at);
    expect(active.next_billed_at).toBe(active.current_billing_period.ends_at);
    const ends = new Date(starts);
    ends.setUTCMonth(ends.getUTCMonth() + 1);
    expect(Date.parse(active.current_billing_period.ends_at)).toBe(ends.getTime());
    expect(active.items[0]).toMatchObject({
      status: "active",
      previously_billed_at: active.current_billing_period.starts_at,
      trial_dates: { starts_at: subscription.started_at, ends_at: active.current_billing_period.starts_at },
    });
    const txns = await transactionsOf(subscription.id);
    expect(txns).toHaveLength(2);
    expect(txns[1]).toMatchObject({ status: "completed", origin: "subscription_recurring" });
    expect(txns[1]!.billing_period_starts_at?.getTime()).toBe(starts);
    expect(await eventTypes(subscription.id)).toEqual([
      "subscription.created",
      "subscription.trialing",
      "subscription.updated",
      "subscription.activated",
    ]);
    const [activated] = (await events(subscription.id)).slice(-1);
    const [txnCreated] = await events(txns[1]!.id);
    expect(activated!.id < txnCreated!.id).toBe(true);
    // Renewals follow the new anchor.
    const renewed = await advanceTo(subscription.id, new Date(ends.getTime() + 1000));
    expect(renewed.current_billing_period.starts_at).toBe(active.next_billed_at);
    expect(await transactionsOf(subscription.id)).toHaveLength(3);
  });

  it("a declined charge refuses the activation whole: 400 subscription_payment_declined, nothing changed", async () => {
    const { subscription } = await trialing({ card: DECLINES_LATER_CARD });
    const error = expectError(await act("activate", subscription.id), 400, "subscription_payment_declined");
    expect(error.detail).toContain("nothing changed");
    const after = await getSubscriptionJson(subscription.id);
    // management_urls carry portal tokens made per answer (lib/services/portal/management-urls.ts).
    expect({ ...after, management_urls: null }).toEqual({ ...subscription, management_urls: null });
    expect(await transactionsOf(subscription.id)).toHaveLength(1);
    expect(await eventTypes(subscription.id)).toEqual(["subscription.created", "subscription.trialing"]);
  });

  it("refuses what cannot be activated, with the family's codes", async () => {
    const { subscription } = await subscribeAtCheckout();
    const notTrial = expectError(await act("activate", subscription.id), 400, "subscription_cannot_activate");
    expect(notTrial.detail).toBe(
      "Only subscriptions which have status 'trialing' can be activated. Subscription status is 'active'",
    );

    const noCard = await trialing();
    await deletePaymentMethod(noCard.customer.id);
    expectError(
      await act("activate", noCard.subscription.id),
      400,
      "subscription_missing_payment_method_cannot_activate",
    );

    const leaving = await trialing();
    await ok("cancel", leaving.subscription.id);
    expectError(await act("activate", leaving.subscription.id), 400, "subscription_locked_pending_changes");

    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
    const manual = await subscribeByInvoice({ price });
    expect(manual.subscription.status).toBe("trialing");
    expectError(
      await act("activate", manual.subscription.id),
      400,
      "subscription_manual_collection_mode_activation_not_allowed",
    );
  });

  it("takes no body: one sent is not read", async () => {
    const { subscription } = await trialing();
    const res = await call(activate.POST, "POST", `/subscriptions/${subscription.id}/activate`, {
      key: await admin(),
      params: { subscription_id: subscription.id },
      rawBody: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe("every action", () => {
  it("needs subscription.write (403), answers 404 for unknown and malformed IDs, 405 for other methods", async () => {
    const { subscription } = await subscribeAtCheckout();
    const readOnly = await testKey(["subscription.read"]);
    for (const action of Object.keys(ACTIONS) as Action[]) {
      const denied = expectError(await act(action, subscription.id, undefined, readOnly), 403, "forbidden");
      expect(denied.detail).toContain("subscription.write");
      expectNotFound(await act(action, "sub_01hzzzzzzzzzzzzzzzzzzzzzzz"), "sub_01hzzzzzzzzzzzzzzzzzzzzzzz");
      expectNotFound(await act(action, "sub_nope"));
      expectNotFound(await act(action, "ctm_01hzzzzzzzzzzzzzzzzzzzzzzz"));
      await expectMethodsNotAllowed(
        ACTIONS[action] as Handlers,
        ["GET", "PUT", "PATCH", "DELETE"],
        `/subscriptions/${subscription.id}/${action}`,
        { subscription_id: subscription.id },
      );
    }
    expect(await eventTypes(subscription.id)).toHaveLength(2);
  });
});

describe("the lifecycle through the test clock", () => {
  it("create → pause at period end → paused → resume at a date → resumed and billed → cancel at period end → canceled", async () => {
    const { subscription } = await subscribeAtCheckout();
    const id = subscription.id;
    const firstEnd = Date.parse(subscription.next_billed_at);

    await ok("pause", id);
    const paused = await advanceTo(id, new Date(firstEnd + DAY));
    expect(paused).toMatchObject({
      status: "paused",
      paused_at: api(firstEnd),
      next_billed_at: null,
      scheduled_change: null,
    });
    expect(await transactionsOf(id)).toHaveLength(1); // the pause replaced the renewal

    const resumeAt = firstEnd + 10 * DAY;
    expectFieldError(await act("resume", id, { effective_from: iso(firstEnd + 12 * 3_600_000) }), "effective_from"); // before the clock
    await ok("resume", id, { effective_from: iso(resumeAt) });
    const resumed = await advanceTo(id, new Date(resumeAt + DAY));
    expect(resumed).toMatchObject({
      status: "active",
      paused_at: null,
      current_billing_period: { starts_at: api(resumeAt) },
    });
    const txns = await transactionsOf(id);
    expect(txns).toHaveLength(2);
    expect(txns[1]).toMatchObject({ status: "completed", origin: "subscription_recurring" });
    expect(txns[1]!.billing_period_starts_at?.getTime()).toBe(resumeAt);

    const scheduled = await ok("cancel", id);
    expect(scheduled.scheduled_change).toMatchObject({ action: "cancel", effective_at: resumed.next_billed_at });
    const canceled = await advanceTo(id, new Date(Date.parse(resumed.next_billed_at) + DAY));
    expect(canceled).toMatchObject({ status: "canceled", canceled_at: resumed.next_billed_at, next_billed_at: null });
    expect(await transactionsOf(id)).toHaveLength(2);

    expect(await eventTypes(id)).toEqual([
      "subscription.created",
      "subscription.activated",
      "subscription.updated", // pause scheduled
      "subscription.updated", // paused at the period's end
      "subscription.paused",
      "subscription.updated", // resume scheduled
      "subscription.updated", // resumed at the date
      "subscription.resumed",
      "subscription.updated", // cancel scheduled
      "subscription.updated", // canceled at the period's end
      "subscription.canceled",
    ]);
    // The resume's transaction follows its subscription.resumed.
    const resumedEvent = (await events(id))[7];
    const [txnCreated] = await events(txns[1]!.id);
    expect(resumedEvent!.id < txnCreated!.id).toBe(true);
  });

  it("a scheduled pause with resume_at: paused at the period's end, then resumed with a new period billed", async () => {
    const { subscription } = await subscribeAtCheckout();
    const end = Date.parse(subscription.next_billed_at);
    const resumeAt = end + 5 * DAY;
    await ok("pause", subscription.id, { resume_at: iso(resumeAt) });
    const paused = await advanceTo(subscription.id, new Date(end + DAY));
    expect(paused).toMatchObject({
      status: "paused",
      next_billed_at: api(resumeAt),
      scheduled_change: { action: "resume", effective_at: api(resumeAt), resume_at: null },
    });
    const resumed = await advanceTo(subscription.id, new Date(resumeAt + DAY));
    expect(resumed).toMatchObject({ status: "active", current_billing_period: { starts_at: api(resumeAt) } });
    const txns = await transactionsOf(subscription.id);
    expect(txns).toHaveLength(2);
    expect(txns[1]!.billing_period_starts_at?.getTime()).toBe(resumeAt);
  });
});
