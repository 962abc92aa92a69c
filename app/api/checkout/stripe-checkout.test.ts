/**
 * The hosted checkout through Stripe (issue 21 §3), through the real route handlers against the
 * local Stripe stand-in: the PaymentIntent the page confirms (customer, amount, currency, metadata,
 * off-session saving), confirmations settled from what Stripe says — success with Stripe's card and
 * fees, 3-D Secure passed and failed then paid with another card, declines in plain words — exactly
 * once however many confirm at once; the SetupIntent of the update-payment-method transaction and
 * recovery of a past-due subscription; unknown, foreign and hostile input; card testing; live mode.
 * Cards are entered as the stand-in's Stripe.js sends them (publishable key and client secret,
 * straight to "Stripe"): nothing here sends a card number to our routes.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as paymentMethodTransaction from "@/app/api/subscriptions/[subscription_id]/update-payment-method-transaction/route";
import { query } from "@/lib/db/sql";
import { StandInControl } from "@/lib/dev/stripe/control-client";
import { DEFAULT_ACCOUNT, type StripeStandIn, startStripeStandIn } from "@/lib/dev/stripe/server";
import { call, expectError, expectFieldError } from "@/lib/dev/test/api";
import { events } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import { advanceTo, lastTransaction, MINUTE } from "@/lib/dev/test/subscription-updates";
import {
  DECLINES_LATER_CARD,
  getSubscriptionJson,
  makeRecurringPrice,
  subscribeAtCheckout,
} from "@/lib/dev/test/subscriptions";
import { makeBuyer, makeReady, makeTransaction, transactions } from "@/lib/dev/test/transactions";
import { settleSetupIntent } from "@/lib/services/payments/settle-setup";
import * as intentRoute from "./[transaction_id]/payment-intent/route";
import * as confirmRoute from "./[transaction_id]/payments/confirm/route";
import * as checkoutPayments from "./[transaction_id]/payments/route";
import * as checkoutItem from "./[transaction_id]/route";

type Entity = Record<string, any>;

const LIVE = { secretKey: "sk_live_standin_checkout_0001", publishableKey: "pk_live_standin_checkout_0001" };
const CARDS = {
  visa: "4242424242424242",
  declined: "4000000000000002",
  noFunds: "4000000000009995",
  authAlways: "4000002760003184",
  authUnlessSetUp: "4000002500003155",
};

let standIn: StripeStandIn;
let control: StandInControl;
const saved = { ...process.env };

beforeAll(async () => {
  standIn = await startStripeStandIn({
    accounts: [
      DEFAULT_ACCOUNT,
      { ...LIVE, name: "Live Shop", country: "US", defaultCurrency: "usd", email: "live@example.com" },
    ],
  });
  control = new StandInControl(standIn.url);
});

afterAll(async () => {
  await standIn.close();
});

function useStripe(keys: { secretKey: string; publishableKey: string } = DEFAULT_ACCOUNT) {
  process.env.STRIPE_API_URL = standIn.url;
  process.env.STRIPE_JS_URL = standIn.stripeJsUrl;
  process.env.STRIPE_SECRET_KEY = keys.secretKey;
  process.env.STRIPE_PUBLISHABLE_KEY = keys.publishableKey;
}

function noStripe() {
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_PUBLISHABLE_KEY;
}

beforeEach(() => useStripe());

afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

const headers = (from?: string): Record<string, string> => (from ? { "x-forwarded-for": from } : {});

function view(id: string) {
  return call(checkoutItem.GET, "GET", `/checkout/${id}`, { params: { transaction_id: id } });
}

function start(id: string, from?: string) {
  return call(intentRoute.POST, "POST", `/checkout/${id}/payment-intent`, {
    params: { transaction_id: id },
    headers: headers(from),
  });
}

function confirm(id: string, body: unknown, from?: string) {
  return call(confirmRoute.POST, "POST", `/checkout/${id}/payments/confirm`, {
    params: { transaction_id: id },
    body,
    headers: headers(from),
  });
}

async function startOk(id: string, from?: string): Promise<Entity> {
  const res = await start(id, from);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const intentId = (clientSecret: string) => clientSecret.split("_secret_")[0];

/** What the stand-in's Stripe.js sends for confirmPayment/confirmSetup with the Payment Element. */
async function enterCard(intent: Entity, number: string): Promise<{ status: number; body: any }> {
  const path = intent.kind === "setup" ? "setup_intents" : "payment_intents";
  const body = new URLSearchParams({
    key: intent.publishable_key,
    client_secret: intent.client_secret,
    expected_payment_method_type: "card",
    use_stripe_sdk: "true",
    "payment_method_data[type]": "card",
    "payment_method_data[card][number]": number,
    "payment_method_data[card][exp_month]": "12",
    "payment_method_data[card][exp_year]": "2039",
    "payment_method_data[card][cvc]": "123",
    "payment_method_data[billing_details][name]": "Sam Buyer",
  });
  const res = await fetch(`${standIn.url}/v1/${path}/${intentId(intent.client_secret)}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  return { status: res.status, body: await res.json() };
}

/** The page's whole pay step: the intent, the card entered at Stripe, our confirmation. */
async function payWith(id: string, number: string, from?: string) {
  const intent = await startOk(id, from);
  const entered = await enterCard(intent, number);
  return { intent, entered, confirmed: await confirm(id, { payment_intent: intentId(intent.client_secret) }, from) };
}

async function subscriptionPurchase(): Promise<Entity> {
  const { customer, address } = await makeBuyer("US");
  const price = await makeRecurringPrice();
  return makeTransaction({
    items: [{ price_id: price.id, quantity: 1 }],
    customer_id: customer.id,
    address_id: address.id,
  });
}

async function updatePaymentMethodTransaction(subscriptionId: string): Promise<Entity> {
  const res = await call(
    paymentMethodTransaction.GET,
    "GET",
    `/subscriptions/${subscriptionId}/update-payment-method-transaction`,
    {
      key: await admin(),
      params: { subscription_id: subscriptionId },
    },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const eventTypes = async (id: string) => (await events(id)).map((e) => e.eventType);

describe("GET /checkout/{transaction_id} with Stripe", () => {
  it("says which processor takes the payment", async () => {
    const t = await makeReady();
    expect((await view(t.id)).body.data).toMatchObject({ processor: "stripe", state: "payable" });
    noStripe();
    expect((await view(t.id)).body.data.processor).toBe("sandbox");
  });

  it("live: works with live Stripe keys, refused without a processor", async () => {
    const t = await makeReady();
    process.env.BILLING_ENVIRONMENT = "live";
    useStripe(LIVE);
    expect((await view(t.id)).body.data).toMatchObject({ processor: "stripe", environment: "live" });
    const intent = await startOk(t.id);
    expect(intent.publishable_key).toBe(LIVE.publishableKey);
    noStripe();
    expectError(await view(t.id), 400, "sandbox_only");
    expectError(await start(t.id), 400, "bad_request");
  });

  it("the sandbox's test-card payment is refused while Stripe is configured; works again without", async () => {
    const t = await makeReady();
    const card = { cardholder_name: "Sam", number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" };
    const pay = () =>
      call(checkoutPayments.POST, "POST", `/checkout/${t.id}/payments`, {
        params: { transaction_id: t.id },
        body: card,
      });
    expect(expectError(await pay(), 400, "bad_request").detail).toContain("through Stripe");
    expect((await transactions.get(t.id)).body.data.payments).toEqual([]);
    noStripe();
    expect((await pay()).status).toBe(201);
  });
});

describe("POST /checkout/{transaction_id}/payment-intent", () => {
  it("a subscription purchase: a PaymentIntent for the balance on the customer's Stripe customer, saved off-session", async () => {
    const t = await subscriptionPurchase();
    const intent = await startOk(t.id);
    expect(intent).toMatchObject({
      transaction_id: t.id,
      kind: "payment",
      publishable_key: DEFAULT_ACCOUNT.publishableKey,
      stripe_js_url: standIn.stripeJsUrl,
      amount: "3000",
      currency_code: "USD",
    });
    expect(intent.client_secret).toMatch(/^pi_.+_secret_/);
    const pi = await standIn.client().paymentIntents.retrieve(intentId(intent.client_secret)!);
    const [linked] = await query<{ reference: string }>(
      "SELECT reference FROM processor_customers WHERE customer_id = $1",
      [t.customer_id],
    );
    const [attempt] = await query<Entity>(
      "SELECT id::text, kind, processor_payment FROM payment_attempts WHERE transaction_id = $1",
      [t.id],
    );
    expect(pi).toMatchObject({
      amount: 3000,
      currency: "usd",
      customer: linked!.reference,
      setup_future_usage: "off_session",
      automatic_payment_methods: { enabled: true },
      metadata: { transaction_id: t.id, attempt_id: attempt!.id },
    });
    expect(attempt).toMatchObject({ kind: "checkout", processor_payment: pi.id });
    const requests = await control.requests({ path: "/v1/payment_intents", method: "POST" });
    expect(requests.filter((r) => r.idempotency_key === `billing:${attempt!.id}:create`)).toHaveLength(1);
  });

  it("a one-time purchase is not saved for later; reloads (even at once) answer the same PaymentIntent", async () => {
    const t = await makeReady();
    const [a, b, c] = await Promise.all([startOk(t.id), startOk(t.id), startOk(t.id)]);
    expect(new Set([a.client_secret, b.client_secret, c.client_secret]).size).toBe(1);
    expect((await startOk(t.id)).client_secret).toBe(a.client_secret);
    const pi = await standIn.client().paymentIntents.retrieve(intentId(a.client_secret)!);
    expect(pi.setup_future_usage).toBeNull();
    expect(await query("SELECT 1 FROM payment_attempts WHERE transaction_id = $1", [t.id])).toHaveLength(1);
  });

  it("a new amount: a new attempt, and the stale PaymentIntent is canceled", async () => {
    const t = await makeReady();
    const first = await startOk(t.id);
    const price = await makeRecurringPrice({
      billing_cycle: null,
      unit_price: { amount: "2500", currency_code: "USD" },
    });
    const updated = await transactions.update(t.id, { items: [{ price_id: price.id, quantity: 1 }] });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const second = await startOk(t.id);
    expect(second.amount).toBe("2500");
    expect(second.client_secret).not.toBe(first.client_secret);
    const stale = await standIn.client().paymentIntents.retrieve(intentId(first.client_secret)!);
    expect(stale.status).toBe("canceled");
    const { confirmed } = await payWith(t.id, CARDS.visa);
    expect(confirmed.body.data.status).toBe("succeeded");
    expect((await transactions.get(t.id)).body.data.payments[0].amount).toBe("2500");
  });

  it("refusals: not found, already paid, not payable; no attempt for them", async () => {
    expect((await start("txn_01hv8x0000000000000000000a")).status).toBe(404);
    expect((await start("nope")).status).toBe(404);
    const t = await makeReady();
    await payWith(t.id, CARDS.visa);
    expectError(await start(t.id), 400, "transaction_already_paid");
    const price = await makeRecurringPrice();
    const draft = await makeTransaction({ items: [{ price_id: price.id, quantity: 1 }] });
    expect(draft.status).toBe("draft");
    expect(expectError(await start(draft.id), 400, "transaction_not_payable").detail).toContain("draft");
    const attempts = await query("SELECT 1 FROM payment_attempts WHERE transaction_id = $1", [draft.id]);
    expect(attempts).toEqual([]);
  });
});

describe("POST /checkout/{transaction_id}/payments/confirm", () => {
  it("success: completed with Stripe's card and fees; the subscription charges the saved pm_ as our paymtd_", async () => {
    const t = await subscriptionPurchase();
    const { intent, entered, confirmed } = await payWith(t.id, CARDS.visa);
    expect(entered.body.status).toBe("succeeded");
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data).toMatchObject({
      transaction_id: t.id,
      transaction_status: "completed",
      status: "succeeded",
      error: null,
      payment: {
        amount: "3000",
        status: "captured",
        method_details: { type: "card", card: { type: "visa", last4: "4242", expiry_month: 12, expiry_year: 2039 } },
      },
    });
    const done = (await transactions.get(t.id)).body.data;
    expect(done.status).toBe("completed");
    expect(done.payments).toHaveLength(1);
    // Stripe's balance transaction: 2.9% of 30.00 = 0.87, + 0.30.
    expect(done.details.totals).toMatchObject({ fee: "117", earnings: "2883", balance: "0" });
    expect(done.details.payout_totals).toMatchObject({ fee: "117", earnings: "2883", currency_code: "USD" });
    const pi = await standIn.client().paymentIntents.retrieve(intentId(intent.client_secret)!);
    const subscription = await getSubscriptionJson(done.subscription_id);
    const [method] = await query<Entity>(
      "SELECT id, processor, processor_reference FROM payment_methods WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)",
      [subscription.id],
    );
    expect(method).toMatchObject({ processor: "stripe", processor_reference: pi.payment_method });
    expect(method!.id).toMatch(/^paymtd_/);
    expect(done.payments[0].payment_method_id).toBe(method!.id);
    expect(await eventTypes(t.id)).toContain("transaction.completed");
    // Confirmed again (a reload): the same answer from our rows, Stripe not asked, nothing settled twice.
    const asked = (await control.requests({ path: `/v1/payment_intents/${pi.id}` })).length;
    const again = await confirm(t.id, { payment_intent: pi.id });
    expect(again.body.data).toMatchObject({ status: "succeeded", transaction_status: "completed" });
    expect(again.body.data.payment.payment_attempt_id).toBe(done.payments[0].payment_attempt_id);
    expect((await control.requests({ path: `/v1/payment_intents/${pi.id}` })).length).toBe(asked);
    expect((await transactions.get(t.id)).body.data.payments).toHaveLength(1);
  });

  it("3-D Secure passed: requires_action until the challenge is completed, then paid", async () => {
    const t = await subscriptionPurchase();
    const { intent, entered, confirmed } = await payWith(t.id, CARDS.authUnlessSetUp);
    expect(entered.body.status).toBe("requires_action");
    expect(confirmed.body.data).toMatchObject({ status: "requires_action", transaction_status: "ready", error: null });
    await control.completeChallenge(intentId(intent.client_secret)!);
    const paid = await confirm(t.id, { payment_intent: intentId(intent.client_secret) });
    expect(paid.body.data).toMatchObject({ status: "succeeded", transaction_status: "completed" });
    expect(paid.body.data.payment.method_details.card.last4).toBe("3155");
  });

  it("3-D Secure failed: shown in plain words; the same checkout then takes another card", async () => {
    const t = await subscriptionPurchase();
    const { intent, confirmed } = await payWith(t.id, CARDS.authAlways);
    expect(confirmed.body.data.status).toBe("requires_action");
    await control.failChallenge(intentId(intent.client_secret)!);
    const failed = await confirm(t.id, { payment_intent: intentId(intent.client_secret) });
    expect(failed.body.data).toMatchObject({
      status: "failed",
      transaction_status: "ready",
      error: { code: "authentication_failed" },
      payment: { status: "error", error_code: "authentication_failed" },
    });
    expect(failed.body.data.error.message).toContain("3-D Secure");
    const again = await payWith(t.id, CARDS.visa);
    expect(again.intent.client_secret).toBe(intent.client_secret);
    expect(again.confirmed.body.data).toMatchObject({ status: "succeeded", transaction_status: "completed" });
    const done = (await transactions.get(t.id)).body.data;
    expect(done.payments.map((p: Entity) => p.status)).toEqual(["captured", "error"]);
    expect(await eventTypes(t.id)).toEqual(
      expect.arrayContaining(["transaction.payment_failed", "transaction.completed"]),
    );
  });

  it("declines and insufficient funds: error payments with the family's codes and Stripe's words", async () => {
    const t = await makeReady();
    const declined = await payWith(t.id, CARDS.declined);
    expect(declined.entered.status).toBe(402);
    expect(declined.confirmed.body.data).toMatchObject({
      status: "failed",
      error: { code: "declined", message: "The card was declined by the bank. Try another card." },
    });
    const noFunds = await payWith(t.id, CARDS.noFunds);
    expect(noFunds.confirmed.body.data).toMatchObject({
      status: "failed",
      error: { code: "not_enough_balance", message: "The card was declined for insufficient funds. Try another card." },
    });
    const row = (await transactions.get(t.id)).body.data;
    expect(row.status).toBe("ready");
    expect(row.payments.map((p: Entity) => p.error_code)).toEqual(["not_enough_balance", "declined"]);
    expect((await view(t.id)).body.data.last_payment).toMatchObject({
      status: "error",
      error_code: "not_enough_balance",
    });
  });

  it("two concurrent confirmations of one checkout: one charge, one completion", async () => {
    const t = await subscriptionPurchase();
    const intent = await startOk(t.id);
    await enterCard(intent, CARDS.visa);
    const id = intentId(intent.client_secret);
    const results = await Promise.all([1, 2, 3].map(() => confirm(t.id, { payment_intent: id })));
    for (const r of results) expect(r.body.data, JSON.stringify(r.body)).toMatchObject({ status: "succeeded" });
    const done = (await transactions.get(t.id)).body.data;
    expect(done.payments).toHaveLength(1);
    expect((await eventTypes(t.id)).filter((e) => e === "transaction.completed")).toHaveLength(1);
    expect(await query("SELECT 1 FROM subscriptions WHERE customer_id = $1", [t.customer_id])).toHaveLength(1);
    expect((await control.chargeCount({ payment_intent: id })).succeeded).toBe(1);
  });

  it("an unknown or another transaction's intent is 404, asked of no one; hostile input is 4xx, never 5xx", async () => {
    const a = await makeReady();
    const b = await makeReady();
    const intentA = await startOk(a.id);
    const before = (await control.requests({ path: "/v1/payment_intents" })).length;
    expect((await confirm(b.id, { payment_intent: intentId(intentA.client_secret) })).status).toBe(404);
    expect((await confirm(a.id, { payment_intent: "pi_0000000000unknown" })).status).toBe(404);
    expect((await confirm("txn_01hv8x0000000000000000000a", { payment_intent: "pi_123" })).status).toBe(404);
    expect((await control.requests({ path: "/v1/payment_intents" })).length).toBe(before);
    for (const body of [
      {},
      { payment_intent: "" },
      { payment_intent: "ch_123" },
      { payment_intent: "pi_../../v1/charges" },
      { payment_intent: `pi_${"a".repeat(5000)}` },
      { payment_intent: "pi_\ud800" },
      { payment_intent: ["pi_1"] },
      { payment_intent: { $gt: "" } },
      { payment_intent: "pi_1", extra: true },
    ]) {
      const res = await confirm(a.id, body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    }
    expectFieldError(await confirm(a.id, { payment_intent: "ch_123" }), "payment_intent");
    noStripe();
    expectError(await confirm(a.id, { payment_intent: intentId(intentA.client_secret) }), 400, "bad_request");
  });

  it("card testing: 5 failed confirmations from one address, then 429 there; the customer elsewhere still pays", async () => {
    const t = await makeReady();
    const stranger = "203.0.113.40";
    for (let i = 0; i < 5; i++) {
      expect((await payWith(t.id, CARDS.declined, stranger)).confirmed.body.data.status).toBe("failed");
    }
    expectError(await start(t.id, stranger), 429, "too_many_requests");
    const intent = await startOk(t.id, "198.51.100.40");
    expectError(
      await confirm(t.id, { payment_intent: intentId(intent.client_secret) }, stranger),
      429,
      "too_many_requests",
    );
    await enterCard(intent, CARDS.visa);
    const paid = await confirm(t.id, { payment_intent: intentId(intent.client_secret) }, "198.51.100.40");
    expect(paid.body.data.status).toBe("succeeded");
  });
});

describe("the update-payment-method flow through Stripe", () => {
  it("an active subscription's zero transaction: a SetupIntent saves the card as the subscription's paymtd_", async () => {
    noStripe();
    const { subscription } = await subscribeAtCheckout();
    const txn = await updatePaymentMethodTransaction(subscription.id);
    useStripe();
    const intent = await startOk(txn.id);
    expect(intent).toMatchObject({ kind: "setup", amount: "0" });
    expect(intent.client_secret).toMatch(/^seti_/);
    const seti = await standIn.client().setupIntents.retrieve(intentId(intent.client_secret)!);
    expect(seti).toMatchObject({ usage: "off_session", metadata: { transaction_id: txn.id } });
    expect(seti.customer).toMatch(/^cus_/);

    // 3-D Secure on setup, failed: a failure in words; then another card.
    const first = await enterCard(intent, CARDS.authAlways);
    expect(first.body.status).toBe("requires_action");
    await control.failChallenge(intentId(intent.client_secret)!);
    const failed = await confirm(txn.id, { payment_intent: intentId(intent.client_secret) });
    expect(failed.body.data).toMatchObject({ status: "failed", error: { code: "authentication_failed" } });

    const { confirmed } = await payWith(txn.id, CARDS.authUnlessSetUp);
    expect(confirmed.body.data.status).toBe("requires_action");
    await control.completeChallenge(intentId(intent.client_secret)!);
    const done = await confirm(txn.id, { payment_intent: intentId(intent.client_secret) });
    expect(done.body.data).toMatchObject({
      status: "succeeded",
      transaction_status: "completed",
      payment: { amount: "0", status: "captured", method_details: { card: { last4: "3155" } } },
    });
    const setUp = await standIn.client().setupIntents.retrieve(intentId(intent.client_secret)!);
    const [method] = await query<Entity>(
      "SELECT id, processor_reference FROM payment_methods WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)",
      [subscription.id],
    );
    expect(method!.processor_reference).toBe(setUp.payment_method);
    expect(done.body.data.payment.payment_method_id).toBe(method!.id);
    const row = (await transactions.get(txn.id)).body.data;
    expect(row.details.totals).toMatchObject({ fee: "0", earnings: "0" });

    // The webhook's entry settles nothing twice; an unknown SetupIntent is ignored.
    expect((await settleSetupIntent(setUp.id))?.outcome).toBe("already_settled");
    expect(await settleSetupIntent("seti_unknown0000")).toBeNull();
    expect((await eventTypes(txn.id)).filter((e) => e === "transaction.completed")).toHaveLength(1);
  });

  it("settleSetupIntent (the webhook's path) completes a setup the page never confirmed", async () => {
    noStripe();
    const { subscription } = await subscribeAtCheckout();
    const txn = await updatePaymentMethodTransaction(subscription.id);
    useStripe();
    const intent = await startOk(txn.id);
    await enterCard(intent, CARDS.visa);
    const settled = await settleSetupIntent(intentId(intent.client_secret)!);
    expect(settled?.outcome).toBe("completed");
    expect((await transactions.get(txn.id)).body.data.status).toBe("completed");
  });

  it("a past-due subscription recovers when its past-due transaction is paid through Stripe", async () => {
    noStripe();
    const { subscription } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD });
    await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + MINUTE));
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.status).toBe("past_due");
    expect((await getSubscriptionJson(subscription.id)).status).toBe("past_due");
    const txn = await updatePaymentMethodTransaction(subscription.id);
    expect(txn.id).toBe(renewal.id);
    useStripe();
    const { intent, confirmed } = await payWith(txn.id, CARDS.visa);
    expect(intent.kind).toBe("payment");
    const pi = await standIn.client().paymentIntents.retrieve(intentId(intent.client_secret)!);
    expect(pi.setup_future_usage).toBe("off_session");
    expect(confirmed.body.data).toMatchObject({ status: "succeeded", transaction_status: "completed" });
    expect((await getSubscriptionJson(subscription.id)).status).toBe("active");
    const [method] = await query<Entity>(
      "SELECT processor_reference FROM payment_methods WHERE id = (SELECT payment_method_id FROM subscriptions WHERE id = $1)",
      [subscription.id],
    );
    expect(method!.processor_reference).toBe(pi.payment_method);
  });
});
