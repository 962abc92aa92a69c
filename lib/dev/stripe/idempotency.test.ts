/**
 * Idempotency-Key semantics as Stripe documents them (docs.stripe.com/api/idempotent_requests),
 * seen through the official `stripe` package: replay, conflict, scope per API key, in-flight
 * requests, what is and is not stored, and "exactly once" when an answer is lost on the way.
 */
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StandInControl } from "./control-client.ts";
import { DEFAULT_ACCOUNT, type StripeStandIn, startStripeStandIn } from "./server.ts";

const OTHER_KEY = "rk_test_standin_restricted_0001";
let standIn: StripeStandIn;
let stripe: Stripe;
let control: StandInControl;

beforeAll(async () => {
  standIn = await startStripeStandIn({ accounts: [{ ...DEFAULT_ACCOUNT, otherSecretKeys: [OTHER_KEY] }] });
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

const charge = (idempotencyKey: string, amount = 1000, client = stripe) =>
  client.paymentIntents.create(
    { amount, currency: "usd", payment_method: "pm_card_visa", confirm: true, metadata: { attempt: idempotencyKey } },
    { idempotencyKey },
  );

describe("Idempotency-Key", () => {
  it("replays the stored answer for the same key and parameters: one PaymentIntent, one charge", async () => {
    const first = await charge("attempt-1");
    const second = await charge("attempt-1");
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(second.lastResponse.headers["original-request"]).toBe(first.lastResponse.requestId);
    expect(second.lastResponse.idempotencyKey).toBe("attempt-1");
    expect(await control.chargeCount({ idempotency_key: "attempt-1" })).toMatchObject({ count: 1, succeeded: 1 });
    expect(standIn.accounts[0]!.all("payment_intent")).toHaveLength(1);
  });

  it("treats parameter order as the same request", async () => {
    const body = (order: string[]) =>
      order.map((k) => ({ amount: "amount=700", currency: "currency=usd", meta: "metadata[a]=1" })[k]).join("&");
    const send = (text: string) =>
      fetch(`${standIn.url}/v1/payment_intents`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${DEFAULT_ACCOUNT.secretKey}`,
          "content-type": "application/x-www-form-urlencoded",
          "idempotency-key": "order",
        },
        body: text,
      });
    const a = (await (await send(body(["amount", "currency", "meta"]))).json()) as { id: string };
    const b = await send(body(["meta", "currency", "amount"]));
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(((await b.json()) as { id: string }).id).toBe(a.id);
  });

  it("refuses the same key with other parameters: 400 idempotency_error, nothing runs", async () => {
    await charge("attempt-2", 1000);
    const error = await thrown(charge("attempt-2", 2000));
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error.statusCode).toBe(400);
    expect(error.type).toBe("StripeIdempotencyError");
    expect(error.rawType).toBe("idempotency_error");
    expect(error.message).toMatch(/same parameters they were first used with/);
    expect(standIn.accounts[0]!.all("payment_intent")).toHaveLength(1);
  });

  it("refuses the same key on another endpoint", async () => {
    await stripe.customers.create({ email: "a@example.com" }, { idempotencyKey: "shared" });
    const error = await thrown(
      stripe.paymentIntents.create({ amount: 500, currency: "usd" }, { idempotencyKey: "shared" }),
    );
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it("scopes keys per API key: another key of the same account runs its own request", async () => {
    const first = await charge("attempt-3");
    const other = await charge("attempt-3", 1000, standIn.client(OTHER_KEY));
    expect(other.id).not.toBe(first.id);
    expect(other.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
    expect((await control.chargeCount({ idempotency_key: "attempt-3" })).count).toBe(2);
  });

  it("stores a decline (402): the retry replays it and charges no second time", async () => {
    const decline = (key: string) =>
      stripe.paymentIntents.create(
        { amount: 1000, currency: "usd", payment_method: "pm_card_chargeDeclined", confirm: true },
        { idempotencyKey: key },
      );
    const first = await thrown(decline("attempt-4"));
    const second = await thrown(decline("attempt-4"));
    expect(second).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(second.payment_intent.id).toBe(first.payment_intent.id);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect((await control.chargeCount({ idempotency_key: "attempt-4" })).count).toBe(1);
  });

  it("stores nothing for a request refused for its parameters: the fixed request may reuse the key", async () => {
    const bad = await thrown(
      stripe.paymentIntents.create({ amount: 10, currency: "usd" } as never, { idempotencyKey: "attempt-5" }),
    );
    expect(bad.code).toBe("amount_too_small");
    const unknown = await thrown(
      stripe.paymentIntents.create({ amount: 1000, currency: "usd", colour: "red" } as never, {
        idempotencyKey: "attempt-5",
      }),
    );
    expect(unknown.code).toBe("parameter_unknown");
    const fixed = await stripe.paymentIntents.create(
      { amount: 1000, currency: "usd" },
      { idempotencyKey: "attempt-5" },
    );
    expect(fixed.status).toBe("requires_payment_method");
  });

  it("answers 409 while the first request with the key is still executing; the package's retry then gets the replay", async () => {
    await control.fault({ path: "/v1/payment_intents", method: "POST", kind: "delay", delay_ms: 400 });
    const slow = charge("attempt-6");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const concurrent = await thrown(
      stripe.paymentIntents.create(
        {
          amount: 1000,
          currency: "usd",
          payment_method: "pm_card_visa",
          confirm: true,
          metadata: { attempt: "attempt-6" },
        },
        { idempotencyKey: "attempt-6", maxNetworkRetries: 0 },
      ),
    );
    expect(concurrent.statusCode).toBe(409);
    expect(concurrent.code).toBe("idempotency_key_in_use");
    const retried = stripe.paymentIntents.create(
      {
        amount: 1000,
        currency: "usd",
        payment_method: "pm_card_visa",
        confirm: true,
        metadata: { attempt: "attempt-6" },
      },
      { idempotencyKey: "attempt-6", maxNetworkRetries: 3 },
    );
    const [a, b] = await Promise.all([slow, retried]);
    expect(b.id).toBe(a.id);
    expect((await control.chargeCount({ idempotency_key: "attempt-6" })).count).toBe(1);
  });

  it("charges exactly once when the answer is lost after the charge (drop_after) and the client retries", async () => {
    await control.fault({ path: "/v1/payment_intents", method: "POST", kind: "drop_after" });
    const intent = await stripe.paymentIntents.create(
      {
        amount: 1000,
        currency: "usd",
        payment_method: "pm_card_visa",
        confirm: true,
        metadata: { transaction_id: "txn_x" },
      },
      { idempotencyKey: "attempt-7", maxNetworkRetries: 2 },
    );
    expect(intent.status).toBe("succeeded");
    expect(intent.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(await control.chargeCount({ metadata: { transaction_id: "txn_x" } })).toMatchObject({
      count: 1,
      succeeded: 1,
    });
    const requests = await control.requests({ path: "/v1/payment_intents", method: "POST" });
    expect(requests.map((r) => r.replayed)).toEqual([false, true]);
  });

  it("a 500 before anything ran frees the key: the retry executes once", async () => {
    await control.fault({ path: "/v1/payment_intents", kind: "fail" });
    const error = await thrown(charge("attempt-8"));
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error.statusCode).toBe(500);
    const intent = await charge("attempt-8");
    expect(intent.status).toBe("succeeded");
    expect(intent.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
    expect((await control.chargeCount({ idempotency_key: "attempt-8" })).count).toBe(1);
  });

  it("the request log never holds a full card number or security code", async () => {
    await stripe.paymentMethods.create({
      type: "card",
      card: { number: "4242424242424242", exp_month: 1, exp_year: 2040, cvc: "123" },
    } as Stripe.PaymentMethodCreateParams);
    const [entry] = await control.requests({ path: "/v1/payment_methods" });
    expect(JSON.stringify(entry!.params)).not.toContain("4242424242424242");
    expect(entry!.params).toMatchObject({ card: { number: "…4242", cvc: "***" } });
  });
});
