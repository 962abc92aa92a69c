/**
 * Webhooks from the stand-in: each event POSTed to the account's endpoint, signed with the
 * `stripe` package's own helper so that `stripe.webhooks.constructEvent` verifies it; held,
 * released out of order, redelivered, and sent stale, mis-signed or unsigned on request.
 */
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Receiver, startReceiver } from "../test/receiver.ts";
import { StandInControl } from "./control-client.ts";
import { type StripeStandIn, startStripeStandIn } from "./server.ts";

const SECRET = "whsec_standin_test_secret";
let standIn: StripeStandIn;
let stripe: Stripe;
let control: StandInControl;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver("/webhooks/stripe");
  standIn = await startStripeStandIn({ webhookUrl: receiver.url, webhookSecret: SECRET });
  stripe = standIn.client();
  control = new StandInControl(standIn.url);
});

afterAll(async () => {
  await standIn.close();
  await receiver.close();
});

beforeEach(() => {
  standIn.reset();
  receiver.received.length = 0;
  receiver.respond(() => ({ status: 200, body: "ok" }));
});

function verify(index: number) {
  const request = receiver.received[index];
  return Stripe.webhooks.constructEvent(request!.body, request!.headers["stripe-signature"] as string, SECRET);
}

async function pay() {
  return stripe.paymentIntents.create({
    amount: 1999,
    currency: "usd",
    payment_method: "pm_card_visa",
    confirm: true,
    metadata: { transaction_id: "txn_01" },
  });
}

describe("webhook delivery", () => {
  it("POSTs each event in order, signed so that constructEvent verifies it", async () => {
    const intent = await pay();
    await standIn.webhooks.idle();
    expect(receiver.received).toHaveLength(3);
    const events = receiver.received.map((_, i) => verify(i));
    expect(events.map((e) => e.type)).toEqual([
      "payment_intent.created",
      "charge.succeeded",
      "payment_intent.succeeded",
    ]);
    const succeeded = events[2];
    expect(succeeded).toMatchObject({
      object: "event",
      livemode: false,
      api_version: Stripe.API_VERSION,
      data: {
        object: {
          id: intent.id,
          object: "payment_intent",
          status: "succeeded",
          metadata: { transaction_id: "txn_01" },
        },
      },
    });
    expect(succeeded!.id).toMatch(/^evt_/);
    const request = receiver.received[2];
    expect(request!.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(request!.headers["user-agent"]).toMatch(/^Stripe\/1\.0/);
    const deliveries = await control.events({ type: "payment_intent.succeeded" });
    expect(deliveries[0]).toMatchObject({ id: succeeded!.id, delivery: "delivered", object_id: intent.id });
    expect(deliveries[0]!.attempts[0]).toMatchObject({ status: 200, signature: "valid" });
  });

  it("the signature does not verify with another secret, nor once the body is changed", async () => {
    await pay();
    await standIn.webhooks.idle();
    const request = receiver.received[0];
    const header = request!.headers["stripe-signature"] as string;
    expect(() => Stripe.webhooks.constructEvent(request!.body, header, "whsec_other")).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() => Stripe.webhooks.constructEvent(`${request!.body} `, header, SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it("records a failed delivery (an endpoint answering 500) and redelivers it on request", async () => {
    receiver.respond(() => ({ status: 500, body: "down" }));
    await pay();
    await standIn.webhooks.idle();
    const [created] = await control.events({ type: "payment_intent.created" });
    expect(created!.delivery).toBe("failed");
    expect(created!.attempts[0]).toMatchObject({ status: 500, body: "down" });

    receiver.respond(() => ({ status: 200 }));
    const attempt = await control.deliver(created!.id);
    expect(attempt.status).toBe(200);
    const redelivered = verify(receiver.received.length - 1);
    expect(redelivered.id).toBe(created!.id);
    expect((await control.events({ type: "payment_intent.created" }))[0]!.delivery).toBe("delivered");
  });

  it("redelivers an event with the same ID (a duplicate, as Stripe may send)", async () => {
    await pay();
    await standIn.webhooks.idle();
    const first = verify(2);
    await control.deliver(first.id);
    const again = verify(3);
    expect(again.id).toBe(first.id);
    expect(again).toEqual(first);
  });

  it("holds delivery, then releases in reverse order (out of order)", async () => {
    await control.holdWebhooks();
    const intent = await pay();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.received).toHaveLength(0);
    expect((await control.events()).map((e) => e.delivery)).toEqual(["held", "held", "held"]);
    const { released } = await control.releaseWebhooks("reverse");
    expect(released).toHaveLength(3);
    await control.webhooksIdle();
    expect(receiver.received.map((_, i) => verify(i).type)).toEqual([
      "payment_intent.succeeded",
      "charge.succeeded",
      "payment_intent.created",
    ]);
    expect(verify(0).data.object).toMatchObject({ id: intent.id });
  });

  it("releases held events in an order given by ID", async () => {
    await control.holdWebhooks();
    await pay();
    const ids = (await control.events()).map((e) => e.id);
    await control.releaseWebhooks([ids[1]!, ids[2]!]);
    await standIn.webhooks.idle();
    expect(receiver.received.map((_, i) => verify(i).id)).toEqual([ids[1], ids[2], ids[0]]);
  });

  it("sends a stale, a mis-signed or an unsigned copy on request (for the endpoint's refusals)", async () => {
    await control.holdWebhooks();
    await pay();
    const [event] = await control.events({ type: "payment_intent.succeeded" });
    await control.deliver(event!.id, "stale");
    await control.deliver(event!.id, "invalid");
    await control.deliver(event!.id, "none");
    const [stale, invalid, none] = receiver.received;
    expect(() =>
      Stripe.webhooks.constructEvent(stale!.body, stale!.headers["stripe-signature"] as string, SECRET),
    ).toThrow(/Timestamp outside the tolerance zone/);
    // The stale signature itself is right: only its age is wrong.
    expect(
      Stripe.webhooks.constructEvent(stale!.body, stale!.headers["stripe-signature"] as string, SECRET, 3_600),
    ).toMatchObject({ id: event!.id });
    expect(() =>
      Stripe.webhooks.constructEvent(invalid!.body, invalid!.headers["stripe-signature"] as string, SECRET),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(none!.headers["stripe-signature"]).toBeUndefined();
  });

  it("sends nothing for an account without an endpoint, and records that", async () => {
    await control.setWebhook({ url: null });
    await pay();
    await standIn.webhooks.idle();
    expect(receiver.received).toHaveLength(0);
    expect((await control.events()).every((e) => e.delivery === "none")).toBe(true);
    await control.setWebhook({ url: receiver.url, secret: SECRET });
  });

  it("records an unreachable endpoint as a failed delivery with its error", async () => {
    await control.setWebhook({ url: "http://127.0.0.1:9/unreachable", secret: SECRET });
    await pay();
    await standIn.webhooks.idle();
    const [event] = await control.events({ type: "payment_intent.created" });
    expect(event!.delivery).toBe("failed");
    expect(event!.attempts[0]!.status).toBeNull();
    expect(event!.attempts[0]!.error).toBeTruthy();
    await control.setWebhook({ url: receiver.url, secret: SECRET });
  });

  it("carries the request and idempotency key that caused an event, and refund events in order", async () => {
    standIn.engine.refunds = { mode: "auto", settleMs: 0 };
    const intent = await pay();
    await stripe.refunds.create({ payment_intent: intent.id, amount: 500 }, { idempotencyKey: "refund-attempt-1" });
    await expect.poll(async () => (await control.events({ type: "refund.updated" })).length).toBe(1);
    await standIn.webhooks.idle();
    const types = receiver.received.map((_, i) => verify(i).type);
    expect(types.slice(3)).toEqual(["refund.created", "charge.refunded", "refund.updated", "charge.refund.updated"]);
    const created = verify(3);
    expect(created.request).toMatchObject({ idempotency_key: "refund-attempt-1" });
    expect(created.request?.id).toMatch(/^req_/);
    expect(verify(4).data.previous_attributes).toEqual({ amount_refunded: 0, refunded: false });
    expect(verify(5).data).toMatchObject({
      object: { status: "succeeded" },
      previous_attributes: { status: "pending" },
    });
    expect(verify(5).request).toEqual({ id: null, idempotency_key: null });
  });
});
