/**
 * Asks Stripe for the refund of a refund adjustment of a Stripe-paid transaction (issue 21 §5).
 * Queued in the database transaction that created the adjustment (`pending_approval`), so the
 * refund is asked for exactly when the adjustment committed and never lost to a crash; retried with
 * the queue's backoff while Stripe cannot be reached (the refund's idempotency key and a look-up by
 * the adjustment's ID make a retry the same refund). What it does: lib/services/payments/refunds.ts.
 */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const createStripeRefundJob = defineJob({
  id: "create_stripe_refund",
  payload: z.object({ adjustment_id: z.string() }),
  maxAttempts: 20,
});
