/**
 * settleAttempt, the one place a processor's outcome becomes a payment, with outcomes made here (the
 * flows that get them from Stripe have their own tests against the stand-in): exactly once under
 * concurrency, a failure at the checkout recorded once and the attempt left open, an off-session
 * failure settling the attempt, Stripe's fee in the payout, the card saved for a subscription.
 */
import { describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { makeRecurringPrice } from "@/lib/dev/test/subscriptions";
import { makeBuyer, makeReady, makeTransaction, transactions } from "@/lib/dev/test/transactions";
import { attemptById, recordAttempt } from "@/lib/payments/attempts";
import type { ProcessorPayment } from "@/lib/payments/processor";
import { settleAttempt } from "@/lib/services/payments/settle";

type Entity = Record<string, any>;

function outcome(t: Entity, attemptId: string, change: Partial<ProcessorPayment> = {}): ProcessorPayment {
  return {
    status: "succeeded",
    reference: `pi_${attemptId.slice(0, 8)}`,
    charge: `ch_${attemptId.slice(0, 8)}`,
    amount: BigInt(t.details.totals.grand_total),
    currencyCode: t.currency_code,
    method: {
      reference: `pm_${attemptId.slice(0, 8)}`,
      type: "card",
      card: { type: "visa", last4: "4242", expiry_month: 12, expiry_year: 2030, cardholder_name: "Sam" },
    },
    settlement: { currencyCode: "USD", amount: BigInt(t.details.totals.grand_total), fee: 61n, exchangeRate: "1" },
    error: null,
    attemptId,
    transactionId: t.id,
    ...change,
  };
}

async function attemptFor(
  t: Entity,
  kind: "checkout" | "off_session" = "checkout",
  onFailure: "past_due" | "keep" = "keep",
) {
  return recordAttempt({
    transactionId: t.id,
    processorAccount: "acct_test",
    kind,
    amount: t.details.totals.grand_total,
    currencyCode: t.currency_code,
    onFailure,
  });
}

const declined: Partial<ProcessorPayment> = {
  status: "failed",
  settlement: null,
  error: { code: "not_enough_balance", processorCode: "insufficient_funds", message: "Insufficient funds." },
};

describe("settleAttempt", () => {
  it("completes with the processor's card and fee; a second settle of the same attempt changes nothing", async () => {
    const t = await makeReady({});
    const attempt = await attemptFor(t);
    const first = await settleAttempt(attempt.id, outcome(t, attempt.id));
    expect(first.outcome).toBe("completed");
    const again = await settleAttempt(attempt.id, outcome(t, attempt.id));
    expect(again.outcome).toBe("already_settled");
    const paid = (await transactions.get(t.id)).body.data;
    expect(paid.status).toBe("completed");
    expect(paid.payments).toHaveLength(1);
    expect(paid.payments[0]).toMatchObject({
      payment_attempt_id: attempt.id,
      status: "captured",
      amount: t.details.totals.grand_total,
      method_details: { type: "card", card: { type: "visa", last4: "4242", expiry_month: 12, expiry_year: 2030 } },
    });
    expect(paid.details.payout_totals).toMatchObject({ fee: "61", currency_code: "USD", exchange_rate: "1" });
    expect(paid.details.totals.fee).toBe("61");
    const settled = await attemptById(attempt.id);
    expect(settled).toMatchObject({ status: "succeeded", processor_payment: `pi_${attempt.id.slice(0, 8)}` });
    expect(settled?.settled_at).not.toBeNull();
  });

  it("two concurrent settles of one success complete once", async () => {
    const t = await makeReady({});
    const attempt = await attemptFor(t);
    const results = await Promise.all([
      settleAttempt(attempt.id, outcome(t, attempt.id)),
      settleAttempt(attempt.id, outcome(t, attempt.id)),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(["already_settled", "completed"]);
    const { n } = (
      await query<{ n: number }>(
        "SELECT count(*)::int AS n FROM events WHERE entity_id = $1 AND event_type = 'transaction.completed'",
        [t.id],
      )
    )[0]!;
    expect(n).toBe(1);
  });

  it("a second attempt succeeding after the first paid is settled as a duplicate, the payment kept", async () => {
    const t = await makeReady({});
    const a = await attemptFor(t);
    const b = await attemptFor(t);
    expect((await settleAttempt(a.id, outcome(t, a.id))).outcome).toBe("completed");
    expect((await settleAttempt(b.id, outcome(t, b.id))).outcome).toBe("already_settled");
    expect((await attemptById(b.id))?.error_message).toMatch(/duplicate/);
    expect((await transactions.get(t.id)).body.data.payments).toHaveLength(1);
  });

  it("a checkout failure is recorded once, the attempt stays open, and the same checkout can then be paid", async () => {
    const t = await makeReady({});
    const attempt = await attemptFor(t);
    const failure = outcome(t, attempt.id, declined);
    expect((await settleAttempt(attempt.id, failure)).outcome).toBe("failed");
    expect((await settleAttempt(attempt.id, failure)).outcome).toBe("failed"); // the webhook, after the confirmation
    let now = (await transactions.get(t.id)).body.data;
    expect(now.status).toBe("ready");
    expect(now.payments).toHaveLength(1);
    expect(now.payments[0]).toMatchObject({ status: "error", error_code: "not_enough_balance" });
    expect(await attemptById(attempt.id)).toMatchObject({ status: "failed", settled_at: null });
    expect((await settleAttempt(attempt.id, outcome(t, attempt.id))).outcome).toBe("completed");
    now = (await transactions.get(t.id)).body.data;
    expect(now.status).toBe("completed");
    expect(now.payments.map((p: Entity) => p.status)).toEqual(["captured", "error"]);
  });

  it("an off-session failure settles the attempt and moves the transaction to past_due when asked", async () => {
    const t = await makeReady({});
    const attempt = await attemptFor(t, "off_session", "past_due");
    const settled = await settleAttempt(attempt.id, outcome(t, attempt.id, declined));
    expect(settled).toMatchObject({ outcome: "failed", transactionStatus: "past_due" });
    expect((await transactions.get(t.id)).body.data.status).toBe("past_due");
    expect((await attemptById(attempt.id))?.settled_at).not.toBeNull();
  });

  it("requires_action is noted and left to settle later", async () => {
    const t = await makeReady({});
    const attempt = await attemptFor(t);
    const pending = await settleAttempt(
      attempt.id,
      outcome(t, attempt.id, { status: "requires_action", settlement: null }),
    );
    expect(pending.outcome).toBe("pending");
    expect(await attemptById(attempt.id)).toMatchObject({ status: "requires_action", settled_at: null });
    expect((await transactions.get(t.id)).body.data.payments).toHaveLength(0);
  });

  it("a checkout that buys a subscription saves the processor's card as the subscription's method, once", async () => {
    const { customer, address } = await makeBuyer("US");
    const price = await makeRecurringPrice();
    const t = await makeTransaction({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
    });
    const attempt = await attemptFor(t);
    await settleAttempt(attempt.id, outcome(t, attempt.id));
    const paid = (await transactions.get(t.id)).body.data;
    expect(paid.subscription_id).toMatch(/^sub_/);
    const [method] = await query<{ id: string; processor: string; processor_reference: string; sub: string }>(
      `SELECT m.id, m.processor, m.processor_reference, s.payment_method_id AS sub
         FROM payment_methods m JOIN subscriptions s ON s.customer_id = m.customer_id WHERE m.customer_id = $1`,
      [customer.id],
    );
    expect(method).toMatchObject({ processor: "stripe", processor_reference: `pm_${attempt.id.slice(0, 8)}` });
    expect(method!.sub).toBe(method!.id);
    expect(paid.payments[0].payment_method_id).toBe(method!.id);
  });
});
