/**
 * Applies one stored Stripe webhook event (`processor_events`, written by POST /webhooks/stripe in
 * the same database transaction that queued this job): once (`processed_at`), retried with the
 * queue's backoff on an error (recorded on the event with its attempt count, which Settings →
 * Payments shows). What each event type does: lib/services/payments/stripe-events.ts.
 */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const applyStripeEventJob = defineJob({
  id: "apply_stripe_event",
  payload: z.object({ event_id: z.string() }),
  maxAttempts: 20,
});
