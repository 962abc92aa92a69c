/**
 * POST /subscriptions/{id}/resume/preview and /activate/preview (ours) through the real route
 * handlers, and the credit a pause "now" gives for the unused rest of the paid period: each preview
 * equals what the action then bills, refuses what the action refuses, and writes nothing.
 */
import { describe, expect, it } from "vitest";
import * as activatePreview from "@/app/api/subscriptions/[subscription_id]/activate/preview/route";
import * as activate from "@/app/api/subscriptions/[subscription_id]/activate/route";
import * as cancel from "@/app/api/subscriptions/[subscription_id]/cancel/route";
import * as pause from "@/app/api/subscriptions/[subscription_id]/pause/route";
import * as resumePreview from "@/app/api/subscriptions/[subscription_id]/resume/preview/route";
import * as resume from "@/app/api/subscriptions/[subscription_id]/resume/route";
import { type ApiResult, call, expectError, expectFieldError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { events, expectMethodsNotAllowed, permissionsWithout } from "@/lib/dev/test/checks";
import { admin, type Handlers } from "@/lib/dev/test/resource";
import {
  asPreview,
  billedTotals,
  DAY,
  lastTransaction,
  patchSubscription,
  pendingLines,
  setClock,
  subscribed,
  transactionsOf,
} from "@/lib/dev/test/subscription-updates";
import { getSubscriptionJson, makeRecurringPrice, subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import { newId } from "@/lib/ids";
import { subscriptionPreviewSchema, subscriptionSchema } from "@/lib/schemas/subscription";

type Entity = Record<string, any>;

async function post(handlers: Handlers, path: string, id: string, body?: unknown, key?: string): Promise<ApiResult> {
  return call(handlers.POST as any, "POST", `/subscriptions/${id}${path}`, {
    key: key ?? (await admin()),
    params: { subscription_id: id },
    body,
  });
}

async function ok(handlers: Handlers, path: string, id: string, body?: unknown): Promise<Entity> {
  const res = await post(handlers, path, id, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function preview(handlers: Handlers, path: string, id: string, body?: unknown): Promise<Entity> {
  const data = await ok(handlers, path, id, body);
  subscriptionPreviewSchema.strict().parse(data);
  expect(data.id).toBeUndefined();
  return data;
}

/** What must not change when a preview is asked for: the transactions, events and pending lines. */
async function footprint(id: string) {
  return {
    transactions: (await transactionsOf(id)).length,
    events: (await events(id)).length,
    pending: await pendingLines(id),
  };
}

/** A monthly subscription of 30.00 in Germany (19% VAT), its clock 10 days into its first period, paused now. */
async function pausedMidPeriod() {
  const bought = await subscribed({ country: "DE" });
  await ok(pause, "/pause", bought.subscription.id, { effective_from: "immediately" });
  return bought;
}

describe("pausing now credits the unused rest of the paid period", () => {
  it("records the credit as a prorated negative line waiting for the resume; a pause at the period's end has none", async () => {
    const { subscription, at } = await pausedMidPeriod();
    const period = subscription.current_billing_period;
    const [line] = await pendingLines(subscription.id);
    expect(line).toMatchObject({ quantity: -1, transaction_id: null });
    const total = Date.parse(period.ends_at) - Date.parse(period.starts_at);
    const rate = Number(line!.proration?.rate);
    expect(rate).toBeCloseTo((Date.parse(period.ends_at) - at.getTime()) / total, 4);
    expect(line!.proration?.billing_period).toEqual({
      starts_at: at.toISOString().replace("Z", "000Z"),
      ends_at: period.ends_at,
    });

    const scheduled = await subscribed();
    await ok(pause, "/pause", scheduled.subscription.id, {});
    expect(await pendingLines(scheduled.subscription.id)).toEqual([]);
  });

  it("resume now: the preview shows the new period less the credit, and that is what is charged", async () => {
    const { subscription } = await pausedMidPeriod();
    const before = await footprint(subscription.id);
    const p = await preview(resumePreview, "/resume/preview", subscription.id, {});
    expect(await footprint(subscription.id)).toEqual(before);
    expect(p.status).toBe("active");
    const lines = p.immediate_transaction.details.line_items;
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ quantity: 1, proration: null });
    expect(lines[1].quantity).toBe(-1);
    expect(BigInt(lines[1].totals.subtotal)).toBeLessThan(0n);
    const charged = BigInt(p.immediate_transaction.details.totals.grand_total);
    // About a third of 35.70 (30.00 + 19%): 20-odd of the period's 30-odd days were credited.
    expect(charged).toBeGreaterThan(800n);
    expect(charged).toBeLessThan(1500n);
    expect(p.update_summary.result).toMatchObject({ action: "charge", amount: String(charged) });
    expect(p.next_transaction.details.totals.grand_total).toBe("3570");
    expect(p.next_transaction.billing_period.starts_at).toBe(p.current_billing_period.ends_at);

    const resumed = await ok(resume, "/resume", subscription.id, {});
    subscriptionSchema.strict().parse(resumed);
    expect(resumed.current_billing_period).toEqual(p.current_billing_period);
    expect(resumed.next_billed_at).toBe(p.next_billed_at);
    const txn = await lastTransaction(subscription.id);
    expect(txn).toMatchObject({ status: "completed", origin: "subscription_recurring" });
    expect({
      ...p.immediate_transaction.details,
      totals: billedTotals(p.immediate_transaction.details.totals),
    }).toEqual(asPreview(txn.details));
    expect((await pendingLines(subscription.id)).every((l) => l.transaction_id === txn.id)).toBe(true);
  });

  it("the issue's case: an upgrade paid, a pause and a resume minutes later charge only the days the new period adds", async () => {
    const bought = await subscribed();
    const id = bought.subscription.id;
    const bigger = await makeRecurringPrice({ unit_price: { amount: "6000", currency_code: "USD" } });
    const upgraded = await patchSubscription(id, {
      items: [{ price_id: bigger.id, quantity: 1 }],
      proration_billing_mode: "prorated_immediately",
    });
    expect(upgraded.status, JSON.stringify(upgraded.body)).toBe(200);
    await ok(pause, "/pause", id, { effective_from: "immediately" });
    await setClock(id, new Date(bought.at.getTime() + 5 * 60_000));
    const p = await preview(resumePreview, "/resume/preview", id, {});
    await ok(resume, "/resume", id, {});
    const txn = await lastTransaction(id);
    expect(txn.details.totals.grand_total).toBe(p.immediate_transaction.details.totals.grand_total);
    // Paid through the period's end already: the new period (60.00) less about 20 of its 30-odd
    // days' credit, not 60.00 on top.
    const total = BigInt(txn.details.totals.grand_total);
    expect(total).toBeGreaterThan(1500n);
    expect(total).toBeLessThan(2500n);
  });

  it("continuing the kept period charges nothing and drops the credit; canceling while paused forgives it", async () => {
    const { subscription } = await pausedMidPeriod();
    const body = { effective_from: "immediately", on_resume: "continue_existing_billing_period" };
    const p = await preview(resumePreview, "/resume/preview", subscription.id, body);
    expect(p.immediate_transaction).toBeNull();
    expect(p.update_summary.result.amount).toBe("0");
    expect(p.next_billed_at).toBe(subscription.next_billed_at);
    expect(p.next_transaction.details.totals.grand_total).toBe("3570");
    const continued = await ok(resume, "/resume", subscription.id, body);
    expect(continued.current_billing_period).toEqual(subscription.current_billing_period);
    expect(await pendingLines(subscription.id)).toEqual([]);
    expect(await transactionsOf(subscription.id)).toHaveLength(1);

    const other = await pausedMidPeriod();
    await ok(cancel, "/cancel", other.subscription.id, {});
    expect(await pendingLines(other.subscription.id)).toEqual([]);
  });

  it("resume at a date: nothing now; the next transaction is the resume's, with the credit", async () => {
    const { subscription, at } = await pausedMidPeriod();
    const date = new Date(at.getTime() + 3 * DAY).toISOString();
    const p = await preview(resumePreview, "/resume/preview", subscription.id, { effective_from: date });
    expect(p.immediate_transaction).toBeNull();
    expect(p.status).toBe("paused");
    expect(p.scheduled_change).toMatchObject({ action: "resume" });
    expect(Date.parse(p.next_transaction.billing_period.starts_at)).toBe(Date.parse(date));
    expect(p.next_transaction.details.line_items).toHaveLength(2);
    const scheduled = await ok(resume, "/resume", subscription.id, { effective_from: date });
    expect(scheduled.next_billed_at).toBe(p.next_billed_at);
    const read = await getSubscriptionJson(subscription.id, "?include=next_transaction");
    expect(read.next_transaction).toEqual(p.next_transaction);
  });
});

describe("POST /subscriptions/{id}/activate/preview", () => {
  it("shows what activating charges now; the activation charges exactly that", async () => {
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
    const { subscription } = await subscribeAtCheckout({ price, country: "DE" });
    await setClock(subscription.id, new Date(Date.parse(subscription.started_at) + 2 * DAY));
    const before = await footprint(subscription.id);
    const p = await preview(activatePreview, "/activate/preview", subscription.id);
    expect(await footprint(subscription.id)).toEqual(before);
    expect(p.status).toBe("active");
    expect(p.immediate_transaction.details.totals.grand_total).toBe("3570");
    expect(p.immediate_transaction.billing_period.starts_at).toBe(p.current_billing_period.starts_at);
    await ok(activate, "/activate", subscription.id);
    const txn = await lastTransaction(subscription.id);
    expect({
      ...p.immediate_transaction.details,
      totals: billedTotals(p.immediate_transaction.details.totals),
    }).toEqual(asPreview(txn.details));
    expect(txn.billing_period_starts_at?.toISOString().replace("Z", "000Z")).toBe(
      p.immediate_transaction.billing_period.starts_at,
    );
  });
});

describe("the previews' refusals", () => {
  it("refuse what the action refuses, with its code; 403 without subscription.read; 404; never 5xx", async () => {
    const { subscription } = await subscribed();
    const id = subscription.id;
    expectError(await post(resumePreview, "/resume/preview", id, {}), 400, "subscription_must_be_paused");
    expectError(await post(activatePreview, "/activate/preview", id), 400, "subscription_cannot_activate");

    const hostile: [unknown, string][] = [
      [{ effective_from: "tomorrow" }, "effective_from"],
      [{ effective_from: 5 }, "effective_from"],
      [{ on_resume: "sometimes" }, "on_resume"],
      [{ effective_from: "immediately", extra: 1 }, "extra"],
    ];
    await ok(pause, "/pause", id, { effective_from: "immediately" });
    for (const [body, field] of hostile)
      expectFieldError(await post(resumePreview, "/resume/preview", id, body), field);
    expectFieldError(
      await post(resumePreview, "/resume/preview", id, { effective_from: "2001-01-01T00:00:00Z" }),
      "effective_from",
    );

    const noRead = await testKey(permissionsWithout("subscription."));
    expectError(await post(resumePreview, "/resume/preview", id, {}, noRead), 403, "forbidden");
    expectError(await post(activatePreview, "/activate/preview", id, undefined, noRead), 403, "forbidden");
    const readOnly = await testKey(["subscription.read"]);
    expect((await post(resumePreview, "/resume/preview", id, {}, readOnly)).status).toBe(200);

    const unknown = newId("sub");
    expectNotFound(await post(resumePreview, "/resume/preview", unknown, {}), unknown);
    expectNotFound(await post(activatePreview, "/activate/preview", unknown), unknown);
    const methods = ["GET", "PUT", "PATCH", "DELETE"] as const;
    const params = { subscription_id: id };
    await expectMethodsNotAllowed(resumePreview as Handlers, methods, `/subscriptions/${id}/resume/preview`, params);
    await expectMethodsNotAllowed(
      activatePreview as Handlers,
      methods,
      `/subscriptions/${id}/activate/preview`,
      params,
    );
  });
});
