/**
 * Every test card of issue 21 through the flows the product uses (checkout confirmation, saving
 * for later, off-session renewal), against the stand-in with the official `stripe` package, and
 * the 3-D Secure challenge passed and failed.
 */
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { brandOf, luhnValid, TEST_CARDS, TEST_TOKENS } from "./cards.ts";
import { StandInControl } from "./control-client.ts";
import { type StripeStandIn, startStripeStandIn } from "./server.ts";

let standIn: StripeStandIn;
let stripe: Stripe;
let control: StandInControl;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  stripe = standIn.client();
  control = new StandInControl(standIn.url);
});

afterAll(async () => {
  await standIn.close();
});

beforeEach(() => {
  standIn.reset();
});

async function thrown(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** A card PaymentMethod from its number, as Stripe.js would create it. */
function card(number: string) {
  return stripe.paymentMethods.create({
    type: "card",
    card: { number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: "123" },
  } as Stripe.PaymentMethodCreateParams);
}

/** The checkout's PaymentIntent: the customer, saving the card for renewals, confirmed on session. */
async function checkout(number: string, customer: string) {
  const method = await card(number);
  return stripe.paymentIntents.create({
    amount: 2500,
    currency: "usd",
    customer,
    setup_future_usage: "off_session",
    payment_method: method.id,
    confirm: true,
    metadata: { transaction_id: "txn_checkout" },
  });
}

/** A renewal: the saved card, charged off-session. */
function renewal(customer: string, paymentMethod: string) {
  return stripe.paymentIntents.create({
    amount: 2500,
    currency: "usd",
    customer,
    payment_method: paymentMethod,
    off_session: true,
    confirm: true,
  });
}

describe("the test card catalogue", () => {
  it("holds valid numbers whose brands match their prefixes, and tokens for cards it knows", () => {
    for (const [number, entry] of TEST_CARDS) {
      expect(luhnValid(number), number).toBe(true);
      expect(brandOf(number), number).toBe(entry.brand);
    }
    for (const [token, number] of TEST_TOKENS) expect(TEST_CARDS.has(number), token).toBe(true);
  });
});

describe("4242 4242 4242 4242", () => {
  it("succeeds at checkout, saves the card, and succeeds off-session", async () => {
    const customer = await stripe.customers.create({});
    const intent = await checkout("4242424242424242", customer.id);
    expect(intent.status).toBe("succeeded");
    const saved = await stripe.paymentMethods.retrieve(intent.payment_method as string);
    expect(saved).toMatchObject({ customer: customer.id, card: { brand: "visa", last4: "4242" } });
    expect((await renewal(customer.id, saved.id)).status).toBe("succeeded");
  });
});

describe("4000 0025 0000 3155 (authentication unless set up)", () => {
  it("asks for 3-D Secure at checkout; once passed, renewals go through off-session", async () => {
    const customer = await stripe.customers.create({});
    const intent = await checkout("4000002500003155", customer.id);
    expect(intent.status).toBe("requires_action");
    expect(intent.next_action?.type).toBe("use_stripe_sdk");
    const challenge = intent.next_action?.use_stripe_sdk?.stripe_js as string;
    expect(challenge).toMatch(new RegExp(`^${standIn.url}/_stand-in/three_d_secure/${intent.id}\\?client_secret=`));
    expect((await control.chargeCount({ payment_intent: intent.id })).count).toBe(0);

    const completed = (await control.completeChallenge(intent.id)) as Stripe.PaymentIntent;
    expect(completed.status).toBe("succeeded");
    const after = await stripe.paymentIntents.retrieve(intent.id, { expand: ["latest_charge"] });
    expect(after.status).toBe("succeeded");
    expect((after.latest_charge as Stripe.Charge).payment_method_details?.card?.three_d_secure).toMatchObject({
      result: "authenticated",
    });

    expect((await renewal(customer.id, after.payment_method as string)).status).toBe("succeeded");
  });

  it("fails off-session with authentication_required before it is set up", async () => {
    const customer = await stripe.customers.create({});
    const method = await stripe.paymentMethods.attach((await card("4000002500003155")).id, { customer: customer.id });
    const error = await thrown(renewal(customer.id, method.id));
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error.statusCode).toBe(402);
    expect(error.code).toBe("authentication_required");
    expect(error.decline_code).toBe("authentication_required");
    expect(error.payment_intent).toMatchObject({ status: "requires_payment_method", payment_method: null });
    expect(error.payment_intent.last_payment_error).toMatchObject({
      code: "authentication_required",
      type: "card_error",
    });
  });

  it("is set up by a SetupIntent passing its challenge: renewals then need no authentication", async () => {
    const customer = await stripe.customers.create({});
    const setup = await stripe.setupIntents.create({
      customer: customer.id,
      payment_method: (await card("4000002500003155")).id,
      confirm: true,
    });
    expect(setup.status).toBe("requires_action");
    expect((await control.completeChallenge(setup.id)).status).toBe("succeeded");
    const saved = await stripe.setupIntents.retrieve(setup.id);
    expect((await renewal(customer.id, saved.payment_method as string)).status).toBe("succeeded");
  });

  it("a failed challenge leaves the PaymentIntent payable with another card", async () => {
    const customer = await stripe.customers.create({});
    const intent = await checkout("4000002500003155", customer.id);
    const failed = (await control.failChallenge(intent.id)) as Stripe.PaymentIntent;
    expect(failed.status).toBe("requires_payment_method");
    expect(failed.last_payment_error).toMatchObject({
      code: "payment_intent_authentication_failure",
      type: "invalid_request_error",
    });
    expect((await control.chargeCount({ payment_intent: intent.id })).count).toBe(0);

    const retried = await stripe.paymentIntents.confirm(intent.id, {
      payment_method: (await card("4242424242424242")).id,
    });
    expect(retried.status).toBe("succeeded");
    expect((await control.chargeCount({ payment_intent: intent.id })).succeeded).toBe(1);
  });

  it("refuses to answer a challenge twice or where there is none", async () => {
    const customer = await stripe.customers.create({});
    const intent = await checkout("4000002500003155", customer.id);
    await control.completeChallenge(intent.id);
    await expect(control.completeChallenge(intent.id)).rejects.toThrow(/no 3-D Secure challenge/);
  });

  it("with error_on_requires_action fails instead of asking", async () => {
    const error = await thrown(
      stripe.paymentIntents.create({
        amount: 1000,
        currency: "usd",
        payment_method: (await card("4000002500003155")).id,
        confirm: true,
        error_on_requires_action: true,
      }),
    );
    expect(error.code).toBe("authentication_required");
  });

  it("with a return_url asks to redirect to the challenge", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 1000,
      currency: "usd",
      payment_method: (await card("4000002500003155")).id,
      confirm: true,
      return_url: "https://shop.example/checkout/done",
    });
    expect(intent.next_action).toMatchObject({
      type: "redirect_to_url",
      redirect_to_url: { return_url: "https://shop.example/checkout/done" },
    });
    const page = await fetch(intent.next_action!.redirect_to_url!.url!);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("3D Secure 2 Test Page");
    expect(html).toContain('<button type="button" id="complete">Complete</button>');
    expect(html).toContain('<button type="button" id="fail">Fail</button>');
    expect(html).toContain("a payment of $10.00");
  });
});

describe("4000 0027 6000 3184 (authentication always)", () => {
  it("asks on every payment, and off-session fails even after it was set up", async () => {
    const customer = await stripe.customers.create({});
    const intent = await checkout("4000002760003184", customer.id);
    expect(intent.status).toBe("requires_action");
    await control.completeChallenge(intent.id);
    const saved = (await stripe.paymentIntents.retrieve(intent.id)).payment_method as string;
    const error = await thrown(renewal(customer.id, saved));
    expect(error.code).toBe("authentication_required");

    const onSession = await stripe.paymentIntents.create({
      amount: 2500,
      currency: "usd",
      customer: customer.id,
      payment_method: saved,
      confirm: true,
    });
    expect(onSession.status).toBe("requires_action");
  });

  it("asks on a SetupIntent too", async () => {
    const setup = await stripe.setupIntents.create({
      payment_method: (await card("4000002760003184")).id,
      confirm: true,
    });
    expect(setup.status).toBe("requires_action");
    const failed = (await control.failChallenge(setup.id)) as Stripe.SetupIntent;
    expect(failed.status).toBe("requires_payment_method");
    expect(failed.last_setup_error?.code).toBe("setup_intent_authentication_failure");
  });
});

describe("4000 0000 0000 9995 (insufficient funds)", () => {
  it("declines with decline_code insufficient_funds, records a failed charge, and cannot be attached", async () => {
    const customer = await stripe.customers.create({});
    const error = await thrown(checkout("4000000000009995", customer.id));
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({
      code: "card_declined",
      decline_code: "insufficient_funds",
      message: "Your card has insufficient funds.",
    });
    expect(error.charge).toMatch(/^ch_/);
    const intent = error.payment_intent as Stripe.PaymentIntent;
    expect(intent.status).toBe("requires_payment_method");
    expect(intent.last_payment_error).toMatchObject({ decline_code: "insufficient_funds", charge: error.charge });
    expect(await stripe.charges.retrieve(error.charge)).toMatchObject({
      status: "failed",
      paid: false,
      failure_code: "card_declined",
      outcome: { type: "issuer_declined", reason: "insufficient_funds" },
    });
    expect(await control.chargeCount({ payment_intent: intent.id })).toMatchObject({ count: 1, failed: 1 });

    const attach = await thrown(
      stripe.paymentMethods.attach((await card("4000000000009995")).id, { customer: customer.id }),
    );
    expect(attach).toMatchObject({ code: "card_declined", decline_code: "insufficient_funds" });
  });
});

describe("4000 0000 0000 0341 (attaches, every charge declines)", () => {
  it("attaches and sets up, and declines the first charge already", async () => {
    const customer = await stripe.customers.create({});
    const method = await stripe.paymentMethods.attach((await card("4000000000000341")).id, { customer: customer.id });
    expect(method.customer).toBe(customer.id);
    const setup = await stripe.setupIntents.create({ customer: customer.id, payment_method: method.id, confirm: true });
    expect(setup.status).toBe("succeeded");
    const first = await thrown(
      stripe.paymentIntents.create({
        amount: 1000,
        currency: "usd",
        customer: customer.id,
        payment_method: method.id,
        confirm: true,
      }),
    );
    expect(first).toMatchObject({ code: "card_declined", decline_code: "generic_decline" });
    const off = await thrown(renewal(customer.id, method.id));
    expect(off).toMatchObject({ code: "card_declined", decline_code: "generic_decline" });
  });
});

describe("4000 0000 0000 0259 (disputed)", () => {
  it("succeeds and then opens a fraudulent dispute, with its events", async () => {
    const customer = await stripe.customers.create({});
    const intent = await checkout("4000000000000259", customer.id);
    expect(intent.status).toBe("succeeded");
    const types = (await control.events()).map((e) => e.type);
    expect(types.slice(-3)).toEqual(["charge.dispute.created", "charge.updated", "charge.dispute.funds_withdrawn"]);
    const [dispute] = (await stripe.disputes.list({ charge: intent.latest_charge as string })).data;
    expect(dispute).toMatchObject({ reason: "fraudulent", status: "needs_response", amount: 2500 });
  });
});

describe("4000 0000 0000 0002 and live cards", () => {
  it("declines with generic_decline; a non-test number is a live card declined in test mode", async () => {
    const error = await thrown(checkout("4000000000000002", (await stripe.customers.create({})).id));
    expect(error).toMatchObject({ code: "card_declined", decline_code: "generic_decline" });
    const live = await thrown(checkout("4012888888881881", (await stripe.customers.create({})).id));
    expect(live).toMatchObject({ code: "card_declined", decline_code: "test_mode_live_card" });
  });
});

describe("switching a saved card's behaviour (test-control)", () => {
  it("makes a card that paid at checkout decline at renewal, and pay again after", async () => {
    const customer = await stripe.customers.create({});
    const intent = await checkout("4242424242424242", customer.id);
    const saved = intent.payment_method as string;
    expect(await control.setBehaviour(saved, "insufficient_funds")).toMatchObject({
      behaviour: "insufficient_funds",
      set_up: true,
    });
    const error = await thrown(renewal(customer.id, saved));
    expect(error.decline_code).toBe("insufficient_funds");
    await control.setBehaviour(saved, "authenticate_always");
    expect((await thrown(renewal(customer.id, saved))).code).toBe("authentication_required");
    await control.setBehaviour(saved, "succeed");
    expect((await renewal(customer.id, saved)).status).toBe("succeeded");
    await expect(control.setBehaviour(saved, "explode" as never)).rejects.toThrow(/behaviour must be one of/);
  });

  it("a processing payment settles later through the test-control API", async () => {
    const customer = await stripe.customers.create({});
    const method = await stripe.paymentMethods.attach((await card("4242424242424242")).id, { customer: customer.id });
    await control.setBehaviour(method.id, "processing");
    const intent = await renewal(customer.id, method.id);
    expect(intent.status).toBe("processing");
    expect((await stripe.charges.retrieve(intent.latest_charge as string)).status).toBe("pending");
    const settled = await control.settleProcessing(intent.id, "succeeded");
    expect(settled.status).toBe("succeeded");
    const charge = await stripe.charges.retrieve(intent.latest_charge as string);
    expect(charge).toMatchObject({ status: "succeeded", paid: true });
    expect(charge.balance_transaction).toMatch(/^txn_/);
    const types = (await control.events({ object: intent.id })).map((e) => e.type);
    expect(types).toEqual(["payment_intent.created", "payment_intent.processing", "payment_intent.succeeded"]);
  });
});
