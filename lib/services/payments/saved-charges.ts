/**
 * Charges of saved payment methods (renewals, dunning retries, immediate charges), in the caller's
 * database transaction for the sandbox processor.
 */

import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { CardDetails, Payment } from "../../billing/payments.ts";
import { notFound } from "../../errors.ts";
import {
  completeOwingNothing,
  completeWithPayments,
  type Locked,
  lockForPayments,
  recordDecline,
  refuseOutsideSandbox,
} from "./completion.ts";

// ---------------------------------------------------------------------------------------------
// Saved cards (subscriptions)

/** A saved card as a charge needs it (lib/services/payment-methods.ts savedCard). */
export interface ChargeableCard {
  id: string;
  card: CardDetails;
  behavior: "pays" | "declines_renewals";
}

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
): Promise<"completed" | "declined"> {
  const [outcome] = await chargeSavedCards(client, [{ transactionId, saved, at, pastDue }]);
  return outcome;
}

/** A charge of chargeSavedCards: chargeSavedCard's arguments. */
export interface SavedCardCharge {
  transactionId: string;
  saved: ChargeableCard | null;
  at: Date;
  pastDue: boolean;
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
): Promise<("completed" | "declined")[]> {
  const locked = new Map(
    (
      await lockForPayments(
        client,
        charges.map((c) => c.transactionId),
      )
    ).map((row) => [row.id, row]),
  );
  const outcomes: ("completed" | "declined")[] = [];
  const captured: { stored: Locked; payment: Payment }[] = [];
  for (const { transactionId, saved, at, pastDue } of charges) {
    const stored = locked.get(transactionId);
    if (!stored) throw notFound(transactionId);
    if (stored.status === "completed" || stored.status === "paid") {
      outcomes.push("completed");
      continue;
    }
    const when = at.toISOString();
    // Nothing to collect (e.g. paid by credit): completed without a payment, in any environment.
    if (stored.details.totals.balance === "0") {
      await completeOwingNothing(client, stored, when);
      outcomes.push("completed");
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
      await recordDecline(client, stored, payment, pastDue);
      outcomes.push("declined");
    } else {
      captured.push({ stored, payment });
      outcomes.push("completed");
    }
  }
  await completeWithPayments(client, captured);
  return outcomes;
}

/** Completes a locked transaction whose balance is zero, without a payment. */
