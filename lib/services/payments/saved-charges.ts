/**
 * Charges of saved payment methods (renewals, dunning retries, immediate charges). A sandbox test
 * card is charged here, in the caller's database transaction (nothing leaves the server); a method
 * held by Stripe is only recorded here as an attempt, charged once that transaction has committed
 * (off-session.ts).
 */

import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { CardDetails, Payment } from "../../billing/payments.ts";
import { notFound } from "../../errors.ts";
import { recordFailedPayment } from "../transactions/moves.ts";
import {
  buysSubscription,
  completeOwingNothing,
  completeWithPayment,
  completeWithPayments,
  type Locked,
  lockForPayments,
  refuseOutsideSandbox,
} from "./completion.ts";
import { recordStripeCharges, type StripeCharge } from "./off-session.ts";

// ---------------------------------------------------------------------------------------------
// Saved cards (subscriptions)

/** A saved card as a charge needs it (lib/services/payment-methods.ts savedCard). */
export interface ChargeableCard {
  id: string;
  card: CardDetails;
  behavior: "pays" | "declines_renewals";
  /** "stripe": the method is Stripe's (pm_ of `processor_account`); null/absent: a sandbox test card. */
  processor?: "stripe" | null;
  processor_account?: string | null;
}

/**
 * A charge's outcome: `pending` when it was recorded as an attempt at Stripe, to be charged and
 * settled after the caller's database transaction commits (the transaction stays billed).
 */
export type ChargeOutcome = "completed" | "declined" | "pending";

/**
 * Charges a subscription's saved card for what the locked transaction still owes (renewals, dunning
 * retries, immediate charges), as of `at` (the subscription's clock). Captured: the one completion.
 * Declined (the sandbox card declines later charges, or no card is saved): an `error` payment with
 * `transaction.updated` and `transaction.payment_failed`, and, with `pastDue`, the move to
 * `past_due` (`transaction.past_due`) in the same statement. A transaction that owes nothing is
 * completed without a payment.
 */
export async function chargeSavedCard(
  client: pg.PoolClient,
  transactionId: string,
  saved: ChargeableCard | null,
  at: Date,
  pastDue: boolean,
  purpose: string | null = null,
): Promise<ChargeOutcome> {
  const outcomes = await chargeSavedCards(client, [{ transactionId, saved, at, pastDue, purpose }]);
  const [outcome] = outcomes;
  if (outcomes.length !== 1 || outcome === undefined) {
    throw new Error(`chargeSavedCards answered ${outcomes.length} outcomes for one charge`);
  }
  return outcome;
}

/** A charge of chargeSavedCards: chargeSavedCard's arguments. */
export interface SavedCardCharge {
  transactionId: string;
  saved: ChargeableCard | null;
  at: Date;
  pastDue: boolean;
  /** What the subscription engine does with a Stripe charge's outcome (payment_attempts.purpose). */
  purpose?: string | null;
}

/**
 * chargeSavedCard for many transactions (a batch of renewals): locked together, and the captured
 * ones completed together (completeWithPayments: one statement, one block of invoice numbers).
 * Declines and transactions that owe nothing, the unusual cases, are written one by one. Returns
 * each charge's outcome, in the order of `charges`.
 */
export async function chargeSavedCards(
  client: pg.PoolClient,
  charges: readonly SavedCardCharge[],
): Promise<ChargeOutcome[]> {
  const locked = new Map(
    (
      await lockForPayments(
        client,
        charges.map((c) => c.transactionId),
      )
    ).map((row) => [row.id, row]),
  );
  const outcomes: ChargeOutcome[] = [];
  const captured: { stored: Locked; payment: Payment }[] = [];
  const buying: { stored: Locked; payment: Payment; methodId: string }[] = [];
  const savedPayment = (card: ChargeableCard, amount: string, when: string): Payment => ({
    payment_attempt_id: randomUUID(),
    stored_payment_method_id: card.id,
    payment_method_id: card.id,
    amount,
    status: "captured",
    error_code: null,
    method_details: { type: "card", underlying_details: null, card: card.card },
    created_at: when,
    captured_at: when,
  });
  const atStripe: StripeCharge[] = [];
  for (const { transactionId, saved, at, pastDue, purpose } of charges) {
    const stored = locked.get(transactionId);
    if (!stored) throw notFound(transactionId);
    if (stored.status === "completed" || stored.status === "paid") {
      outcomes.push("completed");
      continue;
    }
    const when = at.toISOString();
    // A new subscription that owes nothing today (a trial) on a saved method: completed with a zero
    // payment on that method, as the checkout completes a trial, so the subscription charges it later.
    if (stored.details.totals.balance === "0" && saved && buysSubscription(stored)) {
      buying.push({ stored, payment: savedPayment(saved, "0", when), methodId: saved.id });
      outcomes.push("completed");
      continue;
    }
    // Nothing to collect (e.g. paid by credit): completed without a payment, in any environment.
    if (stored.details.totals.balance === "0") {
      await completeOwingNothing(client, stored, when);
      outcomes.push("completed");
      continue;
    }
    if (saved?.processor === "stripe") {
      atStripe.push({
        transactionId,
        customerId: stored.customer_id,
        amount: stored.details.totals.balance,
        currencyCode: stored.details.totals.currency_code,
        method: { id: saved.id, processor_account: saved.processor_account ?? null },
        pastDue,
        purpose: purpose ?? null,
      });
      outcomes.push("pending");
      continue;
    }
    refuseOutsideSandbox();
    const declined = saved === null || saved.behavior === "declines_renewals";
    const payment: Payment = {
      payment_attempt_id: randomUUID(),
      stored_payment_method_id: saved?.id ?? randomUUID(),
      payment_method_id: saved?.id ?? null,
      amount: stored.details.totals.balance,
      status: declined ? "error" : "captured",
      error_code: declined ? "declined" : null,
      method_details: { type: "card", underlying_details: null, card: saved?.card ?? null },
      created_at: when,
      captured_at: declined ? null : when,
    };
    if (declined) {
      await recordFailedPayment(client, stored, [payment, ...stored.payments], pastDue);
      outcomes.push("declined");
    } else {
      // A new subscription's first transaction charged to a method the customer saved before (the
      // dashboard's "New subscription"): its completion creates the subscription on that method.
      if (buysSubscription(stored) && saved) buying.push({ stored, payment, methodId: saved.id });
      else captured.push({ stored, payment });
      outcomes.push("completed");
    }
  }
  for (const { stored, payment, methodId } of buying) await completeWithPayment(client, stored, payment, methodId);
  await completeWithPayments(client, captured);
  await recordStripeCharges(client, atStripe);
  return outcomes;
}

/** Completes a locked transaction whose balance is zero, without a payment. */
