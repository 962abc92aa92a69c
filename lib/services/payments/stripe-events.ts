/**
 * What each Stripe webhook event does (issue 21 §6), applied by the `apply_stripe_event` job from
 * the event stored by POST /webhooks/stripe (lib/payments/webhooks.ts). Every handler:
 *
 * - reads the object's CURRENT state from Stripe rather than trusting the event's snapshot, so an
 *   event delivered late, twice or out of order (payment_failed after succeeded) applies the state
 *   Stripe has now, never an older one;
 * - goes through an exactly-once settle function (settleAttempt, settleRefundAdjustment,
 *   recordChargeback/reverseChargeback, the payment-method updates), so a second application of the
 *   same state changes nothing;
 * - looks the object up on our side first and does nothing for one we never saw (a payment not
 *   ours, a refund made in Stripe's dashboard), without calling Stripe.
 *
 * Events of the other mode than the connected keys (a live event at a test-mode deployment) are
 * ignored: their objects cannot be read with these keys. Event types not listed here are stored and
 * marked processed at once by the receiving endpoint.
 */
import type Stripe from "stripe";
import { query } from "../../db/sql.ts";
import { attemptById, attemptByProcessorPayment, type PaymentAttempt } from "../../payments/attempts.ts";
import { activeStripe, methodOf, readIntent, type StripeContext } from "../../payments/stripe.ts";
import type { StripeAppliedEvent } from "../../payments/webhooks.ts";
import { recordChargeback, reverseChargeback } from "../adjustments/outcomes.ts";
import { deleteProcessorMethod, updateProcessorMethod } from "../payment-methods.ts";
import { followUpOf } from "../subscriptions/charge-outcomes.ts";
import { settleWithRetry } from "./off-session.ts";
import { MIN_AGE_SECONDS } from "./reconcile.ts";
import { applyStripeRefund } from "./refunds.ts";
import { settleAttempt } from "./settle.ts";
import { settleSetupIntent } from "./settle-setup.ts";

type Handler = (ctx: StripeContext, object: { id: string } & Record<string, unknown>) => Promise<void>;

/**
 * The event types the job applies (STRIPE_APPLIED_EVENTS: the webhook endpoint stores other types
 * already processed), with their handlers. STRIPE_WEBHOOK_EVENTS (lib/payments/stripe-config.ts)
 * lists those to enable at Stripe.
 */
export const STRIPE_EVENT_HANDLERS: Record<StripeAppliedEvent, Handler> = {
  "payment_intent.succeeded": onPaymentIntent,
  "payment_intent.payment_failed": onPaymentIntent,
  "payment_intent.processing": onPaymentIntent,
  "payment_intent.requires_action": onPaymentIntent,
  "payment_intent.canceled": onPaymentIntent,
  // The card of an "update payment method" SetupIntent, saved once (settle-setup.ts).
  "setup_intent.succeeded": async (_ctx, object) => {
    await settleSetupIntent(object.id);
  },
  "charge.refunded": onChargeRefunded,
  "charge.refund.updated": onRefund,
  "refund.created": onRefund,
  "refund.updated": onRefund,
  "refund.failed": onRefund,
  "charge.dispute.created": onDispute,
  "charge.dispute.updated": onDispute,
  "charge.dispute.funds_withdrawn": onDispute,
  "charge.dispute.funds_reinstated": onDispute,
  "charge.dispute.closed": onDispute,
  "payment_method.updated": onPaymentMethodUpdated,
  "payment_method.automatically_updated": onPaymentMethodUpdated,
  "payment_method.detached": onPaymentMethodDetached,
};

/** Applies one event (see the top of this file). */
export async function applyStripeEvent(event: Stripe.Event): Promise<void> {
  const handler = Object.hasOwn(STRIPE_EVENT_HANDLERS, event.type)
    ? STRIPE_EVENT_HANDLERS[event.type as StripeAppliedEvent]
    : null;
  const object = event.data?.object as unknown as ({ id?: unknown } & Record<string, unknown>) | undefined;
  if (!handler || typeof object?.id !== "string") return;
  const ctx = await activeStripe();
  if (!ctx) throw new Error("Stripe is not connected (no usable keys): the event waits until it is");
  if (event.livemode !== (ctx.settings.mode === "live")) return;
  await handler(ctx, object as { id: string } & Record<string, unknown>);
}

interface StoredEvent {
  id: string;
  payload: Stripe.Event;
  processed_at: string | null;
}

/**
 * The job: applies stored event `eventId` once. Success sets `processed_at`; an error is recorded
 * (`error`, `attempts` + 1) and thrown, so the queue retries the job with its backoff.
 */
export async function applyStoredStripeEvent(eventId: string): Promise<void> {
  const [row] = await query<StoredEvent>(
    "SELECT id, payload, processed_at::text AS processed_at FROM processor_events WHERE id = $1 AND processor = 'stripe'",
    [eventId],
  );
  if (!row || row.processed_at !== null) return;
  try {
    await applyStripeEvent(row.payload);
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    await query("UPDATE processor_events SET attempts = attempts + 1, error = $2 WHERE id = $1", [
      eventId,
      message.slice(0, 2000),
    ]);
    throw error;
  }
  await query(
    "UPDATE processor_events SET attempts = attempts + 1, error = NULL, processed_at = now() WHERE id = $1 AND processed_at IS NULL",
    [eventId],
  );
}

/** Whether a Stripe error says the object does not exist (with these keys). */
function missing(error: unknown): boolean {
  const e = error as { type?: string; code?: string; statusCode?: number };
  return e?.type === "StripeInvalidRequestError" && (e.code === "resource_missing" || e.statusCode === 404);
}

/** `read()`, or null when Stripe says the object does not exist. */
async function orMissing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (missing(error)) return null;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Payments

/** The attempt a PaymentIntent belongs to: by its pi_, else by the attempt ID in its metadata. */
async function attemptOf(intent: { id: string; metadata?: unknown }): Promise<PaymentAttempt | null> {
  const byReference = await attemptByProcessorPayment(intent.id);
  if (byReference) return byReference;
  const metadata = (intent.metadata ?? {}) as Record<string, unknown>;
  const attemptId = typeof metadata.attempt_id === "string" ? metadata.attempt_id : null;
  const attempt = attemptId ? await attemptById(attemptId) : null;
  // Its metadata names it, but it noted another PaymentIntent: not this one's to settle.
  if (!attempt || (attempt.processor_payment !== null && attempt.processor_payment !== intent.id)) return null;
  if (metadata.transaction_id !== undefined && metadata.transaction_id !== attempt.transaction_id) return null;
  return attempt;
}

/**
 * payment_intent.*: the PaymentIntent read now, settled into its attempt (settle.ts: completed once,
 * a failure recorded once, pending noted). Off-session attempts (renewals, one-time charges, dunning)
 * are settled by the engine that made them with what follows (dunning, past_due); the webhook settles
 * those it left pending or in doubt, with the same follow-up.
 */
async function onPaymentIntent(ctx: StripeContext, object: { id: string; metadata?: unknown }): Promise<void> {
  const attempt = await attemptOf(object);
  if (!attempt || attempt.settled_at !== null || attempt.processor_account !== ctx.account) return;
  if (attempt.kind === "setup") return;
  if (attempt.kind === "off_session") {
    // The engine or operation that made the charge settles its answer itself, at once, with what
    // follows (dunning, an undone change): the webhook settles only what it left pending
    // (`processing`) or what is old enough to be in doubt, with the same follow-up, as the
    // reconciliation job does.
    const age = (Date.now() - Date.parse(attempt.created_at)) / 1000;
    if (attempt.status !== "processing" && age < MIN_AGE_SECONDS) return;
    const payment = await orMissing(() => readIntent(ctx, object.id));
    if (payment) await settleWithRetry(attempt.id, payment, followUpOf(attempt));
    return;
  }
  const payment = await orMissing(() => readIntent(ctx, object.id));
  if (!payment) return;
  await settleAttempt(attempt.id, payment);
}

// ---------------------------------------------------------------------------------------------
// Refunds

async function onRefund(ctx: StripeContext, object: { id: string } & Record<string, unknown>): Promise<void> {
  await applyStripeRefund(ctx, object as unknown as Stripe.Refund);
}

/** charge.refunded: every refund of the charge that belongs to an adjustment of ours. */
async function onChargeRefunded(ctx: StripeContext, object: { id: string }): Promise<void> {
  for await (const refund of ctx.stripe.refunds.list({ charge: object.id, limit: 100 })) {
    await applyStripeRefund(ctx, refund);
  }
}

// ---------------------------------------------------------------------------------------------
// Disputes

/** Stripe's dispute statuses that are inquiries (no money withdrawn yet, no chargeback). */
const INQUIRY = new Set(["warning_needs_response", "warning_under_review", "warning_closed"]);

/**
 * charge.dispute.*: the dispute read now. Once money is disputed (any status but an inquiry's), a
 * `chargeback` adjustment of the disputed amount, once per dispute; when the dispute is `won`, its
 * reversal. A dispute `lost` keeps its chargeback. A payment that is not ours changes nothing.
 */
async function onDispute(ctx: StripeContext, object: { id: string }): Promise<void> {
  const dispute = await orMissing(() => ctx.stripe.disputes.retrieve(object.id));
  if (!dispute || INQUIRY.has(dispute.status)) return;
  const intent = typeof dispute.payment_intent === "string" ? dispute.payment_intent : dispute.payment_intent?.id;
  let attempt = intent ? await attemptByProcessorPayment(intent) : null;
  if (!attempt || attempt.processor_account !== ctx.account) return;
  if (attempt.settled_at === null && intent) {
    // The dispute's events can come before the payment's (Stripe opens some disputes at once):
    // settle the payment first, from its current state, so that the chargeback has its transaction.
    await onPaymentIntent(ctx, { id: intent });
    attempt = await attemptByProcessorPayment(intent);
    if (attempt?.settled_at === null) {
      throw new Error(`the payment ${intent} of dispute ${dispute.id} is not settled yet: the dispute waits for it`);
    }
  }
  if (attempt?.status !== "succeeded") return;
  // Stripe's dispute fee: the fees of the dispute's withdrawals (its reinstatement, if won, has none).
  const chargebackFee = (dispute.balance_transactions ?? [])
    .filter((balance) => balance.amount < 0)
    .reduce((sum, balance) => sum + BigInt(balance.fee), 0n);
  await recordChargeback({
    transactionId: attempt.transaction_id,
    reference: dispute.id,
    amount: BigInt(dispute.amount),
    chargebackFee,
    reason: `Dispute ${dispute.id} opened by the cardholder's bank (${dispute.reason.replaceAll("_", " ")})`,
  });
  if (dispute.status === "won") {
    await reverseChargeback(dispute.id, `Dispute ${dispute.id} won: the funds were reinstated`);
  }
}

// ---------------------------------------------------------------------------------------------
// Saved payment methods

/** payment_method.updated: the card as Stripe has it now (new expiry, brand, last 4). */
async function onPaymentMethodUpdated(ctx: StripeContext, object: { id: string }): Promise<void> {
  const [known] = await query("SELECT 1 FROM payment_methods WHERE processor_reference = $1", [object.id]);
  if (!known) return;
  const method = await orMissing(() => ctx.stripe.paymentMethods.retrieve(object.id));
  const card = method ? methodOf(method).card : null;
  if (card) await updateProcessorMethod(object.id, card);
}

/**
 * payment_method.detached: the card was removed in Stripe, so it can no longer be charged: ours is
 * deleted (payment_method.deleted) and the subscriptions that charged it have none, as when it is
 * deleted through the API. Read first: a method attached again since (out of order) stays.
 */
async function onPaymentMethodDetached(ctx: StripeContext, object: { id: string }): Promise<void> {
  const [known] = await query("SELECT 1 FROM payment_methods WHERE processor_reference = $1", [object.id]);
  if (!known) return;
  const method = await orMissing(() => ctx.stripe.paymentMethods.retrieve(object.id));
  if (method?.customer) return;
  await deleteProcessorMethod(object.id);
}
