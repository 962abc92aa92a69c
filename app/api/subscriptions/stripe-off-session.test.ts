/**
 * Off-session charges through Stripe (issue 21 §4), against the local Stripe stand-in: renewals
 * driven by the sandbox test clock with a saved Stripe method, authentication_required and declines
 * → past_due and dunning, a retry succeeding once the card is fixed, retries exhausted, one-time
 * charges and prevent_change / apply_change, a Stripe method Stripe cannot charge any more, the
 * reconciliation of an attempt whose answer was lost, kill -9 between Stripe's answer and our
 * commit, and no database transaction held while Stripe answers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type Stripe from "stripe";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as activateRoute from "@/app/api/subscriptions/[subscription_id]/activate/route";
import { query, sqlTransaction } from "@/lib/db/sql";
import type { Behaviour } from "@/lib/dev/stripe/cards";
import { StandInControl } from "@/lib/dev/stripe/control-client";
import { DEFAULT_ACCOUNT, type StripeStandIn, startStripeStandIn } from "@/lib/dev/stripe/server";
import { call } from "@/lib/dev/test/api";
import { events } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import {
  advanceTo,
  chargeSubscription,
  DAY,
  getWith,
  lastTransaction,
  patchSubscription,
  setClock,
  subscribed,
  transactionsOf,
} from "@/lib/dev/test/subscription-updates";
import { makeRecurringPrice } from "@/lib/dev/test/subscriptions";
import { makePrice } from "@/lib/dev/test/transactions";
import { saveProcessorMethod } from "@/lib/services/payment-methods";
import { offSessionHooks } from "@/lib/services/payments/off-session";
import { reconcileAttempts } from "@/lib/services/payments/reconcile";

type Entity = Record<string, any>;

const ROOT = path.resolve(import.meta.dirname, "../../..");
let standIn: StripeStandIn;
let control: StandInControl;
let stripe: Stripe;
let account: string;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  control = new StandInControl(standIn.url);
  stripe = standIn.client();
  account = (await stripe.accounts.retrieveCurrent()).id;
});

afterAll(async () => {
  await standIn.close();
});

function stripeOn(): void {
  process.env.STRIPE_API_URL = standIn.url;
  process.env.STRIPE_SECRET_KEY = DEFAULT_ACCOUNT.secretKey;
  process.env.STRIPE_PUBLISHABLE_KEY = DEFAULT_ACCOUNT.publishableKey;
}

function stripeOff(): void {
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_PUBLISHABLE_KEY;
}

beforeEach(() => stripeOn());

afterEach(async () => {
  stripeOff();
  delete process.env.STRIPE_API_URL;
  delete process.env.BILLING_DUNNING_EXHAUSTED_ACTION;
  await control.clearFaults();
  await control.latency(0);
});

/**
 * A subscription (bought at the sandbox checkout, clock 10 days into its period) whose saved method
 * is then a Stripe card: `token` attached to its customer's Stripe customer, linked as the checkout
 * links them (processor_customers, payment_methods with processor 'stripe').
 */
async function stripeSubscription(token = "pm_card_visa", options: Parameters<typeof subscribed>[0] = {}) {
  stripeOff();
  const bought = await subscribed(options);
  stripeOn();
  const customer = await stripe.customers.create({ email: bought.customer.email });
  const pm = await stripe.paymentMethods.attach(token, { customer: customer.id });
  const methodId = await sqlTransaction(async (client) => {
    await query(
      "INSERT INTO processor_customers (customer_id, processor, processor_account, reference) VALUES ($1, 'stripe', $2, $3)",
      [bought.customer.id, account, customer.id],
      client,
    );
    const id = await saveProcessorMethod(client, {
      customerId: bought.customer.id,
      addressId: bought.address.id,
      card: {
        type: "visa",
        last4: pm.card?.last4 ?? "4242",
        expiry_month: pm.card?.exp_month ?? 12,
        expiry_year: pm.card?.exp_year ?? 2039,
        cardholder_name: "",
      },
      processor: "stripe",
      processorAccount: account,
      reference: pm.id,
    });
    await query("UPDATE subscriptions SET payment_method_id = $2 WHERE id = $1", [bought.subscription.id, id], client);
    return id;
  });
  return { ...bought, customerRef: customer.id, pm: pm.id, methodId };
}

async function attemptsOf(transactionId: string) {
  return query<Entity>(
    `SELECT id::text, kind, status, amount::text AS amount, processor_payment, processor_customer, on_failure, purpose,
            error_code, error_message, settled_at FROM payment_attempts WHERE transaction_id = $1 ORDER BY created_at`,
    [transactionId],
  );
}

async function intentsFor(transactionId: string) {
  return (await stripe.paymentIntents.list({ limit: 100 })).data.filter(
    (pi) => pi.metadata.transaction_id === transactionId,
  );
}

const renewalTime = (sub: Entity) => new Date(Date.parse(sub.next_billed_at) + 1000);

describe("renewals off-session through Stripe", () => {
  it("charge the saved card off-session for the renewal's grand total; the fee comes from Stripe", async () => {
    const { subscription, customerRef, pm, methodId } = await stripeSubscription();
    const after = await advanceTo(subscription.id, renewalTime(subscription));
    expect(after.status).toBe("active");
    const renewal = await lastTransaction(subscription.id);
    expect(renewal).toMatchObject({ status: "completed", origin: "subscription_recurring" });
    const [intent] = await intentsFor(renewal.id);
    expect(intent).toMatchObject({
      status: "succeeded",
      customer: customerRef,
      payment_method: pm,
      amount: Number(renewal.details.totals.grand_total),
      currency: "usd",
    });
    const [request] = (await control.requests({ path: "/v1/payment_intents", method: "POST" })).filter(
      (r) => (r.params.metadata as Entity)?.transaction_id === renewal.id,
    );
    expect(request!.params).toMatchObject({ confirm: "true", off_session: "true", customer: customerRef });
    const [attempt] = await attemptsOf(renewal.id);
    expect(attempt).toMatchObject({ kind: "off_session", status: "succeeded", processor_payment: intent!.id });
    expect(attempt!.settled_at).not.toBeNull();
    expect(request!.idempotency_key).toBe(`billing:${attempt!.id}:charge`);
    // Stripe's balance transaction: 2.9% + 30 of the grand total.
    const total = BigInt(renewal.details.totals.grand_total);
    const fee = (total * 29n + 500n) / 1000n + 30n;
    expect(renewal.details.totals.fee).toBe(String(fee));
    expect(renewal.payments[0]).toMatchObject({
      status: "captured",
      payment_attempt_id: attempt!.id,
      payment_method_id: methodId,
      // From the charge (the intent is read without its payment_method expanded).
      method_details: {
        type: "card",
        card: { type: "visa", last4: "4242", expiry_month: expect.any(Number), expiry_year: expect.any(Number) },
      },
    });
    expect((await events(renewal.id)).map((e) => e.eventType)).toEqual([
      "transaction.created",
      "transaction.billed",
      "transaction.updated",
      "transaction.paid",
      "transaction.completed",
    ]);
  });

  it("authentication_required (4000 0027 6000 3184) makes it past_due and starts dunning", async () => {
    const { subscription } = await stripeSubscription("pm_card_authenticationRequired");
    const at = renewalTime(subscription);
    const after = await advanceTo(subscription.id, at);
    expect(after.status).toBe("past_due");
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.status).toBe("past_due");
    expect(renewal.payments[0]).toMatchObject({ status: "error", error_code: "authentication_failed" });
    const [attempt] = await attemptsOf(renewal.id);
    expect(attempt).toMatchObject({ status: "failed", error_code: "authentication_failed" });
    expect(attempt!.error_message).toMatch(/3-D Secure/);
    const [row] = await query<{ next_retry_at: Date; retry_count: number }>(
      "SELECT next_retry_at, retry_count FROM subscriptions WHERE id = $1",
      [subscription.id],
    );
    expect(row!.next_retry_at.getTime()).toBe(Date.parse(subscription.next_billed_at) + DAY);
    expect((await events(renewal.id)).map((e) => e.eventType).slice(-3)).toEqual([
      "transaction.updated",
      "transaction.payment_failed",
      "transaction.past_due",
    ]);
    expect((await events(subscription.id)).map((e) => e.eventType).slice(-2)).toEqual([
      "subscription.updated",
      "subscription.past_due",
    ]);
  });

  it("a declined renewal is retried on the schedule and recovers once the card is fixed", async () => {
    const { subscription, pm } = await stripeSubscription();
    await control.setBehaviour(pm, "decline");
    const renewalAt = Date.parse(subscription.next_billed_at);
    expect((await advanceTo(subscription.id, new Date(renewalAt + 1000))).status).toBe("past_due");
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.payments[0]).toMatchObject({ status: "error", error_code: "declined" });
    // The first retry (1 day) declines too; then the card is fixed and the second (3 days) pays.
    expect((await advanceTo(subscription.id, new Date(renewalAt + 2 * DAY))).status).toBe("past_due");
    await control.setBehaviour(pm, "succeed" as Behaviour);
    const after = await advanceTo(subscription.id, new Date(renewalAt + 4 * DAY));
    expect(after.status).toBe("active");
    const [paid] = await query<Entity>("SELECT status, payments FROM transactions WHERE id = $1", [renewal.id]);
    expect(paid!.status).toBe("completed");
    expect(paid!.payments.map((p: Entity) => p.status)).toEqual(["captured", "error", "error"]);
    const charges = await control.chargeCount({ metadata: { transaction_id: renewal.id } });
    expect(charges).toMatchObject({ count: 3, succeeded: 1, failed: 2 });
    const [row] = await query<Entity>("SELECT next_retry_at, retry_count FROM subscriptions WHERE id = $1", [
      subscription.id,
    ]);
    expect(row).toMatchObject({ next_retry_at: null, retry_count: 0 });
  });

  it("retries exhausted: canceled by default, paused with BILLING_DUNNING_EXHAUSTED_ACTION=pause", async () => {
    const canceled = await stripeSubscription();
    await control.setBehaviour(canceled.pm, "decline");
    const renewalAt = Date.parse(canceled.subscription.next_billed_at);
    expect((await advanceTo(canceled.subscription.id, new Date(renewalAt + 8 * DAY))).status).toBe("canceled");
    const renewal = await lastTransaction(canceled.subscription.id);
    expect(renewal.payments).toHaveLength(5); // the renewal's charge and four retries
    expect(await control.chargeCount({ metadata: { transaction_id: renewal.id } })).toMatchObject({ failed: 5 });

    process.env.BILLING_DUNNING_EXHAUSTED_ACTION = "pause";
    const paused = await stripeSubscription();
    await control.setBehaviour(paused.pm, "decline");
    const at = new Date(Date.parse(paused.subscription.next_billed_at) + 9 * DAY);
    expect((await advanceTo(paused.subscription.id, at)).status).toBe("paused");
    expect((await lastTransaction(paused.subscription.id)).status).toBe("canceled");
  });

  it("a Stripe method Stripe can no longer charge (not configured, another account) fails in plain words", async () => {
    const { subscription } = await stripeSubscription();
    stripeOff();
    expect((await advanceTo(subscription.id, renewalTime(subscription))).status).toBe("past_due");
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.payments[0]).toMatchObject({ status: "error", error_code: "psp_error" });
    const [attempt] = await attemptsOf(renewal.id);
    expect(attempt!.error_message).toMatch(/Stripe is not configured/);

    stripeOn();
    const other = await stripeSubscription();
    await query("UPDATE payment_methods SET processor_account = 'acct_other' WHERE id = $1", [other.methodId]);
    expect((await advanceTo(other.subscription.id, renewalTime(other.subscription))).status).toBe("past_due");
    const [refused] = await attemptsOf((await lastTransaction(other.subscription.id)).id);
    expect(refused!.error_message).toMatch(/another Stripe account/);
    expect(await intentsFor((await lastTransaction(other.subscription.id)).id)).toHaveLength(0);
  });
});

describe("one-time charges and changes billed now, through Stripe", () => {
  it("a one-time charge immediately is charged off-session and completed", async () => {
    const { subscription } = await stripeSubscription();
    const setup = await makePrice({ unit_price: { amount: "2500", currency_code: "USD" } });
    const res = await chargeSubscription(subscription.id, {
      effective_from: "immediately",
      items: [{ price_id: setup.id, quantity: 1 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const txn = await lastTransaction(subscription.id);
    expect(txn).toMatchObject({ status: "completed", origin: "subscription_charge" });
    const [intent] = await intentsFor(txn.id);
    expect(intent).toMatchObject({ status: "succeeded", amount: Number(txn.details.totals.grand_total) });
  });

  it("prevent_change with a decline: 400, and the subscription is as it was; the transaction canceled", async () => {
    const { subscription, pm, priceId } = await stripeSubscription();
    await control.setBehaviour(pm, "decline");
    const before = (await getWith(subscription.id, "")).body.data;
    const res = await patchSubscription(subscription.id, {
      items: [{ price_id: priceId, quantity: 3 }],
      proration_billing_mode: "prorated_immediately",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe("subscription_payment_declined");
    const after = (await getWith(subscription.id, "")).body.data;
    expect(after.items[0].quantity).toBe(1);
    expect({ ...after, updated_at: null }).toEqual({ ...before, updated_at: null });
    const txn = await lastTransaction(subscription.id);
    expect(txn).toMatchObject({ status: "canceled", origin: "subscription_update" });
    expect(txn.payments[0]).toMatchObject({ status: "error", error_code: "declined" });

    const setup = await makePrice({ unit_price: { amount: "2500", currency_code: "USD" } });
    const charged = await chargeSubscription(subscription.id, {
      effective_from: "immediately",
      items: [{ price_id: setup.id, quantity: 1 }],
    });
    expect(charged.status).toBe(400);
    expect((await lastTransaction(subscription.id)).status).toBe("canceled");
    expect((await getWith(subscription.id, "")).body.data.status).toBe("active");
  });

  it("apply_change with a decline: the change stands, past_due with dunning", async () => {
    const { subscription, pm, priceId } = await stripeSubscription();
    await control.setBehaviour(pm, "decline");
    const res = await patchSubscription(subscription.id, {
      items: [{ price_id: priceId, quantity: 2 }],
      proration_billing_mode: "prorated_immediately",
      on_payment_failure: "apply_change",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "past_due" });
    expect(res.body.data.items[0].quantity).toBe(2);
    expect((await lastTransaction(subscription.id)).status).toBe("past_due");
  });

  it("prevent_change with a success: the change applied, its transaction completed", async () => {
    const { subscription, priceId } = await stripeSubscription();
    const res = await patchSubscription(subscription.id, {
      items: [{ price_id: priceId, quantity: 2 }],
      proration_billing_mode: "prorated_immediately",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.items[0].quantity).toBe(2);
    expect((await lastTransaction(subscription.id)).status).toBe("completed");
  });
});

describe("activation through Stripe", () => {
  const activate = async (id: string) =>
    call(activateRoute.POST, "POST", `/subscriptions/${id}/activate`, {
      key: await admin(),
      params: { subscription_id: id },
    });

  it("a declined first charge leaves the trial as it was (400); a paying card activates it", async () => {
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
    const declined = await stripeSubscription("pm_card_chargeCustomerFail", { price });
    expect(declined.subscription.status).toBe("trialing");
    const before = (await getWith(declined.subscription.id, "")).body.data;
    const res = await activate(declined.subscription.id);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe("subscription_payment_declined");
    const after = (await getWith(declined.subscription.id, "")).body.data;
    expect({ ...after, updated_at: null }).toEqual({ ...before, updated_at: null });
    expect((await lastTransaction(declined.subscription.id)).status).toBe("canceled");

    const paying = await stripeSubscription("pm_card_visa", { price });
    const ok = await activate(paying.subscription.id);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.status).toBe("active");
    expect((await lastTransaction(paying.subscription.id)).status).toBe("completed");
  });
});

describe("crashes and lost answers", () => {
  it("an answer lost on the network: the package's retry with the same key gets Stripe's replay", async () => {
    const { subscription } = await stripeSubscription();
    await control.fault({ path: "/v1/payment_intents", method: "POST", kind: "drop_after" });
    await advanceTo(subscription.id, renewalTime(subscription));
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.status).toBe("completed");
    const [attempt] = await attemptsOf(renewal.id);
    const requests = (await control.requests({ path: "/v1/payment_intents", method: "POST" })).filter(
      (r) => r.idempotency_key === `billing:${attempt!.id}:charge`,
    );
    expect(requests.map((r) => r.replayed)).toEqual([false, true]);
    expect(await control.chargeCount({ metadata: { attempt_id: attempt!.id } })).toMatchObject({ count: 1 });
  });

  it("reconciliation settles an attempt whose request never got an answer: sent again, charged once", async () => {
    const { subscription } = await stripeSubscription();
    // Every try of the process (the package retries twice) is cut before Stripe runs it.
    await control.fault({ path: "/v1/payment_intents", method: "POST", kind: "drop", count: 3 });
    await advanceTo(subscription.id, renewalTime(subscription));
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.status).toBe("billed");
    const [attempt] = await attemptsOf(renewal.id);
    expect(attempt!.settled_at).toBeNull();
    expect(await control.chargeCount({ metadata: { attempt_id: attempt!.id } })).toMatchObject({ count: 0 });
    const report = await reconcileAttempts({ minAgeSeconds: 0 });
    expect(report).toMatchObject({ examined: 1, settled: 1 });
    expect((await lastTransaction(subscription.id)).status).toBe("completed");
    expect(await control.chargeCount({ metadata: { attempt_id: attempt!.id } })).toMatchObject({ count: 1 });
    // A second run finds nothing left.
    expect((await reconcileAttempts({ minAgeSeconds: 0 })).examined).toBe(0);
  });

  it("reconciliation settles an attempt whose answer was lost after the charge: Stripe replays it", async () => {
    const { subscription } = await stripeSubscription();
    offSessionHooks.afterAnswer = async () => {
      throw new Error("the answer is lost");
    };
    try {
      await advanceTo(subscription.id, renewalTime(subscription));
    } finally {
      offSessionHooks.afterAnswer = undefined;
    }
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.status).toBe("billed");
    const [attempt] = await attemptsOf(renewal.id);
    expect(await control.chargeCount({ metadata: { attempt_id: attempt!.id } })).toMatchObject({ count: 1 });
    expect(await reconcileAttempts({ minAgeSeconds: 0 })).toMatchObject({ settled: 1 });
    expect((await lastTransaction(subscription.id)).status).toBe("completed");
    const requests = (await control.requests({ path: "/v1/payment_intents", method: "POST" })).filter(
      (r) => r.idempotency_key === `billing:${attempt!.id}:charge`,
    );
    expect(requests.map((r) => r.replayed)).toEqual([false, true]);
    expect(await control.chargeCount({ metadata: { attempt_id: attempt!.id } })).toMatchObject({ count: 1 });
  });

  it("kill -9 between Stripe's answer and our commit: one charge, completed after reconciliation", async () => {
    const { subscription } = await stripeSubscription();
    await setClock(subscription.id, renewalTime(subscription));
    const child: ChildProcess = spawn(
      process.execPath,
      ["--import", "tsx", path.join(ROOT, "lib/dev/test/off-session-child.ts")],
      { cwd: ROOT, env: { ...process.env }, stdio: ["ignore", "pipe", "inherit"] },
    );
    const answered = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.once("exit", (code) => reject(new Error(`the child exited with ${code} before Stripe answered: ${out}`)));
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /answered (\S+) (\S+) (\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
    });
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.status).toBe("billed");
    const [attempt] = await attemptsOf(renewal.id);
    expect(attempt!.id).toBe(answered);
    expect(attempt!.settled_at).toBeNull();
    expect(await control.chargeCount({ metadata: { attempt_id: attempt!.id } })).toMatchObject({ count: 1 });
    const report = await reconcileAttempts({ minAgeSeconds: 0 });
    expect(report.settled).toBe(1);
    const txns = await transactionsOf(subscription.id);
    expect(txns.at(-1)?.status).toBe("completed");
    expect(txns.filter((t) => t.origin === "subscription_recurring")).toHaveLength(1);
    expect(await control.chargeCount({ metadata: { transaction_id: renewal.id } })).toMatchObject({
      count: 1,
      succeeded: 1,
    });
  }, 60_000);

  it("holds no database transaction while Stripe answers", async () => {
    const { subscription } = await stripeSubscription();
    await control.fault({ path: "/v1/payment_intents", method: "POST", kind: "delay", delay_ms: 1500 });
    const renewing = advanceTo(subscription.id, renewalTime(subscription));
    let samples = 0;
    let held = 0;
    const deadline = Date.now() + 1200;
    await new Promise((r) => setTimeout(r, 300));
    while (Date.now() < deadline) {
      const [row] = await query<{ held: number }>(
        `SELECT count(*)::int AS held FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND state LIKE 'idle in transaction%' AND now() - state_change > interval '200 milliseconds'`,
      );
      samples++;
      held += row!.held;
      await new Promise((r) => setTimeout(r, 50));
    }
    // The request is still under way at Stripe: the renewal is recorded, not settled yet.
    const [attempt] = await query<Entity>(
      "SELECT a.settled_at FROM payment_attempts a JOIN transactions t ON t.id = a.transaction_id WHERE t.subscription_id = $1",
      [subscription.id],
    );
    expect(attempt!.settled_at).toBeNull();
    expect(samples).toBeGreaterThan(5);
    expect(held).toBe(0);
    await renewing;
    expect((await lastTransaction(subscription.id)).status).toBe("completed");
  });
});
