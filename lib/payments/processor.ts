/**
 * The payment processor layer: the one place the checkout, renewals, one-time charges, dunning,
 * adjustments and the portal learn how money moves. Two processors:
 *
 * - `sandbox` — the test cards of the sandbox (lib/billing/payments.ts), decided on our side at
 *   once, inside the caller's database transaction: nothing leaves the server, so nothing can be
 *   in doubt. Active whenever no Stripe keys are configured.
 * - `stripe` — Stripe through the official `stripe` package (lib/payments/stripe.ts). Active when
 *   keys are configured (lib/payments/stripe-config.ts; test keys in the sandbox, live keys in live),
 *   read fresh on each use so that every process of a deployment agrees.
 *
 * The rules a processor that leaves the server (Stripe, and any second one) keeps, and why:
 *
 * 1. **Never call it inside a database transaction or under a row lock.** Record the attempt
 *    (lib/payments/attempts.ts: a `payment_attempts` row, committed), call the processor, then
 *    settle the outcome in a new transaction (lib/services/payments/settle.ts). A crash between the
 *    processor's answer and our commit leaves the attempt unsettled; the reconciliation job
 *    (`reconcileAttempts`) reads the payment at the processor and settles it. Settling is exactly
 *    once: under the transaction's row lock, an attempt already settled changes nothing.
 * 2. **Idempotency keys derived from the attempt** (`idempotencyKey(attempt, step)`), so a retry of
 *    the same attempt — a network error, a re-run job, a reconciliation — is the same request at the
 *    processor and never a second charge.
 * 3. **Amounts in minor units and upper-case ISO currency codes** at this interface; each
 *    implementation converts (Stripe: lower-case currency, its zero-decimal currencies match ours).
 * 4. **Fees, net and payout figures from the processor** (`ProcessorSettlement`, from Stripe's
 *    balance transaction), never `BILLING_FEE_PERCENT`, which stays the sandbox's.
 * 5. **Webhooks verified, stored by the processor's event ID and applied by the job queue**
 *    (lib/payments/webhooks.ts): a correctly signed event gets 2xx, also for an object we never
 *    saw and for a redelivery; a wrong or stale signature gets 400 and changes nothing.
 * 6. **Card data never touches our server**: the checkout collects it with the processor's own
 *    script, straight to the processor; we keep brand, last 4 and expiry as the processor reports.
 * 7. **Declines in plain words**: `error.code` is one of the API family's payment error codes
 *    (`PaymentErrorCode`), `error.message` what the customer and merchant read.
 *
 * What a second processor implements: `ProcessorPayments` below, plus the webhook verification in
 * lib/payments/webhooks.ts, and a value of `PaymentProcessorName`.
 */
import type { CardDetails, PaymentErrorCode, PaymentMethodType } from "../billing/payments.ts";

export type { PaymentErrorCode };

/** The payment method as the processor reports it (never the card number). */
export interface ProcessorMethod {
  /** The processor's ID of the method (Stripe: pm_…). */
  reference: string;
  type: PaymentMethodType;
  card: CardDetails | null;
}

/**
 * What the payment settled into at the processor, in the payout currency (Stripe: the balance
 * transaction of the charge): the fee the processor took and the exchange rate it used.
 */
export interface ProcessorSettlement {
  currencyCode: string;
  /** The gross amount in the payout currency, minor units. */
  amount: bigint;
  fee: bigint;
  /** Payout currency per unit of the payment's currency, a decimal string; "1" when the same. */
  exchangeRate: string;
}

export type ProcessorPaymentStatus =
  /** Captured: the money is the merchant's. */
  | "succeeded"
  /** The customer must act (3-D Secure): only on-session, at the checkout or the portal. */
  | "requires_action"
  /** Under way at the processor (some methods take days): settle later, from the webhook. */
  | "processing"
  /** Declined or failed; may be tried again with another method. */
  | "failed"
  | "canceled";

/** A payment's state at the processor (a confirmation's answer, a webhook, reconciliation). */
export interface ProcessorPayment {
  status: ProcessorPaymentStatus;
  /** The processor's ID of the payment (Stripe: pi_…). */
  reference: string;
  /** The processor's ID of the captured charge (Stripe: ch_…), for refunds and its dashboard. */
  charge: string | null;
  /** Minor units and upper-case currency, as asked. */
  amount: bigint;
  currencyCode: string;
  method: ProcessorMethod | null;
  settlement: ProcessorSettlement | null;
  error: { code: PaymentErrorCode; processorCode: string | null; message: string } | null;
  /** What the attempt was for (our metadata): the attempt's ID, the transaction's. */
  attemptId: string | null;
  transactionId: string | null;
}

/** A refund at the processor: pending until it confirms, then succeeded or failed. */
export interface ProcessorRefund {
  reference: string;
  status: "pending" | "succeeded" | "failed" | "canceled";
  amount: bigint;
  failureReason: string | null;
}
