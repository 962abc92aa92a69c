/**
 * GET /payment-settings/webhooks: what `processor_events` says about Stripe's webhooks (the last
 * received, those waiting, those failing), for Settings → Payments. Read-only; the events are
 * written by POST /webhooks/stripe (lib/payments/webhooks.ts) and applied by the
 * `apply_stripe_event` job (lib/services/payments/stripe-events.ts).
 */
import { query, queryExactlyOne, ts } from "../db/sql.ts";
import type { ProcessorEventSummary, ProcessorWebhooks } from "../schemas/processor-events.ts";
import { stripeWebhookUrl } from "./payment-settings.ts";

/** How many failing events the answer lists. */
export const FAILURES_LISTED = 20;

const SUMMARY = `e.id AS event_id, e.type, e.object_id, ${ts("e.occurred_at")} AS occurred_at,
  ${ts("e.received_at")} AS received_at, ${ts("e.processed_at")} AS processed_at, e.attempts, e.error`;

export async function getProcessorWebhooks(): Promise<ProcessorWebhooks> {
  const [last] = await query<ProcessorEventSummary>(
    `SELECT ${SUMMARY} FROM processor_events e WHERE e.processor = 'stripe' ORDER BY e.received_at DESC, e.id DESC LIMIT 1`,
  );
  const { unprocessed } = await queryExactlyOne<{ unprocessed: number }>(
    "SELECT count(*)::int AS unprocessed FROM processor_events WHERE processor = 'stripe' AND processed_at IS NULL",
  );
  const failures = await query<ProcessorEventSummary>(
    `SELECT ${SUMMARY} FROM processor_events e
      WHERE e.processor = 'stripe' AND e.processed_at IS NULL AND e.error IS NOT NULL
      ORDER BY e.received_at DESC, e.id DESC LIMIT ${FAILURES_LISTED}`,
  );
  return { webhook_url: stripeWebhookUrl(), last_received: last ?? null, unprocessed, failures };
}
