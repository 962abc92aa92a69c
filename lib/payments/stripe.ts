/**
 * The `stripe` processor (lib/payments/processor.ts states the rules it keeps): the calls the
 * checkout, renewals, refunds and the webhooks make to Stripe through the official package, and
 * the translation of Stripe's objects into ours. Nothing here opens a database transaction or is
 * called inside one: callers record an attempt first (lib/payments/attempts.ts) and settle after.
 */
import { createHash } from "node:crypto";
import type Stripe from "stripe";
import { type CardDetails, PAYMENT_ERRORS, type PaymentMethodType } from "../billing/payments.ts";
import { query, queryExactlyOne } from "../db/sql.ts";
import type { PaymentErrorCode, ProcessorMethod, ProcessorPayment, ProcessorSettlement } from "./processor.ts";
import { loadStripeConfiguration, type StripeSettings, stripeClient } from "./stripe-config.ts";

/** The active Stripe processor: its settings, the client, and the account the keys belong to. */
export interface StripeContext {
  settings: StripeSettings;
  stripe: Stripe;
  /** Stripe's acct_ ID: customers and saved methods belong to one account. */
  account: string;
}

const accounts = new Map<string, string>();

/**
 * The Stripe processor when Stripe keys are configured and usable, else null (the sandbox
 * processor takes payments). Read fresh on every call, as lib/payments/stripe-config.ts says; the
 * account's ID is asked of Stripe once per settings version.
 */
export async function activeStripe(): Promise<StripeContext | null> {
  const configuration = await loadStripeConfiguration();
  const settings = configuration?.usable;
  if (!settings) return null;
  const stripe = stripeClient(settings);
  let account = accounts.get(settings.version);
  if (!account) {
    account = (await stripe.accounts.retrieveCurrent()).id;
    accounts.set(settings.version, account);
  }
  return { settings, stripe, account };
}

/** Whether payments go through Stripe now (configured keys, usable), without calling Stripe. */
export async function stripeActive(): Promise<boolean> {
  return Boolean((await loadStripeConfiguration())?.usable);
}

/**
 * The idempotency key of one step of one attempt (`create`, `confirm`, `refund`…): the same step
 * of the same attempt is the same request at Stripe, whoever retries it. Stripe keeps keys 24 hours.
 */
export function idempotencyKey(attemptId: string, step: string): string {
  return `billing:${attemptId}:${step}`;
}

/** A stable UUID derived from text (a failed charge's ID → its `payment_attempt_id`). */
export function derivedUuid(text: string): string {
  const hex = createHash("sha256").update(text).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex.charAt(16), 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function stripeCurrency(code: string): string {
  return code.toLowerCase();
}

/**
 * The Stripe customer of our customer at this account, created once (its idempotency key is the
 * customer's and account's: two processes creating it at once create one) and linked in
 * `processor_customers`.
 */
export async function stripeCustomerFor(ctx: StripeContext, customerId: string): Promise<string> {
  const [linked] = await query<{ reference: string }>(
    "SELECT reference FROM processor_customers WHERE customer_id = $1 AND processor = 'stripe' AND processor_account = $2",
    [customerId, ctx.account],
  );
  if (linked) return linked.reference;
  const [customer] = await query<{ email: string; name: string | null }>(
    "SELECT email, name FROM customers WHERE id = $1",
    [customerId],
  );
  const created = await ctx.stripe.customers.create(
    {
      email: customer?.email,
      name: customer?.name ?? undefined,
      metadata: { customer_id: customerId },
    },
    { idempotencyKey: `billing:customer:${customerId}:${ctx.account}` },
  );
  const row = await queryExactlyOne<{ reference: string }>(
    `INSERT INTO processor_customers (customer_id, processor, processor_account, reference)
     VALUES ($1, 'stripe', $2, $3)
     ON CONFLICT (customer_id, processor, processor_account) DO UPDATE SET reference = processor_customers.reference
     RETURNING reference`,
    [customerId, ctx.account, created.id],
  );
  return row.reference;
}

/** The expansions a PaymentIntent is read with, so that paymentOfIntent has what it needs. */
export const INTENT_EXPAND = ["latest_charge.balance_transaction", "payment_method"];

/**
 * An off-session charge's expansions: the saved method is ours already, and the charge carries its
 * brand, last 4 and expiry (methodOfCharge); without the method the answer is a third smaller.
 */
export const OFF_SESSION_EXPAND = ["latest_charge.balance_transaction"];

/**
 * Calls the `stripe` package without its call-site capture. The package takes `new Error().stack`
 * on every request (to decorate its errors with the caller's place); with source maps on, as tsx
 * runs the server, formatting that stack cost ~0.2 ms of CPU per request, a fifth of a renewal's
 * Node time in the renewals bench. Our errors say what failed without it.
 */
export function withoutCallSite<T>(call: () => Promise<T>): Promise<T> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return call();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** A PaymentIntent's state at Stripe, read now (the confirmation's check, reconciliation, webhooks). */
export async function readIntent(ctx: StripeContext, reference: string): Promise<ProcessorPayment> {
  const intent = await ctx.stripe.paymentIntents.retrieve(reference, { expand: INTENT_EXPAND });
  return paymentOfIntent(intent);
}

/** Stripe's card brands as the API family's `card.type`. */
const BRANDS: Record<string, string> = {
  visa: "visa",
  mastercard: "mastercard",
  amex: "american_express",
  discover: "discover",
  jcb: "jcb",
  unionpay: "union_pay",
  diners: "diners_club",
  cartes_bancaires: "visa",
};

/** A Stripe PaymentMethod as ours: the type and, for a card, brand, last 4, expiry, holder. */
export function methodOf(method: Stripe.PaymentMethod): ProcessorMethod {
  const card: CardDetails | null = method.card
    ? {
        type: BRANDS[method.card.brand] ?? "unknown",
        last4: method.card.last4,
        expiry_month: method.card.exp_month,
        expiry_year: method.card.exp_year,
        cardholder_name: method.billing_details?.name ?? "",
      }
    : null;
  const types: Record<string, PaymentMethodType> = { card: "card" };
  return { reference: method.id, type: types[method.type] ?? "card", card };
}

/**
 * The method a charge was made with, from the charge alone (a PaymentIntent read without its
 * payment_method expanded, as off-session charges are): brand, last 4 and expiry are on the charge.
 */
function methodOfCharge(
  charge: Stripe.Charge,
  paymentMethod: Stripe.PaymentIntent["payment_method"],
): ProcessorMethod | null {
  const details = charge.payment_method_details?.card;
  const reference = typeof paymentMethod === "string" ? paymentMethod : (charge.payment_method ?? null);
  if (!details || !reference) return null;
  return {
    reference,
    type: "card",
    card: {
      type: BRANDS[details.brand ?? ""] ?? "unknown",
      last4: details.last4 ?? "",
      expiry_month: details.exp_month,
      expiry_year: details.exp_year,
      cardholder_name: charge.billing_details?.name ?? "",
    },
  };
}

/** The balance transaction of a charge as our settlement: payout currency, fee, exchange rate. */
export function settlementOf(balance: Stripe.BalanceTransaction | string | null): ProcessorSettlement | null {
  if (!balance || typeof balance === "string") return null;
  return {
    currencyCode: balance.currency.toUpperCase(),
    amount: BigInt(balance.amount),
    fee: BigInt(balance.fee),
    exchangeRate: balance.exchange_rate === null ? "1" : String(balance.exchange_rate),
  };
}

/**
 * A PaymentIntent (read with INTENT_EXPAND) as our ProcessorPayment. A PaymentIntent back at
 * `requires_payment_method` after a try is a failure (declined, or 3-D Secure failed): it can be
 * tried again with another card, as the checkout does.
 */
export function paymentOfIntent(intent: Stripe.PaymentIntent): ProcessorPayment {
  const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
  const rawMethod =
    typeof intent.payment_method === "object" && intent.payment_method !== null ? intent.payment_method : null;
  const lastError = intent.last_payment_error;
  const status: ProcessorPayment["status"] =
    intent.status === "succeeded"
      ? "succeeded"
      : intent.status === "processing"
        ? "processing"
        : intent.status === "canceled"
          ? "canceled"
          : intent.status === "requires_action" || intent.status === "requires_confirmation"
            ? "requires_action"
            : lastError
              ? "failed"
              : "requires_action";
  const errorMethod =
    lastError?.payment_method && typeof lastError.payment_method === "object" ? lastError.payment_method : null;
  const method = rawMethod
    ? methodOf(rawMethod)
    : errorMethod
      ? methodOf(errorMethod)
      : charge
        ? methodOfCharge(charge, intent.payment_method)
        : null;
  if (method?.card && charge?.payment_method_details?.card) {
    const details = charge.payment_method_details.card;
    method.card = {
      ...method.card,
      type: BRANDS[details.brand ?? ""] ?? method.card.type,
      last4: details.last4 ?? method.card.last4,
    };
  }
  return {
    status,
    reference: intent.id,
    charge: charge?.id ?? (typeof intent.latest_charge === "string" ? intent.latest_charge : null),
    amount: BigInt(intent.amount),
    currencyCode: intent.currency.toUpperCase(),
    method,
    settlement: status === "succeeded" ? settlementOf(charge?.balance_transaction ?? null) : null,
    error:
      status === "failed" && lastError
        ? {
            code: familyErrorCode(lastError.code ?? null, lastError.decline_code ?? null),
            processorCode: lastError.decline_code ?? lastError.code ?? null,
            message: declineMessage(lastError.code ?? null, lastError.decline_code ?? null),
          }
        : status === "canceled"
          ? {
              code: "canceled",
              processorCode: intent.cancellation_reason ?? null,
              message: "The payment was canceled.",
            }
          : null,
    attemptId: intent.metadata?.attempt_id ?? null,
    transactionId: intent.metadata?.transaction_id ?? null,
  };
}

/** A Stripe error (an API call refused) as a failed ProcessorPayment of `reference`, when it is a card's failure. */
export function failureOfError(
  error: unknown,
  fallback: { reference: string; amount: bigint; currencyCode: string; attemptId: string; transactionId: string },
): ProcessorPayment | null {
  const e = error as { type?: string; code?: string; decline_code?: string; payment_intent?: Stripe.PaymentIntent };
  if (e?.type !== "StripeCardError" && e?.code !== "authentication_required") return null;
  if (e.payment_intent && typeof e.payment_intent === "object") {
    const payment = paymentOfIntent(e.payment_intent);
    if (payment.status === "failed") return payment;
  }
  return {
    status: "failed",
    reference: e.payment_intent?.id ?? fallback.reference,
    charge: null,
    amount: fallback.amount,
    currencyCode: fallback.currencyCode,
    method: null,
    settlement: null,
    error: {
      code: familyErrorCode(e.code ?? null, e.decline_code ?? null),
      processorCode: e.decline_code ?? e.code ?? null,
      message: declineMessage(e.code ?? null, e.decline_code ?? null),
    },
    attemptId: fallback.attemptId,
    transactionId: fallback.transactionId,
  };
}

// ---------------------------------------------------------------------------------------------
// Declines in plain words (Stripe's codes: docs.stripe.com/declines/codes)

/**
 * Stripe's error and decline codes as the family's codes; `message` only where Stripe's code says
 * more than the family's (else PAYMENT_ERRORS' words for the code).
 */
const DECLINES: Record<string, { code: PaymentErrorCode; message?: string }> = {
  authentication_required: {
    code: "authentication_failed",
    message: "The bank asks the cardholder to confirm this payment (3-D Secure). Pay again to confirm it.",
  },
  payment_intent_authentication_failure: { code: "authentication_failed" },
  insufficient_funds: { code: "not_enough_balance" },
  expired_card: { code: "expired_card" },
  incorrect_cvc: { code: "invalid_payment_details", message: "The card's security code is incorrect." },
  invalid_cvc: { code: "invalid_payment_details", message: "The card's security code is incorrect." },
  incorrect_number: { code: "invalid_payment_details", message: "The card number is incorrect." },
  invalid_number: { code: "invalid_payment_details", message: "The card number is incorrect." },
  invalid_expiry_month: { code: "invalid_payment_details", message: "The card's expiry month is incorrect." },
  invalid_expiry_year: { code: "invalid_payment_details", message: "The card's expiry year is incorrect." },
  lost_card: { code: "blocked_card" },
  stolen_card: { code: "blocked_card" },
  pickup_card: { code: "blocked_card" },
  restricted_card: { code: "blocked_card" },
  fraudulent: { code: "fraud" },
  merchant_blacklist: { code: "fraud" },
  do_not_honor: { code: "declined" },
  generic_decline: { code: "declined" },
  card_declined: { code: "declined" },
  do_not_try_again: { code: "declined_not_retryable" },
  card_not_supported: { code: "transaction_not_permitted" },
  currency_not_supported: {
    code: "transaction_not_permitted",
    message: "The card does not support this currency. Use another card.",
  },
  transaction_not_allowed: { code: "transaction_not_permitted" },
  issuer_not_available: { code: "issuer_unavailable" },
  processing_error: { code: "psp_error" },
  test_mode_live_card: {
    code: "invalid_payment_details",
    message: "A real card was used with Stripe test keys: use a Stripe test card.",
  },
  amount_too_small: { code: "invalid_amount" },
  amount_too_large: { code: "invalid_amount" },
};

function declineOf(code: string | null, declineCode: string | null): { code: PaymentErrorCode; message?: string } {
  return (declineCode && DECLINES[declineCode]) || (code && DECLINES[code]) || { code: "declined" };
}

/** The API family's error code for a Stripe error code and decline code. */
export function familyErrorCode(code: string | null, declineCode: string | null): PaymentErrorCode {
  return declineOf(code, declineCode).code;
}

/** What the customer and the merchant read for a Stripe error code and decline code. */
export function declineMessage(code: string | null, declineCode: string | null): string {
  const decline = declineOf(code, declineCode);
  return decline.message ?? PAYMENT_ERRORS[decline.code].customer;
}

/** Stripe's dashboard page of a payment (test-mode payments under /test). */
export function stripeDashboardUrl(reference: string, livemode: boolean): string {
  const kind = reference.startsWith("re_") ? "refunds" : reference.startsWith("dp_") ? "disputes" : "payments";
  return `https://dashboard.stripe.com/${livemode ? "" : "test/"}${kind}/${reference}`;
}
