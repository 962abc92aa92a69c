/**
 * Settling a processor's outcome into the transaction, exactly once: the one place a Stripe
 * payment's answer — from the checkout's confirmation, a webhook, or the reconciliation job,
 * whichever comes first — becomes our payment. In one database transaction: the transaction's row
 * is locked (lockForPayment), then the attempt's; an attempt already settled changes nothing, so
 * the second of two racing deliveries of the same success is a no-op.
 *
 * - succeeded: the captured payment (card as Stripe reports it), the method saved as our `paymtd_`
 *   when it buys or pays a subscription, the fee and payout from Stripe's balance transaction, then
 *   the one completion (completion.ts). A transaction already completed by another attempt keeps its
 *   payment; the attempt is settled with `duplicate` noted (the merchant refunds it in Stripe).
 * - failed: an `error` payment with the family's error code. At the checkout the PaymentIntent can be
 *   tried again, so the attempt stays open; each distinct failure is recorded once. Off-session, the
 *   attempt is settled and `on_failure` decides whether the transaction moves to past_due.
 * - requires_action, processing: noted on the attempt; settled later.
 */
import type pg from "pg";
import type { CardDetails, Payment } from "../../billing/payments.ts";
import { TRANSACTION } from "../../db/entities/transaction.ts";
import { query, queryOne, sqlTransaction, storableJson, updateJson } from "../../db/sql.ts";
import { lockAttempt, lockAttempts, type PaymentAttempt } from "../../payments/attempts.ts";
import type { ProcessorMethod, ProcessorPayment } from "../../payments/processor.ts";
import { derivedUuid } from "../../payments/stripe.ts";
import { saveProcessorMethod } from "../payment-methods.ts";
import { withItems } from "../transactions/details.ts";
import { recordFailedPayment } from "../transactions/moves.ts";
import {
  buysSubscription,
  completeWithPayment,
  completeWithPayments,
  type Locked,
  lockForPayment,
  lockForPayments,
  nowText,
} from "./completion.ts";
import { MAX_STORED_DECLINES } from "./declines.ts";

export type SettleOutcome = "completed" | "failed" | "pending" | "already_settled";

/** What settling changed, for the caller (the checkout's answer, the engine's follow-up). */
export interface Settled {
  outcome: SettleOutcome;
  transactionStatus: string;
  payment: Payment | null;
  attempt: PaymentAttempt;
}

/**
 * Settles `attempt` with the processor's `payment` (see the top of this file). `onSettled` runs in
 * the same database transaction once an off-session outcome is written (the subscription engine's
 * dunning), so that a crash cannot separate the two.
 */
export async function settleAttempt(
  attemptId: string,
  payment: ProcessorPayment,
  onSettled?: (client: pg.PoolClient, settled: Settled) => Promise<void>,
): Promise<Settled> {
  return withLockedAttempt(attemptId, async (client, stored, attempt) => {
    const settled = await settleLocked(client, stored, attempt, payment);
    if (onSettled && settled.outcome !== "pending") await onSettled(client, settled);
    return settled;
  });
}

/**
 * The frame of every settling (payments here, setups in settle-setup.ts): one database
 * transaction, the transaction's row locked, then the attempt's; an attempt already settled is
 * answered `already_settled` without calling `settle`.
 */
export async function withLockedAttempt(
  attemptId: string,
  settle: (client: pg.PoolClient, stored: Locked, attempt: PaymentAttempt) => Promise<Settled>,
): Promise<Settled> {
  return sqlTransaction(async (client) => {
    const row = await queryOne<{ transaction_id: string }>(
      "SELECT transaction_id FROM payment_attempts WHERE id = $1",
      [attemptId],
      client,
    );
    if (!row) throw new Error(`payment attempt ${attemptId} is missing`);
    const { transaction_id } = row;
    const stored = await lockForPayment(client, transaction_id);
    const attempt = (await lockAttempt(attemptId, client)) as PaymentAttempt;
    if (attempt.settled_at !== null) {
      return { outcome: "already_settled", transactionStatus: stored.status, payment: null, attempt };
    }
    return settle(client, stored, attempt);
  });
}

async function settleLocked(
  client: pg.PoolClient,
  stored: Locked,
  attempt: PaymentAttempt,
  outcome: ProcessorPayment,
): Promise<Settled> {
  const now = await nowText(client);
  if (outcome.status === "requires_action" || outcome.status === "processing") {
    await markAttempt(client, attempt.id, outcome, outcome.status, false);
    return { outcome: "pending", transactionStatus: stored.status, payment: null, attempt };
  }
  if (outcome.status === "succeeded") {
    if (stored.status === "completed" || stored.status === "paid") {
      await markAttempt(client, attempt.id, outcome, "succeeded", true, "duplicate: the transaction was already paid");
      return { outcome: "already_settled", transactionStatus: stored.status, payment: null, attempt };
    }
    const paymentMethodId = await savedMethodFor(client, stored, attempt, outcome);
    const payment = capturedPayment(attempt, outcome, paymentMethodId, now);
    await completeWithPayment(client, stored, payment, paymentMethodId, outcome.settlement);
    await markAttempt(client, attempt.id, outcome, "succeeded", true);
    return { outcome: "completed", transactionStatus: "completed", payment, attempt };
  }
  // failed or canceled
  const onSession = attempt.kind !== "off_session";
  const payment: Payment = {
    // At the checkout one PaymentIntent takes several tries: each failure is its own payment,
    // identified by what failed (the charge, or the method whose 3-D Secure failed).
    payment_attempt_id: onSession
      ? derivedUuid(
          `${outcome.reference}:${outcome.charge ?? outcome.method?.reference ?? ""}:${outcome.error?.processorCode ?? ""}`,
        )
      : attempt.id,
    stored_payment_method_id: attempt.payment_method_id ?? attempt.id,
    payment_method_id: attempt.payment_method_id,
    amount: String(outcome.amount),
    status: "error",
    error_code: outcome.error?.code ?? "declined",
    method_details: {
      type: outcome.method?.type ?? "card",
      underlying_details: null,
      card: outcome.method?.card ?? null,
    },
    created_at: now,
    captured_at: null,
  };
  if (onSession) {
    await recordFailureOnce(client, stored, payment);
    await markAttempt(client, attempt.id, outcome, outcome.status === "canceled" ? "canceled" : "failed", false);
  } else {
    await recordFailedPayment(client, stored, [payment, ...stored.payments], attempt.on_failure === "past_due");
    await markAttempt(client, attempt.id, outcome, "failed", true);
  }
  return {
    outcome: "failed",
    transactionStatus: !onSession && attempt.on_failure === "past_due" ? "past_due" : stored.status,
    payment,
    attempt,
  };
}

/** The captured payment a succeeded attempt becomes. */
function capturedPayment(
  attempt: PaymentAttempt,
  outcome: ProcessorPayment,
  paymentMethodId: string | null,
  now: string,
): Payment {
  return {
    payment_attempt_id: attempt.id,
    stored_payment_method_id: paymentMethodId ?? attempt.id,
    payment_method_id: paymentMethodId,
    amount: String(outcome.amount),
    status: "captured",
    error_code: null,
    method_details: {
      type: outcome.method?.type ?? "card",
      underlying_details: null,
      card: outcome.method?.card ?? null,
    },
    created_at: attempt.created_at,
    captured_at: now,
  };
}

/** An off-session outcome to settle in a batch (settleAttempts). */
export interface AttemptOutcome {
  attemptId: string;
  payment: ProcessorPayment;
  onSettled?: (client: pg.PoolClient, settled: Settled) => Promise<void>;
}

/**
 * settleAttempt for many off-session attempts of distinct transactions (a batch of renewals
 * charged through Stripe), in one database transaction: the transactions' rows locked together (in
 * ID order), then the attempts'; the successes completed together (completeWithPayments: one
 * statement, one block of invoice numbers, as the sandbox's batch does); anything else, the unusual
 * case, settled one by one as settleAttempt does; then each follow-up, in order. Returns each
 * outcome's Settled, in the order of `outcomes`.
 */
export async function settleAttempts(outcomes: readonly AttemptOutcome[]): Promise<Settled[]> {
  if (outcomes.length === 0) return [];
  return sqlTransaction(async (client) => {
    const ids = outcomes.map((o) => o.attemptId);
    const owners = await query<{ id: string; transaction_id: string }>(
      "SELECT id::text, transaction_id FROM payment_attempts WHERE id = ANY($1::uuid[])",
      [ids],
      client,
    );
    const transactionOf = new Map(owners.map((o) => [o.id, o.transaction_id]));
    const locked = new Map(
      (await lockForPayments(client, [...new Set(owners.map((o) => o.transaction_id))])).map((row) => [row.id, row]),
    );
    const attempts = new Map((await lockAttempts(ids, client)).map((attempt) => [attempt.id, attempt]));
    const now = await nowText(client);
    const results: Settled[] = new Array(outcomes.length);
    const captured: {
      index: number;
      stored: Locked;
      attempt: PaymentAttempt;
      payment: Payment;
      outcome: ProcessorPayment;
    }[] = [];
    const seen = new Set<string>();
    for (const [index, { attemptId, payment: outcome }] of outcomes.entries()) {
      const attempt = attempts.get(attemptId);
      const stored = locked.get(transactionOf.get(attemptId) ?? "");
      if (!attempt || !stored) throw new Error(`payment attempt ${attemptId} or its transaction is missing`);
      if (seen.has(stored.id)) throw new Error(`settleAttempts: transaction ${stored.id} appears twice`);
      seen.add(stored.id);
      if (attempt.settled_at !== null) {
        results[index] = { outcome: "already_settled", transactionStatus: stored.status, payment: null, attempt };
      } else if (
        outcome.status === "succeeded" &&
        attempt.kind === "off_session" &&
        stored.status !== "completed" &&
        stored.status !== "paid" &&
        !(stored.recurring && stored.subscription_id === null)
      ) {
        const payment = capturedPayment(attempt, outcome, attempt.payment_method_id, now);
        captured.push({ index, stored, attempt, payment, outcome });
        results[index] = { outcome: "completed", transactionStatus: "completed", payment, attempt };
      } else {
        results[index] = await settleLocked(client, stored, attempt, outcome);
      }
    }
    await completeWithPayments(
      client,
      captured.map(({ stored, payment, outcome }) => ({ stored, payment, settlement: outcome.settlement })),
    );
    if (captured.length > 0) {
      await query(
        `UPDATE payment_attempts a SET status = 'succeeded', processor_payment = coalesce(a.processor_payment, nullif(x.reference, '')),
                error_code = NULL, error_message = NULL, settled_at = now(), updated_at = now()
           FROM unnest($1::uuid[], $2::text[]) AS x(id, reference) WHERE a.id = x.id`,
        [captured.map((c) => c.attempt.id), captured.map((c) => c.outcome.reference)],
        client,
      );
    }
    for (const [{ onSettled }, settled] of withItems(outcomes, results)) {
      if (onSettled && settled.outcome !== "pending" && settled.outcome !== "already_settled") {
        await onSettled(client, settled);
      }
    }
    return results;
  });
}

/**
 * An on-session failure (checkout, saving a card) as an `error` payment, once: a failure is known by
 * its payment_attempt_id (derived from what failed), so the confirmation and the webhook reporting
 * the same one record it once. The newest MAX_STORED_DECLINES failures are kept.
 */
export async function recordFailureOnce(client: pg.PoolClient, stored: Locked, payment: Payment): Promise<void> {
  if (stored.payments.some((p) => p.payment_attempt_id === payment.payment_attempt_id)) return;
  let declines = 0;
  const kept = [payment, ...stored.payments].filter((p) => p.status !== "error" || ++declines <= MAX_STORED_DECLINES);
  await updateJson(
    TRANSACTION,
    { sql: "t.id = $1", values: [stored.id] },
    { payments: storableJson(kept) },
    ["transaction.updated", "transaction.payment_failed"],
    client,
  );
}

/** Writes an attempt's state; `settled` marks it settled (exactly once: under its row lock). */
export async function markAttempt(
  client: pg.PoolClient,
  id: string,
  outcome: Pick<ProcessorPayment, "reference" | "error">,
  status: string,
  settled: boolean,
  note: string | null = null,
): Promise<void> {
  await query(
    `UPDATE payment_attempts
        SET status = $2, processor_payment = coalesce(processor_payment, nullif($3, '')), error_code = $4, error_message = $5,
            settled_at = CASE WHEN $6 THEN now() ELSE NULL END, updated_at = now()
      WHERE id = $1`,
    [id, status, outcome.reference, outcome.error?.code ?? null, note ?? outcome.error?.message ?? null, settled],
    client,
  );
}

/**
 * The method a successful payment leaves saved: the one charged (off-session), or, at the
 * checkout, the card Stripe saved for a transaction that buys or pays a subscription (which then
 * charges it).
 */
async function savedMethodFor(
  client: pg.PoolClient,
  stored: Locked,
  attempt: PaymentAttempt,
  outcome: ProcessorPayment,
): Promise<string | null> {
  if (attempt.kind === "off_session") return attempt.payment_method_id;
  return saveMethodForSubscription(client, stored, attempt.processor_account, outcome.method);
}

/**
 * Saves the processor's `method` as our paymtd_ when the locked transaction buys or pays a
 * subscription (which then charges it); null otherwise. Shared by payments and setups.
 */
export async function saveMethodForSubscription(
  client: pg.PoolClient,
  stored: Locked,
  processorAccount: string,
  method: ProcessorMethod | null,
): Promise<string | null> {
  const paysSubscription = stored.subscription_id !== null && stored.collection_mode === "automatic";
  if (!(buysSubscription(stored) || paysSubscription) || !stored.customer_id || !stored.address_id || !method) {
    return null;
  }
  const id = await saveProcessorMethod(client, {
    customerId: stored.customer_id,
    addressId: stored.address_id,
    card: method.card as CardDetails,
    processor: "stripe",
    processorAccount,
    reference: method.reference,
  });
  if (paysSubscription) {
    await query("UPDATE subscriptions SET payment_method_id = $2 WHERE id = $1", [stored.subscription_id, id], client);
  }
  return id;
}
