/**
 * POST /webhooks/stripe and what its events do (issue 21 §5-6), through the real route handlers on
 * a real database, against the local Stripe stand-in (lib/dev/stripe). The stand-in delivers no
 * webhook by itself here: each test reads the events it emitted (its control API) and posts them,
 * signed with the `stripe` package's own helper, as Stripe would — so the tests choose the order,
 * redeliver, or sign wrong. Jobs queued by the endpoint and by refunds are run by `drain()`, as the
 * worker would run them.
 */
import type { JobHelpers } from "graphile-worker";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as adjustmentCollection from "@/app/api/adjustments/route";
import * as chargebackMetrics from "@/app/api/metrics/chargebacks/route";
import * as webhookStatus from "@/app/api/payment-settings/webhooks/route";
import { AMOUNT_ACTIONS } from "@/lib/billing/adjustments";
import { AMOUNT_ACTIONS_SQL } from "@/lib/db/entities/adjustment";
import { query, sqlTransaction } from "@/lib/db/sql";
import { StandInControl } from "@/lib/dev/stripe/control-client";
import { DEFAULT_ACCOUNT, type StripeStandIn, startStripeStandIn } from "@/lib/dev/stripe/server";
import { call, expectError } from "@/lib/dev/test/api";
import { events } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import { MANUAL_TERMS, makeBuyer, makePrice, makeTransaction, transactions } from "@/lib/dev/test/transactions";
import { noteProcessorPayment, recordAttempt } from "@/lib/payments/attempts";
import { activeStripe, idempotencyKey } from "@/lib/payments/stripe";
import { STRIPE_APPLIED_EVENTS } from "@/lib/payments/webhooks";
import { saveProcessorMethod } from "@/lib/services/payment-methods";
import { markPaid } from "@/lib/services/payments/mark-paid";
import { STRIPE_EVENT_HANDLERS } from "@/lib/services/payments/stripe-events";
import { WORKER_JOBS as JOBS } from "@/lib/worker/tasks";
import * as webhook from "./route";

type Entity = Record<string, any>;

const SECRET = "whsec_standin_webhooks_test_secret";

let standIn: StripeStandIn;
let control: StandInControl;
let stripe: Stripe;
const saved = { ...process.env };

beforeAll(async () => {
  // No webhook URL: the stand-in keeps its events, and the tests deliver them.
  standIn = await startStripeStandIn({ refunds: { mode: "manual" } });
  control = new StandInControl(standIn.url);
  stripe = standIn.client();
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: DEFAULT_ACCOUNT.secretKey,
    STRIPE_PUBLISHABLE_KEY: DEFAULT_ACCOUNT.publishableKey,
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_URL: standIn.url,
  });
});

afterAll(async () => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  await standIn.close();
});

beforeEach(async () => {
  await control.refundMode("manual");
  await control.clearFaults();
});

// ---------------------------------------------------------------------------------------------
// Helpers

function sign(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? SECRET,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
  });
}

async function post(body: string | Uint8Array, signature: string | null) {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (signature !== null) headers["stripe-signature"] = signature;
  const response = await webhook.POST(
    new Request("http://localhost:3000/webhooks/stripe", { method: "POST", headers, body: body as BodyInit }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** Posts `event` signed correctly; expects 200 {received: true}. */
async function deliver(event: Stripe.Event | Record<string, unknown>): Promise<void> {
  const payload = JSON.stringify(event);
  const res = await post(payload, sign(payload));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ received: true });
}

/** The stand-in's events about `object` (oldest first), of `type` when given. */
async function eventsOf(object: string, type?: string): Promise<Stripe.Event[]> {
  const found = await control.events({ object, type });
  return found
    .map((summary) => summary.event as unknown as Stripe.Event)
    .sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
}

async function eventOf(object: string, type: string): Promise<Stripe.Event> {
  const [event] = (await eventsOf(object, type)).slice(-1);
  expect(event, `no ${type} event about ${object}`).toBeDefined();
  return event!;
}

const TASKS = ["apply_stripe_event", "create_stripe_refund"];

/** Runs the queued Stripe jobs as the worker would (until none is left); returns the errors thrown. */
async function drain(): Promise<Error[]> {
  const errors: Error[] = [];
  for (let round = 0; round < 10; round++) {
    const jobs = await query<{ id: string; task: string; payload: unknown }>(
      `SELECT j.id::text, t.identifier AS task, j.payload FROM graphile_worker._private_jobs j
         JOIN graphile_worker._private_tasks t ON t.id = j.task_id
        WHERE t.identifier = ANY($1) ORDER BY j.id`,
      [TASKS],
    );
    if (jobs.length === 0) return errors;
    for (const job of jobs) {
      const declared = JOBS.find((j) => j.id === job.task);
      try {
        await declared?.task(job.payload, {} as JobHelpers);
      } catch (error) {
        errors.push(error as Error);
      }
      await query("DELETE FROM graphile_worker._private_jobs WHERE id = $1", [job.id]);
    }
  }
  return errors;
}

async function queuedJobs(task: string): Promise<number> {
  const { n } = (
    await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = $1`,
      [task],
    )
  )[0]!;
  return n;
}

async function storedEvent(id: string) {
  const [row] = await query<{ type: string; processed: boolean; attempts: number; error: string | null }>(
    "SELECT type, processed_at IS NOT NULL AS processed, attempts, error FROM processor_events WHERE id = $1",
    [id],
  );
  return row ?? null;
}

async function storedCount(): Promise<number> {
  const { n } = (await query<{ n: number }>("SELECT count(*)::int AS n FROM processor_events"))[0]!;
  return n;
}

let price: Entity;
let recurring: Entity;

beforeAll(async () => {
  price = await makePrice({ unit_price: { amount: "1000", currency_code: "USD" } });
  recurring = await makePrice({
    unit_price: { amount: "1000", currency_code: "USD" },
    billing_cycle: { interval: "month", frequency: 1 },
  });
});

/** A ready automatically-collected transaction: 10.00 + 20% VAT = 12.00 for a buyer in GB. */
async function makeReadyGb(priceId = price.id): Promise<Entity> {
  const { customer, address } = await makeBuyer("GB");
  return makeTransaction({
    items: [{ price_id: priceId, quantity: 1 }],
    customer_id: customer.id,
    address_id: address.id,
  });
}

/**
 * A checkout's PaymentIntent for `t`, as the checkout makes it: an attempt recorded first, the
 * PaymentIntent with the attempt's idempotency key and IDs in its metadata.
 */
async function checkoutIntent(t: Entity): Promise<{ attemptId: string; intent: Stripe.PaymentIntent }> {
  const ctx = (await activeStripe())!;
  const amount = t.details.totals.grand_total as string;
  const attempt = await recordAttempt({
    transactionId: t.id,
    processorAccount: ctx.account,
    kind: "checkout",
    amount,
    currencyCode: t.currency_code,
  });
  const intent = await stripe.paymentIntents.create(
    {
      amount: Number(amount),
      currency: t.currency_code.toLowerCase(),
      metadata: { attempt_id: attempt.id, transaction_id: t.id },
    },
    { idempotencyKey: idempotencyKey(attempt.id, "create") },
  );
  await noteProcessorPayment(attempt.id, intent.id, "started");
  return { attemptId: attempt.id, intent };
}

/** Confirms at the stand-in directly, as Stripe.js would in the customer's browser. */
async function payInBrowser(intent: string, card = "pm_card_visa"): Promise<Stripe.PaymentIntent> {
  return stripe.paymentIntents.confirm(intent, { payment_method: card });
}

/** A transaction paid through Stripe and completed by the succeeded webhook alone. */
async function stripePaid(card = "pm_card_visa"): Promise<{ t: Entity; intent: Stripe.PaymentIntent }> {
  const ready = await makeReadyGb();
  const { intent } = await checkoutIntent(ready);
  await payInBrowser(intent.id, card);
  await deliver(await eventOf(intent.id, "payment_intent.succeeded"));
  expect(await drain()).toEqual([]);
  const t = (await transactions.get(ready.id)).body.data;
  expect(t.status).toBe("completed");
  return { t, intent: await stripe.paymentIntents.retrieve(intent.id) };
}

async function adjustment(body: Record<string, unknown>) {
  return call(adjustmentCollection.POST, "POST", "/adjustments", { key: await admin(), body });
}

async function getAdjustment(id: string): Promise<Entity> {
  const res = await call(adjustmentCollection.GET, "GET", `/adjustments?id=${id}`, { key: await admin() });
  return res.body.data[0];
}

async function adjustmentsOf(transactionId: string): Promise<Entity[]> {
  const res = await call(adjustmentCollection.GET, "GET", `/adjustments?transaction_id=${transactionId}`, {
    key: await admin(),
  });
  return res.body.data;
}

// ---------------------------------------------------------------------------------------------

describe("POST /webhooks/stripe: verification", () => {
  const event = {
    id: "evt_verification_0001",
    object: "event",
    type: "customer.created",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    api_version: "2025-01-01",
    data: { object: { id: "cus_x", object: "customer" } },
  };
  const payload = JSON.stringify(event);

  it("refuses an unsigned request with 400 and stores nothing", async () => {
    const before = await storedCount();
    const res = await post(payload, null);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("bad_request");
    expect(res.body.error.detail).toMatch(/Stripe-Signature/);
    expect(await storedCount()).toBe(before);
  });

  it("refuses a signature made with another secret, and a stale one (6 minutes old)", async () => {
    const before = await storedCount();
    const wrong = await post(payload, sign(payload, { secret: "whsec_someone_else_entirely" }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.detail).toMatch(/does not match/);
    const stale = await post(payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 360 }));
    expect(stale.status).toBe(400);
    expect(stale.body.error.detail).toMatch(/older than Stripe's tolerance of 300 seconds/);
    // A body changed after signing.
    const changed = await post(payload.replace("cus_x", "cus_y"), sign(payload));
    expect(changed.status).toBe(400);
    expect(await storedCount()).toBe(before);
  });

  it("says so when no signing secret is configured (400, never 5xx)", async () => {
    delete process.env.STRIPE_WEBHOOK_SECRET;
    try {
      const res = await post(payload, sign(payload));
      expect(res.status).toBe(400);
      expect(res.body.error.detail).toMatch(/No Stripe webhook signing secret is configured/);
    } finally {
      process.env.STRIPE_WEBHOOK_SECRET = SECRET;
    }
    expect(await storedEvent(event.id)).toBeNull();
  });

  it("answers 200 to a signed event of a type it does not act on: stored, processed, no job", async () => {
    await deliver(event);
    expect(await storedEvent(event.id)).toMatchObject({ type: "customer.created", processed: true });
    expect(await queuedJobs("apply_stripe_event")).toBe(0);
    // Redelivered: 200 again, stored once.
    await deliver(event);
    const { n } = (
      await query<{ n: number }>("SELECT count(*)::int AS n FROM processor_events WHERE id = $1", [event.id])
    )[0]!;
    expect(n).toBe(1);
  });

  it("answers 200 to a signed event about an object it never saw, and changes nothing", async () => {
    const unknown = {
      ...event,
      id: "evt_unknown_object_0001",
      type: "payment_intent.succeeded",
      data: { object: { id: "pi_never_seen_here", object: "payment_intent", metadata: {} } },
    };
    const requestsBefore = (await control.requests({ path: "/v1/payment_intents/pi_never_seen_here" })).length;
    await deliver(unknown);
    expect(await queuedJobs("apply_stripe_event")).toBe(1);
    expect(await drain()).toEqual([]);
    expect(await storedEvent(unknown.id)).toMatchObject({ processed: true, attempts: 1, error: null });
    // Nothing of ours matched: Stripe was not even asked.
    expect((await control.requests({ path: "/v1/payment_intents/pi_never_seen_here" })).length).toBe(requestsBefore);
  });

  it("refuses hostile bodies with 4xx, never 5xx, signed or not", async () => {
    const before = await storedCount();
    // Larger than 1 MiB.
    const huge = `{"id":"evt_huge","pad":"${"x".repeat(1024 * 1024)}"}`;
    expect((await post(huge, sign(huge))).status).toBe(413);
    // Deeply nested (signed, so that it passes the signature).
    const deep = `{"id":"evt_deep_0001","object":"event","type":"x.y","created":1,"livemode":false,"data":{"object":{"id":"x","n":${"[".repeat(5000)}${"]".repeat(5000)}}}}`;
    expect((await post(deep, sign(deep))).status).toBe(400);
    const deeper = "[".repeat(200_000) + "]".repeat(200_000);
    expect((await post(deeper, sign(deeper))).status).toBe(400);
    // Bytes that are not UTF-8.
    const bad = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    expect((await post(bad, sign(Buffer.from(bad).toString("latin1")))).status).toBe(400);
    // A lone surrogate and NUL, escaped in JSON.
    for (const text of ["\\ud800", "\\u0000"]) {
      const body = JSON.stringify({ ...event, id: "evt_hostile_text" }).replace("cus_x", text);
      const res = await post(body, sign(body));
      expect(res.status, body).toBe(400);
    }
    // Signed but not JSON, or JSON but not an event.
    for (const body of ["not json", "[]", '{"id":"evt_x"}', '{"id":"nope","object":"event"}']) {
      expect((await post(body, sign(body))).status, body).toBe(400);
    }
    // Garbage in the signature header.
    expect((await post(payload, "t=abc,v1=%%%")).status).toBe(400);
    expect((await post(payload, "x".repeat(10_000))).status).toBe(400);
    expect(await storedCount()).toBe(before);
  });

  it("refuses other methods with 405", async () => {
    const res = await webhook.GET(new Request("http://localhost:3000/webhooks/stripe"));
    expect(res.status).toBe(405);
  });

  it("has a handler for every event type it queues", () => {
    expect(Object.keys(STRIPE_EVENT_HANDLERS).sort()).toEqual([...STRIPE_APPLIED_EVENTS].sort());
    expect(AMOUNT_ACTIONS.map((a) => `'${a}'`).join(", ")).toBe(AMOUNT_ACTIONS_SQL);
  });
});

describe("payment_intent events", () => {
  it("complete a checkout confirmed in the browser from the webhook alone, with Stripe's fee", async () => {
    const ready = await makeReadyGb();
    const { attemptId, intent } = await checkoutIntent(ready);
    await payInBrowser(intent.id);
    // No confirmation call of ours: the webhook alone completes it.
    expect((await transactions.get(ready.id)).body.data.status).toBe("ready");
    await deliver(await eventOf(intent.id, "payment_intent.succeeded"));
    expect(await drain()).toEqual([]);
    const t = (await transactions.get(ready.id)).body.data;
    expect(t.status).toBe("completed");
    // Stripe's fee: 2.9% of 12.00 (0.348 → 0.35) + 0.30 = 0.65, not BILLING_FEE_PERCENT's.
    expect(t.details.totals).toMatchObject({ total: "1200", tax: "200", fee: "65", earnings: "935" });
    expect(t.details.payout_totals).toMatchObject({ fee: "65", earnings: "935", currency_code: "USD" });
    expect(t.payments[0]).toMatchObject({
      payment_attempt_id: attemptId,
      status: "captured",
      method_details: { type: "card", card: { type: "visa", last4: "4242" } },
    });
  });

  it("apply a redelivered event once", async () => {
    const ready = await makeReadyGb();
    const { intent } = await checkoutIntent(ready);
    await payInBrowser(intent.id);
    const succeeded = await eventOf(intent.id, "payment_intent.succeeded");
    await deliver(succeeded);
    await deliver(succeeded);
    expect(await drain()).toEqual([]);
    await deliver(succeeded);
    expect(await queuedJobs("apply_stripe_event")).toBe(0);
    expect(await drain()).toEqual([]);
    const completed = (await events(ready.id)).filter((e) => e.eventType === "transaction.completed");
    expect(completed).toHaveLength(1);
    expect(await storedEvent(succeeded.id)).toMatchObject({ processed: true, attempts: 1 });
  });

  it("complete once when payment_failed arrives after succeeded (out of order)", async () => {
    const ready = await makeReadyGb();
    const { intent } = await checkoutIntent(ready);
    // A decline first, then the customer pays with another card.
    await expect(payInBrowser(intent.id, "pm_card_chargeDeclined")).rejects.toThrow();
    await payInBrowser(intent.id);
    const failed = await eventOf(intent.id, "payment_intent.payment_failed");
    const succeeded = await eventOf(intent.id, "payment_intent.succeeded");
    await deliver(succeeded);
    expect(await drain()).toEqual([]);
    await deliver(failed);
    expect(await drain()).toEqual([]);
    const t = (await transactions.get(ready.id)).body.data;
    expect(t.status).toBe("completed");
    expect(t.payments.filter((p: Entity) => p.status === "captured")).toHaveLength(1);
    expect((await events(ready.id)).filter((e) => e.eventType === "transaction.completed")).toHaveLength(1);
  });

  it("apply the current state when the failure is delivered after the payment succeeded but first", async () => {
    const ready = await makeReadyGb();
    const { intent } = await checkoutIntent(ready);
    await expect(payInBrowser(intent.id, "pm_card_chargeDeclined")).rejects.toThrow();
    await payInBrowser(intent.id);
    await deliver(await eventOf(intent.id, "payment_intent.payment_failed"));
    expect(await drain()).toEqual([]);
    // Read from Stripe now: it succeeded, whatever the older event said.
    expect((await transactions.get(ready.id)).body.data.status).toBe("completed");
  });

  it("record a failure at the checkout while the PaymentIntent can still be paid", async () => {
    const ready = await makeReadyGb();
    const { intent } = await checkoutIntent(ready);
    await expect(payInBrowser(intent.id, "pm_card_chargeDeclinedInsufficientFunds")).rejects.toThrow();
    await deliver(await eventOf(intent.id, "payment_intent.payment_failed"));
    expect(await drain()).toEqual([]);
    const t = (await transactions.get(ready.id)).body.data;
    expect(t.status).toBe("ready");
    expect(t.payments[0]).toMatchObject({ status: "error", error_code: "not_enough_balance" });
  });
});

describe("refunds through Stripe", () => {
  it("leave a transaction not paid through Stripe refunded as before: approved at once, fee returned", async () => {
    const { customer, address } = await makeBuyer("GB");
    const ready = await makeTransaction({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
      collection_mode: "manual",
      billing_details: MANUAL_TERMS,
    });
    expect((await transactions.update(ready.id, { status: "billed" })).status).toBe(200);
    await markPaid(ready.id, { method: "offline" });
    const res = await adjustment({ action: "refund", type: "full", transaction_id: ready.id, reason: "Offline" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ status: "approved", totals: { retained_fee: "0" } });
    expect(await queuedJobs("create_stripe_refund")).toBe(0);
  });

  it("answers a full refund pending_approval, then approves it when Stripe's refund succeeds", async () => {
    const { t, intent } = await stripePaid();
    const res = await adjustment({ action: "refund", type: "full", transaction_id: t.id, reason: "Asked" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const adj = res.body.data;
    // Stripe keeps its fee of 0.65 on a refund: all of it is retained, earnings go down by the net.
    expect(adj).toMatchObject({
      status: "pending_approval",
      totals: { subtotal: "1000", tax: "200", total: "1200", fee: "65", retained_fee: "65", earnings: "1000" },
    });
    expect((await events(adj.id)).map((e) => e.eventType)).toEqual(["adjustment.created"]);
    expect(await queuedJobs("create_stripe_refund")).toBe(1);

    expect(await drain()).toEqual([]);
    const [refund] = (await stripe.refunds.list({ payment_intent: intent.id })).data;
    expect(refund).toMatchObject({
      amount: 1200,
      status: "pending",
      metadata: { adjustment_id: adj.id, transaction_id: t.id },
    });
    const { processor_reference } = (
      await query<{ processor_reference: string }>("SELECT processor_reference FROM adjustments WHERE id = $1", [
        adj.id,
      ])
    )[0]!;
    expect(processor_reference).toBe(refund!.id);
    expect((await getAdjustment(adj.id)).status).toBe("pending_approval");
    // The pending refund's own events change nothing.
    await deliver(await eventOf(refund!.id, "refund.created"));
    await deliver(await eventOf(intent.latest_charge as string, "charge.refunded"));
    expect(await drain()).toEqual([]);
    expect((await getAdjustment(adj.id)).status).toBe("pending_approval");

    await control.succeedRefund(refund!.id);
    const updated = await eventOf(refund!.id, "refund.updated");
    await deliver(updated);
    expect(await drain()).toEqual([]);
    const approved = await getAdjustment(adj.id);
    expect(approved.status).toBe("approved");
    expect((await events(adj.id)).map((e) => e.eventType)).toEqual(["adjustment.created", "adjustment.updated"]);
    const { credit_note_number } = (
      await query<{ credit_note_number: string }>("SELECT credit_note_number FROM adjustments WHERE id = $1", [adj.id])
    )[0]!;
    expect(credit_note_number).toMatch(/^CN-\d{6}$/);
    const after = (await transactions.get(t.id)).body.data;
    expect(after.details.adjusted_totals).toMatchObject({ total: "0", fee: "0", retained_fee: "65", earnings: "-65" });
    // Redelivered after approval: nothing more.
    await deliver(updated);
    expect(await drain()).toEqual([]);
    expect((await events(adj.id)).map((e) => e.eventType)).toEqual(["adjustment.created", "adjustment.updated"]);
    // Exactly one refund at Stripe.
    expect((await stripe.refunds.list({ payment_intent: intent.id })).data).toHaveLength(1);
  });

  it("refunds part of a payment for the adjustment's totals.total, approved from charge.refunded", async () => {
    const { t, intent } = await stripePaid();
    const line = t.details.line_items[0].id;
    const res = await adjustment({
      action: "refund",
      type: "partial",
      transaction_id: t.id,
      reason: "Part",
      items: [{ item_id: line, type: "partial", amount: "300" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ status: "pending_approval", totals: { total: "300", tax: "50" } });
    await control.refundMode("auto", 0);
    expect(await drain()).toEqual([]);
    const [refund] = (await stripe.refunds.list({ payment_intent: intent.id })).data;
    expect(refund!.amount).toBe(300);
    await control.succeedRefund(refund!.id).catch(() => undefined);
    expect((await stripe.refunds.retrieve(refund!.id)).status).toBe("succeeded");
    await deliver(await eventOf(intent.latest_charge as string, "charge.refunded"));
    expect(await drain()).toEqual([]);
    expect((await getAdjustment(res.body.data.id)).status).toBe("approved");
  });

  it("rejects the adjustment when Stripe fails the refund", async () => {
    const { t, intent } = await stripePaid();
    const res = await adjustment({ action: "refund", type: "full", transaction_id: t.id, reason: "Fails" });
    expect(await drain()).toEqual([]);
    const [refund] = (await stripe.refunds.list({ payment_intent: intent.id })).data;
    await control.failRefund(refund!.id, "expired_or_canceled_card");
    await deliver(await eventOf(refund!.id, "refund.failed"));
    expect(await drain()).toEqual([]);
    expect((await getAdjustment(res.body.data.id)).status).toBe("rejected");
    const after = (await transactions.get(t.id)).body.data;
    expect(after.details.adjusted_totals).toMatchObject({ total: "1200" });
    // What it reserved is free again: a new refund of the whole can be asked.
    const again = await adjustment({ action: "refund", type: "full", transaction_id: t.id, reason: "Again" });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it("asks Stripe once: a lost answer is retried under the same key, a re-run finds the refund", async () => {
    const { t, intent } = await stripePaid();
    const res = await adjustment({ action: "refund", type: "full", transaction_id: t.id, reason: "Once" });
    const posts = async () => (await control.requests({ path: "/v1/refunds", method: "POST" })).length;
    const before = await posts();
    // The refund is made, its answer lost: the package retries with the same idempotency key.
    await control.fault({ path: "/v1/refunds", method: "POST", kind: "drop_after", count: 1 });
    expect(await drain()).toEqual([]);
    expect((await stripe.refunds.list({ payment_intent: intent.id })).data).toHaveLength(1);
    // A crash before the re_ was written, and the job again after Stripe forgot the key: it looks first.
    await query("UPDATE adjustments SET processor_reference = NULL WHERE id = $1", [res.body.data.id]);
    const { createStripeRefund } = await import("@/lib/services/payments/refunds");
    await createStripeRefund(res.body.data.id);
    expect((await stripe.refunds.list({ payment_intent: intent.id })).data).toHaveLength(1);
    expect(await posts()).toBeLessThanOrEqual(before + 2);
    const { processor_reference } = (
      await query<{ processor_reference: string }>("SELECT processor_reference FROM adjustments WHERE id = $1", [
        res.body.data.id,
      ])
    )[0]!;
    expect(processor_reference).toMatch(/^re_/);
  });
});

describe("disputes", () => {
  it("become a chargeback of the disputed amount, counted by the metric, and its reversal when won", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const countToday = async () => {
      const res = await call(chargebackMetrics.GET, "GET", `/metrics/chargebacks?from=${today}&to=${tomorrow}`, {
        key: await admin(),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.timeseries[0].count as number;
    };
    const before = await countToday();

    const ready = await makeReadyGb();
    const { intent } = await checkoutIntent(ready);
    await payInBrowser(intent.id, "pm_card_createDispute");
    const charge = (await stripe.paymentIntents.retrieve(intent.id)).latest_charge as string;
    const [dispute] = (await stripe.disputes.list({ charge })).data;
    expect(dispute!.amount).toBe(1200);
    // The dispute's events first (Stripe opens it at once), then the payment's.
    await deliver(await eventOf(dispute!.id, "charge.dispute.created"));
    await deliver(await eventOf(dispute!.id, "charge.dispute.funds_withdrawn"));
    await deliver(await eventOf(intent.id, "payment_intent.succeeded"));
    expect(await drain()).toEqual([]);

    let list = await adjustmentsOf(ready.id);
    expect(list).toHaveLength(1);
    const chargeback = list[0];
    expect(chargeback).toMatchObject({
      action: "chargeback",
      type: "full",
      status: "approved",
      totals: { total: "1200", tax: "200", subtotal: "1000", fee: "65", retained_fee: "65", earnings: "1000" },
    });
    // Stripe's 15.00 dispute fee, outside earnings as the family reports it.
    expect(chargeback!.payout_totals).toMatchObject({ chargeback_fee: { amount: "1500", original: null } });
    expect((await events(chargeback!.id)).map((e) => e.eventType)).toEqual(["adjustment.created"]);
    let t = (await transactions.get(ready.id)).body.data;
    expect(t.details.adjusted_totals).toMatchObject({ total: "0" });
    expect(t.details.adjusted_payout_totals).toMatchObject({ total: "0", chargeback_fee: { amount: "1500" } });
    expect(await countToday()).toBe(before + 1);

    // Won.
    await control.closeDispute(dispute!.id, "won");
    await deliver(await eventOf(dispute!.id, "charge.dispute.funds_reinstated"));
    await deliver(await eventOf(dispute!.id, "charge.dispute.closed"));
    expect(await drain()).toEqual([]);
    list = await adjustmentsOf(ready.id);
    expect(list.map((a) => [a.action, a.status]).sort()).toEqual([
      ["chargeback", "reversed"],
      ["chargeback_reverse", "approved"],
    ]);
    const reversal = list.find((a) => a.action === "chargeback_reverse");
    expect(reversal?.totals).toEqual(chargeback!.totals);
    t = (await transactions.get(ready.id)).body.data;
    expect(t.details.adjusted_totals).toMatchObject({ total: "1200", earnings: "935" });
    // Redelivered: nothing more.
    await deliver(await eventOf(dispute!.id, "charge.dispute.created"));
    await deliver(await eventOf(dispute!.id, "charge.dispute.closed"));
    expect(await drain()).toEqual([]);
    expect(await adjustmentsOf(ready.id)).toHaveLength(2);
  });

  it("of a payment not ours change nothing", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 5000,
      currency: "usd",
      payment_method: "pm_card_createDispute",
      confirm: true,
    });
    const [dispute] = (await stripe.disputes.list({ payment_intent: intent.id })).data;
    const { n: before } = (await query<{ n: number }>("SELECT count(*)::int AS n FROM adjustments"))[0]!;
    await deliver(await eventOf(dispute!.id, "charge.dispute.created"));
    expect(await drain()).toEqual([]);
    const { n } = (await query<{ n: number }>("SELECT count(*)::int AS n FROM adjustments"))[0]!;
    expect(n).toBe(before);
  });
});

describe("payment_method events", () => {
  async function savedStripeCard(): Promise<{ id: string; pm: Stripe.PaymentMethod; subscriptionless: Entity }> {
    const ctx = (await activeStripe())!;
    const { customer, address } = await makeBuyer("GB");
    const stripeCustomer = await stripe.customers.create({ email: customer.email });
    const pm = await stripe.paymentMethods.attach("pm_card_visa", { customer: stripeCustomer.id });
    const id = await sqlTransaction((client) =>
      saveProcessorMethod(client, {
        customerId: customer.id,
        addressId: address.id,
        card: { type: "visa", last4: "4242", expiry_month: 12, expiry_year: 2030, cardholder_name: "Sam" },
        processor: "stripe",
        processorAccount: ctx.account,
        reference: pm.id,
      }),
    );
    return { id, pm, subscriptionless: customer };
  }

  it("payment_method.updated writes Stripe's new expiry over ours", async () => {
    const { id, pm } = await savedStripeCard();
    await stripe.paymentMethods.update(pm.id, { card: { exp_month: 3, exp_year: 2034 } });
    await deliver(await eventOf(pm.id, "payment_method.updated"));
    expect(await drain()).toEqual([]);
    const [row] = await query<{ card: Entity }>("SELECT card FROM payment_methods WHERE id = $1", [id]);
    expect(row!.card).toMatchObject({ type: "visa", last4: "4242", expiry_month: 3, expiry_year: 2034 });
  });

  it("payment_method.detached deletes ours (payment_method.deleted) and takes it off subscriptions", async () => {
    const { id, pm } = await savedStripeCard();
    await stripe.paymentMethods.detach(pm.id);
    const detached = await eventOf(pm.id, "payment_method.detached");
    await deliver(detached);
    expect(await drain()).toEqual([]);
    const rows = await query("SELECT 1 FROM payment_methods WHERE id = $1", [id]);
    expect(rows).toHaveLength(0);
    const deleted = (await events(id)).filter((e) => e.eventType === "payment_method.deleted");
    expect(deleted).toHaveLength(1);
    expect((deleted[0]!.data as Entity).deletion_reason).toBe("api");
    // Redelivered: nothing more.
    await deliver({ ...detached, id: `${detached.id}_again` });
    expect(await drain()).toEqual([]);
  });

  it("a subscription bought through Stripe saves the card, which a detach removes from it", async () => {
    const ready = await makeReadyGb(recurring.id);
    const { intent } = await checkoutIntent(ready);
    const customer = await stripe.customers.create({ email: "buyer@example.com" });
    await stripe.paymentIntents.update(intent.id, { customer: customer.id, setup_future_usage: "off_session" });
    await payInBrowser(intent.id);
    await deliver(await eventOf(intent.id, "payment_intent.succeeded"));
    expect(await drain()).toEqual([]);
    const t = (await transactions.get(ready.id)).body.data;
    expect(t.subscription_id).toMatch(/^sub_/);
    const [sub] = await query<{ payment_method_id: string | null }>(
      "SELECT payment_method_id FROM subscriptions WHERE id = $1",
      [t.subscription_id],
    );
    expect(sub!.payment_method_id).toMatch(/^paymtd_/);
    const pm = (await stripe.paymentIntents.retrieve(intent.id)).payment_method as string;
    await stripe.paymentMethods.detach(pm);
    await deliver(await eventOf(pm, "payment_method.detached"));
    expect(await drain()).toEqual([]);
    const [after] = await query<{ payment_method_id: string | null }>(
      "SELECT payment_method_id FROM subscriptions WHERE id = $1",
      [t.subscription_id],
    );
    expect(after!.payment_method_id).toBeNull();
  });
});

describe("GET /payment-settings/webhooks", () => {
  it("shows the last event received and the failing ones, with their error and attempts", async () => {
    const ready = await makeReadyGb();
    const { intent } = await checkoutIntent(ready);
    await payInBrowser(intent.id);
    // Stripe cannot be read for a while: applying the event fails and is retried.
    await control.fault({ path: `/v1/payment_intents/${intent.id}`, method: "GET", kind: "fail", count: 3 });
    const succeeded = await eventOf(intent.id, "payment_intent.succeeded");
    await deliver(succeeded);
    const errors = await drain();
    expect(errors).toHaveLength(1);
    expect(await storedEvent(succeeded.id)).toMatchObject({ processed: false, attempts: 1 });

    const res = await call(webhookStatus.GET, "GET", "/payment-settings/webhooks", { key: await admin() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.webhook_url).toMatch(/\/webhooks\/stripe$/);
    expect(res.body.data.last_received).toMatchObject({
      event_id: succeeded.id,
      type: "payment_intent.succeeded",
      object_id: intent.id,
      processed_at: null,
      attempts: 1,
    });
    expect(res.body.data.unprocessed).toBeGreaterThanOrEqual(1);
    expect(res.body.data.failures[0]).toMatchObject({ event_id: succeeded.id, attempts: 1 });
    expect(res.body.data.failures[0].error).toMatch(/Stripe|500|error/i);

    // Stripe's redelivery queues it again; this time it applies.
    await deliver(succeeded);
    expect(await drain()).toEqual([]);
    expect(await storedEvent(succeeded.id)).toMatchObject({ processed: true, attempts: 2, error: null });
    const after = await call(webhookStatus.GET, "GET", "/payment-settings/webhooks", { key: await admin() });
    expect(after.body.data.failures.map((f: Entity) => f.event_id)).not.toContain(succeeded.id);
  });

  it("needs settings.read", async () => {
    const { testKey } = await import("@/lib/dev/test/api");
    const res = await call(webhookStatus.GET, "GET", "/payment-settings/webhooks", {
      key: await testKey(["customer.read"]),
    });
    expectError(res, 403, "forbidden");
  });
});
