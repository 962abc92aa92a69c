/**
 * The dashboard's side of payments: marking a manual invoice paid (POST
 * /transactions/{id}/mark-paid) and how a payment attempt reads in the payments table.
 */
import { PAYMENT_ERRORS, type Payment } from "../billing/payments.ts";
import type { MARK_PAID_METHODS } from "../schemas/payment.ts";
import type { PaymentAttemptView } from "../schemas/payment-attempt.ts";
import type { Transaction } from "../schemas/transaction.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, useEntity, useSave } from "./hooks.ts";
import { transactionKeys } from "./transactions.ts";

export type { Payment, PaymentAttemptView };
export type MarkPaidMethod = (typeof MARK_PAID_METHODS)[number];

export const MARK_PAID_METHOD_LABELS: Record<MarkPaidMethod, string> = {
  offline: "Offline (cash, cheque, other)",
  wire_transfer: "Wire transfer",
};

/** Marks the invoice paid; the transaction's page and every list reload. */
export function useMarkPaid(id: string) {
  return useSave(
    async (input: { method: MarkPaidMethod; reference: string | null }) =>
      (
        await api<EntityResponse<Transaction>>(`/transactions/${enc(id)}/mark-paid`, {
          method: "POST",
          body: input.reference ? input : { method: input.method },
        })
      ).data,
    () => [transactionKeys.lists, transactionKeys.detail(id)],
  );
}

const METHOD_NAMES: Record<string, string> = {
  card: "Card",
  offline: "Offline",
  wire_transfer: "Wire transfer",
};

/** "Visa •••• 4242", "Wire transfer · REF-1": the method of a payment attempt as a person reads it. */
export function paymentMethodText(payment: Partial<Payment>): string {
  const details = payment.method_details;
  if (!details) return "—";
  const card = details.card;
  if (details.type === "card" && card) {
    const scheme = card.type
      .split("_")
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(" ");
    return `${scheme === "Unknown" ? "Card" : scheme} •••• ${card.last4}`;
  }
  const name = METHOD_NAMES[details.type] ?? details.type;
  return details.reference ? `${name} · ${details.reference}` : name;
}

/** Why an attempt failed, in words for the merchant; null for a captured payment. */
export function paymentErrorText(payment: Partial<Payment>): string | null {
  if (!payment.error_code) return null;
  return PAYMENT_ERRORS[payment.error_code]?.merchant ?? payment.error_code.replace(/_/g, " ");
}

/**
 * The transaction's attempts at the payment processor (Stripe), under the transaction's key so
 * that a payment made or marked reloads them with the transaction.
 */
export function usePaymentAttempts(transactionId: string) {
  return useEntity<PaymentAttemptView[]>(
    [...transactionKeys.detail(transactionId), "payment-attempts"],
    `/transactions/${enc(transactionId)}/payment-attempts`,
  );
}

const ATTEMPT_KIND_NAMES: Record<PaymentAttemptView["kind"], string> = {
  checkout: "Checkout",
  off_session: "Saved method charged",
  setup: "Method saved",
};

export function attemptKindText(kind: PaymentAttemptView["kind"]): string {
  return ATTEMPT_KIND_NAMES[kind];
}
