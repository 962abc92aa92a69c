/**
 * Settling a SetupIntent into its transaction, exactly once: the checkout of a transaction that owes
 * nothing but saves a card (the update-payment-method transaction of a subscription, a free trial
 * bought for 0) collects the card with a SetupIntent (lib/payments/stripe-setup.ts). Its outcome —
 * from the checkout's confirmation, the `setup_intent.succeeded` webhook (settleSetupIntent), or
 * reconciliation, whichever comes first — is written here, under the same locks as settleAttempt
 * (settle.ts): the transaction's row, then the attempt's; an attempt already settled changes nothing.
 *
 * - succeeded: the card is saved as our `paymtd_` (saveProcessorMethod, its pm_ as
 *   processor_reference) when the transaction buys or pays a subscription, becomes the
 *   subscription's payment method, and the transaction is completed with a captured payment of 0,
 *   as the sandbox's update-payment-method checkout does (payAtCheckout): the one completion, with
 *   a settlement of nothing (no money moved, so no fee).
 * - failed (declined, 3-D Secure failed): an `error` payment with the family's code, once per
 *   distinct failure; the attempt stays open, its SetupIntent can take another card.
 * - requires_action, processing: noted on the attempt.
 */
import type pg from "pg";
import type { Payment } from "../../billing/payments.ts";
import { attemptByProcessorPayment, type PaymentAttempt } from "../../payments/attempts.ts";
import { activeStripe, derivedUuid } from "../../payments/stripe.ts";
import { type ProcessorSetup, readSetup } from "../../payments/stripe-setup.ts";
import { completeWithPayment, type Locked, nowText } from "./completion.ts";
import {
  markAttempt,
  recordFailureOnce,
  type Settled,
  saveMethodForSubscription,
  withLockedAttempt,
} from "./settle.ts";

/** Settles the setup `attemptId` with Stripe's `setup` (see the top of this file). */
export async function settleSetup(attemptId: string, setup: ProcessorSetup): Promise<Settled> {
  return withLockedAttempt(attemptId, (client, stored, attempt) => settleLocked(client, stored, attempt, setup));
}

/**
 * The webhook's entry (`setup_intent.succeeded`, and any other setup_intent event): reads the
 * SetupIntent from Stripe — never trusting the event's copy — and settles its attempt. Returns
 * quietly for a SetupIntent we never made (another integration on the same Stripe account) or when
 * no Stripe processor is configured.
 */
export async function settleSetupIntent(setupIntentId: string): Promise<Settled | null> {
  const ctx = await activeStripe();
  if (!ctx) return null;
  const attempt = await attemptByProcessorPayment(setupIntentId);
  if (attempt?.kind !== "setup" || attempt.processor_account !== ctx.account) return null;
  if (attempt.settled_at !== null) {
    return { outcome: "already_settled", transactionStatus: "", payment: null, attempt };
  }
  return settleSetup(attempt.id, await readSetup(ctx, setupIntentId));
}

async function settleLocked(
  client: pg.PoolClient,
  stored: Locked,
  attempt: PaymentAttempt,
  setup: ProcessorSetup,
): Promise<Settled> {
  const now = await nowText(client);
  if (setup.status === "requires_action" || setup.status === "processing") {
    await markAttempt(client, attempt.id, setup, setup.status, false);
    return { outcome: "pending", transactionStatus: stored.status, payment: null, attempt };
  }
  if (setup.status === "succeeded") {
    if (stored.status === "completed" || stored.status === "paid") {
      await markAttempt(
        client,
        attempt.id,
        setup,
        "succeeded",
        true,
        "duplicate: the transaction was already completed",
      );
      return { outcome: "already_settled", transactionStatus: stored.status, payment: null, attempt };
    }
    const paymentMethodId = await saveMethodForSubscription(client, stored, attempt.processor_account, setup.method);
    const payment: Payment = {
      payment_attempt_id: attempt.id,
      stored_payment_method_id: paymentMethodId ?? attempt.id,
      payment_method_id: paymentMethodId,
      amount: "0",
      status: "captured",
      error_code: null,
      method_details: {
        type: setup.method?.type ?? "card",
        underlying_details: null,
        card: setup.method?.card ?? null,
      },
      created_at: attempt.created_at,
      captured_at: now,
    };
    // No money moved: no fee, nothing converted.
    const nothing = { currencyCode: attempt.currency_code, amount: 0n, fee: 0n, exchangeRate: "1" };
    await completeWithPayment(client, stored, payment, paymentMethodId, nothing);
    await markAttempt(client, attempt.id, setup, "succeeded", true);
    return { outcome: "completed", transactionStatus: "completed", payment, attempt };
  }
  // failed or canceled: the SetupIntent (unless canceled) takes another card.
  const payment: Payment = {
    payment_attempt_id: derivedUuid(
      `${setup.reference}:${setup.method?.reference ?? ""}:${setup.error?.processorCode ?? ""}`,
    ),
    stored_payment_method_id: attempt.id,
    payment_method_id: null,
    amount: "0",
    status: "error",
    error_code: setup.error?.code ?? "declined",
    method_details: { type: setup.method?.type ?? "card", underlying_details: null, card: setup.method?.card ?? null },
    created_at: now,
    captured_at: null,
  };
  if (setup.status === "failed") await recordFailureOnce(client, stored, payment);
  await markAttempt(client, attempt.id, setup, setup.status === "canceled" ? "canceled" : "failed", false);
  return { outcome: "failed", transactionStatus: stored.status, payment, attempt };
}
