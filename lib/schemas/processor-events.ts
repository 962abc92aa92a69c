/**
 * GET /payment-settings/webhooks (ours, issue 21 §6-7): the state of the processor's webhooks for
 * Settings → Payments — the last event received, how many wait to be applied, and the recent
 * ones whose processing failed (each retried by the job queue with backoff). Client-safe.
 */
import { z } from "zod";

export const processorEventSummarySchema = z.object({
  /** Stripe's event ID (evt_…). */
  event_id: z.string(),
  /** Stripe's event type (payment_intent.succeeded…). */
  type: z.string(),
  /** The ID of the Stripe object the event is about (pi_, re_, dp_, pm_…), or null. */
  object_id: z.string().nullable(),
  /** When Stripe says it happened (the event's `created`). */
  occurred_at: z.string(),
  /** When this server first received it. */
  received_at: z.string(),
  /** When it was applied (null: not yet). */
  processed_at: z.string().nullable(),
  /** How often applying it was tried. */
  attempts: z.number().int(),
  /** The last error applying it (null: none, or applied since). */
  error: z.string().nullable(),
});
export type ProcessorEventSummary = z.infer<typeof processorEventSummarySchema>;

export const processorWebhooksSchema = z.object({
  /** The address to register at Stripe: `${PUBLIC_URL}/webhooks/stripe`. */
  webhook_url: z.string(),
  /** The last event received (null: none ever). */
  last_received: processorEventSummarySchema.nullable(),
  /** Events received and not applied yet (waiting for the queue, or retrying after a failure). */
  unprocessed: z.number().int(),
  /** Up to 20 events whose last try failed and that are not applied yet, the latest received first. */
  failures: z.array(processorEventSummarySchema),
});
export type ProcessorWebhooks = z.infer<typeof processorWebhooksSchema>;
