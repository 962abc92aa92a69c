/**
 * SetupIntents: saving a card for later without a payment (issue 21 §3, §4). The checkout of a
 * transaction that owes nothing but saves a method — the update-payment-method transaction the
 * portal and the payment-failed email send customers to, a trial bought for 0 — collects the card
 * with a SetupIntent (`usage: off_session`, on the customer's Stripe customer), so that 3-D Secure
 * is done once, with the customer present, and renewals can charge the card off-session.
 *
 * Like a PaymentIntent, a SetupIntent whose confirmation failed (a decline, a failed 3-D Secure
 * challenge) goes back to `requires_payment_method` with `last_setup_error` and can be confirmed
 * again with another card: the checkout keeps one SetupIntent per attempt.
 */
import type Stripe from "stripe";
import type { PaymentErrorCode, ProcessorMethod } from "./processor.ts";
import { declineMessage, familyErrorCode, methodOf, type StripeContext } from "./stripe.ts";

/** A SetupIntent's state at Stripe, as ours. */
export interface ProcessorSetup {
  status: "succeeded" | "requires_action" | "processing" | "failed" | "canceled";
  /** Stripe's seti_ ID. */
  reference: string;
  /** The method saved (succeeded), or the one whose setup failed. */
  method: ProcessorMethod | null;
  error: { code: PaymentErrorCode; processorCode: string | null; message: string } | null;
  /** Our metadata: the attempt's ID and the transaction's. */
  attemptId: string | null;
  transactionId: string | null;
}

/** The expansions a SetupIntent is read with, so that setupOfIntent has the card. */
export const SETUP_EXPAND = ["payment_method"];

/** A SetupIntent (read with SETUP_EXPAND) as our ProcessorSetup. */
export function setupOfIntent(intent: Stripe.SetupIntent): ProcessorSetup {
  const lastError = intent.last_setup_error;
  const status: ProcessorSetup["status"] =
    intent.status === "succeeded"
      ? "succeeded"
      : intent.status === "processing"
        ? "processing"
        : intent.status === "canceled"
          ? "canceled"
          : intent.status === "requires_payment_method" && lastError
            ? "failed"
            : "requires_action";
  const raw =
    typeof intent.payment_method === "object" && intent.payment_method !== null ? intent.payment_method : null;
  const errorMethod =
    lastError?.payment_method && typeof lastError.payment_method === "object" ? lastError.payment_method : null;
  const method = raw ? methodOf(raw) : errorMethod ? methodOf(errorMethod) : null;
  // Stripe names a failed 3-D Secure challenge of a setup `setup_intent_authentication_failure`.
  const code =
    lastError?.code === "setup_intent_authentication_failure" ? "payment_intent_authentication_failure" : null;
  return {
    status,
    reference: intent.id,
    method,
    error:
      status === "failed" && lastError
        ? {
            code: familyErrorCode(code ?? lastError.code ?? null, lastError.decline_code ?? null),
            processorCode: lastError.decline_code ?? lastError.code ?? null,
            message: declineMessage(code ?? lastError.code ?? null, lastError.decline_code ?? null),
          }
        : status === "canceled"
          ? { code: "canceled", processorCode: intent.cancellation_reason ?? null, message: "The setup was canceled." }
          : null,
    attemptId: intent.metadata?.attempt_id ?? null,
    transactionId: intent.metadata?.transaction_id ?? null,
  };
}

/** A SetupIntent's state at Stripe, read now (the confirmation's check, the webhook, reconciliation). */
export async function readSetup(ctx: StripeContext, reference: string): Promise<ProcessorSetup> {
  return setupOfIntent(await ctx.stripe.setupIntents.retrieve(reference, { expand: SETUP_EXPAND }));
}
