/**
 * Payments, pure: card checks, the sandbox's test cards, the shape of a payment attempt, the
 * details of a completed transaction, what a credit balance pays of a bill, and an invoice's ID and
 * due date. No database, no HTTP.
 */
import { addInterval, type CalendarInterval } from "./billing-dates.ts";
import { formatAmount } from "./money.ts";
import {
  type FeeConfig,
  type PayoutTotals,
  payoutTotals,
  type SettlementLike,
  settledPayoutTotals,
  type TransactionTotals,
} from "./totals.ts";

// ---------------------------------------------------------------------------------------------
// Cards

/** The digits of a card number as typed: spaces and dashes between groups are allowed. */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, "");
}

/** The Luhn check of a card number (digits only). */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    total += digit;
  }
  return total % 10 === 0;
}

/** The card scheme a number belongs to, by its leading digits (the API family's `card.type` values). */
export function cardType(digits: string): string {
  if (/^4/.test(digits)) return "visa";
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "american_express";
  if (/^(6011|65|64[4-9])/.test(digits)) return "discover";
  if (/^35(2[89]|[3-8]\d)/.test(digits)) return "jcb";
  if (/^(62|81)/.test(digits)) return "union_pay";
  if (/^3(0[0-5]|[689])/.test(digits)) return "diners_club";
  if (/^(5018|5020|5038|56|57|58|6304|67)/.test(digits)) return "maestro";
  return "unknown";
}

/** An expiry `MM/YY` (or `MM/YYYY`) as month and four-digit year; null when not shaped so. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const [, monthText, yearText] = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text) ?? [];
  if (monthText === undefined || yearText === undefined) return null;
  const month = Number(monthText);
  if (month < 1 || month > 12) return null;
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  return { month, year };
}

/** A card is usable through the last day of its expiry month (UTC). */
export function expired(expiry: { month: number; year: number }, now: Date): boolean {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return expiry.year < year || (expiry.year === year && expiry.month < month);
}

/**
 * Why the sandbox declines a card: the codes a payment's `error_code` takes, from the API family's
 * list (`not_enough_balance` is its insufficient funds; payments stored before were written
 * `insufficient_funds`, which lib/db/entities/transaction.ts reads as `not_enough_balance`).
 */
export type DeclineCode = "declined" | "not_enough_balance";

/**
 * The API family's payment error codes (`payments[].error_code`) that a processor's decline maps
 * to (lib/payments/stripe.ts). The sandbox uses two of them (DeclineCode).
 */
export type PaymentErrorCode =
  | "authentication_failed"
  | "blocked_card"
  | "canceled"
  | "declined"
  | "declined_not_retryable"
  | "expired_card"
  | "fraud"
  | "invalid_amount"
  | "invalid_payment_details"
  | "issuer_unavailable"
  | "not_enough_balance"
  | "psp_error"
  | "system_error"
  | "transaction_not_permitted"
  | "unknown";

/**
 * The sandbox's test cards (shown on the checkout page). Any other Luhn-valid number succeeds, as
 * in the sandbox of the API family.
 */
export const TEST_CARDS: readonly { number: string; outcome: "success" | DeclineCode; label: string }[] = [
  { number: "4242 4242 4242 4242", outcome: "success", label: "Succeeds" },
  { number: "4000 0000 0000 0002", outcome: "declined", label: "Declined" },
  { number: "4000 0000 0000 9995", outcome: "not_enough_balance", label: "Declined: insufficient funds" },
  {
    number: "4000 0000 0000 0341",
    outcome: "success",
    label: "Succeeds now; later charges of the saved card are declined",
  },
];

/** The test card whose saved copy declines every later charge (renewals, retries: to try dunning). */
const DECLINES_LATER = new Set([cardDigits("4000 0000 0000 0341")]);

/** What later charges of a card saved at checkout do, in the sandbox. */
export function sandboxRenewalBehavior(digits: string): "pays" | "declines_renewals" {
  return DECLINES_LATER.has(digits) ? "declines_renewals" : "pays";
}

const DECLINES = new Map<string, DeclineCode>(
  TEST_CARDS.filter((card) => card.outcome !== "success").map((card) => [
    cardDigits(card.number),
    card.outcome as DeclineCode,
  ]),
);

/** What the sandbox does with a card number: null to capture, or the decline's code. */
export function sandboxDecline(digits: string): DeclineCode | null {
  return DECLINES.get(digits) ?? null;
}

/**
 * Every payment error code in plain words: what the customer is told (checkout, portal, emails)
 * and how the merchant reads it (dashboard). A processor may know better (lib/payments/stripe.ts
 * declineMessage reads Stripe's finer decline codes); this is what the code alone says.
 */
export const PAYMENT_ERRORS: Record<DeclineCode | PaymentErrorCode, { customer: string; merchant: string }> = {
  declined: {
    customer: "The card was declined by the bank. Try another card.",
    merchant: "Declined by the card's bank",
  },
  declined_not_retryable: {
    customer: "The card was declined by the bank and cannot be charged again. Use another card.",
    merchant: "Declined by the card's bank; retrying will not help",
  },
  not_enough_balance: {
    customer: "The card was declined for insufficient funds. Try another card.",
    merchant: "Declined: insufficient funds",
  },
  authentication_failed: {
    customer: "The payment was not confirmed with the bank (3-D Secure). Try again, or use another card.",
    merchant: "The cardholder did not confirm the payment (3-D Secure)",
  },
  blocked_card: {
    customer: "The card was declined by the bank. Use another card.",
    merchant: "Card blocked (lost, stolen or restricted)",
  },
  canceled: { customer: "The payment was canceled.", merchant: "Canceled" },
  expired_card: { customer: "The card has expired. Use another card.", merchant: "Card expired" },
  fraud: { customer: "The card was declined by the bank. Use another card.", merchant: "Declined as suspected fraud" },
  invalid_amount: {
    customer: "This amount cannot be paid by card. Contact the seller.",
    merchant: "Amount refused by the processor (below its minimum or above its maximum)",
  },
  invalid_payment_details: {
    customer: "The card details are incorrect. Check them and try again.",
    merchant: "Card details incorrect",
  },
  issuer_unavailable: {
    customer: "The card's bank could not be reached. Try again in a few minutes.",
    merchant: "The card's bank could not be reached",
  },
  psp_error: {
    customer: "The payment could not be processed. Try again in a few minutes.",
    merchant: "Processor error",
  },
  system_error: {
    customer: "The payment could not be processed. Try again in a few minutes.",
    merchant: "System error",
  },
  transaction_not_permitted: {
    customer: "The card does not support this purchase. Use another card.",
    merchant: "The card does not allow this kind of payment",
  },
  unknown: { customer: "The payment could not be taken. Try another card.", merchant: "Failed for an unknown reason" },
};

/** What a customer is told for each decline of the sandbox's test cards. */
export const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  declined: PAYMENT_ERRORS.declined.customer,
  not_enough_balance: PAYMENT_ERRORS.not_enough_balance.customer,
};

// ---------------------------------------------------------------------------------------------
// Payment attempts (the API family's shape of an entry of `payments`)

export type PaymentMethodType = "card" | "offline" | "wire_transfer";

export interface CardDetails {
  type: string;
  last4: string;
  expiry_month: number;
  expiry_year: number;
  cardholder_name: string;
}

export interface Payment {
  payment_attempt_id: string;
  /** A UUID, or the saved payment method's `paymtd_` ID (the family's deprecated field). */
  stored_payment_method_id: string;
  /** The saved payment method's `paymtd_` ID (the family's field since 2024-01), null for a method not saved. */
  payment_method_id: string | null;
  amount: string;
  status: "captured" | "error";
  /** DeclineCode in the sandbox; any of the family's codes from a processor (lib/payments/processor.ts). */
  error_code: DeclineCode | PaymentErrorCode | null;
  /**
   * `underlying_details`: null, as no method here has any (the family fills it for methods with
   * several options, like korea_local). `reference`: ours, on payments the merchant records
   * (offline, wire transfer) when given.
   */
  method_details: {
    type: PaymentMethodType;
    underlying_details: null;
    card: CardDetails | null;
    reference?: string | null;
  };
  created_at: string;
  captured_at: string | null;
}

// ---------------------------------------------------------------------------------------------
// Completion

/** `details` as far as completion changes it (the rest is carried over untouched). */
export interface CompletableDetails {
  totals: TransactionTotals;
  adjusted_totals?: Record<string, unknown> & { fee?: string | null; earnings?: string | null };
  payout_totals: unknown;
  adjusted_payout_totals?: unknown;
}

/**
 * The details of a transaction completed by a payment of its grand total: the fee and earnings
 * (lib/billing/totals.ts payoutTotals, the one fee rule) in `totals`, in `adjusted_totals` and in
 * `payout_totals`; nothing is left to pay, so `balance` is 0. `adjusted_payout_totals` stays null
 * until an adjustment is approved, as the API family sends it (the caller recomputes the adjusted
 * totals from the approved adjustments, lib/services/adjustments/adjusted-totals.ts withAdjustedTotals: a credited
 * invoice has some already).
 */
export function completedDetails<D extends CompletableDetails>(details: D, fees: FeeConfig): D {
  const payout: PayoutTotals = { ...payoutTotals(details.totals, fees), balance: "0" };
  return {
    ...details,
    totals: { ...details.totals, balance: "0", fee: payout.fee, earnings: payout.earnings },
    adjusted_totals: details.adjusted_totals && {
      ...details.adjusted_totals,
      fee: payout.fee,
      earnings: payout.earnings,
    },
    payout_totals: payout,
    adjusted_payout_totals: null,
  };
}

/**
 * completedDetails for a payment whose fee and conversion the processor reports (Stripe's balance
 * transaction: lib/billing/totals.ts settledPayoutTotals), instead of the sandbox's fee rule.
 */
export function settledDetails<D extends CompletableDetails>(details: D, settlement: SettlementLike): D {
  const { payout, fee, earnings } = settledPayoutTotals(details.totals, settlement);
  const payoutTotals: PayoutTotals = { ...payout, balance: "0" };
  return {
    ...details,
    totals: { ...details.totals, balance: "0", fee: formatAmount(fee), earnings: formatAmount(earnings) },
    adjusted_totals: details.adjusted_totals && {
      ...details.adjusted_totals,
      fee: formatAmount(fee),
      earnings: formatAmount(earnings),
    },
    payout_totals: payoutTotals,
    adjusted_payout_totals: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Credit balances

/**
 * What a customer's available credit pays of a bill whose total is `total`: as much of it as the
 * credit covers, nothing for a bill that owes nothing (a negative total adds to the balance instead).
 */
export function creditTaken(available: bigint, total: bigint): bigint {
  if (total <= 0n) return 0n;
  return available < total ? available : total;
}

// ---------------------------------------------------------------------------------------------
// Invoices

/** The `inv_` ID of the invoice of transaction `transactionId`: the same body as the `txn_` ID. */
export function invoiceIdOf(transactionId: string): string {
  return `inv_${transactionId.slice(transactionId.indexOf("_") + 1)}`;
}

export type TermsInterval = CalendarInterval;

/**
 * When a billed invoice is due: `billed_at` plus its payment terms, by calendar arithmetic (a month
 * after 31 January is the last day of February).
 */
export function dueDate(billedAt: Date, terms: { interval: TermsInterval; frequency: number }): Date {
  return addInterval(billedAt, terms.interval, terms.frequency);
}

/**
 * When the invoice of a transaction billed at `billedAt` falls due: dueDate with the payment terms
 * of its `billing_details`, or null without terms. Its SQL twin is INVOICE_DUE_AT
 * (lib/services/payments/past-due.ts); lib/services/payments/invoice-due-at.test.ts holds the two
 * together.
 */
export function invoiceDueDate(billedAt: Date | string, billingDetails: unknown): Date | null {
  const terms = (billingDetails as { payment_terms?: { interval: TermsInterval; frequency: number } | null } | null)
    ?.payment_terms;
  return terms ? dueDate(new Date(billedAt), terms) : null;
}
