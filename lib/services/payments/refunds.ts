/**
 * Refunds through Stripe (issue 21 §5). A refund adjustment of a Stripe-paid transaction is created
 * `pending_approval` (lib/services/adjustments/create.ts createAdjustment), with the `create_stripe_refund`
 * job queued in the same database transaction. The job, after that commit and outside any database
 * transaction (lib/payments/processor.ts rule 1), asks Stripe for the refund:
 *
 * - of the PaymentIntent the transaction was paid with, for the adjustment's `totals.total` (minor
 *   units of the transaction's currency, which is the PaymentIntent's), with `metadata.adjustment_id`
 *   and `metadata.transaction_id`, and the idempotency key `billing:refund:<adjustment ID>`;
 * - once: a retry first looks for a refund of that PaymentIntent carrying the adjustment's ID
 *   (Stripe keeps idempotency keys only 24 hours, a job may be retried for longer), and an
 *   adjustment that already has its re_ reads that refund instead of asking for another.
 *
 * Its answer settles the adjustment at once when it is final (`succeeded` → approved with its
 * credit-note number; `failed`/`canceled` → rejected); a `pending` refund (the usual case) waits for
 * Stripe's webhook (refund.updated, charge.refunded: lib/services/payments/stripe-events.ts), which
 * settles it the same way, exactly once (settleRefundAdjustment). Stripe refusing the refund outright
 * (already refunded, more than is left of the charge) rejects the adjustment, its message kept in
 * the server log. Keys of another Stripe account than the one that took the payment reject it too:
 * that account alone can refund it. Stripe not connected at all: the job fails and is retried.
 */
import Stripe from "stripe";
import { query } from "../../db/sql.ts";
import { attemptById } from "../../payments/attempts.ts";
import type { ProcessorRefund } from "../../payments/processor.ts";
import { activeStripe, type StripeContext } from "../../payments/stripe.ts";
import { type RefundOutcome, refundAdjustmentFor, settleRefundAdjustment } from "../adjustments/outcomes.ts";

function warn(message: string, details: Record<string, unknown>): void {
  const pairs = Object.entries(details).map(([key, value]) => `${key}=${String(value)}`);
  console.error(`[stripe] ${message} ${pairs.join(" ")}`);
}

/** The idempotency key of the refund of adjustment `adjustmentId`. */
export function refundIdempotencyKey(adjustmentId: string): string {
  return `billing:refund:${adjustmentId}`;
}

/** A Stripe refund as ours: `requires_action` (some non-card methods) is still pending. */
export function refundOf(refund: Stripe.Refund): ProcessorRefund {
  const status =
    refund.status === "succeeded" || refund.status === "failed" || refund.status === "canceled"
      ? refund.status
      : "pending";
  return {
    reference: refund.id,
    status,
    amount: BigInt(refund.amount),
    failureReason: refund.failure_reason ?? null,
  };
}

function outcomeOf(refund: ProcessorRefund): RefundOutcome {
  return { reference: refund.reference, status: refund.status, failureReason: refund.failureReason };
}

interface RefundToMake {
  id: string;
  status: string;
  total: string;
  transaction_id: string;
  processor_reference: string | null;
  attempt_id: string | null;
}

/** The refund of a PaymentIntent made for adjustment `adjustmentId` earlier, if any. */
async function earlierRefund(ctx: StripeContext, paymentIntent: string, adjustmentId: string) {
  for await (const refund of ctx.stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 })) {
    if (refund.metadata?.adjustment_id === adjustmentId) return refund;
  }
  return null;
}

/** The `create_stripe_refund` job (see the top of this file). */
export async function createStripeRefund(adjustmentId: string): Promise<void> {
  const [adjustment] = await query<RefundToMake>(
    `SELECT a.id, a.status, a.total::text AS total, a.transaction_id, a.processor_reference,
            (SELECT p->>'payment_attempt_id' FROM json_array_elements(t.payments) p
              WHERE p->>'status' = 'captured' LIMIT 1) AS attempt_id
       FROM adjustments a JOIN transactions t ON t.id = a.transaction_id
      WHERE a.id = $1 AND a.action = 'refund'`,
    [adjustmentId],
  );
  if (adjustment?.status !== "pending_approval") return;
  const attempt = adjustment.attempt_id ? await attemptById(adjustment.attempt_id) : null;
  if (!attempt?.processor_payment) {
    await settleRefundAdjustment(adjustmentId, {
      reference: null,
      status: "failed",
      failureReason: "no Stripe payment",
    });
    return;
  }
  const ctx = await activeStripe();
  if (!ctx) throw new Error(`Stripe is not connected: the refund of ${adjustmentId} waits until it is`);
  if (ctx.account !== attempt.processor_account) {
    warn("refund rejected: the payment was taken by another Stripe account than the one connected", {
      adjustment_id: adjustmentId,
      paid_at: attempt.processor_account,
      connected: ctx.account,
    });
    await settleRefundAdjustment(adjustmentId, {
      reference: null,
      status: "failed",
      failureReason: "paid through another Stripe account",
    });
    return;
  }
  let refund: Stripe.Refund | null = adjustment.processor_reference
    ? await ctx.stripe.refunds.retrieve(adjustment.processor_reference)
    : await earlierRefund(ctx, attempt.processor_payment, adjustmentId);
  if (!refund) {
    try {
      refund = await ctx.stripe.refunds.create(
        {
          payment_intent: attempt.processor_payment,
          amount: Number(adjustment.total),
          metadata: { adjustment_id: adjustmentId, transaction_id: adjustment.transaction_id },
        },
        { idempotencyKey: refundIdempotencyKey(adjustmentId) },
      );
    } catch (error) {
      // Stripe refused this refund for what it asks (400/402): it will refuse it again.
      if (error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError) {
        warn("refund refused by Stripe", { adjustment_id: adjustmentId, message: error.message });
        await settleRefundAdjustment(adjustmentId, { reference: null, status: "failed", failureReason: error.message });
        return;
      }
      throw error;
    }
  }
  await settleRefundAdjustment(adjustmentId, outcomeOf(refundOf(refund)));
}

/**
 * A Stripe refund's current state applied to the adjustment it belongs to (the webhook's handler):
 * read from Stripe now, so that a late or out-of-order event cannot move it back. A refund that
 * belongs to no adjustment of ours (made in Stripe's dashboard) changes nothing.
 */
export async function applyStripeRefund(ctx: StripeContext, refund: Stripe.Refund): Promise<void> {
  const adjustmentId = await refundAdjustmentFor(refund.id, refund.metadata?.adjustment_id ?? null);
  if (!adjustmentId) return;
  const current = await ctx.stripe.refunds.retrieve(refund.id);
  await settleRefundAdjustment(adjustmentId, outcomeOf(refundOf(current)));
}
