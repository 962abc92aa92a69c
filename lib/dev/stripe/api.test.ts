/**
 * The stand-in's REST API driven by the official `stripe` package, endpoint by endpoint: the
 * shapes the package's types promise, the errors it parses (StripeInvalidRequestError,
 * StripeAuthenticationError, StripeCardError…), lists and expansion, fees and settlement.
 */
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StandInControl } from "./control-client.ts";
import { encodeForm } from "./form.ts";
import { DEFAULT_ACCOUNT, type StripeStandIn, startStripeStandIn } from "./server.ts";

let standIn: StripeStandIn;
let stripe: Stripe;
let control: StandInControl;

beforeAll(async () => {
  standIn = await startStripeStandIn({
    accounts: [
      DEFAULT_ACCOUNT,
      {
        secretKey: "sk_test_standin_euro",
        publishableKey: "pk_test_standin_euro",
        name: "Euro Shop GmbH",
        country: "DE",
        defaultCurrency: "eur",
      },
    ],
    refunds: { mode: "manual" },
  });
  stripe = standIn.client();
  control = new StandInControl(standIn.url);
});

afterAll(async () => {
  await standIn.close();
});

beforeEach(() => {
  standIn.reset();
  standIn.engine.refunds = { mode: "manual", settleMs: 0 };
});

async function raw(
  method: string,
  path: string,
  options: { key?: string | null; body?: Record<string, unknown> } = {},
) {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? DEFAULT_ACCOUNT.secretKey : options.key;
  if (key) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.body) {
    body = encodeForm(options.body);
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const response = await fetch(`${standIn.url}${path}`, { method, headers, body });
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}

async function thrown(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("authentication and routing", () => {
  it("refuses a request without a key (401, StripeAuthenticationError)", async () => {
    const res = await raw("GET", "/v1/account", { key: null });
    expect(res.status).toBe(401);
    expect(res.json.error.type).toBe("invalid_request_error");
    expect(res.json.error.message).toMatch(/You did not provide an API key/);
  });

  it("refuses an unknown key, masking it", async () => {
    const error = await thrown(standIn.client("sk_test_nobody_1234").customers.create({}));
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.message).toBe("Invalid API Key provided: sk_test_****1234");
    expect(error.statusCode).toBe(401);
  });

  it("takes the key as HTTP Basic user name too (curl -u)", async () => {
    const response = await fetch(`${standIn.url}/v1/account`, {
      headers: { authorization: `Basic ${Buffer.from(`${DEFAULT_ACCOUNT.secretKey}:`).toString("base64")}` },
    });
    expect(response.status).toBe(200);
  });

  it("answers 404 for an unknown URL, in Stripe's words", async () => {
    const res = await raw("GET", "/v1/nothing_here");
    expect(res.status).toBe(404);
    expect(res.json.error.message).toMatch(/^Unrecognized request URL \(GET: \/v1\/nothing_here\)/);
  });

  it("refuses a publishable key outside the client-secret operations", async () => {
    const error = await thrown(standIn.client(DEFAULT_ACCOUNT.publishableKey).customers.list());
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.message).toMatch(/publishable API key/);
  });

  it("refuses unknown parameters, missing ones and bad integers with the param named", async () => {
    const unknown = await thrown(stripe.customers.create({ nickname: "x" } as never));
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(unknown.code).toBe("parameter_unknown");
    expect(unknown.param).toBe("nickname");

    const missing = await thrown(stripe.paymentIntents.create({ currency: "usd" } as never));
    expect(missing.code).toBe("parameter_missing");
    expect(missing.param).toBe("amount");

    const res = await raw("POST", "/v1/payment_intents", { body: { amount: "ten", currency: "usd" } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "parameter_invalid_integer", param: "amount" });
  });

  it("answers hostile form encoding with a 400, never a crash", async () => {
    for (const body of ["__proto__[x]=1", "a[0]=1&a[5]=2", "a=1&a[b]=2", "%E0%A4%A=1", "a[b=1"]) {
      const response = await fetch(`${standIn.url}/v1/customers`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${DEFAULT_ACCOUNT.secretKey}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body,
      });
      expect(response.status, body).toBe(400);
      expect(((await response.json()) as any).error.type).toBe("invalid_request_error");
    }
  });

  it("sends Request-Id and answers CORS preflights (Stripe.js calls it from pages)", async () => {
    const res = await raw("GET", "/v1/account");
    expect(res.headers.get("request-id")).toMatch(/^req_/);
    const preflight = await fetch(`${standIn.url}/v1/payment_methods`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("account", () => {
  it("retrieves the account of the key: name, country, default currency", async () => {
    const account = await stripe.accounts.retrieveCurrent();
    expect(account.object).toBe("account");
    expect(account.id).toMatch(/^acct_/);
    expect(account.business_profile?.name).toBe("Stand-in Test Shop");
    expect(account.settings?.dashboard.display_name).toBe("Stand-in Test Shop");
    expect(account.country).toBe("US");
    expect(account.default_currency).toBe("usd");
    expect(account.charges_enabled).toBe(true);

    const euro = await standIn.client("sk_test_standin_euro").accounts.retrieveCurrent();
    expect(euro).toMatchObject({ country: "DE", default_currency: "eur" });
    expect(euro.business_profile?.name).toBe("Euro Shop GmbH");
  });
});

describe("customers", () => {
  it("creates, retrieves, updates, lists and deletes", async () => {
    const created = await stripe.customers.create({
      email: "sam@example.com",
      name: "Sam",
      metadata: { ctm: "ctm_01" },
      address: { country: "GB", postal_code: "SW1A 1AA" },
    });
    expect(created).toMatchObject({
      object: "customer",
      email: "sam@example.com",
      name: "Sam",
      metadata: { ctm: "ctm_01" },
      livemode: false,
    });
    expect(created.id).toMatch(/^cus_/);
    expect(created.address?.country).toBe("GB");

    const updated = await stripe.customers.update(created.id, { name: "Samantha", metadata: { ctm: "", extra: "1" } });
    expect(updated.name).toBe("Samantha");
    expect(updated.metadata).toEqual({ extra: "1" });
    expect((await stripe.customers.retrieve(created.id)) as Stripe.Customer).toMatchObject({ name: "Samantha" });

    const list = await stripe.customers.list({ email: "sam@example.com" });
    expect(list.object).toBe("list");
    expect(list.url).toBe("/v1/customers");
    expect(list.data.map((c) => c.id)).toEqual([created.id]);

    const deleted = await stripe.customers.del(created.id);
    expect(deleted).toMatchObject({ id: created.id, object: "customer", deleted: true });
    expect(await stripe.customers.retrieve(created.id)).toMatchObject({ deleted: true });
    const error = await thrown(stripe.customers.update(created.id, { name: "x" }));
    expect(error.code).toBe("resource_missing");
  });

  it("answers resource_missing for an unknown customer, naming it", async () => {
    const error = await thrown(stripe.customers.retrieve("cus_nope"));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error.statusCode).toBe(404);
    expect(error.code).toBe("resource_missing");
    expect(error.message).toBe("No such customer: 'cus_nope'");
  });

  it("paginates newest first with starting_after", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await stripe.customers.create({ email: `c${i}@example.com` })).id);
    const first = await stripe.customers.list({ limit: 2 });
    expect(first.data.map((c) => c.id)).toEqual([ids[4], ids[3]]);
    expect(first.has_more).toBe(true);
    const rest = await stripe.customers.list({ limit: 10, starting_after: ids[3] });
    expect(rest.data.map((c) => c.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(rest.has_more).toBe(false);
    const all: string[] = [];
    for await (const customer of stripe.customers.list({ limit: 2 })) all.push(customer.id);
    expect(all).toEqual([...ids].reverse());
  });
});

describe("payment methods", () => {
  it("creates a card from a test number, with brand, last 4 and expiry", async () => {
    const method = await stripe.paymentMethods.create({
      type: "card",
      card: { number: "5555555555554444", exp_month: 8, exp_year: 2031, cvc: "123" },
      billing_details: { name: "Sam", email: "sam@example.com" },
    } as Stripe.PaymentMethodCreateParams);
    expect(method).toMatchObject({
      object: "payment_method",
      type: "card",
      customer: null,
      billing_details: { name: "Sam", email: "sam@example.com" },
      card: { brand: "mastercard", last4: "4444", exp_month: 8, exp_year: 2031, funding: "credit", country: "US" },
    });
    expect(method.card?.fingerprint).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(await stripe.paymentMethods.retrieve(method.id)).toMatchObject({ id: method.id });
  });

  it("refuses wrong card details with Stripe's card errors", async () => {
    const card = (c: Record<string, unknown>) =>
      thrown(stripe.paymentMethods.create({ type: "card", card: c } as Stripe.PaymentMethodCreateParams));
    const luhn = await card({ number: "4242424242424241", exp_month: 1, exp_year: 2040 });
    expect(luhn).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(luhn.code).toBe("incorrect_number");
    expect((await card({ number: "4242424242424242", exp_month: 13, exp_year: 2040 })).code).toBe(
      "invalid_expiry_month",
    );
    expect((await card({ number: "4242424242424242", exp_month: 1, exp_year: 2001 })).code).toBe("invalid_expiry_year");
    expect((await card({ number: "4242424242424242", exp_month: 1, exp_year: 2040, cvc: "12" })).code).toBe(
      "invalid_cvc",
    );
    const missing = await card({ exp_month: 1, exp_year: 2040 });
    expect(missing.code).toBe("parameter_missing");
  });

  it("attaches, lists for the customer, updates the expiry and detaches", async () => {
    const customer = await stripe.customers.create({ email: "pm@example.com" });
    const method = await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
    expect(method.id).toMatch(/^pm_(?!card)/);
    expect(method.customer).toBe(customer.id);

    const list = await stripe.paymentMethods.list({ customer: customer.id, type: "card" });
    expect(list.data.map((m) => m.id)).toEqual([method.id]);
    const viaCustomer = await stripe.customers.listPaymentMethods(customer.id, { type: "card" });
    expect(viaCustomer.data.map((m) => m.id)).toEqual([method.id]);
    expect(viaCustomer.url).toBe(`/v1/customers/${customer.id}/payment_methods`);

    const updated = await stripe.paymentMethods.update(method.id, { card: { exp_month: 2, exp_year: 2035 } });
    expect(updated.card).toMatchObject({ exp_month: 2, exp_year: 2035 });

    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: method.id } });
    const detached = await stripe.paymentMethods.detach(method.id);
    expect(detached.customer).toBeNull();
    const again = await thrown(stripe.paymentMethods.detach(method.id));
    expect(again.code).toBe("payment_method_unexpected_state");
    expect(
      ((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).invoice_settings.default_payment_method,
    ).toBeNull();
  });

  it("refuses to attach a method already attached to another customer", async () => {
    const [a, b] = [await stripe.customers.create({}), await stripe.customers.create({})];
    const method = await stripe.paymentMethods.attach("pm_card_visa", { customer: a.id });
    const error = await thrown(stripe.paymentMethods.attach(method.id, { customer: b.id }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error.message).toMatch(/already been attached/);
  });

  it("names an unknown PaymentMethod as Stripe does", async () => {
    const error = await thrown(stripe.paymentMethods.retrieve("pm_nope"));
    expect(error.statusCode).toBe(404);
    expect(error.message).toBe("No such PaymentMethod: 'pm_nope'");
  });
});

describe("payment intents", () => {
  it("creates without confirming (requires_payment_method), then confirms with a card", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 2000,
      currency: "usd",
      metadata: { transaction_id: "txn_01" },
      description: "Invoice INV-000001",
    });
    expect(intent).toMatchObject({
      object: "payment_intent",
      amount: 2000,
      currency: "usd",
      status: "requires_payment_method",
      metadata: { transaction_id: "txn_01" },
      latest_charge: null,
      automatic_payment_methods: { enabled: true },
      payment_method_types: ["card"],
      capture_method: "automatic",
    });
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));

    const confirmed = await stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_visa" });
    expect(confirmed.status).toBe("succeeded");
    expect(confirmed.amount_received).toBe(2000);
    expect(confirmed.latest_charge).toMatch(/^ch_/);
  });

  it("creates with a payment method and no confirm (requires_confirmation)", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 500, currency: "eur", payment_method: "pm_card_visa" });
    expect(intent.status).toBe("requires_confirmation");
    expect(intent.payment_method).toMatch(/^pm_/);
  });

  it("expands latest_charge with its balance transaction and the card's details", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 10_000,
      currency: "usd",
      payment_method: "pm_card_mastercard",
      confirm: true,
      expand: ["latest_charge.balance_transaction"],
    });
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({
      object: "charge",
      amount: 10_000,
      amount_captured: 10_000,
      currency: "usd",
      paid: true,
      captured: true,
      status: "succeeded",
      payment_intent: intent.id,
      payment_method_details: { type: "card", card: { brand: "mastercard", last4: "4444" } },
    });
    expect(charge.payment_method_details?.card?.exp_year).toBeGreaterThan(2025);
    const balance = charge.balance_transaction as Stripe.BalanceTransaction;
    // 2.9% + 30: 290 + 30.
    expect(balance).toMatchObject({
      object: "balance_transaction",
      amount: 10_000,
      fee: 320,
      net: 9_680,
      currency: "usd",
      exchange_rate: null,
      type: "charge",
      source: charge.id,
    });
    expect(balance.fee_details).toEqual([
      { amount: 320, application: null, currency: "usd", description: "Stripe processing fees", type: "stripe_fee" },
    ]);
    expect(await stripe.balanceTransactions.retrieve(balance.id)).toEqual(balance);
    expect(await stripe.charges.retrieve(charge.id)).toMatchObject({ id: charge.id, balance_transaction: balance.id });
    const listed = await stripe.charges.list({ payment_intent: intent.id });
    expect(listed.data.map((c) => c.id)).toEqual([charge.id]);
  });

  it("rounds the fee half up and settles another currency at a fixed rate with exchange_rate set", async () => {
    const usd = await stripe.paymentIntents.create({
      amount: 1050,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
      expand: ["latest_charge.balance_transaction"],
    });
    // 2.9% of 1050 = 30.45 → 30, + 30.
    expect(((usd.latest_charge as Stripe.Charge).balance_transaction as Stripe.BalanceTransaction).fee).toBe(60);

    const euro = standIn.client("sk_test_standin_euro");
    const intent = await euro.paymentIntents.create({
      amount: 10_800,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
      expand: ["latest_charge.balance_transaction"],
    });
    const balance = (intent.latest_charge as Stripe.Charge).balance_transaction as Stripe.BalanceTransaction;
    expect(balance.currency).toBe("eur");
    expect(balance.exchange_rate).toBeCloseTo(1 / 1.08, 6);
    expect(balance.amount).toBe(10_000);
    expect(balance.fee).toBe(320);
  });

  it("refuses amounts below the currency's minimum and unknown cancellation", async () => {
    const error = await thrown(stripe.paymentIntents.create({ amount: 49, currency: "usd" }));
    expect(error.code).toBe("amount_too_small");
    expect(error.param).toBe("amount");
    expect(error.message).toBe("Amount must be at least 0.50 usd");
  });

  it("refuses off_session or return_url without confirm", async () => {
    const offSession = await thrown(stripe.paymentIntents.create({ amount: 500, currency: "usd", off_session: true }));
    expect(offSession.param).toBe("off_session");
    const returnUrl = await thrown(
      stripe.paymentIntents.create({ amount: 500, currency: "usd", return_url: "https://shop.example/back" }),
    );
    expect(returnUrl.param).toBe("return_url");
  });

  it("cancels, and refuses to confirm or cancel again", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 500, currency: "usd" });
    const canceled = await stripe.paymentIntents.cancel(intent.id, { cancellation_reason: "abandoned" });
    expect(canceled).toMatchObject({ status: "canceled", cancellation_reason: "abandoned" });
    expect(canceled.canceled_at).toBeGreaterThan(0);
    const confirm = await thrown(stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_visa" }));
    expect(confirm.code).toBe("payment_intent_unexpected_state");
    expect(confirm.payment_intent?.id).toBe(intent.id);
    const cancel = await thrown(stripe.paymentIntents.cancel(intent.id));
    expect(cancel.code).toBe("payment_intent_unexpected_state");
  });

  it("refuses to confirm a succeeded PaymentIntent again (it never charges twice)", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 500,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
    });
    const error = await thrown(stripe.paymentIntents.confirm(intent.id));
    expect(error.code).toBe("payment_intent_unexpected_state");
    expect((await control.chargeCount({ payment_intent: intent.id })).count).toBe(1);
  });

  it("updates amount and metadata before confirmation", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 500, currency: "usd", metadata: { a: "1" } });
    const updated = await stripe.paymentIntents.update(intent.id, { amount: 700, metadata: { b: "2" } });
    expect(updated).toMatchObject({ amount: 700, metadata: { a: "1", b: "2" } });
  });

  it("with a customer and setup_future_usage saves the card to the customer", async () => {
    const customer = await stripe.customers.create({ email: "save@example.com" });
    const intent = await stripe.paymentIntents.create({
      amount: 1500,
      currency: "usd",
      customer: customer.id,
      setup_future_usage: "off_session",
      payment_method: "pm_card_visa",
      confirm: true,
    });
    expect(intent).toMatchObject({ status: "succeeded", customer: customer.id, setup_future_usage: "off_session" });
    const methods = await stripe.customers.listPaymentMethods(customer.id);
    expect(methods.data.map((m) => m.id)).toEqual([intent.payment_method]);

    const renewal = await stripe.paymentIntents.create({
      amount: 1500,
      currency: "usd",
      customer: customer.id,
      payment_method: intent.payment_method as string,
      off_session: true,
      confirm: true,
    });
    expect(renewal.status).toBe("succeeded");
  });

  it("refuses a used one-off card again, and a saved card without its customer", async () => {
    const once = await stripe.paymentIntents.create({
      amount: 500,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
    });
    const reuse = await thrown(
      stripe.paymentIntents.create({
        amount: 500,
        currency: "usd",
        payment_method: once.payment_method as string,
        confirm: true,
      }),
    );
    expect(reuse.message).toMatch(/previously used with a PaymentIntent without Customer attachment/);

    const customer = await stripe.customers.create({});
    const saved = await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
    const noCustomer = await thrown(
      stripe.paymentIntents.create({ amount: 500, currency: "usd", payment_method: saved.id, confirm: true }),
    );
    expect(noCustomer.param).toBe("payment_method");
    expect(noCustomer.message).toMatch(/belongs to a Customer/);
  });

  it("lets a publishable key read and confirm only with the client secret", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 900, currency: "usd" });
    const browser = standIn.client(DEFAULT_ACCOUNT.publishableKey);
    const denied = await thrown(browser.paymentIntents.retrieve(intent.id));
    expect(denied.statusCode).toBe(401);
    const wrong = await thrown(browser.paymentIntents.retrieve(intent.id, { client_secret: `${intent.id}_secret_x` }));
    expect(wrong.param).toBe("client_secret");
    const read = await browser.paymentIntents.retrieve(intent.id, { client_secret: intent.client_secret! });
    expect(read.status).toBe("requires_payment_method");

    const res = await raw("POST", `/v1/payment_intents/${intent.id}/confirm`, {
      key: null,
      body: {
        key: DEFAULT_ACCOUNT.publishableKey,
        client_secret: intent.client_secret,
        payment_method_data: {
          type: "card",
          card: { number: "4242424242424242", exp_month: "12", exp_year: "2034", cvc: "123" },
          payment_user_agent: "stripe.js/stand-in",
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("succeeded");
    // A secret key sent where Stripe.js puts publishable keys is refused.
    const secretInBody = await raw("GET", `/v1/payment_intents/${intent.id}?key=${DEFAULT_ACCOUNT.secretKey}`, {
      key: null,
    });
    expect(secretInBody.status).toBe(401);
  });

  it("lists a customer's PaymentIntents", async () => {
    const customer = await stripe.customers.create({});
    const intent = await stripe.paymentIntents.create({ amount: 600, currency: "usd", customer: customer.id });
    await stripe.paymentIntents.create({ amount: 600, currency: "usd" });
    const list = await stripe.paymentIntents.list({ customer: customer.id });
    expect(list.data.map((i) => i.id)).toEqual([intent.id]);
  });

  it("refuses an expansion Stripe does not offer", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 600, currency: "usd" });
    const error = await thrown(stripe.paymentIntents.retrieve(intent.id, { expand: ["metadata"] }));
    expect(error.param).toBe("expand");
    expect(error.message).toMatch(/cannot be expanded/);
  });
});

describe("setup intents", () => {
  it("creates, confirms and saves the card to the customer", async () => {
    const customer = await stripe.customers.create({});
    const intent = await stripe.setupIntents.create({ customer: customer.id, usage: "off_session" });
    expect(intent).toMatchObject({
      object: "setup_intent",
      status: "requires_payment_method",
      usage: "off_session",
      customer: customer.id,
    });
    expect(intent.client_secret).toMatch(/^seti_.+_secret_/);
    const confirmed = await stripe.setupIntents.confirm(intent.id, { payment_method: "pm_card_visa" });
    expect(confirmed.status).toBe("succeeded");
    const method = await stripe.paymentMethods.retrieve(confirmed.payment_method as string);
    expect(method.customer).toBe(customer.id);
    expect(await stripe.setupIntents.retrieve(intent.id)).toMatchObject({ status: "succeeded" });
  });

  it("confirms at creation and cancels another", async () => {
    const done = await stripe.setupIntents.create({ payment_method: "pm_card_visa", confirm: true });
    expect(done.status).toBe("succeeded");
    const open = await stripe.setupIntents.create({});
    expect((await stripe.setupIntents.cancel(open.id)).status).toBe("canceled");
  });
});

describe("refunds", () => {
  async function paid(amount = 5000) {
    return stripe.paymentIntents.create({ amount, currency: "usd", payment_method: "pm_card_visa", confirm: true });
  }

  it("refunds in part, pending then succeeded, then the rest", async () => {
    const intent = await paid();
    const partial = await stripe.refunds.create({
      payment_intent: intent.id,
      amount: 1200,
      metadata: { adj: "adj_1" },
    });
    expect(partial).toMatchObject({
      object: "refund",
      amount: 1200,
      currency: "usd",
      status: "pending",
      payment_intent: intent.id,
      charge: intent.latest_charge,
      metadata: { adj: "adj_1" },
    });
    const balance = await stripe.balanceTransactions.retrieve(partial.balance_transaction as string);
    expect(balance).toMatchObject({ amount: -1200, fee: 0, net: -1200, type: "refund" });
    expect(await stripe.charges.retrieve(intent.latest_charge as string)).toMatchObject({
      amount_refunded: 1200,
      refunded: false,
    });

    await control.succeedRefund(partial.id);
    expect((await stripe.refunds.retrieve(partial.id)).status).toBe("succeeded");

    const rest = await stripe.refunds.create({ charge: intent.latest_charge as string });
    expect(rest.amount).toBe(3800);
    expect(await stripe.charges.retrieve(intent.latest_charge as string)).toMatchObject({
      amount_refunded: 5000,
      refunded: true,
    });
    const list = await stripe.refunds.list({ payment_intent: intent.id });
    expect(list.data.map((r) => r.id)).toEqual([rest.id, partial.id]);
    const charge = await stripe.charges.retrieve(intent.latest_charge as string, { expand: ["refunds"] });
    expect(charge.refunds?.data.map((r) => r.id)).toEqual([rest.id, partial.id]);

    const more = await thrown(stripe.refunds.create({ payment_intent: intent.id, amount: 1 }));
    expect(more.code).toBe("charge_already_refunded");
  });

  it("refuses more than what is left, naming amount", async () => {
    const intent = await paid(1000);
    const error = await thrown(stripe.refunds.create({ payment_intent: intent.id, amount: 1001 }));
    expect(error.code).toBe("amount_too_large");
    expect(error.param).toBe("amount");
  });

  it("refuses a PaymentIntent that did not succeed, and a request naming neither", async () => {
    const intent = await stripe.paymentIntents.create({ amount: 1000, currency: "usd" });
    const error = await thrown(stripe.refunds.create({ payment_intent: intent.id }));
    expect(error.param).toBe("payment_intent");
    const neither = await thrown(stripe.refunds.create({}));
    expect(neither.message).toMatch(/payment_intent or charge/);
  });

  it("fails a refund through the test-control API: the amount is refundable again", async () => {
    const intent = await paid(2000);
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    const failed = await control.failRefund(refund.id, "expired_or_canceled_card");
    expect(failed).toMatchObject({ status: "failed", failure_reason: "expired_or_canceled_card" });
    expect(failed.failure_balance_transaction).toMatch(/^txn_/);
    expect(await stripe.charges.retrieve(intent.latest_charge as string)).toMatchObject({
      amount_refunded: 0,
      refunded: false,
    });
    const types = (await control.events({ object: refund.id })).map((e) => e.type);
    expect(types).toEqual(["refund.created", "refund.failed", "refund.updated", "charge.refund.updated"]);
  });

  it("settles by itself in auto mode, and fail_next makes the next one fail", async () => {
    standIn.engine.refunds = { mode: "auto", settleMs: 0 };
    const intent = await paid(3000);
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 1000 });
    expect(refund.status).toBe("pending");
    await expect.poll(async () => (await stripe.refunds.retrieve(refund.id)).status).toBe("succeeded");

    await control.failNextRefunds(1);
    const next = await stripe.refunds.create({ payment_intent: intent.id, amount: 1000 });
    expect(next.status).toBe("pending");
    await expect.poll(async () => (await stripe.refunds.retrieve(next.id)).status).toBe("failed");
  });
});

describe("disputes", () => {
  it("opens one for card 4000 0000 0000 0259, withdraws the funds, and closes it won or lost", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 4000,
      currency: "usd",
      payment_method: "pm_card_createDispute",
      confirm: true,
    });
    expect(intent.status).toBe("succeeded");
    const charge = await stripe.charges.retrieve(intent.latest_charge as string);
    expect(charge.disputed).toBe(true);
    const [dispute] = (await stripe.disputes.list({ payment_intent: intent.id })).data;
    expect(dispute).toMatchObject({
      object: "dispute",
      amount: 4000,
      currency: "usd",
      charge: charge.id,
      payment_intent: intent.id,
      reason: "fraudulent",
      status: "needs_response",
    });
    expect(dispute!.balance_transactions[0]).toMatchObject({ amount: -4000, fee: 1500, net: -5500 });
    const refund = await thrown(stripe.refunds.create({ payment_intent: intent.id }));
    expect(refund.code).toBe("charge_disputed");

    const won = await control.closeDispute(dispute!.id, "won");
    expect(won.status).toBe("won");
    expect(won.balance_transactions.map((b) => b.amount)).toEqual([-4000, 4000]);
    const types = (await control.events({ object: dispute!.id })).map((e) => e.type);
    expect(types).toEqual([
      "charge.dispute.created",
      "charge.dispute.funds_withdrawn",
      "charge.dispute.funds_reinstated",
      "charge.dispute.closed",
    ]);
  });

  it("closes as lost when the merchant accepts it, or by evidence in test mode", async () => {
    const make = async () => {
      const intent = await stripe.paymentIntents.create({
        amount: 1000,
        currency: "usd",
        payment_method: "pm_card_createDispute",
        confirm: true,
      });
      return (await stripe.disputes.list({ payment_intent: intent.id })).data[0];
    };
    const accepted = await stripe.disputes.close((await make())!.id);
    expect(accepted.status).toBe("lost");
    const byEvidence = await stripe.disputes.update((await make())!.id, {
      evidence: { uncategorized_text: "winning_evidence" },
    });
    expect(byEvidence.status).toBe("won");
    const reviewed = await stripe.disputes.update((await make())!.id, { evidence: { product_description: "A plan" } });
    expect(reviewed.status).toBe("under_review");
  });

  it("disputes any succeeded charge on request (test-control)", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 1000,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
    });
    const dispute = await control.openDispute(intent.latest_charge as string);
    expect(await stripe.disputes.retrieve(dispute.id)).toMatchObject({ status: "needs_response", amount: 1000 });
  });
});

describe("events", () => {
  it("retrieves and lists the events of the account, filtered by type", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 1000,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
    });
    const list = await stripe.events.list({ type: "payment_intent.*" });
    expect(list.data.map((e) => e.type)).toEqual(["payment_intent.succeeded", "payment_intent.created"]);
    const event = await stripe.events.retrieve(list.data[0]!.id);
    expect(event).toMatchObject({
      object: "event",
      type: "payment_intent.succeeded",
      livemode: false,
      api_version: Stripe.API_VERSION,
      data: {
        object: { id: intent.id, status: "succeeded" },
        previous_attributes: { status: "requires_confirmation" },
      },
    });
    expect(event.request?.idempotency_key).toMatch(/^stripe-node-retry-/);
  });
});
