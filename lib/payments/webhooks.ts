/**
 * Stripe's webhooks (issue 21 §6): `POST /webhooks/stripe` (app/webhooks/stripe/route.ts). Not under
 * /api and never rewritten there (lib/http/root-api.js keeps /webhooks/): it is Stripe's endpoint,
 * authenticated by the signature alone, not an API key.
 *
 * What a request goes through, in order (every refusal is a 4xx in the API's error shape and stores
 * nothing; nothing a caller sends yields a 5xx):
 *
 * 1. The raw body, at most 1 MiB (Stripe's events are far smaller): larger → 413 request_too_large.
 *    It must be UTF-8 (Stripe sends JSON in UTF-8): other bytes → 400.
 * 2. The signing secret: STRIPE_WEBHOOK_SECRET, or the one saved in Settings → Payments, from the
 *    usable configuration (loadStripeConfiguration). None → 400 saying so, so that the sender (and
 *    Stripe's dashboard, which shows our answer) learns what to fix.
 * 3. The `Stripe-Signature` header verified over the raw bytes by the `stripe` package
 *    (`Stripe.webhooks.constructEventAsync`) with Stripe's tolerance of 300 seconds: no header, no
 *    matching signature, or a timestamp older than that → 400.
 * 4. The verified body must be a Stripe event (`evt_` ID, `type`, `created`, `livemode`,
 *    `data.object`) that can be stored as it is: no NUL, no unpaired surrogate, at most 32 levels
 *    deep (lib/http/input-guard.ts). Stripe never sends anything else, so only a sender holding the
 *    secret could get this 400.
 * 5. Stored in `processor_events` by Stripe's event ID (`INSERT … ON CONFLICT DO NOTHING`: a
 *    redelivery is stored once), with the `apply_stripe_event` job queued in the same database
 *    transaction (the transactional outbox: the job exists exactly when the event was stored), and
 *    answered 200 `{"received": true}` at once: Stripe never waits on our processing.
 *
 * Any correctly signed event gets 200, also one of a type we do not act on (stored, marked
 * processed at once, no job), one about an object we never saw (the job finds nothing to do), and a
 * redelivery (stored already; when not yet processed its job is queued again under the same job
 * key, which restarts a retry waiting on its backoff: Stripe retrying is a good time for us too).
 */
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { z } from "zod";
import { query, queryExactlyOne, sqlTransaction } from "../db/sql.ts";
import { ApiError } from "../errors.ts";
import { applyStripeEventJob } from "../events/jobs/apply-stripe-event.ts";
import { queueJob } from "../events/jobs/job.ts";
import { decodeUtf8, readBodyBytes } from "../http/body.ts";
import { guardInput } from "../http/input-guard.ts";
import { apiErrorResponse, jsonText } from "../http/response.ts";
import { loadStripeConfiguration } from "./stripe-config.ts";

/** The largest body the endpoint reads (Stripe's events are a few KB). */
export const STRIPE_WEBHOOK_MAX_BYTES = 1024 * 1024;
/** Stripe's signature tolerance: a signature older than this is stale. */
export const STRIPE_SIGNATURE_TOLERANCE_S = 300;

/**
 * The event types the `apply_stripe_event` job acts on (lib/services/payments/stripe-events.ts
 * has a handler for each, held equal by its type). Others are stored as processed.
 */
export const STRIPE_APPLIED_EVENTS = [
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "payment_intent.processing",
  "payment_intent.requires_action",
  "payment_intent.canceled",
  "setup_intent.succeeded",
  "charge.refunded",
  "charge.refund.updated",
  "refund.created",
  "refund.updated",
  "refund.failed",
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.funds_withdrawn",
  "charge.dispute.funds_reinstated",
  "charge.dispute.closed",
  "payment_method.updated",
  "payment_method.automatically_updated",
  "payment_method.detached",
] as const;
export type StripeAppliedEvent = (typeof STRIPE_APPLIED_EVENTS)[number];

const APPLIED: ReadonlySet<string> = new Set(STRIPE_APPLIED_EVENTS);

/** What a verified body must be to be stored (Stripe's event object, the fields we rely on). */
const eventShape = z.object({
  id: z.string().regex(/^evt_[A-Za-z0-9_]{1,250}$/),
  object: z.literal("event"),
  type: z.string().min(1).max(255),
  created: z.number().int().nonnegative(),
  livemode: z.boolean(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type VerifiedStripeEvent = z.infer<typeof eventShape>;

function refused(detail: string): ApiError {
  return new ApiError("bad_request", detail);
}

/**
 * Steps 2 to 4 (see the top of this file): the event in `raw`, verified against `secret` (null:
 * none configured), or the ApiError to answer. `nowMs` is for tests.
 */
export async function verifyStripeWebhook(
  raw: Uint8Array,
  signature: string | null,
  secret: string | null,
  nowMs: number = Date.now(),
): Promise<{ event: VerifiedStripeEvent; text: string }> {
  const text = decodeUtf8(raw);
  if (!secret) {
    throw refused(
      "No Stripe webhook signing secret is configured, so no webhook can be verified: enter the endpoint's signing secret (whsec_…) in Settings → Payments, or set STRIPE_WEBHOOK_SECRET.",
    );
  }
  if (signature === null || signature.trim() === "") {
    throw refused("The request has no Stripe-Signature header: only webhooks signed by Stripe are accepted here.");
  }
  let parsed: unknown;
  try {
    parsed = await Stripe.webhooks.constructEventAsync(
      Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength),
      signature,
      secret,
      STRIPE_SIGNATURE_TOLERANCE_S,
      undefined,
      nowMs,
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      const stale = /tolerance/i.test(error.message);
      throw refused(
        stale
          ? `The Stripe-Signature is older than Stripe's tolerance of ${STRIPE_SIGNATURE_TOLERANCE_S} seconds: the webhook is refused as a possible replay.`
          : "The Stripe-Signature does not match the body with the configured signing secret: check that the secret is this endpoint's (Stripe's dashboard, Developers → Webhooks).",
      );
    }
    // A signed body that is not JSON (JSON.parse's SyntaxError, a RangeError on absurd nesting).
    throw refused("The webhook's body is not a JSON Stripe event.");
  }
  guardInput(parsed);
  const event = eventShape.safeParse(parsed);
  if (!event.success)
    throw refused("The webhook's body is not a Stripe event (id evt_…, type, created, livemode, data.object).");
  return { event: event.data, text };
}

/**
 * Step 5: stores the event by its ID and queues its job in one database transaction. Returns
 * whether it was new, and whether a job was queued.
 */
export async function storeStripeEvent(
  event: VerifiedStripeEvent,
  text: string,
): Promise<{ stored: boolean; queued: boolean }> {
  const applied = APPLIED.has(event.type);
  const objectId = typeof event.data.object.id === "string" ? event.data.object.id.slice(0, 255) : null;
  return sqlTransaction(async (client) => {
    const inserted = await query(
      `INSERT INTO processor_events (id, processor, type, object_id, livemode, occurred_at, payload, processed_at)
       VALUES ($1, 'stripe', $2, $3, $4, to_timestamp($5), $6::json, CASE WHEN $7 THEN NULL ELSE now() END)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [event.id, event.type, objectId, event.livemode, event.created, text, applied],
      client,
    );
    // The row exists: inserted just now, or there before (ON CONFLICT DO NOTHING).
    const row = await queryExactlyOne<{ processed: boolean }>(
      "SELECT processed_at IS NOT NULL AS processed FROM processor_events WHERE id = $1",
      [event.id],
      client,
    );
    const queued = applied && !row.processed;
    if (queued)
      await queueJob(client, applyStripeEventJob, { event_id: event.id }, { jobKey: `stripe_event:${event.id}` });
    return { stored: inserted.length > 0, queued };
  });
}

/** POST /webhooks/stripe (see the top of this file). */
export async function receiveStripeWebhook(request: Request): Promise<Response> {
  const requestId = randomUUID();
  try {
    const raw = await readBodyBytes(request, STRIPE_WEBHOOK_MAX_BYTES);
    const configuration = await loadStripeConfiguration();
    const secret = configuration?.usable?.webhookSecret ?? null;
    if (configuration && !configuration.usable && configuration.webhookSecretSet) {
      throw refused(`The Stripe settings cannot be used, so webhooks are not accepted: ${configuration.problem}`);
    }
    const { event, text } = await verifyStripeWebhook(raw, request.headers.get("stripe-signature"), secret);
    await storeStripeEvent(event, text);
    return jsonText(JSON.stringify({ received: true }), 200, requestId);
  } catch (error) {
    return apiErrorResponse(error, requestId);
  }
}
